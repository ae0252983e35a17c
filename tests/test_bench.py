"""The benchmarks run (on tiny data sets: seconds). Not a timed test: no figure is checked here."""

from __future__ import annotations

import re
import sqlite3
import subprocess
import sys
from pathlib import Path

from bench import idle
from bench.data import Shape, character_name, generate, guild_id, player_id
from bench.measure import percentile
from bot.storage.migrations import MIGRATIONS_DIR
from bot.storage.store import Store
from tests.databases import latest_version

ROOT = Path(__file__).resolve().parents[1]
FIGURES = (
    "durable SQLite commit",
    "floor: trivial command",
    "`/wound` median",
    "`/heal roll` median",
    "`/character show` median",
    "character autocomplete median",
    "throughput capacity",
    "sustained",
    "start-up to ready",
    "resident memory",
    "PostgreSQL floor: one durable commit",
    "PostgreSQL: `/wound` median",
    "PostgreSQL: `/heal roll` median",
    "PostgreSQL capacity",
)


def test_percentiles() -> None:
    assert percentile([3.0, 1.0, 2.0], 50) == 2.0
    assert percentile([4.0, 1.0, 2.0, 3.0], 50) == 2.5
    assert percentile([float(i) for i in range(1, 101)], 99) == 99.0
    assert percentile([5.0], 99) == 5.0


async def test_generated_data_is_what_the_bot_reads(tmp_path: Path) -> None:
    shape = Shape(servers=3, per_server=4, players=3, events=60)
    path = tmp_path / "bench.db"
    generate(path, shape)
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == latest_version(MIGRATIONS_DIR / "sqlite")
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 60
    store = await Store.open(f"sqlite:///{path}")
    try:
        characters = await store.characters(guild_id(1))
        assert sorted(c.name for c in characters) == sorted(character_name(1, k) for k in range(4))
        mine = await store.read(guild_id(1), lambda r: r.active_character(player_id(shape, 1, 2)))
        # Four wounds each, three of them healed: a character loads with the one that counts.
        assert mine is not None and mine.name == character_name(1, 2) and len(mine.wounds) == 1
        with sqlite3.connect(path) as conn:
            stored = conn.execute("SELECT COUNT(*) FROM wounds WHERE character_id = ?", (mine.id,)).fetchone()
        assert stored[0] == 4
        assert (await store.ruleset(guild_id(1))).physical.rest_days[0] == 0
        events, total = await store.history(guild_id(2))
        assert total == 20 and events[0].kind
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
    report = run_bench(tmp_path, "--tiny", "--cpus", "0")
    for figure in FIGURES:
        assert figure in report, figure
    rows = [line for line in report.splitlines() if line.startswith("| ") and "---" not in line][1:]
    assert len(rows) >= len(FIGURES)
    assert all(re.search(r"\| (yes|\*\*no\*\*|—) \|$", row) for row in rows), rows
    # Every command of the throughput runs (SQLite: capacity, sustained; PostgreSQL: capacity) answered.
    answered = re.findall(r"(\d+) of [\d,]+ not answered", report)
    assert answered == ["0", "0", "0"], answered


async def test_the_idle_gap_bench_commits_each_unit_and_times_both_modes(tmp_path: Path) -> None:
    path = tmp_path / "idle.db"
    generate(path, idle.SHAPE)
    count = "SELECT COUNT(*) FROM events"
    with sqlite3.connect(path) as conn:
        before = conn.execute(count).fetchone()[0]
    found = await idle.measure(path, units=idle.BLOCK, gap_s=0.001)
    assert set(found) == {"back to back", "idle between"} and min(found.values()) > 0
    with sqlite3.connect(path) as conn:
        assert conn.execute(count).fetchone()[0] == before + 2 * idle.BLOCK
