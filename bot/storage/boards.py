"""SQL of the live party boards: one message per channel, and the NPCs a GM added to it."""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.sql import Sql


@dataclass(frozen=True)
class Board:
    guild_id: int
    channel_id: int
    message_id: int
    npc_ids: tuple[int, ...] = ()


def of_guild(sql: Sql, guild_id: int) -> list[Board]:
    """The server's boards, with their NPCs (oldest character first)."""
    rows = sql.rows(
        "SELECT b.channel_id, b.message_id, n.character_id FROM boards b "
        "LEFT JOIN board_npcs n ON n.channel_id = b.channel_id "
        "WHERE b.guild_id = ? ORDER BY b.channel_id, n.character_id",
        (guild_id,),
    )
    found: dict[int, tuple[int, list[int]]] = {}
    for channel_id, message_id, character_id in rows:
        _, npcs = found.setdefault(int(channel_id), (int(message_id), []))
        if character_id is not None:
            npcs.append(int(character_id))
    return [Board(guild_id, channel, message, tuple(npcs)) for channel, (message, npcs) in found.items()]


def all_boards(sql: Sql) -> list[Board]:
    """Every board (at start-up: one refresh each, for the changes made while the bot was away)."""
    guilds = sql.rows("SELECT DISTINCT guild_id FROM boards ORDER BY guild_id")
    return [board for (guild_id,) in guilds for board in of_guild(sql, int(guild_id))]


def put(sql: Sql, guild_id: int, channel_id: int, message_id: int, now: str) -> None:
    """Save the board of a channel (moved: the new message; its NPCs stay)."""
    sql.run(
        "INSERT INTO boards (channel_id, guild_id, message_id, created_at) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (channel_id) DO UPDATE SET message_id = excluded.message_id, "
        "created_at = excluded.created_at",
        (channel_id, guild_id, message_id, now),
    )


def remove(sql: Sql, guild_id: int, channel_id: int, message_id: int) -> None:
    """Forget the board (its NPCs go with it: ON DELETE CASCADE), unless its channel's board is another
    message now (posted again meanwhile)."""
    sql.run(
        "DELETE FROM boards WHERE guild_id = ? AND channel_id = ? AND message_id = ?",
        (guild_id, channel_id, message_id),
    )


def set_npc(sql: Sql, guild_id: int, channel_id: int, character_id: int, *, shown: bool) -> None:
    """Add the NPC to the channel's board (``shown``), or take it off."""
    if shown:
        sql.run(
            "INSERT INTO board_npcs (channel_id, character_id) "
            "SELECT channel_id, ? FROM boards WHERE guild_id = ? AND channel_id = ? "
            "ON CONFLICT (channel_id, character_id) DO NOTHING",
            (character_id, guild_id, channel_id),
        )
    else:
        sql.run(
            "DELETE FROM board_npcs WHERE channel_id = ? AND character_id = ?", (channel_id, character_id)
        )
