"""``python -m bench e2e`` runs (a few commands: seconds), and its floor command exists only when asked
for. Not a timed test: no figure is checked here, only that every interaction was answered."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import SecretStr

from bot.config import Settings
from bot.interface.client import HarmoniesBot
from bot.storage.store import Store
from tests import fakediscord
from tests.test_bench import run_bench


@pytest.mark.parametrize("bench_floor", [False, True])
async def test_the_floor_command_is_synced_only_with_bench_floor(tmp_path: Path, bench_floor: bool) -> None:
    settings = Settings(
        discord_token=SecretStr("t"), database_url=f"sqlite:///{tmp_path}/bot.db", bench_floor=bench_floor
    )
    store = await Store.open(settings.database_url)
    try:
        bot = HarmoniesBot(settings, store)
        fake = await fakediscord.connect(bot, guilds=[fakediscord.guild_payload()])
        try:
            names = {command["name"] for command in fake.last_synced}
            assert "wound" in names
            assert ("bench-floor" in names) is bench_floor
            assert ("bench-floor-write" in names) is bench_floor
            if bench_floor:
                reply = await fakediscord.dispatch(fake, bot, fakediscord.slash("bench-floor", {}))
                assert reply.errors == [] and reply.callback_type == 4 and not reply.ephemeral
                assert reply.embeds[0]["title"] == "Benchmark floor"
                handled = "SELECT COUNT(*) FROM handled_interactions"
                before = await store.read(0, lambda r: r.sql.rows(handled))
                payload = fakediscord.slash("bench-floor-write", {})
                reply = await fakediscord.dispatch(fake, bot, payload)
                assert reply.errors == [] and reply.callback_type == 4 and not reply.ephemeral
                assert reply.embeds[0]["title"] == "Benchmark floor"
                # Its one durable write: the interaction's id, committed before the answer.
                assert await store.read(0, lambda r: r.sql.rows(handled)) == [(before[0][0] + 1,)]
        finally:
            await fakediscord.close(bot)
    finally:
        await store.close()


@pytest.mark.slow
def test_the_end_to_end_bench_runs_and_compares_the_speed_ups(tmp_path: Path) -> None:
    report = run_bench(tmp_path, "e2e", "--tiny", "--compare", "orjson,uvloop", "--runs", "1")
    for command in ("`/wound`", "`/heal roll`"):  # held against the write floor of the same run
        for figure in ("bot CPU per command", "median latency one at a time"):
            assert re.search(
                rf"\| {re.escape(command)}: {figure} \|[^|]+\| [\d.]+ ms \| [\d.]+× \| ≤ 1.3× \|", report
            )
        assert re.search(
            rf"\| {re.escape(command)}: throughput, 4 in flight \|.*\| ≥ 0.6×, every one", report
        )
    # The A/B: both sides measured, each figure's change given.
    assert "| with | without orjson, uvloop | change (range over pairs) |" in report
    change = r"\| [+-]\d+% \([+-]\d+% to [+-]\d+%\) \|$"
    assert (
        len(re.findall(r"^\| [^|]+ \| [\d,.]+ (ms|/s|×) \| [\d,.]+ (ms|/s|×) " + change, report, re.M)) == 6
    )
    # Every interaction of the throughput runs got its answer (the floors' too).
    assert re.findall(r"(\d+) of [\d,]+ not answered", report) == ["0"] * 5
    assert report.count("(0 not answered)") == 5
