"""Looking at a test database of either backend behind the bot's back, or through its store."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import psycopg

from bot.actions import admin
from bot.actions.actor import Actor
from bot.history import Event
from bot.rules import Character, Ruleset
from bot.storage.migrations import SQLITE_MIGRATIONS, find_migrations
from bot.storage.store import Board, Reader, Store


def latest_version(directory: Path = SQLITE_MIGRATIONS) -> int:
    """The schema version the migrations of ``directory`` reach (numbered 1, 2, 3… without gaps)."""
    return len(find_migrations(directory))


def connect(url: str) -> sqlite3.Connection | psycopg.Connection[Any]:
    """A plain connection to ``url``, to look at the database behind the bot's back."""
    if url.startswith("sqlite:///"):
        return sqlite3.connect(url.removeprefix("sqlite:///"))
    return psycopg.connect(url, autocommit=True)


Connection = sqlite3.Connection | psycopg.Connection[Any]


def tables(url: str, conn: Connection | None = None) -> list[str]:
    looker = connect(url) if conn is None else conn
    try:
        if isinstance(looker, sqlite3.Connection):
            query = "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
        else:
            query = "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename"
        return [str(r[0]) for r in looker.execute(query).fetchall()]
    finally:
        if conn is None:
            looker.close()


def dump(url: str) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table (and the schema version), to check that something changed nothing."""
    names = tables(url)
    conn = connect(url)
    try:
        dumped = {
            t: sorted((tuple(r) for r in conn.execute(f'SELECT * FROM "{t}"').fetchall()), key=repr)
            for t in names
        }
        if isinstance(conn, sqlite3.Connection):
            dumped["user_version"] = [tuple(conn.execute("PRAGMA user_version").fetchone())]
        return dumped
    finally:
        conn.close()


def is_postgres(url: str) -> bool:
    return url.startswith("postgresql://")


def sqlite_path(url: str) -> Path:
    return Path(url.removeprefix("sqlite:///"))


class Looker:
    """A plain connection to ``url`` taking ``?`` placeholders on both backends."""

    def __init__(self, url: str) -> None:
        self._conn = connect(url)
        self._postgres = not isinstance(self._conn, sqlite3.Connection)

    def execute(self, query: str, params: Sequence[object] = ()) -> Any:
        return self._conn.execute(
            query.replace("%", "%%").replace("?", "%s") if self._postgres else query, params
        )

    def commit(self) -> None:
        """What was written, committed (a PostgreSQL connection here commits each statement)."""
        if not self._postgres:
            self._conn.commit()

    def close(self) -> None:
        self._conn.close()


def _literal(value: object) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, bool | int | float):
        return str(int(value)) if isinstance(value, bool) else str(value)
    return "'" + str(value).replace("'", "''") + "'"


def sql_lines(url: str, conn: Connection | None = None) -> list[str]:
    """Every row of every table as ``INSERT INTO "table" VALUES(…);`` lines (as SQLite's iterdump
    writes them), in a stable order; through ``conn`` when given (an autocommit connection)."""
    lines: list[str] = []
    own = conn is None
    looker = connect(url) if conn is None else conn
    try:
        for table in tables(url, looker):
            rows = looker.execute(f'SELECT * FROM "{table}"').fetchall()
            found = [f'INSERT INTO "{table}" VALUES({",".join(_literal(v) for v in row)});' for row in rows]
            lines.extend(sorted(found))
    finally:
        if own:
            looker.close()
    return lines


def damage(path: Path) -> None:
    """Damage an SQLite file: fill a table of its own (nothing of the bot's reads it), checkpointed
    into the main file, then rot bits in its pages."""
    conn = sqlite3.connect(path)
    try:
        conn.execute("CREATE TABLE filler (text TEXT)")
        conn.executemany("INSERT INTO filler VALUES (?)", [("f" * 300,) for _ in range(2000)])
        conn.commit()
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    data = bytearray(path.read_bytes())
    page = 4096
    for offset in range(len(data) - 40 * page, len(data) - page, 5 * page):
        data[offset + 100 : offset + 300] = b"\xa5" * 200
    path.write_bytes(bytes(data))


# ---- reading through the store, as the bot does: one line a test ------------------------------------


async def ruleset_of(store: Store, guild_id: int) -> Ruleset:
    return await store.read(guild_id, Reader.ruleset)


async def characters_of(store: Store, guild_id: int) -> list[Character]:
    return await store.read(guild_id, Reader.characters)


async def character_of(store: Store, guild_id: int, character_id: int) -> Character:
    return await store.read(guild_id, lambda r: r.character(character_id))


async def history_of(
    store: Store, guild_id: int, character_id: int | None = None, *, page: int = 1, per_page: int = 10
) -> tuple[list[Event], int]:
    return await store.read(guild_id, lambda r: r.history(character_id, page=page, per_page=per_page))


async def boards_of(store: Store, guild_id: int) -> list[Board]:
    return await store.read(guild_id, Reader.boards)


async def every_board(store: Store) -> list[Board]:
    return await store.all_boards()


async def export_of(store: Store, guild_id: int) -> bytes:
    """The server's export file, as its owner asks for it."""
    return await admin.export(store, Actor(user_id=1, guild_id=guild_id, owns_guild=True))
