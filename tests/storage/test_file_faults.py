"""File faults at start-up (issue 11): a deleted WAL then a crash, a database emptied behind the bot's
back, a damaged file. Nothing answered may be lost beyond the last checkpoint, and a damaged or
emptied database is never silently replaced by a new one."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bot.storage import StorageError, Store
from tests.databases import characters_of, damage, latest_version
from tests.storage.conftest import create

CRASH_AFTER_WAL_LOSS = """
import asyncio, os, sys
from bot.rules import new_character
from bot.storage import Store

def create(name):
    def work(tx):
        saved = tx.save_character(new_character(name, ruleset=tx.ruleset()))
        tx.record("character_create", None, character=saved)
    return work

async def main(path):
    store = await Store.open(path)
    for name in ("Aria", "Brann", "Cyd"):
        await store.run(1, create(name))
    await store.checkpoint()
    await store.run(1, create("Lost"))
    os.remove(path + "-wal")  # someone deletes the WAL while the bot runs...
    os._exit(9)  # ...then the bot dies without closing anything

asyncio.run(main(sys.argv[1]))
"""


def names(path: Path) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        return [row[0] for row in conn.execute("SELECT name FROM characters ORDER BY name")]
    finally:
        conn.close()


def crash_after_wal_loss(path: Path) -> None:
    """A real process (not this one, so nothing closes or checkpoints on its way out)."""
    crash = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(CRASH_AFTER_WAL_LOSS), str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert crash.returncode == 9, crash.stderr


def unusable_wal_beside_an_empty_file(path: Path) -> None:
    path.write_bytes(b"")
    Path(f"{path}-wal").write_bytes(b"\x00" * 4096)  # a WAL SQLite cannot use


async def test_a_deleted_wal_then_a_crash_loses_nothing_before_the_last_checkpoint(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    crash_after_wal_loss(path)
    store = await Store.open(str(path))  # schema and checkpointed data were in the main file
    try:
        assert [c.name for c in await characters_of(store, 1)] == ["Aria", "Brann", "Cyd"]
    finally:
        await store.close()


async def test_migrations_are_checkpointed_into_the_main_file(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    store = await Store.open(str(path))
    try:
        await create(store, "Aria")
        await store.checkpoint()
        # The main file alone (as if the WAL were lost) holds the schema and the data.
        alone = tmp_path / "alone.db"
        alone.write_bytes(path.read_bytes())
        conn = sqlite3.connect(alone)
        try:
            assert conn.execute("PRAGMA user_version").fetchone()[0] == latest_version()
        finally:
            conn.close()
        assert names(alone) == ["Aria"]
    finally:
        await store.close()


async def test_a_database_emptied_behind_the_bots_back_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    store = await Store.open(str(path))
    await create(store, "Aria")
    await store.close()
    path.write_bytes(b"")  # the data is gone (a lost WAL, a bad copy, a wrong volume)
    with pytest.raises(StorageError) as refused:
        await Store.open(str(path))
    message = str(refused.value)
    assert "\n" not in message and "empty" in message and "backup" in message
    assert path.read_bytes() == b""  # nothing was migrated into it
    path.unlink()
    with pytest.raises(StorageError):
        await Store.open(str(path))  # a missing file, where there was data, is refused as well


async def test_a_schemaless_file_beside_a_wal_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    unusable_wal_beside_an_empty_file(path)
    with pytest.raises(StorageError) as refused:
        await Store.open(str(path))
    assert "-wal" in str(refused.value)


async def test_a_damaged_file_is_found_by_the_integrity_check(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    store = await Store.open(str(path))
    try:
        await create(store, "Aria")
        assert await store.quick_check() is None
    finally:
        await store.close()
    damage(path)
    store = await Store.open(str(path))  # what it needs is sound: it opens, and the check says why not
    try:
        found = await store.quick_check()
        assert found is not None and "\n" not in found
    finally:
        await store.close()


async def test_a_new_database_starts_and_restarts(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    for _ in range(2):
        store = await Store.open(str(path))
        await store.close()
    assert names(path) == []
