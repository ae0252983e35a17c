from __future__ import annotations

import json
from dataclasses import replace
from functools import partial

import pytest

from bot.actions import admin, characters
from bot.actions.actor import Actor
from bot.actions.undoing import revert
from bot.errors import Change, UserError
from bot.rules import Ruleset, Severity, Track, grant_rest, inflict, new_character
from bot.rules.character import Character
from bot.storage import Store, Transaction
from tests.databases import Looker, character_of, characters_of, dump, history_of, ruleset_of
from tests.storage.conftest import ALICE, BOB, GM, GUILD, create

OWNER = Actor(user_id=GM, guild_id=GUILD, owns_guild=True)


def select(tx: Transaction, user_id: int, character_id: int) -> None:
    tx.set_active(user_id, character_id)
    tx.record("character_select", user_id, character=tx.character(character_id))


async def delete(store: Store, character: Character) -> None:
    """/character delete, by the server's owner: the owner's most recent other character becomes the
    active one."""
    assert character.id is not None
    await characters.delete(store, OWNER, character.id)


async def wound(
    store: Store, character: Character, severity: Severity = Severity.LOW, count: int = 1
) -> Character:
    character_id = character.id
    assert character_id is not None

    def work(tx: Transaction) -> Character:
        result = inflict(tx.character(character_id), Track.PHYSICAL, severity, count, note="hit", by=GM)
        saved = tx.save_character(result.character)
        tx.record("wound", GM, character=saved, details={"count": count})
        return saved

    return await store.run(GUILD, work)


async def undo(store: Store, character_id: int | None = None) -> str:
    event = await store.run(
        GUILD, lambda tx: revert(tx, GM, None if character_id is None else str(character_id))
    )
    assert event.kind == "undo" and event.undoes is not None
    return str(event.details["kind"])


async def test_undos_in_a_row_walk_back_through_history(store: Store) -> None:
    aria = await create(store, "Aria")
    aria_id = aria.id
    assert aria_id is not None
    states = [await character_of(store, GUILD, aria_id)]
    states.append(await wound(store, aria))
    states.append(await wound(store, aria, Severity.HIGH, 2))

    def rename(tx: Transaction) -> Character:
        renamed = tx.save_character(replace(tx.character(aria_id), name="Arianne", corps=3))
        tx.record("character_edit", GM, character=renamed, details={"name": "Arianne"})
        return renamed

    renamed = await store.run(GUILD, rename)
    assert await character_of(store, GUILD, aria_id) == renamed

    assert await undo(store) == "character_edit"
    assert await character_of(store, GUILD, aria_id) == states[2]
    assert await undo(store) == "wound"
    assert await character_of(store, GUILD, aria_id) == states[1]
    assert await undo(store) == "wound"
    assert await character_of(store, GUILD, aria_id) == states[0]
    assert await undo(store) == "character_create"
    with pytest.raises(UserError) as gone:
        await character_of(store, GUILD, aria_id)
    assert gone.value.message == (
        "That character does not exist in this server (any more). Pick one from "
        "the suggestions, or see /character list."
    )
    assert await store.read(GUILD, lambda r: r.active_character(ALICE)) is None
    with pytest.raises(UserError) as nothing:
        await undo(store)
    assert nothing.value.message == "There is nothing left to undo here. See /history for what was recorded."

    events, total = await history_of(store, GUILD)
    assert total == 8
    assert [e.kind for e in events] == ["undo"] * 4 + ["character_edit", "wound", "wound", "character_create"]
    assert all(e.undone for e in events[4:]) and not any(e.undone for e in events[:4])
    assert [e.undoes for e in events[:4]] == [e.id for e in reversed(events[4:])]
    assert events[0].details["character_name"] == "Aria"
    assert events[3].details == {
        "kind": "character_edit",
        "character_name": "Arianne",
        "event_details": {"name": "Arianne"},
        "event_id": events[4].id,
        "event_at": events[4].at,
        "restored": [events[4].character_id],
    }


async def test_undo_survives_closing_and_reopening(database_url: str) -> None:
    store = await Store.open(database_url)
    aria = await create(store, "Aria")
    before = await character_of(store, GUILD, aria.id or 0)
    await wound(store, aria, Severity.MID)
    await store.close()

    store = await Store.open(database_url)
    try:
        assert await undo(store) == "wound"
        assert await character_of(store, GUILD, aria.id or 0) == before
    finally:
        await store.close()
    store = await Store.open(database_url)
    try:
        assert await undo(store) == "character_create"
        assert await characters_of(store, GUILD) == []
    finally:
        await store.close()


