"""The benchmarks' floors: a plain discord.py bot of its own, apart from the bot it is held against, as
an outside measurement would have it. ``python -m bench.floor_bot`` runs it as its own process (what
``python -m bench e2e`` starts beside ``python -m bot``); :class:`FloorBot` is the same bot in process
(``python -m bench``).

Two guild commands, answered with a fixed embed:

* ``/bench-floor`` touches no database: what any command costs before it does anything (the **trivial
  command**);
* ``/bench-floor-write`` first commits one durable row, the interaction's id, then answers (the **write
  floor**: what any change costs at least). On SQLite the row goes to a file of its own, with the
  bot's durability (WAL, ``synchronous = FULL``: bot/storage/sqlite.py); on PostgreSQL, to a table of
  its own, in autocommit.

Environment of the process: DISCORD_TOKEN, DISCORD_API_BASE (a local stand-in), FLOOR_DATABASE_URL
(``sqlite:///path`` or ``postgresql://…``), optional LOG_LEVEL (WARNING). SIGTERM/SIGINT close it."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import aiosqlite
import discord
import psycopg
import yarl
from discord import app_commands

DISCORD_API_BASE = "https://discord.com/api/v10"
FLOOR_EMBED = discord.Embed(
    title="Benchmark floor", description="A fixed answer: no database, no rules.", colour=0x5865F2
)
TABLE = "bench_floor_rows"


class Rows(Protocol):
    """Where the write floor commits its row."""

    async def record(self, interaction_id: int) -> None: ...

    async def close(self) -> None: ...


class SqliteRows:
    """One aiosqlite connection in autocommit: each row is one durable transaction."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    @classmethod
    async def open(cls, path: Path) -> SqliteRows:
        conn = await aiosqlite.connect(path, isolation_level=None)
        for pragma in ("PRAGMA journal_mode = WAL", "PRAGMA synchronous = FULL"):
            await conn.execute(pragma)
        await conn.execute(f"CREATE TABLE IF NOT EXISTS {TABLE} (id INTEGER PRIMARY KEY)")
        return cls(conn)

    async def record(self, interaction_id: int) -> None:
        await self.conn.execute(f"INSERT INTO {TABLE} (id) VALUES (?)", (interaction_id,))

    async def close(self) -> None:
        await self.conn.close()


class PostgresRows:
    """One psycopg connection in autocommit (its statements run one at a time)."""

    def __init__(self, conn: psycopg.AsyncConnection[Any]) -> None:
        self.conn = conn

    @classmethod
    async def open(cls, url: str) -> PostgresRows:
        conn = await psycopg.AsyncConnection.connect(url, autocommit=True)
        await conn.execute(f"CREATE TABLE IF NOT EXISTS {TABLE} (id BIGINT PRIMARY KEY)")
        return cls(conn)

    async def record(self, interaction_id: int) -> None:
        await self.conn.execute(f"INSERT INTO {TABLE} (id) VALUES (%s)", (interaction_id,))

    async def close(self) -> None:
        await self.conn.close()


async def open_rows(url: str) -> Rows:
    """``sqlite:///relative.db``, ``sqlite:////absolute.db`` or ``postgresql://…``."""
    if url.startswith(("postgresql://", "postgres://")):
        return await PostgresRows.open(url)
    if not url.startswith("sqlite:///"):
        raise ValueError(f"FLOOR_DATABASE_URL: sqlite:///path or postgresql://…, not {url[:20]!r}")
    return await SqliteRows.open(Path(url.removeprefix("sqlite:///")))


class FloorBot(discord.Client):
    """The two floor commands on a plain client and its command tree, synced at log-in."""

    def __init__(self, rows: Rows) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # as the bot: guild-only commands need the guilds
        super().__init__(intents=intents, allowed_mentions=discord.AllowedMentions.none())
        self.rows = rows
        self.tree = app_commands.CommandTree(self)

        @self.tree.command(name="bench-floor", description="Benchmark floor: a fixed answer, no database")
        @app_commands.guild_only()
        async def floor(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(embed=FLOOR_EMBED)

        @self.tree.command(
            name="bench-floor-write", description="Benchmark floor: one durable write, then a fixed answer"
        )
        @app_commands.guild_only()
        async def floor_write(interaction: discord.Interaction) -> None:
            await self.rows.record(interaction.id)
            await interaction.response.send_message(embed=FLOOR_EMBED)

    async def setup_hook(self) -> None:
        if discord.http.Route.BASE != DISCORD_API_BASE:
            # A non-sharded client dials Discord's own gateway: take the one the stand-in names.
            _, url, _ = await self.http.get_bot_gateway()
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
        await self.tree.sync()


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """The bot's event loop (uvloop's where it is installed): the floors and the bot run alike."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


async def serve() -> None:
    discord.http.Route.BASE = os.environ.get("DISCORD_API_BASE", DISCORD_API_BASE).rstrip("/")
    rows = await open_rows(os.environ["FLOOR_DATABASE_URL"])
    try:
        async with FloorBot(rows) as bot:
            stopping = asyncio.Event()
            for sig in (signal.SIGINT, signal.SIGTERM):
                asyncio.get_running_loop().add_signal_handler(sig, stopping.set)
            runner = asyncio.create_task(bot.start(os.environ["DISCORD_TOKEN"]))
            waiter = asyncio.create_task(stopping.wait())
            done, _ = await asyncio.wait({runner, waiter}, return_when=asyncio.FIRST_COMPLETED)
            if runner in done:
                runner.result()
            waiter.cancel()
            await bot.close()
            runner.cancel()
    finally:
        await rows.close()


def main() -> None:
    discord.utils.setup_logging(level=getattr(logging, os.environ.get("LOG_LEVEL", "WARNING")))
    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        runner.run(serve())


if __name__ == "__main__":
    main()
