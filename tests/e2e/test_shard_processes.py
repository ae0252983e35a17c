"""Several bot processes (``python -m bot``) sharing one real PostgreSQL and a stand-in with two shards.

* Two processes, one shard each, started together: their IDENTIFYs (one bucket) come one identify
  window apart, the commands are synced once, the servers of both shards are answered.
* A hand-over: a third process identifies a shard the second still serves (Discord allows two
  sessions); a burst of wounds on one character, dealt to both processes in turn, loses nothing.
* A setting changed through one process is the one the other uses at once (two processes serving
  one shard take its interactions in turn).
* SIGKILL one process in a burst: the other's servers keep answering; restarted, the killed shard
  answers again, and every interaction that was answered is in the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from bot.ui.text import signed
from tests.e2e.process import BotProcess
from tests.e2e.running import (
    BOT_ARGV,
    COMMANDS_HASH_KEY,
    character_row,
    meta,
    read_db,
    rows,
    server_payload,
    wound_counts,
)
from tests.fakediscord import DiscordStandin, Interaction
from tests.table import GM_ROLE, Table, player

pytestmark = pytest.mark.slow

GUILD_0 = 1200000000004194404  # (id >> 22) % 2 == 0
GUILD_1 = 1200000000000000100  # (id >> 22) % 2 == 1
GM_ROLE_1 = GM_ROLE + 1
PLAYER = 1200000000000000003
WINDOW = 4.0  # IDENTIFY_WINDOW of these processes, in seconds: far above the start-up skew of two
#               processes started together, so that IDENTIFYs a window apart show the lock at work
OP_IDENTIFY = 2


def two_shard_standin() -> DiscordStandin:
    guilds = [server_payload(GUILD_0), server_payload(GUILD_1, gm_role=GM_ROLE_1)]
    standin = DiscordStandin(guilds=guilds, shard_count=2, max_concurrency=1)
    assert [standin.shard_of(GUILD_0), standin.shard_of(GUILD_1)] == [0, 1]
    return standin


class Processes:
    """The bot processes of one test, each on ``database_url`` with its ``SHARD_IDS``."""

    def __init__(self, standin: DiscordStandin, database_url: str, logs: Path) -> None:
        self.standin = standin
        self.database_url = database_url
        self.logs = logs
        self.started: list[BotProcess] = []

    async def start(self, name: str, shard_ids: str) -> BotProcess:
        env = self.standin.bot_env(
            DATABASE_URL=self.database_url,
            LOG_LEVEL="INFO",
            SHARD_COUNT="2",
            SHARD_IDS=shard_ids,
            IDENTIFY_WINDOW=str(WINDOW),
        )
        proc = await BotProcess.start(BOT_ARGV, env=env, log_path=self.logs / f"{name}.log")
        self.standin.watch(proc.unexpected_exit)
        self.started.append(proc)
        return proc

    async def stop_all(self) -> None:
        for proc in self.started:
            await proc.stop()
            print(f"---- {proc.log_path.name} (exit {proc.returncode}) ----\n{proc.output()}")


@contextlib.asynccontextmanager
async def processes(standin: DiscordStandin, database_url: str, logs: Path) -> AsyncIterator[Processes]:
    running = Processes(standin, database_url, logs)
    try:
        yield running
    finally:
        await running.stop_all()


def identify_times(standin: DiscordStandin) -> list[float]:
    return [f.at for f in standin.gateway_log if f.direction == "recv" and f.op == OP_IDENTIFY]


async def setup(table: Table, name: str) -> None:
    await table.setup_gm_role()
    await table.say("config preset", {"name": "giant", "light": 20, "serious": 20, "critical": 20})
    await table.say("character create", {"name": name, "player": player(PLAYER), "preset": "giant"})


async def burst(table: Table, name: str, tag: str, count: int) -> dict[str, Interaction]:
    """``count`` light wounds on ``name``, all sent at once, each with its own note."""
    sent: dict[str, Interaction] = {}
    for i in range(count):
        note = f"{tag} {i}"
        options = {"severity": "light", "character": name, "note": note}
        sent[note] = await table.send("wound", options, wait=False)
    return sent


def serial(lights: int) -> tuple[int, int, int]:
    """What ``lights`` light wounds leave on a giant (20 / 20 / 20), one after the other: each that does
    not fit escalates."""
    return min(lights, 20), min(max(lights - 20, 0), 20), min(max(lights - 40, 0), 20)


def answered(sent: dict[str, Interaction]) -> set[str]:
    return {note for note, e in sent.items() if any(r.ok for r in e.callbacks)}


def stored_notes(database_url: str, tag: str) -> list[str]:
    with read_db(database_url) as conn:
        return [str(n) for (n,) in rows(conn, "SELECT note FROM wounds WHERE note LIKE ?", f"{tag} %")]


async def test_two_processes_share_the_shards_and_a_hand_over_loses_nothing(
    tmp_path: Path, fresh_postgres: Callable[..., str]
) -> None:
    database_url = fresh_postgres(migrated=False)  # the processes migrate it, under a lock
    async with two_shard_standin() as standin, processes(standin, database_url, tmp_path) as bots:
        first, second = await asyncio.gather(bots.start("first", "0"), bots.start("second", "1"))
        since = min(first.started_at, second.started_at)
        connected = await standin.wait_shards(since=since, within=60)
        assert set(connected) == {0, 1}
        # One bucket (max_concurrency 1): the two IDENTIFYs, from two processes, a window apart (less
        # the time between taking the lock and the IDENTIFY reaching the stand-in).
        first_identify, second_identify = identify_times(standin)[:2]
        assert second_identify - first_identify >= WINDOW - 0.5
        # Both processes tried to sync; one did, the other found it done.
        table_0, table_1 = Table.over(standin, GUILD_0), Table.over(standin, GUILD_1, gm_role=GM_ROLE_1)
        await setup(table_0, "Ymir")
        await setup(table_1, "Surt")
        assert len(standin.command_syncs) == 1
        outputs = first.output() + second.output()
        assert outputs.count("Synced ") == 1 and outputs.count("unchanged since the last sync") == 1

        # The hand-over: a third process takes shard 1 while the second still serves it.
        third = await bots.start("third", "1")
        await standin.wait_shards([1], since=third.started_at, within=60)
        shard_1_sessions = standin.live_sessions(1)
        assert len(shard_1_sessions) == 2
        sent = await burst(table_1, "Surt", "handover", 60)
        await standin.wait_for(
            lambda: all(e.callback_type is not None for e in sent.values()),
            within=60,
            what="every wound of the burst answered",
        )
        assert answered(sent) == set(sent)
        by_session = {s.session_id: 0 for s in shard_1_sessions}
        for frame in standin.gateway_log:
            if frame.direction == "send" and frame.t == "INTERACTION_CREATE":
                for s in shard_1_sessions:
                    if s.connection is not None and frame.connection == s.connection.index:
                        by_session[s.session_id] += 1
        assert all(count > 0 for count in by_session.values()), by_session
        stored = stored_notes(database_url, "handover")
        assert sorted(stored) == sorted(sent)  # each once, none lost
        with read_db(database_url) as conn:
            surt = character_row(conn, GUILD_1, "Surt")
            assert wound_counts(conn, surt["id"], "physical") == serial(60) == (20, 20, 20)
            assert meta(conn, COMMANDS_HASH_KEY) is not None
        standin.validate_requests(strict=True)


async def test_a_setting_changed_through_one_process_is_used_by_the_other_at_once(
    tmp_path: Path, fresh_postgres: Callable[..., str]
) -> None:
    database_url = fresh_postgres()
    async with two_shard_standin() as standin, processes(standin, database_url, tmp_path) as bots:
        # Two processes serve shard 1 (a hand-over): interactions of GUILD_1 go to each in turn.
        one = await bots.start("one", "1")
        one_conn = (await standin.wait_shards([1], since=one.started_at, within=60))[1]
        other = await bots.start("other", "1")
        other_conn = (await standin.wait_shards([1], since=other.started_at, within=60))[1]
        table = Table.over(standin, GUILD_1, gm_role=GM_ROLE_1)
        await setup(table, "Aria")
        await table.say("wound", {"severity": "light", "character": "Aria", "count": 2})
        for light in (-2, -4, -6, -8):
            # Each change goes to one process and the card after it to the other, which read (and
            # may keep) the ruleset before: it must show the new penalty of the two light wounds.
            penalties = {"light": light, "serious": light - 1, "critical": light - 2}
            await table.say("config penalties", {"track": "physical", **penalties})
            shown = await table.say("character show", {"character": "Aria"})
            assert f"{signed(2 * light)} on all rolls" in shown.text, (light, shown.text)
        assert {e.connection for e in standin.gateway_log if e.t == "INTERACTION_CREATE"} == {
            c.index for c in (one_conn, other_conn)
        }


async def test_sigkill_one_process_the_other_keeps_answering_and_the_restart_loses_nothing(
    tmp_path: Path, fresh_postgres: Callable[..., str]
) -> None:
    database_url = fresh_postgres()
    async with two_shard_standin() as standin, processes(standin, database_url, tmp_path) as bots:
        first = await bots.start("first", "0")
        await standin.wait_shards([0], since=first.started_at, within=60)
        second = await bots.start("second", "1")
        await standin.wait_shards([1], since=second.started_at, within=60)
        table_0, table_1 = Table.over(standin, GUILD_0), Table.over(standin, GUILD_1, gm_role=GM_ROLE_1)
        await setup(table_0, "Ymir")
        await setup(table_1, "Surt")

        sent = await burst(table_0, "Ymir", "killed", 40)
        await standin.wait_for(lambda: len(answered(sent)) >= 10, within=30, what="10 answers")
        assert await first.stop(sig=signal.SIGKILL) == -signal.SIGKILL
        await asyncio.sleep(0.05)  # what the stand-in was still receiving
        answered_before = answered(sent)

        # The other process's servers keep answering meanwhile.
        shown = await table_1.say("wound", {"severity": "light", "character": "Surt"})
        assert "Surt" in shown.text

        # Restarted, the killed shard answers again.
        restarted = await bots.start("restarted", "0")
        await standin.wait_shards([0], since=restarted.started_at, within=60)
        shown = await table_0.say("wound", {"severity": "light", "character": "Ymir", "note": "after"})
        assert "Ymir" in shown.text

    stored = stored_notes(database_url, "killed")
    assert len(stored) == len(set(stored)), "a wound was stored twice"
    assert answered_before <= set(stored), f"answered but lost: {sorted(answered_before - set(stored))}"
    assert set(stored) <= set(sent)
    with read_db(database_url) as conn:
        ymir = character_row(conn, GUILD_0, "Ymir")
        assert wound_counts(conn, ymir["id"], "physical") == serial(len(stored) + 1)
        events = rows(conn, "SELECT COUNT(*) FROM events WHERE kind = 'wound' AND details LIKE '%killed %'")
        assert events == [(len(stored),)]
