from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from functools import partial
from typing import Any

import pytest

from bot.actions.undoing import revert
from bot.errors import UserError
from bot.history import Configured, Event, Undid, details_json, record_of
from bot.interface import run
from bot.rules import Ruleset, Severity, Track, Wound, inflict, new_character
from bot.rules.character import Character
from bot.storage import Store, Transaction
from bot.storage.errors import AlreadyHandled
from tests.databases import Looker, character_of, characters_of, history_of, ruleset_of
from tests.storage.conftest import ALICE, BOB, GM, GUILD, create


async def test_save_character_returns_ids_and_writes_only_what_changed(store: Store) -> None:
    aria = await create(store, "Aria")
    aria_id = aria.id
    assert aria_id is not None and aria.guild_id == GUILD and aria.created_at

    def work(tx: Transaction) -> Character:
        hurt = inflict(
            tx.character(aria_id), Track.PHYSICAL, Severity.LOW, 3, note="n", by=GM, at="t"
        ).character
        saved = tx.save_character(hurt)
        assert all(w.id is not None for w in saved.wounds)
        assert len({w.id for w in saved.wounds}) == 3
        healed = replace(
            saved, wounds=(replace(saved.wounds[1], current=None), saved.wounds[0], saved.wounds[2])
        )
        return tx.save_character(healed)

    again = await store.run(GUILD, work)
    stored = await character_of(store, GUILD, aria_id)
    held = [w for w in again.wounds if w.held]  # the healed wound stays in the table, out of loads
    assert len(held) == 2 and [w.id for w in stored.wounds] == sorted(w.id for w in held if w.id is not None)
    assert stored.counts(Track.PHYSICAL) == (2, 0, 0)
    assert {w.id: w for w in stored.wounds} == {w.id: w for w in held}


async def test_wounds_of_another_character_cannot_be_saved(store: Store) -> None:
    aria = await create(store, "Aria")
    bob = await create(store, "Bob", BOB)
    hurt = await store.run(
        GUILD,
        lambda tx: tx.save_character(
            inflict(tx.character(aria.id or 0), Track.PHYSICAL, Severity.LOW).character
        ),
    )

    def steal(tx: Transaction) -> None:
        target = tx.character(bob.id or 0)
        tx.save_character(replace(target, wounds=hurt.wounds))

    with pytest.raises(ValueError):
        await store.run(GUILD, steal)


async def test_names_are_unique_per_server_case_insensitively(store: Store) -> None:
    await create(store, "Aria")
    bob = await create(store, "Bob", BOB)
    with pytest.raises(UserError) as taken:
        await create(store, "  ARIA ", BOB)
    assert taken.value.message == (
        "There is already a character called {name} in this server. Choose another name."
    )
    with pytest.raises(UserError) as renamed:
        await store.run(GUILD, lambda tx: tx.save_character(replace(tx.character(bob.id or 0), name="aria")))
    assert renamed.value.message == (
        "There is already a character called {name} in this server. Choose another name."
    )
    full_width = await store.read(GUILD, lambda r: r.character_by_name("ＡＲＩＡ"))  # NFKC
    assert full_width.name == "Aria"
    with pytest.raises(UserError) as missing:
        await store.read(GUILD, lambda r: r.character_by_name("Nobody"))
    assert missing.value.message == (
        "No character called {ref} in this server. Pick one from the suggestions, or see /character list."
    )


async def test_search_puts_prefix_matches_first_and_escapes_wildcards(store: Store) -> None:
    for name in ("Marianne", "Aria", "Ariel", "Zaria", "100% Pur", "a_b", "Bob"):
        await create(store, name, BOB if name == "Bob" else ALICE, active=False)

    async def names(text: str, **options: Any) -> list[str]:
        return [c.name for c in await store.read(GUILD, lambda r: r.matching(text, **options))]

    assert await names("ARI") == ["Aria", "Ariel", "Marianne", "Zaria"]
    assert await names("%") == ["100% Pur"]
    assert await names("_") == ["a_b"]
    assert await names("ari", limit=2) == ["Aria", "Ariel"]
    assert await names("", owner_id=BOB) == ["Bob"]
    assert len(await names("")) == 7
    assert await names("aria") == ["Aria", "Marianne", "Zaria"]


