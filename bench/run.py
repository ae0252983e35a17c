"""``python -m bench``: the in-process figures of quality.md ("Speed and scale"), each beside the floor
it is held against, measured in the same run (see bench/world.py for the floors)."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import psycopg

from bench import data, measure
from bench.data import Shape
from bench.measure import Series, Throughput, percentile
from bench.report import Row, against, log, machine, ms, parser, publish, table
from bench.world import COMMANDS, FLOOR_OF, FLOORS, LABELS, open_world, run_like_the_bot, spread
from tests.postgres import throwaway_cluster, with_database

ROOT = Path(__file__).resolve().parents[1]
TARGET, TARGET_SCALE, TARGET_CAPACITY, TARGET_P99 = 1.3, 1.2, 0.6, 0.050
TARGET_STARTUP, TARGET_MEMORY_MB = 1.0, 200.0


@dataclass(frozen=True)
class Config:
    servers: int = 10_000
    """Servers of the big data set (10 characters each: 100 000 characters)."""
    events: int = 1_000_000
    small_characters: int = 100
    samples: int = 300
    warmup: int = 30
    throughput_servers: int = 100
    in_flight: int = 50
    seconds: float = 8.0
    """Capacity: half of it the trivial command, half the mix, alternating; sustained: the mix."""
    startup_runs: int = 3
    postgres: bool = True
    cache: Path | None = ROOT / ".cache" / "bench"
    """Where the data sets are kept between runs (rebuilt when the schema or the builder changes)."""

    @property
    def big(self) -> Shape:
        return Shape(self.servers, events=self.events)

    @property
    def small(self) -> Shape:
        servers = max(1, self.small_characters // 10)
        return Shape(servers, events=self.events * servers // max(self.servers, 1))


QUICK = Config(samples=100, warmup=10, seconds=4.0, startup_runs=1)
TINY = Config(
    servers=30, events=3000, small_characters=20, samples=5, warmup=1, throughput_servers=10,
    in_flight=5, seconds=0.4, startup_runs=1, cache=None,
)  # fmt: skip


async def in_process(config: Config, small_db: Path, big_db: Path) -> dict[str, Any]:
    busy = spread(config.throughput_servers, config.servers)
    # The write floor commits to a file of its own, one for each world.
    floor_url = {name: f"sqlite:///{small_db.parent / f'floor-{name}.db'}" for name in ("small", "big")}
    async with (
        open_world(
            f"sqlite:///{small_db}",
            config.small,
            range(config.small.servers),
            label="small",
            floor_url=floor_url["small"],
        ) as small,
        open_world(
            f"sqlite:///{big_db}",
            config.big,
            busy,
            label="big",
            floor_url=floor_url["big"],
        ) as big,
    ):
        # The same number of characters in both: each piles up as many wounds and events.
        big.rotation = busy[:: max(1, len(busy) // config.small.servers)][: config.small.servers]
        log(f"latencies: {config.samples} rounds of every command and floor, both data sets")
        lat = await measure.latencies([small, big], samples=config.samples, warmup=config.warmup)
        log(f"capacity: {config.throughput_servers} servers, {config.in_flight} in flight")
        floor, mix = await measure.capacities(big, in_flight=config.in_flight, seconds=config.seconds)
        log(f"sustained: {mix.rate / 2:,.0f}/s arriving (half the mix's capacity)")
        paced = measure.Throughput(index=mix.index)
        rate, cap = mix.rate / 2, config.in_flight
        await measure.paced(big, measure.mixed(big), paced, rate=rate, seconds=config.seconds, cap=cap)
    return {"latency": lat, "capacity": mix, "capacity_floor": floor, "paced": paced}


async def on_postgres(config: Config) -> dict[str, Any]:
    """The small data set built in a durable PostgreSQL: latencies and capacity."""
    given = os.environ.get("HARMONIES_BENCH_POSTGRES_URL")  # a server to create a database in
    with contextlib.nullcontext(given) if given else throwaway_cluster(durable=True) as server_url:
        with psycopg.connect(server_url, autocommit=True) as conn:
            for name in ("harmonies_bench", "harmonies_bench_floor"):  # the bot's; the write floor's
                conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
                conn.execute(f"CREATE DATABASE {name}")
        url = with_database(server_url, "harmonies_bench")
        floor_url = with_database(server_url, "harmonies_bench_floor")
        await data.build(url, config.small)
        servers = range(config.small.servers)
        async with open_world(url, config.small, servers, label="pg", floor_url=floor_url) as world:
            log(f"PostgreSQL: {config.samples} rounds")
            lat = await measure.latencies([world], samples=config.samples, warmup=config.warmup)
            floor, mix = await measure.capacities(world, in_flight=config.in_flight, seconds=config.seconds)
    return {"latency": lat["pg"], "capacity": mix, "capacity_floor": floor}


def fresh(what: str, db: Path, shape: Shape, *extra: str) -> dict[str, Any]:
    """``python -m bench.fresh``: one figure measured in a process of its own."""
    args = [what, str(db), str(shape.servers), str(shape.per_server), str(shape.players), *extra]
    done = subprocess.run(
        [sys.executable, "-m", "bench.fresh", *args], cwd=ROOT, capture_output=True, text=True, timeout=900
    )
    if done.returncode != 0:
        raise RuntimeError(f"bench.fresh {what} failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


# ---- the table -------------------------------------------------------------------------------------


def latency_rows(lat: dict[str, Series], shape: Shape, where: str = "") -> list[Row]:
    size = f"{where}{shape.characters:,} characters / {shape.events:,} events"
    out = [Row(f"{LABELS[k]}, {size}", f"{ms(lat[k].median)} (p99 {ms(lat[k].p99)})", None) for k in FLOORS]
    for kind in COMMANDS:
        got, floor = lat[kind], lat[FLOOR_OF[kind]].median
        measured, floor_text = (
            f"{ms(got.median)} (p99 {ms(got.p99)})",
            f"{LABELS[FLOOR_OF[kind]]}: {ms(floor)}",
        )
        out.append(against(f"{LABELS[kind]} median, {size}", measured, got.median, floor, floor_text, TARGET))
    return out


def capacity_row(figure: str, cap: Throughput, floor: Throughput, bound: float | None) -> Row:
    measured = (
        f"{cap.rate:,.0f}/s (p99 {ms(cap.latency.p99)}); {cap.unanswered} of {cap.commands:,} not answered"
    )
    floor_text = f"trivial command: {floor.rate:,.0f}/s ({floor.unanswered} not answered)"
    answered = cap.unanswered == floor.unanswered == 0
    return against(
        figure, measured, cap.rate, floor.rate, floor_text, bound, at_least=True, answered=answered
    )


def rows(config: Config, results: dict[str, Any]) -> list[Row]:
    lat: dict[str, dict[str, Series]] = results["latency"]
    small, big = config.small, config.big
    out = latency_rows(lat["small"], small) + latency_rows(lat["big"], big)
    for kind in (*FLOORS, *COMMANDS):
        a, b = lat["small"][kind].median, lat["big"][kind].median
        figure = f"{LABELS[kind]} median, {big.characters:,} vs {small.characters:,} characters"
        bound = None if kind in FLOORS else TARGET_SCALE
        out.append(against(figure, f"{ms(b)} vs {ms(a)}", b, a, "the smaller data set's", bound))
    figure = f"capacity: {config.throughput_servers} servers, {config.in_flight} in flight, mixed commands"
    out.append(capacity_row(figure, results["capacity"], results["capacity_floor"], TARGET_CAPACITY))
    paced = results["paced"]
    out.append(
        Row(
            f"sustained: Poisson arrivals at {paced.commands / config.seconds:,.0f}/s (half the mix's "
            f"capacity), ≤ {config.in_flight} in flight",
            f"p99 {ms(paced.latency.p99)} (median {ms(paced.latency.median)}); "
            f"{paced.unanswered} of {paced.commands:,} not answered",
            paced.latency.p99 <= TARGET_P99 and paced.unanswered == 0,
            target=f"p99 ≤ {ms(TARGET_P99)}, every one answered",
        )
    )
    if "postgres" in results:
        found = results["postgres"]
        out += latency_rows(found["latency"], small, "PostgreSQL, ")
        figure = f"PostgreSQL capacity: {small.servers} servers, {config.in_flight} in flight, mixed"
        out.append(capacity_row(figure, found["capacity"], found["capacity_floor"], None))
    starts, mem = [run["seconds"] for run in results["startup"]], results["memory"]
    resident = mem["resident_kb"] / 1024
    startup = f"start-up to ready: {big.characters:,} characters, {config.throughput_servers} servers"
    return [
        *out,
        Row(
            f"{startup}, migrations up to date, no network",
            f"{percentile(starts, 50):.3f} s (median of {len(starts)})",
            percentile(starts, 50) < TARGET_STARTUP,
            target=f"< {TARGET_STARTUP:g} s",
        ),
        Row(
            f"resident memory, {big.servers:,} servers, {big.characters:,} characters, each used once",
            f"{resident:.0f} MB (peak {mem['peak_kb'] / 1024:.0f} MB; {mem['failures']} not answered)",
            resident <= TARGET_MEMORY_MB and mem["failures"] == 0,
            floor=f"after imports: {mem['baseline_kb'] / 1024:.0f} MB",
            target=f"≤ {TARGET_MEMORY_MB:g} MB",
        ),
        against(
            f"full garbage collection, {big.servers:,} servers, frozen once ready (as the bot runs)",
            ms(mem["gc_pause"]),
            mem["gc_pause"],
            mem["gc_pause_unfrozen"],
            f"not frozen: {ms(mem['gc_pause_unfrozen'])}",
        ),
    ]


def header(config: Config) -> str:
    small, big = config.small, config.big
    return (
        f"{machine()} Data: {small.characters:,} characters / {small.events:,} events, and "
        f"{big.characters:,} / {big.events:,}; {config.samples} rounds of latencies; capacity runs of "
        f"{config.seconds / 2:g} s each side, sustained {config.seconds:g} s."
    )


def run(config: Config) -> str:
    started, workdir = header(config), Path(tempfile.mkdtemp(prefix="harmonies-bench-"))
    try:
        log(f"data sets: {config.small} and {config.big} (kept in {config.cache})")
        small_db = data.dataset(config.small, workdir, config.cache)
        big_db = data.dataset(config.big, workdir, config.cache)
        results = run_like_the_bot(in_process(config, small_db, big_db))
        if config.postgres:
            results["postgres"] = run_like_the_bot(on_postgres(config))
        log("start-up and memory (fresh processes)")
        delivered = str(config.throughput_servers)
        results["startup"] = [
            fresh("startup", big_db, config.big, delivered) for _ in range(config.startup_runs)
        ]
        if any(run["synced"] for run in results["startup"]):
            raise RuntimeError("start-up synced the commands: the database was not up to date")
        results["memory"] = fresh("memory", big_db, config.big)
        failures = [f for key in ("capacity", "paced") for f in results[key].failures][:3]
        notes = [f"Failures, first: {failures}"] if failures else []
        return "\n\n".join([started, table(rows(config, results)), *notes]) + "\n"
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def main(argv: Sequence[str]) -> None:
    cli = parser("python -m bench", __doc__)
    cli.add_argument("--samples", type=int, help="rounds of latencies")
    cli.add_argument("--seconds", type=float, help="length of the throughput runs")
    cli.add_argument("--no-postgres", action="store_true", help="skip the PostgreSQL figures")
    args = cli.parse_args(argv)
    config = TINY if args.tiny else QUICK if args.quick else Config()
    changes = {name: getattr(args, name) for name in ("samples", "seconds") if getattr(args, name)}
    config = replace(config, postgres=not args.no_postgres, **changes)
    log(f"config: {json.dumps(asdict(config), default=str)}")
    publish(run(config), args.output)
