"""SQL of the per-server ruleset and of the installation's key/value facts, and a ruleset cache."""

from __future__ import annotations

import sqlite3
from collections import OrderedDict

import aiosqlite
from pydantic import ValidationError

from bot.rules.ruleset import Ruleset
from bot.storage.database import Queryable
from bot.storage.errors import StorageError

CACHE_SIZE = 4096


async def load_ruleset(conn: Queryable, guild_id: int) -> Ruleset | None:
    """The stored ruleset of the server, validated; ``None`` when it never changed its settings."""
    rows = list(
        await conn.execute_fetchall("SELECT ruleset FROM guild_settings WHERE guild_id = ?", (guild_id,))
    )
    if not rows:
        return None
    try:
        return Ruleset.model_validate_json(rows[0][0])
    except ValidationError as exc:
        raise StorageError(
            f"the stored ruleset of server {guild_id} is invalid ({exc.error_count()} errors)"
        ) from exc


_SAVE_RULESET = (
    "INSERT INTO guild_settings (guild_id, ruleset, updated_at) VALUES (?, ?, ?) "
    "ON CONFLICT (guild_id) DO UPDATE SET ruleset = excluded.ruleset, updated_at = excluded.updated_at"
)
_DELETE_RULESET = "DELETE FROM guild_settings WHERE guild_id = ?"


async def save_ruleset(conn: aiosqlite.Connection, guild_id: int, ruleset: Ruleset | None, now: str) -> None:
    """Store the ruleset; ``None`` removes the row (back to the defaults)."""
    if ruleset is None:
        await conn.execute(_DELETE_RULESET, (guild_id,))
        return
    await conn.execute(_SAVE_RULESET, (guild_id, ruleset.model_dump_json(), now))


def write_ruleset(conn: sqlite3.Connection, guild_id: int, ruleset_json: str | None, now: str) -> None:
    """:func:`save_ruleset` on the writer's thread (the ruleset already as JSON, or ``None``)."""
    if ruleset_json is None:
        conn.execute(_DELETE_RULESET, (guild_id,))
    else:
        conn.execute(_SAVE_RULESET, (guild_id, ruleset_json, now))


def ruleset_is(conn: sqlite3.Connection, guild_id: int, ruleset: Ruleset) -> bool:
    """On the writer's thread: whether the stored ruleset of the server is ``ruleset`` (a missing row
    means the defaults)."""
    row = conn.execute("SELECT ruleset FROM guild_settings WHERE guild_id = ?", (guild_id,)).fetchone()
    if row is None:
        return ruleset == Ruleset()
    if row[0] == ruleset.model_dump_json():
        return True
    try:
        return Ruleset.model_validate_json(row[0]) == ruleset
    except ValidationError:
        return False


async def get_meta(conn: aiosqlite.Connection, key: str) -> str | None:
    rows = list(await conn.execute_fetchall("SELECT meta_value FROM meta WHERE meta_key = ?", (key,)))
    return str(rows[0][0]) if rows else None


async def set_meta(conn: aiosqlite.Connection, key: str, value: str) -> None:
    await conn.execute(
        "INSERT INTO meta (meta_key, meta_value) VALUES (?, ?) "
        "ON CONFLICT (meta_key) DO UPDATE SET meta_value = excluded.meta_value",
        (key, value),
    )


class RulesetCache:
    """Recently used rulesets by server (least recently used dropped first).

    A reader records :attr:`generation` before its query and offers the result with it; the offer is
    dropped when a change was committed meanwhile, so an old value never lands after an invalidation.
    """

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self._size = size
        self._items: OrderedDict[int, Ruleset] = OrderedDict()
        self.generation = 0

    def get(self, guild_id: int) -> Ruleset | None:
        found = self._items.get(guild_id)
        if found is not None:
            self._items.move_to_end(guild_id)
        return found

    def offer(self, guild_id: int, ruleset: Ruleset, generation: int) -> None:
        if generation != self.generation:
            return
        self._items[guild_id] = ruleset
        self._items.move_to_end(guild_id)
        while len(self._items) > self._size:
            self._items.popitem(last=False)

    def invalidate(self, guild_id: int) -> None:
        """Call after the commit of a change to the server's ruleset."""
        self.generation += 1
        self._items.pop(guild_id, None)
