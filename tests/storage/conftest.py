from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.rules import new_character
from bot.rules.character import Character
from bot.storage import Store, Transaction

GUILD = 111_111_111_111
OTHER_GUILD = 222_222_222_222
GM = 900
ALICE = 1001
BOB = 1002


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[Store]:
    opened = await Store.open(database_url)
    try:
        yield opened
    finally:
        await opened.close()


async def create(
    store: Store, name: str, owner_id: int | None = ALICE, *, guild_id: int = GUILD, active: bool = True
) -> Character:
    """Create a character the way /character create does, recorded in history."""

    def work(tx: Transaction) -> Character:
        character = new_character(name, ruleset=tx.ruleset(), owner_id=owner_id)
        saved = tx.save_character(character)
        assert saved.id is not None
        if owner_id is not None and active and tx.active_character(owner_id) is None:
            tx.set_active(owner_id, saved.id)
        tx.record("character_create", GM, character=saved)
        return saved

    return await store.run(guild_id, work)
