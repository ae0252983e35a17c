"""``python -m bench e2e`` runs (a few commands: seconds); its floors are a bot of their own, not the
bot's. Not a timed test: no figure is checked here, only that every interaction was answered."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest
from pydantic import SecretStr

from bench.floor_bot import TABLE, FloorBot, open_rows
from bot.config import Settings
from bot.interface.client import HarmoniesBot
from bot.storage.store import Store
from tests import fakediscord
from tests.test_bench import run_bench


async def test_the_floors_are_a_bot_of_their_own(tmp_path: Path) -> None:
    rows = await open_rows(f"sqlite:///{tmp_path}/floor.db")
    try:
        floors = FloorBot(rows)
        fake = await fakediscord.connect(floors, guilds=[fakediscord.guild_payload()])
        try:
            assert sorted(c["name"] for c in fake.last_synced) == ["bench-floor", "bench-floor-write"]
            reply = await fakediscord.dispatch(fake, floors, fakediscord.slash("bench-floor", {}))
            assert reply.errors == [] and reply.callback_type == 4 and not reply.ephemeral
            assert reply.embeds[0]["title"] == "Benchmark floor"
            reply = await fakediscord.dispatch(fake, floors, fakediscord.slash("bench-floor-write", {}))
            assert reply.errors == [] and reply.callback_type == 4 and not reply.ephemeral
            assert reply.embeds[0]["title"] == "Benchmark floor"
            fakediscord.assert_valid(fake.requests)
        finally:
            await fakediscord.close(floors)
    finally:
        await rows.close()
    # Its one durable write: the interaction's id, committed before the answer, in a WAL file.
    with sqlite3.connect(tmp_path / "floor.db") as conn:
        assert conn.execute(f"SELECT id FROM {TABLE}").fetchall() == [(reply.interaction_id,)]
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)


async def test_the_bot_has_no_floor_command(tmp_path: Path) -> None:
    settings = Settings(discord_token=SecretStr("t"), database_url=f"sqlite:///{tmp_path}/bot.db")
    store = await Store.open(settings.database_url)
    try:
        bot = HarmoniesBot(settings, store)
        fake = await fakediscord.connect(bot, guilds=[fakediscord.guild_payload()])
        try:
            names = {command["name"] for command in fake.last_synced}
            assert "wound" in names and not any(name.startswith("bench") for name in names)
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