async def test_lists_are_ordered_by_name(store: Store) -> None:
    for name in ("zed", "Émile", "alpha", "Beta"):
        await create(store, name, ALICE if name != "Beta" else BOB)
    assert [c.name for c in await characters_of(store, GUILD)] == ["alpha", "Beta", "zed", "Émile"]


async def test_history_pages_newest_first(store: Store) -> None:
    aria = await create(store, "Aria")

    def rest(tx: Transaction, i: int) -> None:
        character = tx.character(aria.id or 0)
        tx.save_character(replace(character, rest_days=i + 1))
        tx.record("rest", GM, character=character, details={"days": i + 1})

    for i in range(24):
        await store.run(GUILD, partial(rest, i=i))
    page1, total = await history_of(store, GUILD)
    page3, _ = await history_of(store, GUILD, page=3)
    assert total == 25 and len(page1) == 10 and len(page3) == 5
    assert page1[0].details == {"days": 24}
    assert page3[-1].kind == "character_create"
    assert (await history_of(store, GUILD, page=9))[0] == []
    by_character, count = await history_of(store, GUILD, character_id=aria.id, per_page=5, page=2)
    assert count == 25 and [e.details["days"] for e in by_character] == [19, 18, 17, 16, 15]


async def test_a_settings_change_keeps_the_settings_before_it_once(store: Store, database_url: str) -> None:
    """The settings before a change are in the event's undo snapshot, not in its details too; history
    reads them from there, and events written when the details kept them too still read."""

    def change(tx: Transaction, setting: str, update: dict[str, Any], *, as_before: bool) -> None:
        before, after = tx.ruleset(), tx.ruleset().model_copy(update=update)
        tx.save_ruleset(after)
        record = Configured(setting, update, before.model_dump(mode="json"), after.model_dump(mode="json"))
        details = json.loads(details_json(record))
        if as_before:  # as versions before this one wrote it: the settings before in both places
            details["before"] = before.model_dump(mode="json")
        tx.record("config", GM, details=details)

    await store.run(GUILD, partial(change, setting="dice", update={"open_rolls": True}, as_before=False))
    await store.run(GUILD, partial(change, setting="roles", update={"gm_role_id": 5}, as_before=True))
    looker = Looker(database_url)
    try:
        rows = looker.execute("SELECT details, snapshot FROM events ORDER BY id").fetchall()
    finally:
        looker.close()
    details, snapshot = json.loads(rows[0][0]), json.loads(rows[0][1])
    assert "before" not in details and details["after"] == Ruleset(open_rolls=True).model_dump(mode="json")
    assert snapshot["ruleset"] is None  # the server had no stored settings: the defaults
    (latest, first), _ = await history_of(store, GUILD)
    dumped = [r.model_dump(mode="json") for r in (Ruleset(), Ruleset(open_rolls=True))]
    assert record_of(first) == Configured("dice", {"open_rolls": True}, *dumped)
    both = Ruleset(open_rolls=True, gm_role_id=5).model_dump(mode="json")
    assert record_of(latest) == Configured("roles", {"gm_role_id": 5}, dumped[1], both)
    for reverted in (latest, first):
        undid = record_of(await store.run(GUILD, lambda tx: revert(tx, GM)))
        assert isinstance(undid, Undid) and undid.reverted == record_of(reverted)
    assert await ruleset_of(store, GUILD) == Ruleset()


async def test_meta_values(store: Store) -> None:
    assert await store.meta("commands_hash") is None
    await store.set_meta("commands_hash", "a")
    await store.set_meta("commands_hash", "b")
    assert await store.meta("commands_hash") == "b"