async def test_undo_of_a_delete_brings_the_character_back_whole(store: Store) -> None:
    older = await create(store, "Older")
    aria = await create(store, "Aria", active=False)
    assert aria.id is not None and older.id is not None
    await store.run(GUILD, partial(select, user_id=ALICE, character_id=aria.id))
    aria = await wound(store, aria, Severity.LOW, 3)
    aria = await wound(store, aria, Severity.HIGH)
    assert len(aria.wounds) == 4
    assert aria.id is not None
    await delete(store, aria)
    with pytest.raises(UserError):
        await character_of(store, GUILD, aria.id)
    assert (await store.read(GUILD, lambda r: r.active_character(ALICE))) == older  # the next most recent one
    history, _ = await history_of(store, GUILD, character_id=aria.id)
    assert history[0].kind == "character_delete"  # a deleted character's history stays readable

    assert await undo(store) == "character_delete"
    back = await character_of(store, GUILD, aria.id)
    assert back == aria  # same id, same wounds with the same ids
    assert (await store.read(GUILD, lambda r: r.active_character(ALICE))) == aria
    assert [c.name for c in await characters_of(store, GUILD)] == ["Aria", "Older"]


async def test_deleting_the_last_character_clears_the_active_one(store: Store) -> None:
    aria = await create(store, "Aria")
    await delete(store, aria)
    assert await store.read(GUILD, lambda r: r.active_character(ALICE)) is None
    assert await undo(store) == "character_delete"
    assert await store.read(GUILD, lambda r: r.active_character(ALICE)) == aria


async def test_undo_of_a_create_removes_the_character(store: Store) -> None:
    first = await create(store, "First")
    second = await create(store, "Second", BOB)
    assert await undo(store) == "character_create"
    assert [c.name for c in await characters_of(store, GUILD)] == ["First"]
    assert await store.read(GUILD, lambda r: r.active_character(BOB)) is None
    assert await store.read(GUILD, lambda r: r.matching("sec")) == []
    # The name is free again.
    again = await create(store, "second", BOB)
    assert again.id != second.id
    assert (await store.read(GUILD, lambda r: r.active_character(ALICE))) == first


async def test_a_later_change_to_the_same_character_blocks_the_undo(store: Store, database_url: str) -> None:
    aria = await create(store, "Aria")
    bob = await create(store, "Bob", BOB)
    assert aria.id is not None and bob.id is not None

    def rest(tx: Transaction) -> None:  # a server-wide rest is one change
        for member in tx.characters():
            tx.save_character(grant_rest(member, 3))
        tx.record("rest", GM, details={"days": 3})

    await store.run(GUILD, rest)
    await wound(store, bob)

    before = dump(database_url)
    with pytest.raises(UserError) as blocked:
        await undo(store, aria.id)  # the latest change of Aria is the rest, which Bob's wound follows
    assert blocked.value.message == (
        "Change #{id} ({kind}), the latest one touching {name}, cannot be undone "
        "on its own: {tie} changed after "
        "it, in #{blocked_by_id} ({blocked_by}). Undo the later changes first, "
        "newest first: /undo character:{tie} reverts #{blocked_by_id}; then undo "
        "#{id}."
    )
    assert blocked.value.params["blocked_by"] == Change("wound", 1, False)
    assert blocked.value.params["kind"] == Change("rest", 2, True)  # server-wide, Aria and Bob
    assert dump(database_url) == before

    assert await undo(store, bob.id) == "wound"
    assert await undo(store, aria.id) == "rest"
    assert (await character_of(store, GUILD, aria.id)).rest_days == 0
    assert (await character_of(store, GUILD, bob.id)).rest_days == 0


async def test_undo_of_one_character_skips_the_others(store: Store) -> None:
    aria = await create(store, "Aria")
    bob = await create(store, "Bob", BOB)
    aria_wounded = await wound(store, aria)
    await wound(store, bob)
    assert await undo(store, aria.id) == "wound"
    assert (await character_of(store, GUILD, aria.id or 0)).wounds == ()
    assert len((await character_of(store, GUILD, bob.id or 0)).wounds) == 1
    assert aria_wounded.wounds  # it had one
    with pytest.raises(UserError) as unknown:
        await undo(store, 987654)
    assert unknown.value.message == (
        "That character does not exist in this server (any more). Pick one from "
        "the suggestions, or see /character list."
    )


