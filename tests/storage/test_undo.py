from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from bot.errors import UserError
from bot.rules import Ruleset, Severity, Track, grant_rest, inflict, new_character
from bot.rules.character import Character
from bot.storage import Store
from tests.storage.conftest import ALICE, BOB, GM, GUILD, create, dump


async def wound(
    store: Store, character: Character, severity: Severity = Severity.LOW, count: int = 1
) -> Character:
    assert character.id is not None
    async with store.transaction(GUILD) as tx:
        result = inflict(await tx.character(character.id), Track.PHYSICAL, severity, count, note="hit", by=GM)
        saved = await tx.save_character(result.character)
        await tx.record("wound", GM, character=saved, details={"count": count})
    return saved


async def undo(store: Store, character_id: int | None = None) -> str:
    async with store.transaction(GUILD) as tx:
        event = await tx.undo(GM, character_id)
    assert event.kind == "undo" and event.undoes is not None
    return str(event.details["kind"])


async def test_undos_in_a_row_walk_back_through_history(store: Store) -> None:
    aria = await create(store, "Aria")
    assert aria.id is not None
    states = [await store.character(GUILD, aria.id)]
    states.append(await wound(store, aria))
    states.append(await wound(store, aria, Severity.HIGH, 2))
    async with store.transaction(GUILD) as tx:
        renamed = await tx.save_character(replace(await tx.character(aria.id), name="Arianne", corps=3))
        await tx.record("character_edit", GM, character=renamed, details={"name": "Arianne"})
    assert await store.character(GUILD, aria.id) == renamed

    assert await undo(store) == "character_edit"
    assert await store.character(GUILD, aria.id) == states[2]
    assert await undo(store) == "wound"
    assert await store.character(GUILD, aria.id) == states[1]
    assert await undo(store) == "wound"
    assert await store.character(GUILD, aria.id) == states[0]
    assert await undo(store) == "character_create"
    with pytest.raises(UserError) as gone:
        await store.character(GUILD, aria.id)
    assert gone.value.key == "character_not_found"
    assert await store.active_character(GUILD, ALICE) is None
    with pytest.raises(UserError) as nothing:
        await undo(store)
    assert nothing.value.key == "undo_nothing"

    events, total = await store.history(GUILD)
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


async def test_undo_survives_closing_and_reopening(db_path: Path) -> None:
    store = await Store.open(str(db_path))
    aria = await create(store, "Aria")
    before = await store.character(GUILD, aria.id or 0)
    await wound(store, aria, Severity.MID)
    await store.close()

    store = await Store.open(str(db_path))
    try:
        assert await undo(store) == "wound"
        assert await store.character(GUILD, aria.id or 0) == before
    finally:
        await store.close()
    store = await Store.open(str(db_path))
    try:
        assert await undo(store) == "character_create"
        assert await store.characters(GUILD) == []
    finally:
        await store.close()


async def test_undo_of_a_delete_brings_the_character_back_whole(store: Store) -> None:
    older = await create(store, "Older")
    aria = await create(store, "Aria", active=False)
    assert aria.id is not None and older.id is not None
    async with store.transaction(GUILD) as tx:
        await tx.set_active(ALICE, aria.id)
        await tx.record("character_select", ALICE, character=await tx.character(aria.id))
    aria = await wound(store, aria, Severity.LOW, 3)
    aria = await wound(store, aria, Severity.HIGH)
    assert len(aria.wounds) == 4
    assert aria.id is not None

    async with store.transaction(GUILD) as tx:
        await tx.delete_character(await tx.character(aria.id))
        await tx.record("character_delete", GM, character=aria)
    with pytest.raises(UserError):
        await store.character(GUILD, aria.id)
    assert (await store.active_character(GUILD, ALICE)) == older  # the next most recent one
    history, _ = await store.history(GUILD, character_id=aria.id)
    assert history[0].kind == "character_delete"  # a deleted character's history stays readable

    assert await undo(store) == "character_delete"
    back = await store.character(GUILD, aria.id)
    assert back == aria  # same id, same wounds with the same ids
    assert (await store.active_character(GUILD, ALICE)) == aria
    assert [c.name for c in await store.characters(GUILD)] == ["Aria", "Older"]


