"""The boards' rows on both backends: one board per channel, its NPCs, Discord-sized ids."""

from __future__ import annotations

import pytest

from bot.storage import Store
from bot.storage.store import Board
from tests.databases import boards_of, every_board
from tests.storage.conftest import GUILD, OTHER_GUILD, create

# Discord snowflakes do not fit in 32 bits.
CHANNEL = 1_234_567_890_123_456_789
MESSAGE = 1_234_567_890_123_456_790


async def save(store: Store, guild_id: int, message_id: int) -> None:
    await store.save_board(guild_id, CHANNEL, message_id)


async def delete(store: Store, guild_id: int, message_id: int) -> None:
    await store.drop_board(guild_id, CHANNEL, message_id)


async def show(store: Store, character_id: int, *, shown: bool) -> None:
    await store.run(GUILD, lambda tx: tx.show_on_board(CHANNEL, character_id, shown=shown))


async def test_a_board_is_saved_moved_and_removed(store: Store) -> None:
    goblin = await create(store, "Goblin", owner_id=None)
    orc = await create(store, "Orc", owner_id=None)
    assert goblin.id is not None and orc.id is not None
    await save(store, GUILD, MESSAGE)
    await show(store, orc.id, shown=True)
    await show(store, goblin.id, shown=True)
    await show(store, goblin.id, shown=True)  # twice: once
    assert await boards_of(store, GUILD) == [Board(GUILD, CHANNEL, MESSAGE, (goblin.id, orc.id))]

    # Posted again: the new message, the same NPCs.
    await save(store, GUILD, MESSAGE + 1)
    await show(store, orc.id, shown=False)
    assert await boards_of(store, GUILD) == [Board(GUILD, CHANNEL, MESSAGE + 1, (goblin.id,))]
    assert await boards_of(store, OTHER_GUILD) == []
    assert await every_board(store) == [Board(GUILD, CHANNEL, MESSAGE + 1, (goblin.id,))]

    await delete(store, OTHER_GUILD, MESSAGE + 1)  # another server's: nothing happens
    await delete(store, GUILD, MESSAGE)  # the message it was before: still kept
    assert len(await every_board(store)) == 1
    await delete(store, GUILD, MESSAGE + 1)
    assert await every_board(store) == []
    assert await store.read(GUILD, lambda r: r.sql.rows("SELECT * FROM board_npcs")) == []
    await show(store, goblin.id, shown=True)  # no board: no NPC row
    assert await every_board(store) == []


async def test_listeners_hear_of_committed_changes_only(store: Store) -> None:
    heard: list[int] = []
    store.listeners.append(heard.append)
    await create(store, "Aria")
    assert heard == [GUILD]

    def failing(tx: object) -> None:
        raise RuntimeError("rolled back")

    with pytest.raises(RuntimeError, match="rolled back"):
        await store.run(GUILD, failing)
    await save(store, GUILD, MESSAGE)  # the bot's bookkeeping, not a change
    assert heard == [GUILD]
    await show(store, 1, shown=True)  # the NPCs shown are: the player views show them
    assert heard == [GUILD, GUILD]