async def test_undo_restores_the_ruleset(store: Store) -> None:
    assert (await ruleset_of(store, GUILD)).gm_role_id is None

    def configure(tx: Transaction, setting: str, **update: object) -> None:
        tx.save_ruleset(tx.ruleset().model_copy(update=update))
        tx.record("config", GM, details={"setting": setting})

    await store.run(GUILD, partial(configure, setting="gm-role", gm_role_id=77))
    assert (await ruleset_of(store, GUILD)).gm_role_id == 77
    await store.run(GUILD, partial(configure, setting="dice", open_rolls=True))
    assert await undo(store) == "config"
    assert (await ruleset_of(store, GUILD)) == Ruleset(gm_role_id=77)
    assert await undo(store) == "config"
    assert (await ruleset_of(store, GUILD)) == Ruleset()


async def test_an_invalid_ruleset_is_refused_and_stores_nothing(store: Store) -> None:
    """The settings action validates the whole ruleset once, before it is stored (storage stores what
    it is given): without the humanoid preset, it is refused in the user's language."""
    with pytest.raises(UserError) as refused:
        await admin.configure(store, OWNER, "preset", lambda current: {"presets": {}})
    assert refused.value.message == (
        "That setting is not valid:\n{errors}\nNothing was changed: fix the value "
        "and try again (/config show lists the current settings)."
    )
    assert await ruleset_of(store, GUILD) == Ruleset()


async def test_undo_of_a_select_restores_the_previous_active_character(store: Store) -> None:
    aria = await create(store, "Aria")
    other = await create(store, "Other")
    assert other.id is not None
    await store.run(GUILD, partial(select, user_id=ALICE, character_id=other.id))
    assert await store.read(GUILD, lambda r: r.active_character(ALICE)) == other
    assert await undo(store) == "character_select"
    assert await store.read(GUILD, lambda r: r.active_character(ALICE)) == aria


async def test_undo_refuses_to_bring_back_a_name_taken_since(store: Store, database_url: str) -> None:
    aria = await create(store, "Aria")
    await delete(store, aria)
    await create(store, "ARIA", BOB)
    before = dump(database_url)
    with pytest.raises(UserError) as refused:
        await undo(store, aria.id)
    assert refused.value.message == (
        "There is already a character called {name} in this server. Choose another name."
    )
    assert refused.value.params["name"] == "Aria"
    assert dump(database_url) == before


async def test_a_failed_unit_of_work_records_nothing(store: Store, database_url: str) -> None:
    aria = await create(store, "Aria")
    before = dump(database_url)

    def work(tx: Transaction) -> None:
        result = inflict(tx.character(aria.id or 0), Track.PHYSICAL, Severity.LOW)
        tx.record("wound", GM, character=tx.save_character(result.character))
        raise RuntimeError("a bug after the writes")

    with pytest.raises(RuntimeError):
        await store.run(GUILD, work)
    assert dump(database_url) == before


def heal_first(tx: Transaction, character_id: int) -> None:
    """A GM heals the character's first held wound outright."""
    current = tx.character(character_id)
    first = current.wounds[0]
    saved = tx.save_character(replace(current, wounds=(replace(first, current=None), *current.wounds[1:])))
    tx.record("heal_wound", GM, character=saved)


def wounds_table(url: str, character_id: int) -> list[tuple[object, ...]]:
    looker = Looker(url)
    try:
        rows = looker.execute(
            "SELECT id, current_severity, fatal FROM wounds WHERE character_id = ? ORDER BY id",
            (character_id,),
        ).fetchall()
        return [tuple(r) for r in rows]
    finally:
        looker.close()


async def test_healed_wounds_stay_out_of_loads_and_snapshots_and_undo_keeps_them(
    store: Store, database_url: str
) -> None:
    aria = await create(store, "Aria")
    aria_id = aria.id or 0
    await wound(store, aria, count=2)
    await store.run(GUILD, partial(heal_first, character_id=aria_id))
    loaded = await character_of(store, GUILD, aria_id)
    assert [w.current for w in loaded.wounds] == [Severity.LOW]  # the healed one is not loaded
    table = wounds_table(database_url, aria_id)
    assert [row[1] for row in table] == [None, 0]  # but it is kept

    await wound(store, loaded)
    events, _ = await history_of(store, GUILD, per_page=1)
    looker = Looker(database_url)
    try:
        (snapshot,) = looker.execute("SELECT snapshot FROM events WHERE id = ?", (events[0].id,)).fetchone()
    finally:
        looker.close()
    assert [w[0] for w in json.loads(snapshot)["characters"][str(aria_id)]["wounds"]] == [table[1][0]]

    assert await undo(store) == "wound"  # the new wound goes; the healed one stays healed
    assert wounds_table(database_url, aria_id) == table
    assert await character_of(store, GUILD, aria_id) == loaded
    assert await undo(store) == "heal_wound"  # and comes back when its healing is undone
    assert [row[1] for row in wounds_table(database_url, aria_id)] == [0, 0]
    assert len((await character_of(store, GUILD, aria_id)).wounds) == 2


