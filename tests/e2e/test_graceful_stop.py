"""SIGTERM in the middle of a burst of /wound (a deploy, a restart by the service manager), the bot as
its own process, on both backends.

The bot leaves the gateway, finishes the interactions in flight, closes the database and exits 0
(within :data:`GRACE` seconds: it is SIGKILLed after that, and the exit code says so). Every wound it
answered is stored once, and every stored wound was answered. Its metrics, scraped from the process
before, count what it answered and show the gateway's latency.
"""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from tests.bot.test_health import free_port
from tests.e2e.burst import Outcomes, seat_giants, send_burst, stored_notes
from tests.e2e.process import BotProcess
from tests.e2e.running import BOT_ARGV, bot_env, read_db, server_payload, wait_ready_after
from tests.fakediscord import DiscordStandin
from tests.prometheus import scraped
from tests.table import GUILD, Table

pytestmark = pytest.mark.slow

BURST = 60
ANSWERED_BEFORE_STOP = 10
GRACE = 10.0  # seconds the bot has to exit before it is SIGKILLed


async def test_sigterm_during_a_burst_answers_every_change_it_commits(
    tmp_path: Path, database_url: str
) -> None:
    port = free_port()
    # Heartbeats every half second: the gateway's latency is measured soon.
    async with DiscordStandin(guilds=[server_payload(GUILD)], heartbeat_interval_ms=500) as standin:
        table = Table.over(standin, GUILD)
        env = bot_env(standin, database_url, HEALTH_PORT=str(port))
        bot = await BotProcess.start(BOT_ARGV, env=env, log_path=tmp_path / "bot.log")
        standin.watch(bot.unexpected_exit)
        try:
            await wait_ready_after(standin, bot)
            await seat_giants(table)
            created = await scraped(
                port, "harmonies_commands_total", command="character create", outcome="answered"
            )
            assert created == 3
            assert await scraped(port, "harmonies_gateway_latency_seconds", shard="0") >= 0

            sent = await send_burst(table, BURST)
            await standin.wait_for(
                lambda: sum(1 for e in sent.values() if e.acknowledged) >= ANSWERED_BEFORE_STOP,
                within=20,
                what=f"{ANSWERED_BEFORE_STOP} answers",
            )
            code = await bot.stop(grace=GRACE, sig=signal.SIGTERM)
        finally:
            await bot.stop()
            print(f"---- bot output (exit {bot.returncode}) ----\n{bot.output()}")
        assert code == 0, f"exit {code} (negative: killed after {GRACE} s)"
        standin.validate_requests(strict=True)

    outcomes = Outcomes.of(sent)
    with read_db(database_url) as conn:
        stored = stored_notes(conn)
    context = f"{outcomes.describe()}, {len(stored)} stored of {BURST} sent"
    assert len(stored) == len(set(stored)), f"a wound was stored twice ({context})"
    assert not outcomes.refused, f"refused: {outcomes.refused} ({context})"
    assert outcomes.applied == set(stored), (
        f"answered, not stored: {sorted(outcomes.applied - set(stored))}; "
        f"stored, not answered: {sorted(set(stored) - outcomes.applied)} ({context})"
    )
    assert len(outcomes.applied) >= ANSWERED_BEFORE_STOP, context
    assert "finishing" in bot.output() and "still running" not in bot.output()
    print(context)
