from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.rules import new_character
from bot.rules.character import Character
from bot.storage import Store

GUILD = 111_111_111_111
OTHER_GUILD = 222_222_222_222
GM = 900
ALICE = 1001
BOB = 1002


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "bot.db"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(f"sqlite:///{db_path}")
    try:
        yield opened
    finally:
        await opened.close()


async def create(
    store: Store, name: str, owner_id: int | None = ALICE, *, guild_id: int = GUILD, active: bool = True
) -> Character:
    """Create a character the way /character create does, recorded in history."""
    async with store.transaction(guild_id) as tx:
        character = new_character(name, ruleset=await tx.ruleset(), owner_id=owner_id)
        saved = await tx.save_character(character)
        assert saved.id is not None
        if owner_id is not None and active and await tx.active_character(owner_id) is None:
            await tx.set_active(owner_id, saved.id)
        await tx.record("character_create", GM, character=saved)
    return saved


def dump(path: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table, to check that something changed nothing."""
    conn = sqlite3.connect(path)
    try:
        tables = [
            r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        ]
        dumped = {t: sorted(conn.execute(f'SELECT * FROM "{t}"'), key=repr) for t in tables}
        dumped["user_version"] = [tuple(conn.execute("PRAGMA user_version").fetchone())]
        return dumped
    finally:
        conn.close()