async def test_undo_of_a_snapshot_that_lists_healed_wounds_still_works(
    store: Store, database_url: str
) -> None:
    """Snapshots written before healed wounds left the loads list them: undo puts them back as they
    were (healed) and removes only what the event added."""
    aria = await create(store, "Aria")
    aria_id = aria.id or 0
    await wound(store, aria, count=2)
    await store.run(GUILD, partial(heal_first, character_id=aria_id))
    table = wounds_table(database_url, aria_id)
    await wound(store, await character_of(store, GUILD, aria_id))
    events, _ = await history_of(store, GUILD, per_page=1)
    looker = Looker(database_url)
    try:
        (text,) = looker.execute("SELECT snapshot FROM events WHERE id = ?", (events[0].id,)).fetchone()
        snapshot = json.loads(text)
        snapshot["characters"][str(aria_id)]["wounds"] = [
            [wid, cur, bool(fatal)] for wid, cur, fatal in table
        ]
        looker.execute("UPDATE events SET snapshot = ? WHERE id = ?", (json.dumps(snapshot), events[0].id))
        looker.commit()
    finally:
        looker.close()
    assert await undo(store) == "wound"
    assert wounds_table(database_url, aria_id) == table


async def test_a_later_ruleset_change_blocks_undoing_an_import_of_one_character(store: Store) -> None:
    document = (
        b'{"format": "harmonies-wounds", "version": 1, "guild_id": %d, "ruleset": {},'
        b' "characters": [{"name": "Solo"}]}' % GUILD
    )
    await admin.import_(store, OWNER, document)
    solo = await store.read(GUILD, lambda r: r.character_by_name("solo"))

    def configure(tx: Transaction) -> None:
        tx.save_ruleset(Ruleset(open_rolls=True))
        tx.record("config", GM)

    await store.run(GUILD, configure)
    with pytest.raises(UserError) as blocked:
        await undo(store, solo.id)
    assert blocked.value.message == (
        "Change #{id} ({kind}), the latest one touching {name}, cannot be undone "
        "on its own: a later change, "
        "#{blocked_by_id} ({blocked_by}), depends on it. Undo the later changes "
        "first (/undo without a character)."
    ) and blocked.value.params["blocked_by"] == Change("config", 0, True)
    assert await undo(store) == "config"
    assert await undo(store, solo.id) == "import"
    assert await characters_of(store, GUILD) == []


async def test_conflicts_are_found_for_changes_touching_many_characters(store: Store) -> None:

    def crowd_in(tx: Transaction) -> None:
        for i in range(80):
            tx.save_character(new_character(f"NPC {i:02d}", ruleset=Ruleset()))

    def rest(tx: Transaction) -> list[Character]:  # as /rest does for the whole server
        crowd = tx.characters()
        for member in crowd:
            tx.save_character(grant_rest(member, 1))
        tx.record("rest", GM, details={"days": 1})
        return crowd

    await store.run(GUILD, crowd_in)
    crowd = await store.run(GUILD, rest)
    assert [c.rest_days for c in await characters_of(store, GUILD)] == [1] * 80
    await wound(store, crowd[-1])
    with pytest.raises(UserError) as blocked:
        await undo(store, crowd[0].id)
    assert blocked.value.message == (
        "Change #{id} ({kind}), the latest one touching {name}, cannot be undone "
        "on its own: {tie} changed after "
        "it, in #{blocked_by_id} ({blocked_by}). Undo the later changes first, "
        "newest first: /undo character:{tie} reverts #{blocked_by_id}; then undo "
        "#{id}."
    )
    assert blocked.value.params["tie"] == crowd[-1].name  # the character that ties the two changes
    assert await undo(store) == "wound"
    assert await undo(store, crowd[0].id) == "rest"
    assert [c.rest_days for c in await characters_of(store, GUILD)] == [0] * 80


async def test_a_transaction_cannot_be_used_after_its_work(store: Store) -> None:
    tx = await store.run(GUILD, lambda tx: tx)
    with pytest.raises(RuntimeError):
        tx.character(1)
