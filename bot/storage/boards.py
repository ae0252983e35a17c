"""SQL of the live party boards: one message per channel, and the NPCs a GM added to it."""

from __future__ import annotations

from dataclasses import dataclass

import aiosqlite

from bot.storage.database import Queryable


@dataclass(frozen=True)
class Board:
    guild_id: int
    channel_id: int
    message_id: int
    npc_ids: tuple[int, ...] = ()


async def of_guild(conn: Queryable, guild_id: int) -> list[Board]:
    """The server's boards, with their NPCs (oldest character first)."""
    rows = list(
        await conn.execute_fetchall(
            "SELECT b.channel_id, b.message_id, n.character_id FROM boards b "
            "LEFT JOIN board_npcs n ON n.channel_id = b.channel_id "
            "WHERE b.guild_id = ? ORDER BY b.channel_id, n.character_id",
            (guild_id,),
        )
    )
    found: dict[int, tuple[int, list[int]]] = {}
    for channel_id, message_id, character_id in rows:
        _, npcs = found.setdefault(int(channel_id), (int(message_id), []))
        if character_id is not None:
            npcs.append(int(character_id))
    return [Board(guild_id, channel, message, tuple(npcs)) for channel, (message, npcs) in found.items()]


async def all_boards(conn: Queryable) -> list[Board]:
    """Every board (at start-up: one refresh each, for the changes made while the bot was away)."""
    guilds = await conn.execute_fetchall("SELECT DISTINCT guild_id FROM boards ORDER BY guild_id")
    return [board for (guild_id,) in list(guilds) for board in await of_guild(conn, int(guild_id))]


async def put(conn: aiosqlite.Connection, board: Board, now: str) -> None:
    """Save the board of a channel (moved: the new message; its NPCs stay)."""
    await conn.execute(
        "INSERT INTO boards (channel_id, guild_id, message_id, created_at) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (channel_id) DO UPDATE SET message_id = excluded.message_id, "
        "created_at = excluded.created_at",
        (board.channel_id, board.guild_id, board.message_id, now),
    )


async def remove(conn: aiosqlite.Connection, guild_id: int, channel_id: int) -> None:
    await conn.execute("DELETE FROM board_npcs WHERE channel_id = ?", (channel_id,))
    await conn.execute("DELETE FROM boards WHERE guild_id = ? AND channel_id = ?", (guild_id, channel_id))


async def set_npc(
    conn: aiosqlite.Connection, guild_id: int, channel_id: int, character_id: int, *, shown: bool
) -> None:
    """Add the NPC to the channel's board (``shown``), or take it off."""
    if shown:
        await conn.execute(
            "INSERT INTO board_npcs (channel_id, character_id) "
            "SELECT channel_id, ? FROM boards WHERE guild_id = ? AND channel_id = ? "
            "ON CONFLICT (channel_id, character_id) DO NOTHING",
            (character_id, guild_id, channel_id),
        )
    else:
        await conn.execute(
            "DELETE FROM board_npcs WHERE channel_id = ? AND character_id = ?", (channel_id, character_id)
        )
