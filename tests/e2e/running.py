"""The real bot (``python -m bot``) in its own process over the Discord stand-in, and its database file.

Used with the table of ``tests/table.py``::

    async with DiscordStandin(guilds=[server_payload(GUILD)]) as standin:
        async with running_bot(standin, database_url, tmp_path / "bot.log") as bot:
            table = Table.over(standin, GUILD)
            await table.setup_gm_role()
            shown = await table.say("character create", {"name": "Aria", "player": player(ALICE)})
            assert "Aria" in shown.text and pinged(shown) == [ALICE]
"""

from __future__ import annotations

import contextlib
import sqlite3
import sys
from collections.abc import AsyncIterator, Iterable, Iterator
from pathlib import Path
from typing import Any

import psycopg

from tests.e2e.process import BotProcess
from tests.fakediscord import DiscordStandin, guild_payload, role_payload, text_channel_payload
from tests.table import GM_ROLE, OWNER, table_channel

Payload = dict[str, Any]

BOT_ARGV = [sys.executable, "-m", "bot"]
COMMANDS_HASH_KEY = "synced_commands_sha256"  # bot/interface/client.py, read back from the file


def server_payload(guild_id: int, *, gm_role: int = GM_ROLE, locale: str = "en-US") -> Payload:
    """A server owned by OWNER with a GM role (and @everyone), as GUILD_CREATE gives it."""
    return guild_payload(
        guild_id,
        name=f"table-{guild_id % 1000}",
        owner_id=OWNER,
        preferred_locale=locale,
        roles=[role_payload(gm_role, "MJ", position=1)],
        channels=[text_channel_payload(table_channel(guild_id), guild_id=guild_id, name="table")],
    )


def bot_env(standin: DiscordStandin, database_url: str, **extra: str) -> dict[str, str]:
    return standin.bot_env(DATABASE_URL=database_url, LOG_LEVEL="INFO", **extra)


@contextlib.asynccontextmanager
async def running_bot(
    standin: DiscordStandin, database_url: str, log_path: Path
) -> AsyncIterator[BotProcess]:
    """``python -m bot`` on ``database_url``, watched by the stand-in, once ready; stopped with SIGTERM
    on exit (its output is printed, so a failing test shows it)."""
    proc = await BotProcess.start(BOT_ARGV, env=bot_env(standin, database_url), log_path=log_path)
    standin.watch(proc.unexpected_exit)
    try:
        await wait_ready_after(standin, proc)
        yield proc
    finally:
        await proc.stop()
        print(f"---- bot output ({log_path.name}, exit {proc.returncode}) ----\n{proc.output()}")


async def wait_ready_after(standin: DiscordStandin, proc: BotProcess, within: float = 20.0) -> None:
    """Until this process (not an earlier one) IDENTIFYed and got READY + its servers."""
    floor = len(standin.connections)
    for conn in standin.connections:
        if conn.opened_at >= proc.started_at:
            floor = min(floor, conn.index)

    def ready() -> bool:
        return any(
            c.index >= floor and c.kind == "identify" and c.established_at is not None
            for c in standin.connections
        )

    await standin.wait_for(ready, within=within, what="the bot to IDENTIFY")


# ---------------------------------------------------------------------------------------- the file


class KeyedRow(tuple[Any, ...]):
    """A row read by index or by column name, on both backends (like ``sqlite3.Row``)."""

    names: tuple[str, ...] = ()

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return super().__getitem__(self.names.index(key))
        return super().__getitem__(key)


class DbView:
    """A plain connection to the bot's database (after the bot stopped, or alongside it), taking
    ``?`` placeholders on both backends."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.postgres = url.startswith("postgresql://")
        self._conn: Any
        if self.postgres:
            self._conn = psycopg.connect(url, autocommit=True)
        else:
            self._conn = sqlite3.connect(
                f"file:{url.removeprefix('sqlite:///')}?mode=ro", uri=True, timeout=5
            )

    def execute(self, query: str, params: Iterable[Any] = ()) -> Any:
        if self.postgres:
            cursor = self._conn.cursor()
            cursor.execute(query.replace("%", "%%").replace("?", "%s"), tuple(params))
        else:
            cursor = self._conn.execute(query, tuple(params))
        names = tuple(d[0] for d in cursor.description or ())
        return _Rows([_keyed(names, row) for row in cursor.fetchall()])

    def integrity(self) -> str:
        """SQLite's ``PRAGMA integrity_check`` ("ok"); PostgreSQL checks its pages itself."""
        if self.postgres:
            return "ok" if self.execute("SELECT 1").fetchone()[0] == 1 else "unreachable"
        return str(self.execute("PRAGMA integrity_check").fetchone()[0])

    def close(self) -> None:
        self._conn.close()


def _keyed(names: tuple[str, ...], values: Iterable[Any]) -> KeyedRow:
    row = KeyedRow(values)
    row.names = names
    return row


class _Rows(list[KeyedRow]):
    def fetchall(self) -> list[KeyedRow]:
        return list(self)

    def fetchone(self) -> KeyedRow | None:
        return self[0] if self else None


@contextlib.contextmanager
def read_db(database_url: str) -> Iterator[DbView]:
    conn = DbView(database_url)
    try:
        yield conn
    finally:
        conn.close()


def wound_counts(conn: DbView, character_id: int, track: str) -> tuple[int, int, int]:
    """Current wounds held per severity (light, serious, critical) on ``track``."""
    rows = conn.execute(
        "SELECT current_severity, COUNT(*) FROM wounds WHERE character_id = ? AND track = ?"
        " AND current_severity IS NOT NULL GROUP BY current_severity",
        (character_id, track),
    ).fetchall()
    counts = [0, 0, 0]
    for severity, count in rows:
        counts[severity] = count
    return counts[0], counts[1], counts[2]


def rows(conn: DbView, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    return [tuple(row) for row in conn.execute(sql, params)]


def character_row(conn: DbView, guild_id: int, name: str) -> KeyedRow:
    row: KeyedRow | None = conn.execute(
        "SELECT * FROM characters WHERE guild_id = ? AND name = ? AND deleted_at IS NULL", (guild_id, name)
    ).fetchone()
    assert row is not None, f"no character {name!r} in server {guild_id}"
    return row


def meta(conn: DbView, key: str) -> str | None:
    row = conn.execute("SELECT meta_value FROM meta WHERE meta_key = ?", (key,)).fetchone()
    return None if row is None else str(row[0])
