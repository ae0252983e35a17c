"""``python -m bench``: measure the speed and scale figures of quality.md and print the table.

Every speed figure is compared with floors measured in the same run: a trivial command dispatched
through the very same path (tests/fakediscord: a payload turned into a ``discord.Interaction``, routed by
the bot's own CommandTree, answered through discord.py's response code, only HTTP faked), and one
durable SQLite commit (WAL, ``synchronous=FULL``) in the same directory as the databases.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import datetime
import json
import os
import platform
import pstats
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import discord

from bench import data, measure
from bench import postgres as pg
from bench.data import Shape
from bench.measure import CommitFloor, Series, Throughput
from bench.probe import spread
from bench.report import Row, ms, ratio, table
from bench.world import COMMANDS, World, open_world
from bot.storage.store import Store

ROOT = Path(__file__).resolve().parents[1]
HARNESS_DIR = str(ROOT / "tests" / "fakediscord")
TARGET_LATENCY = "median ≤ floor + 2 × commit"
TARGET_RATE = 500.0
TARGET_CAPACITY = 0.6
TARGET_P99 = 0.050
TARGET_SCALE = 1.2
TARGET_STARTUP = 1.0
TARGET_MEMORY_MB = 200.0
LABELS = {
    "floor": "trivial command",
    "wound": "`/wound`",
    "heal roll": "`/heal roll`",
    "character show": "`/character show`",
    "autocomplete": "character autocomplete",
}


@dataclass(frozen=True)
class Config:
    servers: int = 10_000
    """Servers of the big database (10 characters each: 100 000 characters)."""
    per_server: int = 10
    players: int = 8
    events: int = 1_000_000
    small_characters: int = 100
    samples: int = 1000
    warmup: int = 50
    throughput_servers: int = 100
    in_flight: int = 50
    rate: float = 500.0
    """Arrivals per second of the sustained-load run."""
    seconds: float = 20.0
    """Length of each throughput run (capacity: half trivial, half mixed; sustained: each)."""
    startup_runs: int = 5
    cpus: int = 1
    profile: int = 300
    """Dispatches profiled to find the harness's share (0: skip)."""
    cache: Path | None = None
    keep: bool = False

    @property
    def big(self) -> Shape:
        return Shape(self.servers, self.per_server, self.players, self.events)

    @property
    def small(self) -> Shape:
        servers = max(1, self.small_characters // self.per_server)
        events = self.events * servers // max(self.servers, 1)
        return Shape(servers, self.per_server, self.players, events)


QUICK = Config(samples=200, warmup=20, seconds=5.0, startup_runs=3, profile=100)
TINY = Config(
    servers=30,
    events=3000,
    small_characters=20,
    samples=5,
    warmup=1,
    throughput_servers=10,
    in_flight=5,
    rate=100.0,
    seconds=0.4,
    startup_runs=1,
    profile=10,
)


def log(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def _busy(seconds: float = 0.5) -> dict[int, float]:
    """Each core's busy share over ``seconds`` (from /proc/stat; empty where there is none)."""

    def sample() -> dict[int, tuple[int, int]]:
        out = {}
        with contextlib.suppress(OSError):
            for line in Path("/proc/stat").read_text().splitlines():
                name, *fields = line.split()
                if name.startswith("cpu") and name != "cpu":
                    values = [int(v) for v in fields]
                    out[int(name[3:])] = (sum(values), values[3] + values[4])  # total, idle + iowait
        return out

    before = sample()
    time.sleep(seconds)
    after = sample()
    return {
        cpu: 1 - (after[cpu][1] - before[cpu][1]) / max(1, after[cpu][0] - before[cpu][0])
        for cpu in before.keys() & after.keys()
    }


def pin(cpus: int) -> list[int]:
    """Run this process (and what it starts) on the ``cpus`` least busy cores; return them."""
    if not hasattr(os, "sched_getaffinity"):
        return []
    available = sorted(os.sched_getaffinity(0))
    busy = _busy() if 0 < cpus < len(available) else {}
    chosen = sorted(sorted(available, key=lambda cpu: busy.get(cpu, 0.0))[:cpus]) if busy else available
    for task in Path("/proc/self/task").iterdir():  # threads already started (e.g. by imports)
        with contextlib.suppress(OSError):
            os.sched_setaffinity(int(task.name), chosen)
    return chosen


# ---- phases ----------------------------------------------------------------------------------------


async def in_process(config: Config, small_db: Path, big_db: Path, workdir: Path) -> dict[str, Any]:
    big_servers = spread(config.throughput_servers, config.servers)
    commit = CommitFloor(workdir)
    try:
        async with (
            open_world(small_db, config.small, range(config.small.servers), label="small") as small,
            open_world(big_db, config.big, big_servers, label="big") as big,
        ):
            # Latencies go through as many characters in both databases, so that they pile up as
            # many wounds and events each (a character's history is loaded with it).
            step = max(1, len(big_servers) // config.small.servers)
            big.rotation = big_servers[::step][: config.small.servers]
            log(f"latencies: {config.samples} rounds of floor + {', '.join(COMMANDS)}, both databases")
            lat = await measure.latencies([small, big], commit, samples=config.samples, warmup=config.warmup)
            shares = await harness_shares(small, config.profile)
            log(
                f"throughput: {config.throughput_servers} servers; capacity with {config.in_flight} in "
                f"flight, then {config.rate:g}/s arriving"
            )
            runs = await throughputs(big, config)
    finally:
        commit.close()
    return {"latency": lat.by_world, "commit": commit.series, "harness_share": shares, **runs}


async def on_postgres(config: Config, small_db: Path) -> dict[str, Any]:
    """The small data set on PostgreSQL: latencies against one durable PostgreSQL commit, and the
    capacity with ``in_flight`` commands in flight against the trivial command's."""
    with pg.server() as server_url:
        url = pg.fresh_database(server_url)
        store = await Store.open(url)  # the schema
        await store.close()
        pg.copy_from_sqlite(small_db, url)
        commit = pg.PostgresCommitFloor(url)
        try:
            servers = range(config.small.servers)
            async with open_world(url, config.small, servers, label="postgres") as world:
                log(f"PostgreSQL: {config.samples} rounds of floor + {', '.join(COMMANDS)}")
                lat = await measure.latencies([world], commit, samples=config.samples, warmup=config.warmup)
                log(f"PostgreSQL: capacity with {config.in_flight} in flight")
                capacity = await capacities(world, config)
        finally:
            commit.close()
    return {"latency": lat.by_world["postgres"], "commit": commit.series, **capacity}


async def capacities(world: World, config: Config) -> dict[str, Throughput]:
    """Capacity (closed loop) of the floor and of the mix, in alternating halves."""
    mixed = measure.mixed(world)
    floor = measure.floor_only(world)
    warm = await measure.throughput(
        world, mixed, in_flight=config.in_flight, seconds=min(2.0, config.seconds / 4)
    )
    index = warm.next_index
    capacity: dict[str, list[Throughput]] = {"floor": [], "mixed": []}
    for _ in range(2):
        half = config.seconds / 4
        capacity["floor"].append(
            await measure.throughput(world, floor, in_flight=config.in_flight, seconds=half)
        )
        run = await measure.throughput(world, mixed, in_flight=config.in_flight, seconds=half, start=index)
        index = run.next_index
        capacity["mixed"].append(run)
    return {"capacity_floor": combine(capacity["floor"]), "capacity": combine(capacity["mixed"])}


async def throughputs(world: World, config: Config) -> dict[str, Throughput]:
    """Warm up; capacity (closed loop) of the floor and of the mix in alternating halves (so both
    see the same noise); then the sustained rate, floor and mix."""
    mixed = measure.mixed(world)
    floor = measure.floor_only(world)
    capacity = await capacities(world, config)
    index = capacity["capacity"].next_index
    paced_floor = await measure.paced(
        world, floor, rate=config.rate, seconds=config.seconds / 2, cap=config.in_flight
    )
    paced = await measure.paced(
        world, mixed, rate=config.rate, seconds=config.seconds, cap=config.in_flight, start=index
    )
    return {**capacity, "paced_floor": paced_floor, "paced": paced}


def combine(runs: Sequence[Throughput]) -> Throughput:
    by_command: dict[str, Series] = {}
    for run in runs:
        for command, series in run.by_command.items():
            by_command.setdefault(command, Series()).samples.extend(series.samples)
    return Throughput(
        commands=sum(r.commands for r in runs),
        seconds=sum(r.seconds for r in runs),
        latency=Series([s for run in runs for s in run.latency.samples]),
        answered=sum(r.answered for r in runs),
        failures=[f for r in runs for f in r.failures],
        next_index=runs[-1].next_index,
        by_command=by_command,
        max_in_flight=max(r.max_in_flight for r in runs),
    )


async def harness_shares(world: World, count: int) -> dict[str, float]:
    """The share of the time spent in tests/fakediscord code (the fake transport and the payload and
    reply bookkeeping, which deep-copies every payload and message), from a cProfile run."""
    if count <= 0:
        return {}
    shares: dict[str, float] = {}
    for command in ("floor", "wound", "character show"):
        profiler = cProfile.Profile()
        for _ in range(count):
            g, k = world.next_target()
            payload = world.payload(command, g, k)
            profiler.enable()
            await measure.timed(world, command, payload)
            profiler.disable()
            if command == "wound":  # heal it: the character stays alive, its wounds steady
                await measure.timed(world, "heal roll", world.payload("heal roll", g, k))
        shares[command] = harness_share(profiler)
    return shares


def harness_share(profiler: cProfile.Profile) -> float:
    """Time under harness functions that no harness function called (so none counts twice), over
    the total; coroutines count while they run, not while they wait."""
    stats: dict[Any, Any] = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    total = sum(entry[2] for entry in stats.values())  # tottime of everything
    inside = 0.0
    for key, (_, _, _, cumtime, callers) in stats.items():
        if key[0].startswith(HARNESS_DIR) and not any(c[0].startswith(HARNESS_DIR) for c in callers):
            inside += cumtime
    return min(1.0, inside / total) if total else 0.0


def probe(what: str, db: Path, shape: Shape, *extra: str) -> dict[str, Any]:
    args = [what, str(db), str(shape.servers), str(shape.per_server), str(shape.players), *extra]
    done = subprocess.run(
        [sys.executable, "-m", "bench.probe", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=900,
    )
    if done.returncode != 0:
        raise RuntimeError(f"bench.probe {what} failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def startups(config: Config, small_db: Path, big_db: Path) -> dict[str, list[dict[str, Any]]]:
    """Start-up on each database, alternating: with the servers of the throughput run, and once
    per run with every server of the big database."""
    servers = str(config.throughput_servers)
    out: dict[str, list[dict[str, Any]]] = {"small": [], "big": [], "big_all": []}
    for _ in range(config.startup_runs):
        out["small"].append(probe("startup", small_db, config.small, servers))
        out["big"].append(probe("startup", big_db, config.big, servers))
        out["big_all"].append(probe("startup", big_db, config.big, str(config.servers)))
    if any(run["synced"] for run in out["big"] + out["big_all"]):
        raise RuntimeError("start-up synced the commands: the database was not up to date")
    return out


# ---- the table -------------------------------------------------------------------------------------


def latency_rows(config: Config, lat: dict[str, dict[str, Series]], commit: Series) -> list[Row]:
    small, big = config.small, config.big
    out: list[Row] = []
    for label, shape in (("small", small), ("big", big)):
        floor = lat[label]["floor"].median
        bound = floor + 2 * commit.median
        for command in COMMANDS:
            series = lat[label][command]
            out.append(
                Row(
                    f"{LABELS[command]} median, {shape.characters:,} characters / {shape.events:,} events",
                    f"{ms(series.median)} (p99 {ms(series.p99)})",
                    f"{ms(floor)} + 2 × {ms(commit.median)} = {ms(bound)}",
                    ratio(series.median, floor),
                    TARGET_LATENCY,
                    series.median <= bound,
                )
            )
    for command in ("floor", *COMMANDS):
        a, b = lat["small"][command].median, lat["big"][command].median
        out.append(
            Row(
                f"{LABELS[command]} median, {big.characters:,} vs {small.characters:,} characters",
                f"{ms(b)} vs {ms(a)}",
                "—" if command == "floor" else "the trivial command's ratio, beside",
                ratio(b, a),
                f"≤ {TARGET_SCALE}×",
                None if command == "floor" else b <= TARGET_SCALE * a,
            )
        )
    return out


def throughput_rows(config: Config, results: dict[str, Any]) -> list[Row]:
    capacity: Throughput = results["capacity"]
    capacity_floor: Throughput = results["capacity_floor"]
    paced: Throughput = results["paced"]
    paced_floor: Throughput = results["paced_floor"]
    cores = f"{config.cpus} core{'s' if config.cpus != 1 else ''}" if config.cpus else "all cores"
    return [
        Row(
            f"throughput capacity: {config.throughput_servers} servers, {config.in_flight} in flight "
            f"(closed loop), mixed commands, {cores}",
            f"{capacity.rate:,.0f} commands/s (p99 {ms(capacity.latency.p99)}); "
            f"{capacity.unanswered} of {capacity.commands:,} not answered",
            f"trivial command: {capacity_floor.rate:,.0f} commands/s (p99 {ms(capacity_floor.latency.p99)})",
            ratio(capacity.rate, capacity_floor.rate),
            f"≥ {TARGET_CAPACITY}× the trivial command's, every one answered",
            capacity.rate >= TARGET_CAPACITY * capacity_floor.rate and capacity.unanswered == 0,
        ),
        Row(
            f"sustained {config.rate:g} commands/s: {config.throughput_servers} servers, Poisson "
            f"arrivals, ≤ {config.in_flight} in flight, mixed commands, {cores}",
            f"p99 {ms(paced.latency.p99)} (median {ms(paced.latency.median)}, at most "
            f"{paced.max_in_flight} in flight); {paced.unanswered} of {paced.commands:,} not answered",
            f"trivial command: p99 {ms(paced_floor.latency.p99)} (median {ms(paced_floor.latency.median)})",
            ratio(paced.latency.p99, paced_floor.latency.p99),
            f"p99 ≤ {ms(TARGET_P99)}, every one answered",
            paced.latency.p99 <= TARGET_P99
            and paced.unanswered == 0
            and paced.max_in_flight <= config.in_flight,
        ),
    ]


def postgres_rows(config: Config, results: dict[str, Any]) -> list[Row]:
    commit: Series = results["commit"]
    lat: dict[str, Series] = results["latency"]
    floor = lat["floor"].median
    bound = floor + 2 * commit.median
    out = [
        Row(
            "PostgreSQL floor: one durable commit (an autocommit INSERT, fsync on)",
            f"{ms(commit.median)} (p99 {ms(commit.p99)})",
            "—",
            "—",
            "—",
            None,
        )
    ]
    for command in ("wound", "heal roll", "character show", "autocomplete"):
        series = lat[command]
        out.append(
            Row(
                f"PostgreSQL: {LABELS[command]} median, {config.small.characters:,} characters",
                f"{ms(series.median)} (p99 {ms(series.p99)})",
                f"{ms(floor)} + 2 × {ms(commit.median)} = {ms(bound)}",
                ratio(series.median, floor),
                "median ≤ floor + 2 × PostgreSQL commit",
                series.median <= bound,
            )
        )
    capacity: Throughput = results["capacity"]
    capacity_floor: Throughput = results["capacity_floor"]
    out.append(
        Row(
            f"PostgreSQL capacity: {config.small.servers} servers, {config.in_flight} in flight, "
            "mixed commands",
            f"{capacity.rate:,.0f} commands/s (p99 {ms(capacity.latency.p99)}); "
            f"{capacity.unanswered} of {capacity.commands:,} not answered",
            f"trivial command: {capacity_floor.rate:,.0f} commands/s",
            ratio(capacity.rate, capacity_floor.rate),
            "reported, every one answered",
            capacity.unanswered == 0,
        )
    )
    return out


def rows(config: Config, results: dict[str, Any]) -> list[Row]:
    commit: Series = results["commit"]
    lat: dict[str, dict[str, Series]] = results["latency"]
    small, big = config.small, config.big
    out = [
        Row(
            "floor: one durable SQLite commit (WAL, synchronous=FULL)",
            f"{ms(commit.median)} (p99 {ms(commit.p99)})",
            "—",
            "—",
            "—",
            None,
        )
    ]
    for label, shape in (("small", small), ("big", big)):
        floor = lat[label]["floor"]
        out.append(
            Row(
                f"floor: trivial command, {shape.characters:,} characters",
                f"{ms(floor.median)} (p99 {ms(floor.p99)})",
                "—",
                "—",
                "—",
                None,
            )
        )
    for label, shape in (("small", small), ("big", big)):
        sized = lat[label]["sized floor"]
        floor = lat[label]["floor"]
        out.append(
            Row(
                f"trivial command answering a copy of a `/wound` answer, {shape.characters:,} characters",
                f"{ms(sized.median)} (p99 {ms(sized.p99)})",
                ms(floor.median),
                ratio(sized.median, floor.median),
                "reported (the harness's cost of a bigger answer)",
                None,
            )
        )
    out += latency_rows(config, lat, commit)
    out += throughput_rows(config, results)
    out += postgres_rows(config, results["postgres"])
    starts = results["startup"]
    big_runs = [run["seconds"] for run in starts["big"]]
    small_runs = [run["seconds"] for run in starts["small"]]
    all_runs = [run["seconds"] for run in starts["big_all"]]
    copies = [run["harness_copy"] for run in starts["big_all"]]
    big_median = measure.percentile(big_runs, 50)
    small_median = measure.percentile(small_runs, 50)
    out.append(
        Row(
            f"start-up to ready: {big.characters:,} characters up to date, "
            f"{config.throughput_servers} servers, no network",
            f"{big_median:.3f} s (median of {len(big_runs)}, max {max(big_runs):.3f} s)",
            f"{small_median:.3f} s with {small.characters:,} characters",
            ratio(big_median, small_median),
            f"< {TARGET_STARTUP:.0f} s",
            big_median < TARGET_STARTUP,
        )
    )
    all_median = measure.percentile(all_runs, 50)
    out.append(
        Row(
            f"start-up to ready, all {big.servers:,} servers delivered (GUILD_CREATE)",
            f"{all_median:.3f} s (median of {len(all_runs)}), of which ≈ "
            f"{measure.percentile(copies, 50):.3f} s is the harness copying the payloads",
            f"{big_median:.3f} s with {config.throughput_servers} servers",
            ratio(all_median, big_median),
            "reported",
            None,
        )
    )
    mem = results["memory"]
    resident = mem["resident_kb"] / 1024
    out.append(
        Row(
            f"resident memory, {big.servers:,} servers, {big.characters:,} characters",
            f"{resident:.0f} MB after a command in every server ({mem['ready_kb'] / 1024:.0f} MB once "
            f"ready; peak {mem['peak_kb'] / 1024:.0f} MB)",
            f"{mem['baseline_kb'] / 1024:.0f} MB after imports",
            ratio(resident, mem["baseline_kb"] / 1024),
            f"≤ {TARGET_MEMORY_MB:.0f} MB, and reported",
            resident <= TARGET_MEMORY_MB,
        )
    )
    out.append(
        Row(
            f"full garbage collection pause, {big.servers:,} servers",
            f"{ms(mem['gc_pause'])} (what was there once ready frozen, as the bot runs)",
            f"{ms(mem['gc_pause_unfrozen'])} without freezing",
            ratio(mem["gc_pause"], mem["gc_pause_unfrozen"]),
            "reported (it stops every command)",
            None,
        )
    )
    return out


def header(config: Config, cpus: list[int], started: datetime.datetime) -> str:
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    return "\n".join(
        [
            f"Run {started:%Y-%m-%d %H:%M} UTC on {platform.node() or 'this machine'}: "
            f"{os.cpu_count()} cores, bench pinned to {len(cpus) or 'all'} "
            f"(cpu {','.join(map(str, cpus)) or '-'}), load average at the start {load}; "
            f"Python {platform.python_version()}, SQLite {sqlite3.sqlite_version}, "
            f"discord.py {discord.__version__}.",
            f"Data: {config.small.characters:,} characters / {config.small.events:,} events in "
            f"{config.small.servers} servers, and {config.big.characters:,} characters / "
            f"{config.big.events:,} events in {config.big.servers:,} servers; {config.samples} samples "
            f"per latency; throughput runs of {config.seconds:g} s.",
        ]
    )


def notes(config: Config, results: dict[str, Any]) -> list[str]:
    out = []
    lat: dict[str, dict[str, Series]] = results["latency"]
    commit = results["commit"].median
    above: list[str] = []
    for command in ("wound", "heal roll"):
        for label, shape in (("small", config.small), ("big", config.big)):
            extra = lat[label][command].median - lat[label]["sized floor"].median
            times = extra / commit if commit else float("nan")
            above.append(
                f"{LABELS[command]} ({shape.characters:,} characters) {ms(extra)} = {times:.1f} × commit"
            )
    out.append(
        "Above the trivial command that sends an answer of the same size (so without what the harness "
        f"spends on a bigger answer): {'; '.join(above)}."
    )
    share = results.get("harness_share") or {}
    if share:
        parts = ", ".join(f"{LABELS[name]} {value:.0%}" for name, value in share.items())
        out.append(
            "Harness share of the CPU time of a dispatch (tests/fakediscord code: the fake HTTP transport "
            f"and its bookkeeping, by cProfile): {parts}. The floor and every figure carry it."
        )
    for key, title in (("capacity", "capacity run"), ("paced", "sustained run")):
        run: Throughput = results[key]
        parts = ", ".join(
            f"{LABELS[c]} {ms(s.median)} / {ms(s.p99)}" for c, s in sorted(run.by_command.items())
        )
        out.append(f"Median / p99 by command in the {title}: {parts}.")
        if run.failures:
            out.append(f"Failures in the {title} ({len(run.failures)}), first: {run.failures[:3]}")
    mem = results["memory"]
    if mem["failures"]:
        out.append(f"Memory probe: {mem['failures']} commands not answered")
    return out


def run(config: Config) -> str:
    started = datetime.datetime.now(datetime.UTC)
    cpus = pin(config.cpus)
    workdir = Path(tempfile.mkdtemp(prefix="harmonies-bench-"))
    try:
        log(f"data sets in {workdir}: {config.small} and {config.big}")
        began = time.perf_counter()
        small_db = data.dataset(config.small, workdir, config.cache)
        big_db = data.dataset(config.big, workdir, config.cache)
        log(f"data sets ready in {time.perf_counter() - began:.1f} s (not a figure)")
        results = asyncio.run(in_process(config, small_db, big_db, workdir))
        log("PostgreSQL: the small data set copied into a throwaway durable cluster")
        results["postgres"] = asyncio.run(on_postgres(config, small_db))
        log(f"start-up: {config.startup_runs} runs of each (subprocesses)")
        results["startup"] = startups(config, small_db, big_db)
        log(f"memory: {config.servers:,} servers (subprocess)")
        results["memory"] = probe("memory", big_db, config.big)
        text = "\n\n".join(
            [header(config, cpus, started), table(rows(config, results)), *notes(config, results)]
        )
        return text + "\n"
    finally:
        if config.keep:
            log(f"kept {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)


def parse(argv: Sequence[str]) -> tuple[Config, Path | None]:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer samples, shorter throughput runs")
    parser.add_argument("--tiny", action="store_true", help="tiny data sets: checks that the bench runs")
    parser.add_argument("--samples", type=int, help="latency samples per command")
    parser.add_argument("--seconds", type=float, help="throughput run length")
    parser.add_argument("--rate", type=float, help="arrivals per second of the sustained-load run")
    parser.add_argument("--servers", type=int, help="servers of the big database (10 characters each)")
    parser.add_argument("--events", type=int, help="events of the big database")
    parser.add_argument("--cpus", type=int, help="cores to pin the bench to (0: all; default 1)")
    parser.add_argument("--cache", type=Path, help="keep generated databases here between runs")
    parser.add_argument("--keep", action="store_true", help="keep the run's temporary directory")
    parser.add_argument("--output", type=Path, help="also write the report to this file")
    args = parser.parse_args(argv)
    config = TINY if args.tiny else QUICK if args.quick else Config()
    changes: dict[str, Any] = {
        name: getattr(args, name)
        for name in ("samples", "seconds", "rate", "servers", "events", "cpus", "cache")
        if getattr(args, name) is not None
    }
    if args.keep:
        changes["keep"] = True
    return replace(config, **changes), args.output


def main(argv: Sequence[str] | None = None) -> None:
    config, output = parse(sys.argv[1:] if argv is None else argv)
    log(f"config: {json.dumps(asdict(config), default=str)}")
    text = run(config)
    print(text)
    if output is not None:
        output.write_text(text, encoding="utf-8")
