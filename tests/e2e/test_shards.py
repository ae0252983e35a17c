"""Shards: the real bot process (``python -m bot``) against a stand-in with two shards.

* Unset, the bot runs every shard Discord recommends (``GET /gateway/bot``); ``SHARD_COUNT`` and
  ``SHARD_IDS`` make a process run some of them; servers of every shard it runs are answered.
* IDENTIFYs of one bucket (``shard_id % max_concurrency``) come one per identify window.
* ``HEALTH_PORT``: ``/healthz`` answers while the process runs, ``/readyz`` 200 only once every shard of
  the process is connected (503 before, saying which one is not).
* On SQLite, a second process on the same file is refused at start, in one line, and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import sqlite3
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.e2e.process import REPO, BotProcess
from tests.e2e.running import BOT_ARGV, server_payload
from tests.fakediscord import DiscordStandin
from tests.table import GM_ROLE, Table, player

pytestmark = pytest.mark.slow

GUILD_0 = 1200000000004194404  # (id >> 22) % 2 == 0
GUILD_1 = 1200000000000000100  # (id >> 22) % 2 == 1
GM_ROLE_1 = GM_ROLE + 1
PLAYER = 1200000000000000003


def two_shard_standin(*, max_concurrency: int = 1) -> DiscordStandin:
    guilds = [server_payload(GUILD_0), server_payload(GUILD_1, gm_role=GM_ROLE_1)]
    standin = DiscordStandin(guilds=guilds, shard_count=2, max_concurrency=max_concurrency)
    assert [standin.shard_of(GUILD_0), standin.shard_of(GUILD_1)] == [0, 1]
    return standin


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.asynccontextmanager
async def bot_process(standin: DiscordStandin, log_path: Path, **env: str) -> AsyncIterator[BotProcess]:
    """``python -m bot`` with ``env`` (DATABASE_URL among them), stopped with SIGTERM on leaving."""
    proc = await BotProcess.start(BOT_ARGV, env=standin.bot_env(LOG_LEVEL="INFO", **env), log_path=log_path)
    standin.watch(proc.unexpected_exit)
    try:
        yield proc
    finally:
        await proc.stop()
        print(f"---- bot output ({log_path.name}, exit {proc.returncode}) ----\n{proc.output()}")


async def get(port: int, path: str) -> tuple[int, Any]:
    async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}{path}") as response:
        return response.status, await response.json()


async def ready_within(port: int, seconds: float) -> tuple[int, Any]:
    """``/readyz`` until it says 200 (discord.py is ready a little after the last GUILD_CREATE), or
    its last answer after ``seconds``."""
    give_up = time.monotonic() + seconds
    while True:
        status, body = await get(port, "/readyz")
        if status == 200 or time.monotonic() > give_up:
            return status, body
        await asyncio.sleep(0.1)


async def play(table: Table) -> None:
    """A GM role, a character and a wound: the server is served."""
    await table.setup_gm_role()
    await table.say("character create", {"name": "Aria", "player": player(PLAYER)})
    shown = await table.say("wound", {"severity": "light", "target": player(PLAYER)})
    assert "light 1/4" in shown.text, shown.text


async def test_one_process_runs_every_shard_discord_recommends(tmp_path: Path) -> None:
    port = free_port()
    # Two buckets (max_concurrency 2): the shards do not wait for each other's identify window.
    async with two_shard_standin(max_concurrency=2) as standin:
        database = f"sqlite:///{tmp_path / 'harmonies.db'}"
        env = {"DATABASE_URL": database, "HEALTH_PORT": str(port), "IDENTIFY_WINDOW": "60"}
        async with bot_process(standin, tmp_path / "bot.log", **env) as bot:
            connections = await standin.wait_shards(since=bot.started_at)
            assert {s: c.identify["shard"] for s, c in connections.items() if c.identify} == {
                0: [0, 2],
                1: [1, 2],
            }
            await play(Table.over(standin, GUILD_0))
            await play(Table.over(standin, GUILD_1, gm_role=GM_ROLE_1))
            assert await get(port, "/healthz") == (200, {"alive": True})
            status, body = await ready_within(port, 20)
            assert (status, body) == (
                200,
                {"ready": True, "shards": {"0": "connected", "1": "connected"}, "database": "ok"},
            )
        assert bot.returncode == 0
        assert "Running shards 0-1 of 2" in bot.output() and "(shards 0-1 of 2)" in bot.output()
        standin.validate_requests()


async def test_identifies_of_one_bucket_wait_for_the_window_and_readyz_for_every_shard(
    tmp_path: Path,
) -> None:
    port = free_port()
    async with two_shard_standin(max_concurrency=1) as standin:
        env = {
            "DATABASE_URL": f"sqlite:///{tmp_path / 'harmonies.db'}",
            "SHARD_COUNT": "2",
            "HEALTH_PORT": str(port),
            "IDENTIFY_WINDOW": "60",  # far longer than this test: shard 1 must not IDENTIFY during it
        }
        async with bot_process(standin, tmp_path / "bot.log", **env) as bot:
            await standin.wait_shards([0], since=bot.started_at)
            await play(Table.over(standin, GUILD_0))  # shard 0 serves while shard 1 waits for its turn
            status, body = await get(port, "/readyz")
            assert (status, body["ready"], body["shards"]) == (
                503,
                False,
                {"0": "connected", "1": "disconnected"},
            )
            assert await get(port, "/healthz") == (200, {"alive": True})
            identified = [c.identify for c in standin.connections if c.kind == "identify"]
            assert [i["shard"] for i in identified if i] == [[0, 2]]


async def test_a_process_serves_only_the_shards_it_is_given(tmp_path: Path) -> None:
    async with two_shard_standin() as standin:
        env = {
            "DATABASE_URL": f"sqlite:///{tmp_path / 'harmonies.db'}",
            "SHARD_COUNT": "2",
            "SHARD_IDS": "1",
        }
        async with bot_process(standin, tmp_path / "bot.log", **env) as bot:
            connections = await standin.wait_shards([1], since=bot.started_at)
            await play(Table.over(standin, GUILD_1, gm_role=GM_ROLE_1))
            assert [c.identify["shard"] for c in standin.connections if c.identify] == [[1, 2]]
            shard_1 = connections[1].index
            ready = next(f for f in standin.gateway_log if f.t == "READY" and f.connection == shard_1)
            assert [g["id"] for g in ready.d["guilds"]] == [str(GUILD_1)]
        output = bot.output()
        assert "Running shards 1 of 2" in output
        # Each line carries the shards: its own in the shard's tasks, the process's elsewhere.
        assert "[shard 1]: Shard ID 1 has connected to Gateway" in output, output
        assert "[shards 1]: Shutting down" in output, output


async def test_a_second_process_on_one_sqlite_file_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    db_path = tmp_path / "harmonies.db"
    async with DiscordStandin(guilds=[server_payload(GUILD_1)]) as standin:
        table = Table.over(standin, GUILD_1)
        async with bot_process(standin, tmp_path / "first.log", DATABASE_URL=f"sqlite:///{db_path}") as first:
            await standin.wait_shards(since=first.started_at)
            await play(table)
            before = dump(db_path)
            requests = len(standin.requests)
            second = await BotProcess.start(
                BOT_ARGV,
                env={"PYTHONPATH": str(REPO), **standin.bot_env(DATABASE_URL=f"sqlite:///{db_path}")},
                log_path=tmp_path / "second.log",
                cwd=tmp_path,
            )
            code = await asyncio.wait_for(second.proc.wait(), 30)
            lines = [line for line in second.output().splitlines() if line.strip()]
            assert code != 0 and len(lines) == 1, second.output()
            assert lines[0].startswith("error: another bot process"), lines[0]
            assert f"process {first.pid}" in lines[0] and "PostgreSQL" in lines[0], lines[0]
            assert len(standin.requests) == requests  # it never reached Discord
            assert dump(db_path) == before
            # The first one goes on serving.
            shown = await table.say("wound", {"severity": "light", "character": "Aria"})
            assert "light 2/4" in shown.text, shown.text
        assert first.returncode == 0
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


async def test_bad_shard_settings_stop_the_start_in_one_line(tmp_path: Path) -> None:
    cases = {
        "no-count": ({"SHARD_IDS": "0-1"}, "SHARD_IDS needs SHARD_COUNT"),
        "beyond": ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "SHARD_IDS 2 is not below SHARD_COUNT 2"),
        "garbage": ({"SHARD_COUNT": "2", "SHARD_IDS": "a-b"}, "SHARD_IDS must look like 0-3 or 0,1"),
    }
    for name, (env, said) in cases.items():
        full = {
            "PYTHONPATH": str(REPO),
            "DISCORD_TOKEN": "token",
            "DATABASE_URL": f"sqlite:///{tmp_path / name}.db",
            **env,
        }
        proc = await BotProcess.start(BOT_ARGV, env=full, log_path=tmp_path / f"{name}.log", cwd=tmp_path)
        code = await asyncio.wait_for(proc.proc.wait(), 30)
        lines = [line for line in proc.output().splitlines() if line.strip()]
        assert code != 0 and len(lines) == 1 and lines[0].startswith("error: bad setting"), proc.output()
        assert said in lines[0], lines[0]
        assert not (tmp_path / f"{name}.db").exists()


def dump(db_path: Path) -> list[str]:
    with contextlib.closing(sqlite3.connect(db_path)) as conn:
        return list(conn.iterdump())