async def test_deleting_the_last_character_clears_the_active_one(store: Store) -> None:
    aria = await create(store, "Aria")
    async with store.transaction(GUILD) as tx:
        await tx.delete_character(aria)
        await tx.record("character_delete", GM, character=aria)
    assert await store.active_character(GUILD, ALICE) is None
    assert await undo(store) == "character_delete"
    assert await store.active_character(GUILD, ALICE) == aria


async def test_undo_of_a_create_removes_the_character(store: Store) -> None:
    first = await create(store, "First")
    second = await create(store, "Second", BOB)
    assert await undo(store) == "character_create"
    assert [c.name for c in await store.characters(GUILD)] == ["First"]
    assert await store.active_character(GUILD, BOB) is None
    assert await store.search_characters(GUILD, "sec") == []
    # The name is free again.
    again = await create(store, "second", BOB)
    assert again.id != second.id
    assert (await store.active_character(GUILD, ALICE)) == first


async def test_a_later_change_to_the_same_character_blocks_the_undo(store: Store, db_path: Path) -> None:
    aria = await create(store, "Aria")
    bob = await create(store, "Bob", BOB)
    assert aria.id is not None and bob.id is not None
    async with store.transaction(GUILD) as tx:  # a server-wide rest is one change
        for member in await store.characters(GUILD):
            assert member.id is not None
            await tx.save_character(grant_rest(await tx.character(member.id), 3))
        await tx.record("rest", GM, details={"days": 3})
    await wound(store, bob)

    before = dump(db_path)
    with pytest.raises(UserError) as blocked:
        await undo(store, aria.id)  # the latest change of Aria is the rest, which Bob's wound follows
    assert blocked.value.key == "undo_blocked"
    assert blocked.value.params["blocked_by"] == "wound"
    assert blocked.value.params["kind"] == "rest"
    assert dump(db_path) == before

    assert await undo(store, bob.id) == "wound"
    assert await undo(store, aria.id) == "rest"
    assert (await store.character(GUILD, aria.id)).rest_days == 0
    assert (await store.character(GUILD, bob.id)).rest_days == 0


async def test_undo_of_one_character_skips_the_others(store: Store) -> None:
    aria = await create(store, "Aria")
    bob = await create(store, "Bob", BOB)
    aria_wounded = await wound(store, aria)
    await wound(store, bob)
    assert await undo(store, aria.id) == "wound"
    assert (await store.character(GUILD, aria.id or 0)).wounds == ()
    assert len((await store.character(GUILD, bob.id or 0)).wounds) == 1
    assert aria_wounded.wounds  # it had one
    with pytest.raises(UserError) as unknown:
        await undo(store, 987654)
    assert unknown.value.key == "character_not_found"


async def test_undo_restores_the_ruleset(store: Store) -> None:
    assert (await store.ruleset(GUILD)).gm_role_id is None
    async with store.transaction(GUILD) as tx:
        await tx.save_ruleset((await tx.ruleset()).model_copy(update={"gm_role_id": 77}))
        await tx.record("config", GM, details={"setting": "gm-role"})
    assert (await store.ruleset(GUILD)).gm_role_id == 77
    async with store.transaction(GUILD) as tx:
        await tx.save_ruleset((await tx.ruleset()).model_copy(update={"open_rolls": True}))
        await tx.record("config", GM, details={"setting": "dice"})
    assert await undo(store) == "config"
    assert (await store.ruleset(GUILD)) == Ruleset(gm_role_id=77)
    assert await undo(store) == "config"
    assert (await store.ruleset(GUILD)) == Ruleset()


