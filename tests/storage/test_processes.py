"""Several OS processes on one PostgreSQL database: the per-server advisory lock makes their units
of work run one at a time, so the result is exactly the serial one, with nothing retried."""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from functools import partial

import psycopg

from bot.actions.undoing import revert
from bot.check import check_database
from bot.errors import UserError
from bot.rules import Preset, Ruleset, Severity, Track, inflict
from bot.rules.character import Character
from bot.storage import Store, Transaction
from bot.storage.migrations import MIGRATIONS_DIR
from tests.databases import character_of, history_of, latest_version
from tests.storage.conftest import GM, GUILD, create

PROCESSES = 4
TASKS = 30  # per process


def _bare(character: Character) -> Character:
    return replace(
        character, id=None, created_at="", wounds=tuple(replace(w, id=None) for w in character.wounds)
    )


def _wound(tx: Transaction, character_id: int, tag: str) -> None:
    result = inflict(tx.character(character_id), Track.PHYSICAL, Severity.LOW, note="hit", by=GM)
    saved = tx.save_character(result.character)
    tx.record("wound", GM, character=saved, details={"tag": tag})


async def _wound_many(url: str, character_id: int, process: int) -> list[str]:
    store = await Store.open(url)
    try:

        async def once(i: int) -> str:
            try:
                await store.run(GUILD, partial(_wound, character_id=character_id, tag=f"{process}-{i}"))
                return "ok"
            except UserError as refused:
                return refused.message

        return list(await asyncio.gather(*(once(i) for i in range(TASKS))))
    finally:
        await store.close()


def wound_many(url: str, character_id: int, process: int) -> list[str]:
    """In a process of its own: ``TASKS`` /wound units in flight at once."""
    return asyncio.run(_wound_many(url, character_id, process))


async def _undo_many(url: str, count: int) -> list[int]:
    store = await Store.open(url)
    try:

        async def once() -> int:
            event = await store.run(GUILD, lambda tx: revert(tx, GM))
            assert event.undoes is not None
            return event.undoes

        return list(await asyncio.gather(*(once() for _ in range(count))))
    finally:
        await store.close()


def undo_many(url: str, count: int) -> list[int]:
    return asyncio.run(_undo_many(url, count))


def open_store(url: str) -> int:
    async def opened() -> None:
        store = await Store.open(url)
        await store.close()

    asyncio.run(opened())
    return 0


async def in_processes(calls: list[Callable[[], object]]) -> list[object]:
    """Run each call in its own OS process, all at once."""
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(len(calls), mp_context=context) as pool:
        loop = asyncio.get_running_loop()
        return list(await asyncio.gather(*(loop.run_in_executor(pool, call) for call in calls)))


def _make_room(tx: Transaction) -> None:
    tx.save_ruleset(Ruleset(presets={"humanoid": Preset(), "giant": Preset(physical=(20, 20, 20))}))
    tx.record("config", GM)


def _grow(tx: Transaction, character_id: int) -> Character:
    return tx.save_character(replace(tx.character(character_id), preset="giant", physical_max=(20, 20, 20)))


async def create_giant(store: Store) -> Character:
    """A character who holds 20 wounds of each severity."""
    await store.run(GUILD, _make_room)
    aria = await create(store, "Aria")
    return await store.run(GUILD, partial(_grow, character_id=aria.id or 0))


async def test_four_processes_wounding_one_character_give_the_serial_result(
    fresh_postgres: Callable[..., str],
) -> None:
    url = fresh_postgres()
    store = await Store.open(url)
    try:
        giant = await create_giant(store)
        character_id = giant.id or 0
        outcomes = await in_processes([partial(wound_many, url, character_id, p) for p in range(PROCESSES)])
        final = await character_of(store, GUILD, character_id)
    finally:
        await store.close()

    sequential: list[str] = []
    expected = giant
    for _ in range(PROCESSES * TASKS):
        try:
            expected = inflict(expected, Track.PHYSICAL, Severity.LOW, note="hit", by=GM).character
            sequential.append("ok")
        except UserError as refused:
            sequential.append(refused.message)
    every = [o for found in outcomes for o in found]  # type: ignore[attr-defined]
    assert sorted(every) == sorted(sequential)
    assert every.count("ok") == 61  # 20 light, 20 serious, 20 critical, then the fatal one
    assert _bare(final) == _bare(expected) and final.dead


async def test_concurrent_undos_in_four_processes_undo_each_event_once(
    fresh_postgres: Callable[..., str],
) -> None:
    url = fresh_postgres()
    store = await Store.open(url)
    try:
        aria = await create_giant(store)
        character_id = aria.id or 0
        for i in range(PROCESSES * 10):
            await store.run(GUILD, partial(_wound, character_id=character_id, tag=str(i)))
        undone = await in_processes([partial(undo_many, url, 10) for _ in range(PROCESSES)])
        final = await character_of(store, GUILD, character_id)
        events, total = await history_of(store, GUILD, per_page=100)
    finally:
        await store.close()
    targets = [event_id for found in undone for event_id in found]  # type: ignore[attr-defined]
    assert len(targets) == len(set(targets)) == PROCESSES * 10
    wounds = {e.id for e in events if e.kind == "wound"}
    assert set(targets) == wounds and all(e.undone for e in events if e.kind == "wound")
    assert final.wounds == () and total == 2 + 2 * PROCESSES * 10  # config, creation, wounds and their undos


async def test_two_processes_migrating_at_once_both_end_on_the_current_schema(
    fresh_postgres: Callable[..., str],
) -> None:
    for _ in range(3):
        url = fresh_postgres(migrated=False)
        assert await in_processes([partial(open_store, url), partial(open_store, url)]) == [0, 0]
        with psycopg.connect(url) as conn:
            assert conn.execute("SELECT version FROM schema_version").fetchall() == [
                (latest_version(MIGRATIONS_DIR / "postgres"),)
            ]
            tables = {
                r[0] for r in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
            }
            assert {"characters", "wounds", "events", "event_characters", "meta"} <= tables


async def test_bot_check_on_postgresql_reads_the_schema_version_only(
    fresh_postgres: Callable[..., str],
) -> None:
    empty, migrated = fresh_postgres(migrated=False), fresh_postgres()
    latest = latest_version(MIGRATIONS_DIR / "postgres")
    assert await check_database(migrated) == f"PostgreSQL database at schema version {latest}, up to date"
    said = await check_database(empty)
    assert said.startswith("PostgreSQL database at schema version 0: the next start applies 0001_initial.sql")
    with psycopg.connect(empty) as conn:  # only read: still empty
        assert conn.execute("SELECT COUNT(*) FROM pg_tables WHERE schemaname = 'public'").fetchone() == (0,)
