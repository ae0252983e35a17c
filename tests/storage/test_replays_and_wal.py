"""Issue 27, SQLite's last holes and the replay guard: a second delivery of an interaction is never
answered with a refusal (the guard comes first in the unit); a ``-wal`` file deleted under the bot is
noticed, and what it held, and every change after, reaches the main file."""

from __future__ import annotations

import asyncio
import logging
import shutil
import sqlite3
from pathlib import Path

import pytest

from bot.errors import UserError
from bot.rules import new_character
from bot.storage import Store, Transaction
from bot.storage.errors import AlreadyHandled
from bot.storage.sqlite import SqliteDatabase
from tests.storage.conftest import GUILD, create

INTERACTION = 1_500_000_000_000_000_123


def create_once(name: str):  # type: ignore[no-untyped-def]
    """/character create's check: a name already there is refused."""

    def work(tx: Transaction) -> int:
        if any(c.name == name for c in tx.characters()):
            raise UserError(
                "There is already a character called {name} in this server. Choose another name.", name=name
            )
        saved = tx.save_character(new_character(name, ruleset=tx.ruleset()))
        assert saved.id is not None
        return saved.id

    return work


async def test_a_replayed_interaction_is_never_answered_with_a_refusal(store: Store) -> None:
    for attempt in range(5):  # delivered twice at once, a few times over
        name = f"Only-once-{attempt}"
        interaction = INTERACTION + attempt
        outcomes = await asyncio.gather(
            *(store.run(GUILD, create_once(name), interaction=interaction) for _ in range(2)),
            return_exceptions=True,
        )
        kinds = sorted(type(o).__name__ for o in outcomes)
        assert kinds == ["AlreadyHandled", "int"], outcomes
    # Delivered again later: still nothing but "already handled".
    with pytest.raises(AlreadyHandled):
        await store.run(GUILD, create_once("Only-once-0"), interaction=INTERACTION)


async def test_a_deleted_wal_file_is_noticed_and_nothing_answered_is_lost(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "bot.db"
    store = await Store.open(f"sqlite:///{path}")
    try:
        db = store.database
        assert isinstance(db, SqliteDatabase)
        before = [await create(store, f"Before-{i}") for i in range(3)]
        with caplog.at_level(logging.ERROR, logger="bot.storage.sqlite"):
            db.wal_path.unlink()
            for _ in range(100):  # noticed within a second (bounded wait, not a timed assertion)
                if db.wal_lost:
                    break
                await asyncio.sleep(0.05)
            assert db.wal_lost
            after = [await create(store, f"After-{i}") for i in range(3)]
        assert any("WAL file" in r.getMessage() and "deleted" in r.getMessage() for r in caplog.records)
        # A crash now loses the deleted WAL: the main file alone must hold every answered change.
        copy = tmp_path / "copy.db"
        shutil.copyfile(path, copy)
        with sqlite3.connect(copy) as looker:
            names = {row[0] for row in looker.execute("SELECT name FROM characters")}
        assert names == {c.name for c in before + after}
    finally:
        await store.close()
