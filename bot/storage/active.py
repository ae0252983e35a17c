"""SQL of the active character of each player, per server."""

from __future__ import annotations

from collections.abc import Mapping

from bot.storage.sql import Sql

_PUT = (
    "INSERT INTO active_characters (guild_id, user_id, character_id) VALUES (?, ?, ?) "
    "ON CONFLICT (guild_id, user_id) DO UPDATE SET character_id = excluded.character_id"
)
_CLEAR = "DELETE FROM active_characters WHERE guild_id = ? AND user_id = ?"


def active_id(sql: Sql, guild_id: int, user_id: int) -> int | None:
    found = sql.row(
        "SELECT character_id FROM active_characters WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
    )
    return int(found[0]) if found else None


def all_active(sql: Sql, guild_id: int) -> dict[int, int]:
    """user id -> active character id, for living characters of the server."""
    rows = sql.rows(
        "SELECT a.user_id, a.character_id FROM active_characters a "
        "JOIN characters c ON c.id = a.character_id "
        "WHERE a.guild_id = ? AND c.guild_id = ? AND c.deleted_at IS NULL ORDER BY a.user_id",
        (guild_id, guild_id),
    )
    return {int(user): int(character) for user, character in rows}


def users_of(sql: Sql, guild_id: int, character_id: int) -> list[int]:
    """The players whose active character is ``character_id``."""
    rows = sql.rows(
        "SELECT user_id FROM active_characters WHERE character_id = ? AND guild_id = ?",
        (character_id, guild_id),
    )
    return [int(r[0]) for r in rows]


def most_recent(sql: Sql, guild_id: int, owner_id: int) -> int | None:
    """The owner's most recently created living character."""
    found = sql.row(
        "SELECT id FROM characters WHERE guild_id = ? AND owner_id = ? AND deleted_at IS NULL "
        "ORDER BY created_at DESC, id DESC LIMIT 1",
        (guild_id, owner_id),
    )
    return int(found[0]) if found else None


def put_many(sql: Sql, guild_id: int, choices: Mapping[int, int | None]) -> None:
    """Make each user's character the active one; ``None`` clears it."""
    sql.run_many(_CLEAR, [(guild_id, user) for user, character in choices.items() if character is None])
    sql.run_many(_PUT, [(guild_id, user, cid) for user, cid in choices.items() if cid is not None])


def clear_characters(sql: Sql, guild_id: int, character_ids: list[int]) -> None:
    """No one plays these characters any more (they were removed)."""
    sql.run_many(
        "DELETE FROM active_characters WHERE character_id = ? AND guild_id = ?",
        [(cid, guild_id) for cid in character_ids],
    )