async def test_the_ruleset_cache_follows_commits_and_rollbacks(store: Store) -> None:
    assert await ruleset_of(store, GUILD) == Ruleset()

    def fail(tx: Transaction) -> None:
        tx.save_ruleset(Ruleset(gm_role_id=1))
        assert tx.ruleset().gm_role_id == 1
        raise RuntimeError

    with pytest.raises(RuntimeError):
        await store.run(GUILD, fail)
    assert await ruleset_of(store, GUILD) == Ruleset()

    def change(tx: Transaction) -> None:
        tx.save_ruleset(Ruleset(gm_role_id=2))
        tx.record("config", GM)

    await store.run(GUILD, change)
    assert (await ruleset_of(store, GUILD)).gm_role_id == 2
    assert (await store.run(GUILD, Transaction.ruleset)).gm_role_id == 2


async def test_a_character_saved_in_a_transaction_is_seen_by_later_loads(store: Store) -> None:

    def work(tx: Transaction) -> tuple[Character, Event]:
        inserted = tx.save_character(new_character("Aria", ruleset=tx.ruleset(), owner_id=ALICE))
        rested = tx.save_character(replace(inserted, rest_days=4))
        assert rested.id == inserted.id and rested.created_at == inserted.created_at
        assert tx.character_by_name("aria") == rested
        assert tx.active_character(ALICE) is None
        tx.set_active(ALICE, rested.id or 0)
        assert tx.active_character(ALICE) == rested
        return rested, tx.record("character_create", GM, character=rested)

    rested, event = await store.run(GUILD, work)
    assert event.character_name == "Aria" and event.character_id == rested.id
    assert await store.read(GUILD, lambda r: r.active_character(ALICE)) == rested
    await store.run(GUILD, lambda tx: revert(tx, GM))
    assert await characters_of(store, GUILD) == []


async def test_writers_of_two_stores_on_one_database_wait_for_each_other(
    database_url: str, store: Store
) -> None:
    aria = await create(store, "Aria")
    other = await Store.open(database_url)
    try:

        def add(tx: Transaction, i: int) -> None:
            current = tx.character(aria.id or 0)
            wound = Wound(Track.MENTAL, Severity.LOW, Severity.LOW, note=str(i))
            tx.save_character(replace(current, wounds=(*current.wounds, wound)))

        await asyncio.gather(*((store if i % 2 else other).run(GUILD, partial(add, i=i)) for i in range(60)))
    finally:
        await other.close()
    assert len((await character_of(store, GUILD, aria.id or 0)).wounds) == 60


async def test_ids_of_handled_interactions_are_kept_a_day_then_dropped(
    store: Store, database_url: str
) -> None:
    day = 24 * 3600 * 1000 << 22  # a snowflake's time is in its high bits, in milliseconds
    newest = 1_500_000_000_000_000_000
    ids = [newest - day - 1, newest - day, newest - 1, newest]
    for interaction in ids:
        await store.run(GUILD, lambda tx: None, interaction=interaction)
    with pytest.raises(AlreadyHandled):  # the claim alone drops nothing
        await store.run(GUILD, lambda tx: None, interaction=ids[0])

    assert await store.forget_old_interactions() == 1
    looker = Looker(database_url)
    try:
        kept = [
            row[0] for row in looker.execute("SELECT interaction_id FROM handled_interactions").fetchall()
        ]
    finally:
        looker.close()
    assert sorted(kept) == ids[1:]
    await store.run(GUILD, lambda tx: None, interaction=ids[0])  # forgotten: it would be applied again
    with pytest.raises(AlreadyHandled):
        await store.run(GUILD, lambda tx: None, interaction=ids[1])


async def test_the_minute_job_drops_old_interaction_ids(
    store: Store, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(run, "CHECKPOINT_EVERY", 0.01)
    old, new = 1_000_000_000_000_000_000, 1_500_000_000_000_000_000
    for interaction in (old, new):
        await store.run(GUILD, lambda tx: None, interaction=interaction)
    watcher = asyncio.create_task(run.watch_database(store))
    try:
        for _ in range(500):
            await asyncio.sleep(0.01)
            looker = Looker(database_url)
            try:
                rows = looker.execute("SELECT interaction_id FROM handled_interactions").fetchall()
            finally:
                looker.close()
            if len(rows) == 1:
                break
        assert [row[0] for row in rows] == [new]
    finally:
        watcher.cancel()
