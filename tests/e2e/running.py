"""Driving the real bot (``python -m bot``) through the stand-in: a table of players per server.

Used by test_session.py, test_crash.py and test_failures.py::

    async with DiscordStandin(guilds=[server_payload(GUILD)]) as standin:
        async with running_bot(standin, database_url, tmp_path / "bot.log") as bot:
            table = Table(standin, GUILD)
            await table.setup_gm_role()
            shown = await table.say("character create", {"name": "Aria", "player": player(ALICE)})
            assert "Aria" in shown.text and shown.pinged == [ALICE]

Everything here is plain JSON: the bot runs in another process and only talks HTTP/websocket.
"""

from __future__ import annotations

import contextlib
import sqlite3
import sys
from collections.abc import AsyncIterator, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg

from tests.e2e.process import BotProcess
from tests.fakediscord import (
    EPHEMERAL,
    ROUTE_CALLBACK,
    ROUTE_ORIGINAL,
    ROUTE_WEBHOOK,
    ROUTE_WEBHOOK_MESSAGE,
    DiscordStandin,
    Interaction,
    guild_payload,
    role,
    role_payload,
    slash,
    text_channel_payload,
    user,
)
from tests.fakediscord.rest import CB_DEFERRED_MESSAGE, CB_MESSAGE, CB_UPDATE

Payload = dict[str, Any]

# Ids of one game: a server owner, a GM (by role), two players. Distinct from the harness defaults.
OWNER = 1200000000000000001
GM = 1200000000000000002
ALICE = 1200000000000000003
BOB = 1200000000000000004
GUILD = 1200000000000000100
FRENCH_GUILD = 1200000000000000200
GM_ROLE = 1200000000000000300  # the same role id in both servers would be impossible on Discord
FRENCH_GM_ROLE = 1200000000000000301

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
        channels=[text_channel_payload(guild_id + 1, guild_id=guild_id, name="table")],
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


@dataclass
class Shown:
    """What the channel (or the caller, when ephemeral) ends up seeing for one interaction."""

    exchange: Interaction
    message: Payload  # the message body the bot sent (callback data, or the follow-up of a deferral)

    @property
    def ephemeral(self) -> bool:
        return bool(int(self.message.get("flags") or 0) & EPHEMERAL)

    @property
    def content(self) -> str:
        return str(self.message.get("content") or "")

    @property
    def embeds(self) -> list[Payload]:
        return list(self.message.get("embeds") or [])

    @property
    def text(self) -> str:
        """Content and every embed's text, in one string (for "contains" checks)."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title") or "", embed.get("description") or ""]
            for f in embed.get("fields") or []:
                parts += [f.get("name") or "", f.get("value") or ""]
            parts.append((embed.get("footer") or {}).get("text") or "")
        return "\n".join(p for p in parts if p)

    @property
    def allowed_mentions(self) -> Payload:
        found: Payload = self.message.get("allowed_mentions") or {}
        return found

    @property
    def pinged(self) -> list[int]:
        """Who this message can ping, judged as Discord would from ``allowed_mentions``: the users listed.
        Fails when it could ping a role, @everyone, or whoever the content mentions (``parse``)."""
        allowed = self.allowed_mentions
        parse = allowed.get("parse")
        if parse is None:
            # No allowed_mentions at all: Discord would parse everything in the content.
            raise AssertionError(f"message without allowed_mentions: {self.message}")
        assert "everyone" not in parse and "roles" not in parse, allowed
        assert not allowed.get("roles"), allowed
        if "users" in parse:
            raise AssertionError(f"parse users pings anyone mentioned: {allowed}")
        return [int(u) for u in allowed.get("users") or []]

    def __str__(self) -> str:
        return self.text


class Table:
    """One server's players, sending slash commands through the stand-in."""

    def __init__(
        self,
        standin: DiscordStandin,
        guild_id: int,
        *,
        gm_role: int = GM_ROLE,
        locale: str = "en-US",
        guild_locale: str = "en-US",
    ) -> None:
        self.standin = standin
        self.guild_id = guild_id
        self.gm_role = gm_role
        self.locale = locale
        self.guild_locale = guild_locale
        self.channel_id = guild_id + 1

    def payload(
        self,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        by: int = GM,
        roles: Iterable[int] | None = None,
    ) -> Payload:
        if roles is None:
            roles = (self.gm_role,) if by == GM else ()
        return slash(
            command,
            dict(options or {}),
            guild_id=self.guild_id,
            channel_id=self.channel_id,
            user_id=by,
            roles=roles,
            locale=self.locale,
            guild_locale=self.guild_locale,
        )

    async def send(
        self,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        by: int = GM,
        roles: Iterable[int] | None = None,
        wait: bool = True,
        within: float = 10.0,
    ) -> Interaction:
        payload = self.payload(command, options, by=by, roles=roles)
        return await self.standin.interaction(payload, wait=wait, within=within)

    async def say(
        self,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        by: int = GM,
        roles: Iterable[int] | None = None,
        public: bool | None = True,
    ) -> Shown:
        """Run a command and return what it showed; ``public=True`` (default) fails on an ephemeral
        answer (a refusal) with its text, ``public=False`` on a public one, ``None`` accepts both."""
        exchange = await self.send(command, options, by=by, roles=roles)
        shown = await shown_by(exchange)
        if public is not None and shown.ephemeral == public:
            kind = "an ephemeral" if shown.ephemeral else "a public"
            raise AssertionError(f"/{command} {dict(options or {})} by {by} gave {kind} answer:\n{shown}")
        return shown

    async def setup_gm_role(self) -> Shown:
        """The server owner names the GM role (as a real server starts)."""
        return await self.say("config gm-role", {"role": role(self.gm_role, "MJ")}, by=OWNER)


async def shown_by(exchange: Interaction, within: float = 10.0) -> Shown:
    """The message an interaction produced: the callback's, or the follow-up replacing a deferral."""
    await exchange.wait_callback(within=within)
    kind = exchange.response["type"]
    if kind == CB_MESSAGE:
        return Shown(exchange, dict(exchange.response.get("data") or {}))
    assert kind == CB_DEFERRED_MESSAGE, exchange.response
    followup = await exchange.wait_followup(1, within=within)
    return Shown(exchange, dict(followup.json or {}))


WEBHOOK_MESSAGE_ROUTES = (ROUTE_WEBHOOK, ROUTE_ORIGINAL, ROUTE_WEBHOOK_MESSAGE)


def sent_messages(standin: DiscordStandin) -> list[Payload]:
    """Every message body the bot sent: callbacks (4, 7), follow-ups and edits of @original."""
    bodies: list[Payload] = []
    for r in standin.requests:
        if not isinstance(r.json, dict):
            continue
        if r.route == ROUTE_CALLBACK and r.json.get("type") in (CB_MESSAGE, CB_UPDATE):
            bodies.append(dict(r.json.get("data") or {}))
        elif r.route in WEBHOOK_MESSAGE_ROUTES and r.method in ("POST", "PATCH"):
            bodies.append(dict(r.json))
    return bodies


def player(user_id: int) -> Any:
    """A USER option value for ``user_id`` (with its resolved member)."""
    return user(user_id, username=f"player{user_id % 100}")


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