async def test_invalid_ruleset_is_refused(store: Store) -> None:
    broken = Ruleset().model_copy(update={"presets": {}})
    with pytest.raises(UserError) as refused:
        async with store.transaction(GUILD) as tx:
            await tx.save_ruleset(broken)
    assert refused.value.key == "ruleset_invalid"
    assert await store.ruleset(GUILD) == Ruleset()


async def test_undo_of_a_select_restores_the_previous_active_character(store: Store) -> None:
    aria = await create(store, "Aria")
    other = await create(store, "Other")
    assert other.id is not None
    async with store.transaction(GUILD) as tx:
        await tx.set_active(ALICE, other.id)
        await tx.record("character_select", ALICE, character=await tx.character(other.id))
    assert await store.active_character(GUILD, ALICE) == other
    assert await undo(store) == "character_select"
    assert await store.active_character(GUILD, ALICE) == aria


async def test_undo_refuses_to_bring_back_a_name_taken_since(store: Store, db_path: Path) -> None:
    aria = await create(store, "Aria")
    async with store.transaction(GUILD) as tx:
        await tx.delete_character(aria)
        await tx.record("character_delete", GM, character=aria)
    await create(store, "ARIA", BOB)
    before = dump(db_path)
    with pytest.raises(UserError) as refused:
        await undo(store, aria.id)
    assert refused.value.key == "name_taken"
    assert refused.value.params["name"] == "Aria"
    assert dump(db_path) == before


async def test_a_rolled_back_transaction_records_nothing(store: Store, db_path: Path) -> None:
    aria = await create(store, "Aria")
    before = dump(db_path)
    with pytest.raises(RuntimeError):
        async with store.transaction(GUILD) as tx:
            result = inflict(await tx.character(aria.id or 0), Track.PHYSICAL, Severity.LOW)
            await tx.record("wound", GM, character=await tx.save_character(result.character))
            raise RuntimeError("Discord went away before the commit")
    assert dump(db_path) == before


async def test_a_later_ruleset_change_blocks_undoing_an_import_of_one_character(store: Store) -> None:
    document = (
        b'{"format": "harmonies-wounds", "version": 1, "guild_id": %d, "ruleset": {},'
        b' "characters": [{"name": "Solo"}]}' % GUILD
    )
    async with store.transaction(GUILD) as tx:
        await tx.import_guild(document, GM)
    solo = await store.character_by_name(GUILD, "solo")
    async with store.transaction(GUILD) as tx:
        await tx.save_ruleset(Ruleset(open_rolls=True))
        await tx.record("config", GM)
    with pytest.raises(UserError) as blocked:
        await undo(store, solo.id)
    assert blocked.value.key == "undo_blocked" and blocked.value.params["blocked_by"] == "config"
    assert await undo(store) == "config"
    assert await undo(store, solo.id) == "import"
    assert await store.characters(GUILD) == []


async def test_conflicts_are_found_for_changes_touching_many_characters(store: Store) -> None:
    async with store.transaction(GUILD) as tx:
        for i in range(80):
            await tx.save_character(new_character(f"NPC {i:02d}", ruleset=Ruleset()))
    async with store.transaction(GUILD) as tx:  # as /rest does for the whole server
        crowd = await tx.characters()
        for member in crowd:
            await tx.save_character(grant_rest(member, 1))
        await tx.record("rest", GM, details={"days": 1})
    assert [c.rest_days for c in await store.characters(GUILD)] == [1] * 80
    await wound(store, crowd[-1])
    with pytest.raises(UserError) as blocked:
        await undo(store, crowd[0].id)
    assert blocked.value.key == "undo_blocked"
    assert blocked.value.params["blocked_by_character"] == crowd[-1].name
    assert await undo(store) == "wound"
    assert await undo(store, crowd[0].id) == "rest"
    assert [c.rest_days for c in await store.characters(GUILD)] == [0] * 80


async def test_a_transaction_cannot_be_used_after_its_block(store: Store) -> None:
    async with store.transaction(GUILD) as tx:
        pass
    with pytest.raises(RuntimeError):
        await tx.character(1)
