from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import StorageError, Store
from bot.storage.sqlite import backup
from tests.databases import characters_of
from tests.storage.conftest import GUILD, create


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "bot.db"


@pytest.fixture
async def sqlite_store(db_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(f"sqlite:///{db_path}")
    yield opened
    await opened.close()


async def test_backup_is_a_whole_consistent_database(
    sqlite_store: Store, db_path: Path, tmp_path: Path
) -> None:
    store = sqlite_store
    for i in range(20):
        await create(store, f"Character {i}")
    destination = tmp_path / "backups" / "copy.db"
    await backup(f"sqlite:///{db_path}", str(destination))  # while the store is open
    conn = sqlite3.connect(destination)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        assert conn.execute("SELECT COUNT(*) FROM characters").fetchone()[0] == 20
    finally:
        conn.close()
    assert not list(destination.parent.glob("*.partial"))
    copy = await Store.open(str(destination))
    try:
        assert len(await characters_of(copy, GUILD)) == 20
    finally:
        await copy.close()


async def test_backup_onto_itself_or_from_nothing_is_refused(
    db_path: Path, tmp_path: Path, sqlite_store: Store
) -> None:
    with pytest.raises(StorageError):
        await backup(str(db_path), f"sqlite:///{db_path}")
    with pytest.raises(StorageError):
        await backup(str(tmp_path / "missing.db"), str(tmp_path / "copy.db"))


async def test_backup_on_postgresql_says_to_use_pg_dump(tmp_path: Path) -> None:
    with pytest.raises(StorageError) as refused:
        await backup("postgresql://bot:hunter2@db.example/harmonies", str(tmp_path / "copy.db"))
    message = str(refused.value)
    assert "pg_dump" in message and "pg_restore" in message and "\n" not in message
    assert "hunter2" not in message
    assert not (tmp_path / "copy.db").exists()
