"""The benchmarks run (on tiny data sets: seconds). Not a timed test: no figure is checked here."""

from __future__ import annotations

import re
import sqlite3
import subprocess
import sys
from pathlib import Path

from bench import profile
from bench.data import Shape, build, character_name, guild_id, player_id
from bench.measure import percentile
from bot.actions.undoing import revert
from bot.storage.migrations import MIGRATIONS_DIR
from bot.storage.store import Store
from tests.databases import characters_of, history_of, latest_version, ruleset_of

ROOT = Path(__file__).resolve().parents[1]
FIGURES = (
    "trivial command, 20 characters",
    "write floor, 20 characters",
    "`/wound` median, 20 characters",
    "`/heal roll` median, 300 characters",
    "`/character show` median, 300 vs 20 characters",
    "autocomplete median",
    "capacity: 10 servers, 5 in flight",
    "sustained: Poisson arrivals",
    "`/wound` median, PostgreSQL",
    "PostgreSQL capacity",
    "start-up to ready",
    "resident memory",
    "full garbage collection",
)


def test_percentiles() -> None:
    assert percentile([3.0, 1.0, 2.0], 50) == 2.0
    assert percentile([4.0, 1.0, 2.0, 3.0], 50) == 2.5
    assert percentile([float(i) for i in range(1, 101)], 99) == 99.0
    assert percentile([5.0], 99) == 5.0


async def test_the_data_set_is_written_through_the_store_as_the_bot_reads_it(tmp_path: Path) -> None:
    shape = Shape(servers=3, per_server=4, players=3, events=60)
    path = tmp_path / "bench.db"
    await build(f"sqlite:///{path}", shape)
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == latest_version(MIGRATIONS_DIR / "sqlite")
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        assert conn.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 60
        # In each server: 4 created, 6 wounds healed in turn, then one wound held by each character.
        assert conn.execute("SELECT COUNT(*) FROM wounds").fetchone()[0] == 3 * (6 + 4)
    store = await Store.open(f"sqlite:///{path}")
    try:
        characters = await characters_of(store, guild_id(1))
        assert sorted(c.name for c in characters) == sorted(character_name(1, k) for k in range(4))
        mine = await store.read(guild_id(1), lambda r: r.active_character(player_id(shape, 1, 2)))
        assert mine is not None and mine.name == character_name(1, 2) and len(mine.wounds) == 1
        assert (await ruleset_of(store, guild_id(1))).physical.rest_days[0] == 0
        events, total = await history_of(store, guild_id(2))
        assert total == 20 and [e.kind for e in events[:4]] == ["wound"] * 4
        # Undo works on what the builder recorded: the last wound goes, with its event.
        assert (await store.run(guild_id(2), lambda tx: revert(tx, None))).kind == "undo"
    finally:
        await store.close()


def run_bench(tmp_path: Path, *args: str) -> str:
    """``python -m bench ARGS`` in a process of its own: its report, checked to be what it printed."""
    report_path = tmp_path / "report.md"
    done = subprocess.run(
        [sys.executable, "-m", "bench", *args, "--output", str(report_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    report = report_path.read_text(encoding="utf-8")
    assert report.strip() in done.stdout
    return report


def test_the_bench_runs_on_a_tiny_data_set(tmp_path: Path) -> None:
    report = run_bench(tmp_path, "--tiny")
    for figure in FIGURES:
        assert figure in report, figure
    rows = [line for line in report.splitlines() if line.startswith("| ") and "---" not in line][1:]
    assert all(re.search(r"\| (yes|\*\*no\*\*|—) \|$", row) for row in rows), rows
    # Beside its floor of the same run: a change against the write floor, a read against the trivial one.
    assert re.search(
        r"`/wound` median, 20 characters[^|]*\|[^|]+\| write floor: [\d.]+ ms \| [\d.]+× \|", report
    )
    assert re.search(
        r"autocomplete median, 20 characters[^|]*\|[^|]+\| trivial command: [\d.]+ ms \|", report
    )
    # Every command of the throughput runs answered: capacity, sustained, PostgreSQL capacity.
    assert re.findall(r"(\d+) of [\d,]+ not answered", report) == ["0", "0", "0"]


def test_the_trace_lists_the_project_modules_one_wound_crosses(tmp_path: Path) -> None:
    report = run_bench(tmp_path, "trace")
    found = re.search(r"Project modules crossed: (\d+) \((\d+) in bot/rules, (\d+) outside\)", report)
    assert found is not None, report
    total, rules, outside = map(int, found.groups())
    assert total == rules + outside and rules > 0 and outside > 0
    listed = re.findall(r"^  (bot[\w.]*) +\d+$", report, re.M)
    assert len(listed) == total and sum(m.startswith("bot.rules.") for m in listed) == rules
    assert "bot.rules.wounds" in listed and any(m.startswith("bot.storage") for m in listed)
    # Every thread is traced: the database's thread too, whose statements mark the first SQL.
    threads = re.search(r"in \d+ tasks and (\d+) threads", report)
    assert threads is not None and int(threads[1]) >= 2
    assert re.search(r"before the first SQL statement: [1-9]\d* \(\w", report)
    assert re.search(r"before the first SELECT: [1-9]\d* \((SELECT|WITH) ", report)


def test_the_profile_keeps_the_commands_samples_by_area() -> None:
    raw = "\n".join(
        [
            # start-up: left out
            "main (bot/__main__.py:1);HarmoniesBot.setup_hook (bot/interface/client.py:9);f (x.py:1) 7",
            # a thread waiting in a system call (native frames): left out
            "Thread.run (threading.py:982);fdatasync (libc.so.6) 5",
            "Runner.run (asyncio/runners.py:118);wound_embed (bot/ui/results.py:30) 3",
            "Runner.run (asyncio/runners.py:118);respond (bot/interface/replies.py:117);"
            "ClientSession._request (aiohttp/client.py:700) 2",
            "Thread.run (threading.py:982);_sqlite_group (bot/storage/sqlite.py:114);"
            "sqlite3_step (libsqlite3.so) 4",
        ]
    )
    stacks, left_out, waiting = profile.parse(raw)
    assert (left_out, waiting) == (7, 5)
    found = profile.Profile("wound", commands=3, rate=1000, stacks=stacks, left_out=left_out, waiting=waiting)
    assert found.samples == 9 and round(found.us(found.samples)) == 3000  # µs per command
    assert found.by("area") == {"bot.ui": 3, "aiohttp": 2, "SQLite (C)": 4}
    assert found.by("project")["respond (bot.interface.replies:117)"] == 2
    assert found.under(r"^respond ") == 2
