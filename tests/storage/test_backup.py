from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.storage import StorageError, Store, backup
from tests.storage.conftest import GUILD, create


async def test_backup_is_a_whole_consistent_database(store: Store, db_path: Path, tmp_path: Path) -> None:
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
        assert len(await copy.characters(GUILD)) == 20
    finally:
        await copy.close()


async def test_backup_onto_itself_or_from_nothing_is_refused(
    db_path: Path, tmp_path: Path, store: Store
) -> None:
    with pytest.raises(StorageError):
        await backup(str(db_path), f"sqlite:///{db_path}")
    with pytest.raises(StorageError):
        await backup(str(tmp_path / "missing.db"), str(tmp_path / "copy.db"))
