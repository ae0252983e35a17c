"""``python -m bench e2e``: the bot as its own process, measured from outside, the way users meet it.

The unmodified ``python -m bot`` runs against the local Discord stand-in (``tests.fakediscord``'s HTTP +
gateway door, ``DiscordStandin``): every interaction goes out as an INTERACTION_CREATE on a real
websocket and comes back as a real HTTP callback. The floor is ``/bench-floor``, a command of the same
bot process (loaded with ``BENCH_FLOOR=1``, synced and dispatched like every other command, answering a
fixed embed through the same helper as real results, touching no database). A second floor,
``/bench-floor-write``, first commits one unit of work that only records the interaction's id: what
every change pays before its rules, its history and its answer; /wound and /heal roll are reported
against it too.

In one run, floor and commands alternating so that the load of the machine hits them alike:

* bot CPU per command: the time on a CPU of every thread of the bot process
  (``/proc/<pid>/task/*/schedstat``, in nanoseconds) read before and after each command sent one at a
  time, summed by kind (``utime`` + ``stime`` of ``/proc/<pid>/stat`` count in ticks of 10 ms: two
  runs of the same code gave ratios 2.2× and 4.6× with them);
* latency one at a time (median, p99): from sending INTERACTION_CREATE to the callback's arrival;
* throughput with ``in_flight`` interactions in flight (closed loop: each worker sends the next one as
  soon as its previous one is answered), every answer checked.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import os
import platform
import random
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import discord

from bench import data, spy
from bench import postgres as pg
from bench.data import Shape
from bench.measure import Series
from bench.report import Row, ms, ratio, table
from bench.world import guild_payloads
from bot.storage.store import Store
from tests.e2e.game import wait_ready_after
from tests.e2e.process import BotProcess
from tests.fakediscord import (
    ROUTE_CALLBACK,
    DiscordStandin,
    RecordedRequest,
    autocomplete,
    slash,
)

Payload = dict[str, Any]
ROOT = Path(__file__).resolve().parents[1]
FLOOR = "bench-floor"
FLOOR_WRITE = "bench-floor-write"
COMMANDS = ("wound", "heal roll", "character show", "autocomplete")
KINDS = ("floor", "floor write", *COMMANDS)
LABELS = {
    "floor": "trivial command",
    "floor write": "trivial command with one durable write",
    "wound": "`/wound`",
    "heal roll": "`/heal roll`",
    "character show": "`/character show`",
    "autocomplete": "character autocomplete",
}
#: The targets of quality.md ("End to end"), for the commands they apply to.
TARGET_CPU, TARGET_LATENCY, TARGET_RATE = 2.0, 2.5, 0.5
TARGETED = ("wound", "heal roll")


@dataclass(frozen=True)
class Config:
    servers: int = 200
    """Servers of the data set (10 characters each, 8 of them players')."""
    events: int = 20_000
    rounds: int = 600
    """Rounds of the one-at-a-time phase: in each, one command of every kind, in a random order."""
    warmup: int = 20
    in_flight: int = 50
    batch: int = 1000
    """Commands per throughput run."""
    throughput_rounds: int = 3
    postgres: bool = False
    """Run the bot on PostgreSQL (the data set copied into a throwaway cluster with PostgreSQL's
    durable defaults, or into ``HARMONIES_BENCH_POSTGRES_URL``), instead of the SQLite file."""
    profile: Path | None = None
    """Also record a py-spy profile of a /wound load into this file (raw collapsed stacks)."""
    profile_commands: int = 1500
    """/wound commands of the profiled load (fewer than the characters: none dies)."""
    profile_gil: bool = False
    """Only the samples of the thread holding the GIL (py-spy ``--gil``): Python's own work."""
    profile_kind: str = "wound"
    """Which command the profiled load sends: ``wound``, ``heal roll`` or ``floor``."""
    repeat: int = 1
    """Whole runs, each on a fresh copy of the data set with a bot process of its own; with more than
    one, the ratios of the targets are also given as their median and range over the runs, and the
    median says whether a target is met (one run's CPU ratio moves by about ±0.15 here)."""
    seed: int = 5
    keep: bool = False

    @property
    def shape(self) -> Shape:
        return Shape(self.servers, 10, 8, self.events)


QUICK = Config(rounds=200, batch=500, throughput_rounds=2)
TINY = Config(
    servers=4, events=200, rounds=3, warmup=1, in_flight=4, batch=8, throughput_rounds=1, profile_commands=8
)


def log(message: str) -> None:
    print(f"[bench e2e {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def cpu_seconds(pid: int) -> float:
    """Seconds on a CPU of every thread of a process (see :func:`cpu_split`)."""
    return sum(cpu_split(pid).values())


def cpu_split(pid: int) -> dict[str, float]:
    """Seconds on a CPU of the event loop's thread (the main one) and of the others (the database's),
    from each thread's ``/proc/<pid>/task/<tid>/schedstat`` (nanoseconds; ended threads not counted)."""
    out = dict.fromkeys(SPLIT, 0.0)
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            ran = int((task / "schedstat").read_text().split()[0])
        except (FileNotFoundError, ProcessLookupError, IndexError, ValueError):
            continue
        out["event loop" if task.name == str(pid) else "database"] += ran / 1e9
    return out


SPLIT = ("event loop", "database")


def own_cpu_seconds() -> float:
    times = os.times()
    return times.user + times.system


class BenchStandin(DiscordStandin):
    """The stand-in, plus one future per interaction resolved by its callback, and bookkeeping that
    does not grow over a long run (the records of answered interactions are dropped)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.waiting: dict[str, asyncio.Future[RecordedRequest]] = {}

    async def handle(self, record: RecordedRequest) -> tuple[int, Any]:
        answer = await super().handle(record)
        if record.route == ROUTE_CALLBACK and record.token is not None:
            future = self.waiting.pop(record.token, None)
            if future is not None and not future.done():
                future.set_result(record)
        return answer

    async def send(self, payload: Payload, *, within: float = 30.0) -> tuple[float, RecordedRequest]:
        """Deliver one interaction; its callback once answered, and the seconds it took to arrive."""
        exchange = self.track_interaction(payload)
        future: asyncio.Future[RecordedRequest] = asyncio.get_running_loop().create_future()
        self.waiting[exchange.token] = future
        exchange.sent_at = time.monotonic()
        await self.dispatch("INTERACTION_CREATE", exchange.payload)
        try:
            record = await asyncio.wait_for(future, within)
        finally:
            self.waiting.pop(exchange.token, None)
            self.forget(exchange.token)
        return record.at - exchange.sent_at, record

    def tidy(self) -> None:
        """Drop what only a test would read back: the request log, the gateway log, the replay buffer."""
        self.requests.clear()
        self.gateway_log.clear()
        if self.session is not None:
            self.session.events.clear()


class BenchError(RuntimeError):
    pass


def problem_of(kind: str, record: RecordedRequest) -> str | None:
    """Why a callback is not the answer ``kind`` should get (None: it is)."""
    if not record.ok:
        return f"callback answered {record.status}: {record.response!r}"[:300]
    body = record.json if isinstance(record.json, dict) else {}
    answer = body.get("data") or {}
    if kind == "autocomplete":
        return None if body.get("type") == 8 and answer.get("choices") else f"no choices: {body!r}"[:300]
    if body.get("type") != 4:
        return f"callback type {body.get('type')}"
    if int(answer.get("flags") or 0) & 64:
        return f"refused: {answer.get('content')!r}"[:300]
    return None


class Workload:
    """The payloads, as Discord would send them. A wound and a heal roll of one character leave it as
    it was (it holds one light wound; the heal roll's own dice heal one, then fail by 9: not worse),
    so heal rolls follow the wounds' targets in the same order and never overtake them."""

    def __init__(self, shape: Shape, servers: Sequence[int]) -> None:
        self.shape = shape
        self.servers = list(servers)
        self.turn = {kind: 0 for kind in KINDS}

    def target(self, kind: str) -> tuple[int, int]:
        turn = self.turn[kind]
        if kind == "heal roll" and turn >= self.turn["wound"]:
            raise BenchError("a heal roll would overtake the wounds (bench bug)")
        self.turn[kind] = turn + 1
        g = self.servers[turn % len(self.servers)]
        k = (turn // len(self.servers)) % self.shape.players
        return g, k

    def payload(self, kind: str) -> Payload:
        g, k = self.target(kind)
        guild = data.guild_id(g)
        gm, role = data.GM, (data.gm_role_id(g),)
        player = data.player_id(self.shape, g, k)
        locale = "fr" if g % 2 else "en-US"
        if kind == "floor":
            return slash(FLOOR, {}, guild_id=guild, user_id=player)
        if kind == "floor write":
            return slash(FLOOR_WRITE, {}, guild_id=guild, user_id=player)
        if kind == "wound":
            options = {
                "severity": "light",
                "character": str(data.character_id(self.shape, g, k)),
                "note": "an arrow",
            }
            return slash("wound", options, guild_id=guild, guild_locale=locale, user_id=gm, roles=role)
        if kind == "heal roll":
            dice = {"dice": "10-1 1-10"}
            return slash("heal roll", dice, guild_id=guild, guild_locale=locale, user_id=player)
        if kind == "character show":
            return slash("character show", {}, guild_id=guild, guild_locale=locale, user_id=player)
        if kind == "autocomplete":
            typed = data.character_name(g, k)[: 1 + k % 3]
            options = {"severity": "light", "character": typed}
            return autocomplete("wound", options, focused="character", guild_id=guild, user_id=gm, roles=role)
        raise ValueError(kind)


@dataclass
class Figures:
    """Per kind: latencies one at a time, CPU, throughput runs."""

    latency: dict[str, Series] = field(default_factory=lambda: {k: Series() for k in KINDS})
    split: dict[str, dict[str, float]] = field(
        default_factory=lambda: {k: dict.fromkeys(SPLIT, 0.0) for k in KINDS}
    )
    count: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    rate_commands: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    rate_seconds: dict[str, float] = field(default_factory=lambda: dict.fromkeys(KINDS, 0.0))
    rate_cpu: dict[str, float] = field(default_factory=lambda: dict.fromkeys(KINDS, 0.0))
    rate_own_cpu: dict[str, float] = field(default_factory=lambda: dict.fromkeys(KINDS, 0.0))
    rate_latency: dict[str, Series] = field(default_factory=lambda: {k: Series() for k in KINDS})
    unanswered: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    failures: list[str] = field(default_factory=list)

    def cpu_per(self, kind: str) -> float:
        return sum(self.split[kind].values()) / self.count[kind] if self.count[kind] else float("nan")

    def rate(self, kind: str) -> float:
        seconds = self.rate_seconds[kind]
        return self.rate_commands[kind] / seconds if seconds else float("nan")


def round_order(rng: random.Random) -> list[str]:
    """Every kind once, in a random order, a wound before its heal rolls."""
    order = list(KINDS)
    rng.shuffle(order)
    w, h = order.index("wound"), order.index("heal roll")
    if h < w:
        order[w], order[h] = order[h], order[w]
    return order


async def one(standin: BenchStandin, work: Workload, kind: str) -> float:
    seconds, record = await standin.send(work.payload(kind))
    problem = problem_of(kind, record)
    if problem is not None:
        raise BenchError(f"{kind}: {problem}")
    return seconds


async def one_at_a_time(
    standin: BenchStandin, work: Workload, pid: int, config: Config, out: Figures
) -> None:
    rng = random.Random(config.seed)
    for round_ in range(config.rounds):
        for kind in round_order(rng):
            parts = cpu_split(pid)
            out.latency[kind].add(await one(standin, work, kind))
            for name, value in cpu_split(pid).items():
                out.split[kind][name] += value - parts[name]
            out.count[kind] += 1
        if round_ % 50 == 49:
            standin.tidy()
            log(f"one at a time: round {round_ + 1}/{config.rounds}")
    standin.tidy()


async def closed_loop(
    standin: BenchStandin, work: Workload, kind: str, *, commands: int, in_flight: int, out: Figures | None
) -> None:
    """``commands`` interactions of one kind, ``in_flight`` at once."""
    left = commands

    async def worker() -> None:
        nonlocal left
        while left > 0:
            left -= 1
            try:
                seconds, record = await standin.send(work.payload(kind))
            except TimeoutError:
                if out is not None:
                    out.unanswered[kind] += 1
                    out.failures.append(f"{kind}: no callback within 30 s")
                continue
            problem = problem_of(kind, record)
            if out is None:
                continue
            out.rate_latency[kind].add(seconds)
            if problem is not None:
                out.unanswered[kind] += 1
                out.failures.append(f"{kind}: {problem}")

    await asyncio.gather(*(worker() for _ in range(in_flight)))


async def throughput(standin: BenchStandin, work: Workload, pid: int, config: Config, out: Figures) -> None:
    rng = random.Random(config.seed + 1)
    for round_ in range(config.throughput_rounds):
        for kind in round_order(rng):
            cpu, own = cpu_seconds(pid), own_cpu_seconds()
            begin = time.perf_counter()
            await closed_loop(standin, work, kind, commands=config.batch, in_flight=config.in_flight, out=out)
            out.rate_seconds[kind] += time.perf_counter() - begin
            out.rate_cpu[kind] += cpu_seconds(pid) - cpu
            out.rate_own_cpu[kind] += own_cpu_seconds() - own
            out.rate_commands[kind] += config.batch
            standin.tidy()
        log(f"throughput: round {round_ + 1}/{config.throughput_rounds}")


async def profiled(standin: BenchStandin, work: Workload, pid: int, config: Config) -> None:
    """A load of ``config.profile_kind`` under py-spy, attached to the bot. Wounds and heal rolls come
    in pairs (the heal rolls restore the characters), the unprofiled half before or after."""
    assert config.profile is not None
    binary = shutil.which("py-spy", path=str(Path(sys.executable).parent)) or shutil.which("py-spy")
    if binary is None:
        raise BenchError("py-spy is not on the PATH nor in the venv (pip install py-spy): no profile")
    argv = [binary, "record", "--pid", str(pid), "--rate", "400", "--format", "raw", "--threads"]
    argv += ["--nonblocking", "-o", str(config.profile)]
    if config.profile_gil:
        argv.append("--gil")
    n, kind, in_flight = config.profile_commands, config.profile_kind, config.in_flight
    if kind == "heal roll":
        await closed_loop(standin, work, "wound", commands=n, in_flight=in_flight, out=None)
    recorder = await asyncio.create_subprocess_exec(*argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    await asyncio.sleep(1.0)  # attached
    await closed_loop(standin, work, kind, commands=n, in_flight=in_flight, out=None)
    recorder.send_signal(signal.SIGINT)
    _, err = await asyncio.wait_for(recorder.communicate(), 60)
    if not config.profile.exists():
        raise BenchError(f"py-spy failed: {err.decode(errors='replace')[-2000:]}")
    if kind == "wound":
        await closed_loop(standin, work, "heal roll", commands=n, in_flight=in_flight, out=None)
    standin.tidy()
    log(f"profile written to {config.profile}")


async def measure(config: Config, database_url: str, workdir: Path) -> tuple[Figures, str]:
    servers = range(config.servers)
    out = Figures()
    standin = BenchStandin(guilds=guild_payloads(servers))
    async with standin:
        env = standin.bot_env(DATABASE_URL=database_url, BENCH_FLOOR="1", LOG_LEVEL="WARNING")
        proc = await BotProcess.start([sys.executable, "-m", "bot"], env=env, log_path=workdir / "bot.log")
        standin.watch(proc.unexpected_exit)
        try:
            await wait_ready_after(standin, proc, within=120.0)
            work = Workload(config.shape, servers)
            for kind in KINDS:  # warm-up: every path once, checked
                for _ in range(config.warmup):
                    await one(standin, work, kind)
            standin.tidy()
            await one_at_a_time(standin, work, proc.pid, config, out)
            await throughput(standin, work, proc.pid, config, out)
            if config.profile is not None:
                await profiled(standin, work, proc.pid, config)
        finally:
            await proc.stop()
        if proc.returncode != 0:
            raise BenchError(f"the bot exited with {proc.returncode}:\n{proc.output()[-3000:]}")
        output = proc.output()
    return out, output


# ---- the table -------------------------------------------------------------------------------------


def rows(config: Config, fig: Figures) -> list[Row]:
    out: list[Row] = []
    floor_cpu = fig.cpu_per("floor")
    floor_lat = fig.latency["floor"]
    floor_rate = fig.rate("floor")
    out.append(Row("floor: bot CPU per trivial command", ms(floor_cpu), "—", "—", "—", None))
    out.append(
        Row(
            "floor: trivial command latency, one at a time",
            f"{ms(floor_lat.median)} (p99 {ms(floor_lat.p99)})",
            "—",
            "—",
            "—",
            None,
        )
    )
    out.append(
        Row(
            f"floor: trivial command throughput, {config.in_flight} in flight",
            f"{floor_rate:,.0f} /s ({fig.unanswered['floor']} not answered)",
            "—",
            "—",
            "—",
            None,
        )
    )
    for kind in ("floor write", *COMMANDS):
        targeted = kind in TARGETED
        cpu = fig.cpu_per(kind)
        out.append(
            Row(
                f"{LABELS[kind]}: bot CPU per command",
                ms(cpu),
                ms(floor_cpu),
                ratio(cpu, floor_cpu),
                f"≤ {TARGET_CPU:g}×" if targeted else "reported",
                cpu <= TARGET_CPU * floor_cpu if targeted and floor_cpu > 0 else None,
            )
        )
        lat = fig.latency[kind]
        out.append(
            Row(
                f"{LABELS[kind]}: latency one at a time, median (p99)",
                f"{ms(lat.median)} ({ms(lat.p99)})",
                f"{ms(floor_lat.median)} ({ms(floor_lat.p99)})",
                f"{ratio(lat.median, floor_lat.median)} ({ratio(lat.p99, floor_lat.p99)})",
                f"median ≤ {TARGET_LATENCY:g}×" if targeted else "reported",
                lat.median <= TARGET_LATENCY * floor_lat.median if targeted else None,
            )
        )
        rate = fig.rate(kind)
        out.append(
            Row(
                f"{LABELS[kind]}: throughput, {config.in_flight} in flight",
                f"{rate:,.0f} /s; {fig.unanswered[kind]} of {fig.rate_commands[kind]:,} not answered",
                f"{floor_rate:,.0f} /s",
                ratio(rate, floor_rate),
                f"≥ {TARGET_RATE:g}×, every one answered" if targeted else "reported",
                (rate >= TARGET_RATE * floor_rate and fig.unanswered[kind] == 0) if targeted else None,
            )
        )
    return out + against_durable_floor(fig)


def against_durable_floor(fig: Figures) -> list[Row]:
    """The targeted commands against the trivial command that also commits one durable write (what
    every change must do): what the rules, the history and the answer add. Reported, not a target."""
    out: list[Row] = []
    base = "floor write"
    for kind in TARGETED:
        for figure, value, floor in (
            ("bot CPU per command", fig.cpu_per(kind), fig.cpu_per(base)),
            ("latency one at a time, median", fig.latency[kind].median, fig.latency[base].median),
        ):
            out.append(
                Row(
                    f"{LABELS[kind]}: {figure}",
                    ms(value),
                    f"{ms(floor)} (with a write)",
                    ratio(value, floor),
                    "reported",
                    None,
                )
            )
        rate, floor_rate = fig.rate(kind), fig.rate(base)
        out.append(
            Row(
                f"{LABELS[kind]}: throughput",
                f"{rate:,.0f} /s",
                f"{floor_rate:,.0f} /s (with a write)",
                ratio(rate, floor_rate),
                "reported",
                None,
            )
        )
    return out


def repeated(figs: Sequence[Figures]) -> str:
    """The targets' ratios over several runs: their median, which says whether a target is met (and
    every interaction of every run answered), and their range; then the same against the durable
    floor, reported."""
    answered = all(f.unanswered[k] == 0 for f in figs for k in KINDS)
    lines = [
        f"| ratio to a floor of the same run | median of {len(figs)} runs | range | target | met |",
        "|---|---|---|---|---|",
    ]
    for base in ("floor", "floor write"):
        for kind in TARGETED:
            cpu = [f.cpu_per(kind) / f.cpu_per(base) for f in figs]
            latency = [f.latency[kind].median / f.latency[base].median for f in figs]
            rate = [f.rate(kind) / f.rate(base) for f in figs]
            for figure, values, target, met in (
                ("bot CPU per command", cpu, f"≤ {TARGET_CPU:g}×", statistics.median(cpu) <= TARGET_CPU),
                (
                    "median latency one at a time",
                    latency,
                    f"≤ {TARGET_LATENCY:g}×",
                    statistics.median(latency) <= TARGET_LATENCY,
                ),
                (
                    "throughput",
                    rate,
                    f"≥ {TARGET_RATE:g}×, every one answered",
                    statistics.median(rate) >= TARGET_RATE and answered,
                ),
            ):
                if base == "floor":
                    label, verdict = f"{LABELS[kind]}: {figure}", "yes" if met else "**no**"
                else:
                    label, target, verdict = f"{LABELS[kind]}: {figure} (with a write)", "reported", "—"
                spread = f"{min(values):.2f}–{max(values):.2f}×"
                lines.append(
                    f"| {label} | {statistics.median(values):.2f}× | {spread} | {target} | {verdict} |"
                )
    return "\n".join(lines)


def notes(config: Config, fig: Figures) -> list[str]:
    loaded = ", ".join(
        f"{LABELS[k]} {ms(fig.rate_cpu[k] / fig.rate_commands[k])}" for k in KINDS if fig.rate_commands[k]
    )
    standin = ", ".join(
        f"{LABELS[k]} {fig.rate_own_cpu[k] / fig.rate_seconds[k]:.0%}" for k in KINDS if fig.rate_seconds[k]
    )
    busy = ", ".join(
        f"{LABELS[k]} {fig.rate_cpu[k] / fig.rate_seconds[k]:.0%}" for k in KINDS if fig.rate_seconds[k]
    )
    lat = ", ".join(
        f"{LABELS[k]} {ms(fig.rate_latency[k].median)} / {ms(fig.rate_latency[k].p99)}"
        for k in KINDS
        if fig.rate_latency[k].samples
    )
    split = "; ".join(
        f"{LABELS[k]} " + ", ".join(f"{name} {ms(fig.split[k][name] / fig.count[k])}" for name in SPLIT)
        for k in KINDS
        if fig.count[k]
    )
    out = [
        "Bot CPU per command one at a time, by thread (the time on a CPU of the event loop's thread and "
        f"of the database's, from /proc/<pid>/task/*/schedstat, in nanoseconds): {split}.",
        f"Bot CPU per command under load ({config.in_flight} in flight): {loaded}.",
        f"Bot process CPU use during the throughput runs (of one core): {busy}; "
        f"the bench process (stand-in and driver) meanwhile: {standin}.",
        f"Median / p99 latency in the throughput runs: {lat}.",
    ]
    if fig.failures:
        out.append(f"Failures ({len(fig.failures)}), first: {fig.failures[:3]}")
    return out


def header(config: Config, database: str, started: datetime.datetime) -> str:
    load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
    shape = config.shape
    return (
        f"Run {started:%Y-%m-%d %H:%M} UTC on {platform.node() or 'this machine'}: {os.cpu_count()} cores "
        f"(not pinned), load average at the start {load}; Python {platform.python_version()}, SQLite "
        f"{sqlite3.sqlite_version}, discord.py {discord.__version__}. The bot: `python -m bot` on "
        f"{database}, {shape.characters:,} characters in {shape.servers} servers; one at a time: "
        f"{config.rounds} rounds of one command of each kind (in a random order); "
        f"throughput: {config.throughput_rounds} rounds of {config.batch:,} of each kind, "
        f"{config.in_flight} in flight."
    )


async def migrate(url: str) -> None:
    store = await Store.open(url)  # creates the schema
    await store.close()


def run(config: Config) -> str:
    started = datetime.datetime.now(datetime.UTC)
    workdir = Path(tempfile.mkdtemp(prefix="harmonies-bench-e2e-"))
    try:
        log(f"data set in {workdir}: {config.shape}")
        db = data.dataset(config.shape, workdir)
        database = "PostgreSQL (the same data set, copied)" if config.postgres else "SQLite"
        figs: list[Figures] = []
        with pg.server() if config.postgres else contextlib.nullcontext("") as server_url:
            for n in range(config.repeat):
                if config.repeat > 1:
                    log(f"run {n + 1} of {config.repeat}")
                fresh = workdir / f"run-{n}.db"  # the same data for every run: the last one changed it
                shutil.copyfile(db, fresh)
                url = f"sqlite:///{fresh}"
                if config.postgres:
                    url = pg.fresh_database(server_url)
                    asyncio.run(migrate(url))
                    pg.copy_from_sqlite(fresh, url)
                once = config if n == 0 else replace(config, profile=None)  # one profile, of the first run
                figs.append(asyncio.run(measure(once, url, workdir))[0])
        first = figs[0]
        parts = [header(config, database, started)]
        if len(figs) > 1:
            parts.append(repeated(figs) + f"\n\nThe first of the {len(figs)} runs:")
        parts += [table(rows(config, first)), *notes(config, first)]
        if config.profile is not None:
            mode = "the thread holding the GIL (`--gil`)" if config.profile_gil else "every active thread"
            parts.append(
                f"py-spy profile of {config.profile_commands:,} {LABELS[config.profile_kind]} with "
                f"{config.in_flight} in flight, "
                f"samples of {mode}:\n\n```\n{spy.summary(config.profile)}\n```"
            )
        text = "\n\n".join(parts)
        return text + "\n"
    finally:
        if config.keep:
            log(f"kept {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)


def parse(argv: Sequence[str]) -> tuple[Config, Path | None]:
    parser = argparse.ArgumentParser(prog="python -m bench e2e", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer rounds: about a minute")
    parser.add_argument("--tiny", action="store_true", help="a few commands: checks that it runs")
    parser.add_argument("--rounds", type=int, help="rounds of the one-at-a-time phase")
    parser.add_argument("--batch", type=int, help="commands per throughput run")
    parser.add_argument("--throughput-rounds", type=int, dest="throughput_rounds", help="throughput rounds")
    parser.add_argument("--in-flight", type=int, dest="in_flight", help="interactions in flight")
    parser.add_argument("--servers", type=int, help="servers of the data set (10 characters each)")
    parser.add_argument("--postgres", action="store_true", help="run the bot on PostgreSQL")
    parser.add_argument("--profile", type=Path, help="also record a py-spy profile of a /wound load")
    parser.add_argument("--profile-gil", action="store_true", help="profile only the GIL holder")
    parser.add_argument(
        "--profile-kind", dest="profile_kind", choices=("wound", "heal roll", "floor"), help="what to profile"
    )
    parser.add_argument("--repeat", type=int, help="whole runs, each with a fresh bot and data (default 1)")
    parser.add_argument("--keep", action="store_true", help="keep the run's temporary directory")
    parser.add_argument("--output", type=Path, help="also write the report to this file")
    args = parser.parse_args(argv)
    config = TINY if args.tiny else QUICK if args.quick else Config()
    names = (
        "rounds",
        "batch",
        "throughput_rounds",
        "in_flight",
        "servers",
        "profile",
        "profile_kind",
        "repeat",
    )
    changes: dict[str, Any] = {n: getattr(args, n) for n in names if getattr(args, n) is not None}
    if args.keep:
        changes["keep"] = True
    if args.postgres:
        changes["postgres"] = True
    if args.profile_gil:
        changes["profile_gil"] = True
    return replace(config, **changes), args.output


def main(argv: Sequence[str]) -> None:
    config, output = parse(argv)
    text = run(config)
    print(text)
    if output is not None:
        output.write_text(text, encoding="utf-8")
