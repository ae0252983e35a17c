"""SQL of the active character of each player, per server."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping

import aiosqlite

from bot.storage.database import Queryable

_PUT = (
    "INSERT INTO active_characters (guild_id, user_id, character_id) VALUES (?, ?, ?) "
    "ON CONFLICT (guild_id, user_id) DO UPDATE SET character_id = excluded.character_id"
)
_CLEAR = "DELETE FROM active_characters WHERE guild_id = ? AND user_id = ?"


async def active_id(conn: Queryable, guild_id: int, user_id: int) -> int | None:
    rows = list(
        await conn.execute_fetchall(
            "SELECT character_id FROM active_characters WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
    )
    return int(rows[0][0]) if rows else None


async def all_active(conn: aiosqlite.Connection, guild_id: int) -> dict[int, int]:
    """user id -> active character id, for living characters of the server."""
    rows = await conn.execute_fetchall(
        "SELECT a.user_id, a.character_id FROM active_characters a "
        "JOIN characters c ON c.id = a.character_id "
        "WHERE a.guild_id = ? AND c.guild_id = ? AND c.deleted_at IS NULL ORDER BY a.user_id",
        (guild_id, guild_id),
    )
    return {int(user): int(character) for user, character in rows}


async def users_of(conn: aiosqlite.Connection, guild_id: int, character_id: int) -> list[int]:
    """The players whose active character is ``character_id``."""
    rows = await conn.execute_fetchall(
        "SELECT user_id FROM active_characters WHERE character_id = ? AND guild_id = ?",
        (character_id, guild_id),
    )
    return [int(r[0]) for r in rows]


async def most_recent(conn: aiosqlite.Connection, guild_id: int, owner_id: int) -> int | None:
    """The owner's most recently created living character."""
    rows = list(
        await conn.execute_fetchall(
            "SELECT id FROM characters WHERE guild_id = ? AND owner_id = ? AND deleted_at IS NULL "
            "ORDER BY created_at DESC, id DESC LIMIT 1",
            (guild_id, owner_id),
        )
    )
    return int(rows[0][0]) if rows else None


async def put(conn: aiosqlite.Connection, guild_id: int, user_id: int, character_id: int | None) -> None:
    """Make ``character_id`` the user's active character; ``None`` clears it."""
    if character_id is None:
        await conn.execute(_CLEAR, (guild_id, user_id))
    else:
        await conn.execute(_PUT, (guild_id, user_id, character_id))


def write_put(conn: sqlite3.Connection, guild_id: int, user_id: int, character_id: int | None) -> None:
    """:func:`put`, on the writer's thread."""
    if character_id is None:
        conn.execute(_CLEAR, (guild_id, user_id))
    else:
        conn.execute(_PUT, (guild_id, user_id, character_id))


async def put_many(conn: aiosqlite.Connection, guild_id: int, choices: Mapping[int, int | None]) -> None:
    cleared = [(guild_id, user) for user, character in choices.items() if character is None]
    chosen = [(guild_id, user, character) for user, character in choices.items() if character is not None]
    if cleared:
        await conn.executemany("DELETE FROM active_characters WHERE guild_id = ? AND user_id = ?", cleared)
    if chosen:
        await conn.executemany(
            "INSERT INTO active_characters (guild_id, user_id, character_id) VALUES (?, ?, ?) "
            "ON CONFLICT (guild_id, user_id) DO UPDATE SET character_id = excluded.character_id",
            chosen,
        )


async def clear_characters(conn: aiosqlite.Connection, guild_id: int, character_ids: list[int]) -> None:
    """No one plays these characters any more (they were removed)."""
    await conn.executemany(
        "DELETE FROM active_characters WHERE character_id = ? AND guild_id = ?",
        [(cid, guild_id) for cid in character_ids],
    )
