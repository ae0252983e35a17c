"""The real bot (``python -m bot``) on a throwaway PostgreSQL cluster that the test restarts, kills,
freezes, fills, locks and exhausts (``tests/e2e/test_postgres_faults.py``).

Two servers play: each change is a ``/character create`` of a name of its own, so that the database
says exactly which changes were committed. Every interaction's final answer is kept as an
:class:`Outcome`; :meth:`Game.check` then holds the bot to its word: every change answered as done is
there exactly once, every change answered "nothing was changed" is not there, nothing is there that
was not answered, and every answer came within Discord's 3 s (a deferral at least; the stand-in
refuses a later callback) and the final one within :data:`ANSWER_S`.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import socket
import time
from collections.abc import AsyncIterator, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import psycopg
from psycopg import sql as pgsql

from tests.e2e.process import BotProcess
from tests.e2e.running import BOT_ARGV, bot_env, server_payload, wait_ready_after
from tests.fakediscord import ROUTE_WEBHOOK, DiscordStandin, build_reply
from tests.fakediscord.rest import CB_DEFERRED_MESSAGE
from tests.postgres import Cluster, with_database
from tests.table import GUILD, OTHER_GM_ROLE, OTHER_GUILD, Table, shown

DISCORD_DEADLINE = 3.0  # seconds Discord gives a bot to answer an interaction
ANSWER_S = 10.0  # every command's final answer within this (issue 27)
RECOVERY_S = 10.0  # a bound on the test's wait for readiness once the fault is lifted
DATABASE = "harmonies_faults"

DONE, UNCHANGED, UNCONFIRMED, FULL, READ_ONLY = "done", "unchanged", "unconfirmed", "full", "read-only"
_REFUSALS = {
    "nothing was changed": UNCHANGED,
    "did not confirm": UNCONFIRMED,
    "is full": FULL,
    "read-only": READ_ONLY,
}


@dataclass
class Outcome:
    guild_id: int
    name: str
    kind: str
    text: str
    deferred: bool
    answered_in: float


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def admin(url: str, statement: str | pgsql.Composed) -> None:
    with psycopg.connect(url, autocommit=True, connect_timeout=5) as conn:
        conn.execute(statement)


@dataclass
class Game:
    cluster: Cluster
    url: str
    standin: DiscordStandin
    bot: BotProcess
    health_port: int
    tables: dict[int, Table]
    outcomes: list[Outcome] = field(default_factory=list)
    recovery_s: float | None = None  # from the fault lifted to /readyz 200 (reported, not asserted)
    _names: Iterator[int] = field(default_factory=itertools.count)

    # ---- playing

    async def change(self, guild_id: int) -> Outcome:
        """One ``/character create`` in ``guild_id``, to its final answer."""
        name = f"c{guild_id % 1000}-{next(self._names)}"
        table = self.tables[guild_id]
        exchange = await table.send("character create", {"name": name}, wait=False)
        await exchange.wait_callback(within=ANSWER_S)
        deferred = exchange.response["type"] == CB_DEFERRED_MESSAGE
        if deferred:
            final = await exchange.wait_request(
                lambda r: r.route == ROUTE_WEBHOOK and r.method == "POST" and r.ok,
                within=ANSWER_S,
                what="the follow-up",
            )
        else:
            final = exchange.callback
        reply = build_reply(self.standin, exchange)
        private = all(m.ephemeral for m in shown(reply))
        kind = DONE if not private and name in reply.text else "?"
        if private:
            kind = next((k for phrase, k in _REFUSALS.items() if phrase in reply.text), "?")
        outcome = Outcome(guild_id, name, kind, reply.text, deferred, final.at - exchange.sent_at)
        self.outcomes.append(outcome)
        assert kind != "?", f"unexpected answer to /character create {name}: {reply.text!r}"
        return outcome

    async def changes(self, count: int, guilds: Iterable[int] | None = None) -> list[Outcome]:
        """``count`` changes in each of ``guilds`` (all by default), all at once."""
        chosen = list(guilds) if guilds is not None else list(self.tables)
        return list(await asyncio.gather(*(self.change(g) for _ in range(count) for g in chosen)))

    async def readiness(self) -> tuple[int, Any]:
        url = f"http://127.0.0.1:{self.health_port}/readyz"
        async with aiohttp.ClientSession() as http, http.get(url) as response:
            return response.status, await response.json()

    async def wait_readiness(self, ready: bool) -> Any:
        """``/readyz`` until it says ``ready`` (or not); its body."""
        give_up = time.monotonic() + RECOVERY_S
        while True:
            status, body = await self.readiness()
            if (status == 200) == ready:
                return body
            assert time.monotonic() < give_up, f"/readyz still says {status} {body}"
            await asyncio.sleep(0.1)

    async def recovered(self) -> None:
        """The fault lifted, the same bot process serves every server again."""
        began = time.monotonic()
        await self.wait_readiness(True)
        self.recovery_s = time.monotonic() - began
        assert {o.kind for o in await self.changes(3)} == {DONE}
        assert self.bot.returncode is None

    # ---- the bot's word against the database

    def committed(self) -> dict[tuple[int, str], int]:
        with psycopg.connect(self.url, autocommit=True) as conn:
            rows = conn.execute(
                "SELECT guild_id, name, COUNT(*) FROM characters WHERE name LIKE 'c%-%' "
                "GROUP BY guild_id, name"
            ).fetchall()
        return {(int(g), str(n)): int(c) for g, n, c in rows}

    def check(self) -> None:
        committed = self.committed()
        for o in self.outcomes:
            found = committed.pop((o.guild_id, o.name), 0)
            if o.kind == DONE:
                assert found == 1, f"{o.name} answered as done, found {found} times"
            elif o.kind != UNCONFIRMED:  # an unconfirmed change may be there (once) or not
                assert found == 0, f"{o.name} answered {o.kind!r} ({o.text!r}) but committed"
            else:
                assert found <= 1, o
            assert o.answered_in <= ANSWER_S, f"{o.name} answered after {o.answered_in:.1f} s"
        assert committed == {}, f"committed without an answer: {committed}"

    def report(self) -> str:
        kinds = sorted({o.kind for o in self.outcomes})
        slowest = max((o.answered_in for o in self.outcomes), default=0.0)
        deferred = sum(o.deferred for o in self.outcomes)
        ready = "" if self.recovery_s is None else f", ready {self.recovery_s:.2f} s after the fault"
        answers = f"{deferred} deferred, slowest answer {slowest:.2f} s"
        return f"{len(self.outcomes)} changes {kinds}, {answers}{ready}"


@contextlib.asynccontextmanager
async def game(cluster: Cluster, tmp_path: Path, *, tablespace: str | None = None) -> AsyncIterator[Game]:
    """The bot on a fresh database of ``cluster`` (in ``tablespace``), two servers set up with a GM
    role; checked (:meth:`Game.check`) on the way out."""
    where = pgsql.SQL(" TABLESPACE {}").format(pgsql.Identifier(tablespace)) if tablespace else pgsql.SQL("")
    admin(cluster.url, pgsql.SQL("CREATE DATABASE {}").format(pgsql.Identifier(DATABASE)) + where)
    url = with_database(cluster.url, DATABASE)
    guilds = [server_payload(GUILD), server_payload(OTHER_GUILD, gm_role=OTHER_GM_ROLE)]
    async with DiscordStandin(guilds=guilds) as standin:
        standin.callback_deadline = DISCORD_DEADLINE
        port = free_port()
        env = bot_env(standin, url, HEALTH_PORT=str(port))
        proc = await BotProcess.start(BOT_ARGV, env=env, log_path=tmp_path / "bot.log")
        standin.watch(proc.unexpected_exit)
        try:
            await wait_ready_after(standin, proc, within=30)
            tables = {
                GUILD: Table.over(standin, GUILD),
                OTHER_GUILD: Table.over(standin, OTHER_GUILD, gm_role=OTHER_GM_ROLE),
            }
            for table in tables.values():
                await table.setup_gm_role()
            played = Game(cluster, url, standin, proc, port, tables)
            await played.wait_readiness(True)
            yield played
            played.check()
            print("----", played.report())
        finally:
            await proc.stop()
            print(f"---- bot output (exit {proc.returncode}) ----\n{proc.output()[-20000:]}")
