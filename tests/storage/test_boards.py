"""The boards' rows on both backends: one board per channel, its NPCs, Discord-sized ids."""

from __future__ import annotations

import pytest

from bot.storage import Store
from bot.storage.boards import Board
from tests.storage.conftest import GUILD, OTHER_GUILD, create

# Discord snowflakes do not fit in 32 bits.
CHANNEL = 1_234_567_890_123_456_789
MESSAGE = 1_234_567_890_123_456_790


async def test_a_board_is_saved_moved_and_removed(store: Store) -> None:
    goblin = await create(store, "Goblin", owner_id=None)
    orc = await create(store, "Orc", owner_id=None)
    assert goblin.id is not None and orc.id is not None
    await store.save_board(Board(GUILD, CHANNEL, MESSAGE))
    await store.show_on_board(GUILD, CHANNEL, orc.id, shown=True)
    await store.show_on_board(GUILD, CHANNEL, goblin.id, shown=True)
    await store.show_on_board(GUILD, CHANNEL, goblin.id, shown=True)  # twice: once
    assert await store.boards(GUILD) == [Board(GUILD, CHANNEL, MESSAGE, (goblin.id, orc.id))]

    # Posted again: the new message, the same NPCs.
    await store.save_board(Board(GUILD, CHANNEL, MESSAGE + 1))
    await store.show_on_board(GUILD, CHANNEL, orc.id, shown=False)
    assert await store.boards(GUILD) == [Board(GUILD, CHANNEL, MESSAGE + 1, (goblin.id,))]
    assert await store.boards(OTHER_GUILD) == []
    assert await store.all_boards() == [Board(GUILD, CHANNEL, MESSAGE + 1, (goblin.id,))]

    await store.delete_board(Board(OTHER_GUILD, CHANNEL, MESSAGE + 1))  # another server's: nothing happens
    await store.delete_board(Board(GUILD, CHANNEL, MESSAGE))  # the message it was before: still kept
    assert len(await store.all_boards()) == 1
    await store.delete_board(Board(GUILD, CHANNEL, MESSAGE + 1))
    assert await store.all_boards() == []
    assert await store.read(GUILD, lambda r: r.sql.rows("SELECT * FROM board_npcs")) == []
    await store.show_on_board(GUILD, CHANNEL, goblin.id, shown=True)  # no board: no NPC row
    assert await store.all_boards() == []


async def test_listeners_hear_of_committed_changes_only(store: Store) -> None:
    heard: list[int] = []
    store.listeners.append(heard.append)
    await create(store, "Aria")
    assert heard == [GUILD]

    def failing(tx: object) -> None:
        raise RuntimeError("rolled back")

    with pytest.raises(RuntimeError, match="rolled back"):
        await store.run(GUILD, failing)
    await store.save_board(Board(GUILD, CHANNEL, MESSAGE))  # the bot's bookkeeping, not a change
    assert heard == [GUILD]
