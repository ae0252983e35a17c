"""``python -m bench e2e``: the bot as its own process (``python -m bot``), over the local Discord
stand-in (tests/fakediscord: real HTTP and gateway), beside the floors' own bot (``python -m
bench.floor_bot``, bench/floor_bot.py) as a process of its own over a stand-in of its own, as an
outside measurement would have them. Bot CPU per command: every thread's time on a CPU
(``/proc/<pid>/task/*/schedstat``) of the process that answers, around each command sent one at a time;
latency: from INTERACTION_CREATE sent to the callback's arrival; throughput: ``in_flight`` at once (a
closed loop), every answer checked. ``--compare orjson,uvloop``: the same, in ABBA order with those
modules unimportable in both processes (the speed-ups' A/B)."""

from __future__ import annotations

import asyncio
import contextlib
import math
import random
import shutil
import socket
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import aiohttp

from bench import data
from bench.data import Shape
from bench.measure import Series, round_order
from bench.report import Row, against, log, machine, ms, parser, publish, table
from bench.world import COMMANDS, FLOOR_OF, FLOORS, KINDS, LABELS, BenchError, guild_payloads, payload
from tests.e2e.process import BotProcess
from tests.e2e.running import wait_ready_after
from tests.fakediscord import DiscordStandin, RecordedRequest

Payload = dict[str, Any]
TARGET_CPU, TARGET_LATENCY, TARGET_RATE = 1.3, 1.3, 0.6
TARGETED = ("wound", "heal roll")
#: ``python -c``: a bot with some modules made unimportable (``--compare``), as where they are not
#: installed (discord.py then falls back on json, the bots on asyncio's loop); ``gc.freeze``: not called.
WITHOUT = "import gc, sys; names = sys.argv[1].split(','); sys.modules.update(dict.fromkeys(names))\n"
WITHOUT += "gc.freeze = (lambda: None) if 'gc.freeze' in names else gc.freeze\n"
WITHOUT += "import runpy; module = sys.argv[2]; del sys.argv[1:]\n"
WITHOUT += "runpy.run_module(module, run_name='__main__', alter_sys=True)"
#: Each process, as ``python -m``: the bot, the floors' bot.
MODULES = {"bot": "bot", "floors": "bench.floor_bot"}


@dataclass(frozen=True)
class Config:
    servers: int = 200
    events: int = 20_000
    rounds: int = 300  # one at a time: in each, one command of every kind, in a random order
    warmup: int = 20
    in_flight: int = 50
    batch: int = 600  # commands of each kind per throughput round
    throughput_rounds: int = 2
    without: tuple[str, ...] = ()

    @property
    def shape(self) -> Shape:
        return Shape(self.servers, events=self.events)


QUICK = Config(rounds=120, batch=400)
TINY = Config(servers=4, events=200, rounds=3, warmup=1, in_flight=4, batch=8, throughput_rounds=1)


def cpu_seconds(pid: int) -> float:
    """Seconds on a CPU of every thread of a process (ended threads not counted)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(FileNotFoundError, ProcessLookupError, IndexError, ValueError):
            total += int((task / "schedstat").read_text().split()[0])
    return total / 1e9


async def send(standin: DiscordStandin, body: Payload) -> tuple[float, RecordedRequest]:
    """Deliver one interaction; its first callback, and the seconds it took to arrive."""
    exchange = await standin.interaction(body, wait=False)
    try:
        record = await exchange.wait_callback(within=30.0, ok=False)
    finally:
        standin.forget(exchange.token)
    return record.at - exchange.sent_at, record


@dataclass
class Running:
    """A bot process and its stand-in."""

    standin: DiscordStandin
    proc: BotProcess


@dataclass
class Pair:
    """The bot and the floors' bot, each over a stand-in of its own; ``of(kind)``: who answers it."""

    bot: Running
    floors: Running

    def of(self, kind: str) -> Running:
        return self.floors if kind in FLOORS else self.bot

    async def send(self, kind: str, body: Payload) -> tuple[float, RecordedRequest]:
        return await send(self.of(kind).standin, body)


def tidy(standin: DiscordStandin) -> None:  # drop what only a test reads back: a long run stays fast
    standin.requests.clear()
    standin.gateway_log.clear()
    if standin.session is not None:
        standin.session.events.clear()


def problem_of(kind: str, record: RecordedRequest) -> str | None:
    """Why a callback is not the answer ``kind`` should get (None: it is)."""
    if not record.ok:
        return f"callback answered {record.status}: {record.response!r}"[:300]
    body = record.json if isinstance(record.json, dict) else {}
    answer = body.get("data") or {}
    if kind == "autocomplete":
        return None if body.get("type") == 8 and answer.get("choices") else f"no choices: {body!r}"[:300]
    if body.get("type") != 4 or int(answer.get("flags") or 0) & 64:
        return f"refused: {body!r}"[:300]
    return None


class Workload:
    """Each kind goes through the characters in turn; heal rolls follow the wounds (same order)."""

    def __init__(self, shape: Shape, servers: Sequence[int]) -> None:
        self.shape, self.servers = shape, list(servers)
        self.turn = dict.fromkeys(KINDS, 0)

    def payload(self, kind: str) -> Payload:
        turn = self.turn[kind]
        if kind == "heal roll" and turn >= self.turn["wound"]:
            raise BenchError("a heal roll would overtake the wounds (bench bug)")
        self.turn[kind] = turn + 1
        g = self.servers[turn % len(self.servers)]
        return payload(self.shape, kind, g, (turn // len(self.servers)) % self.shape.players)


@dataclass
class Figures:
    latency: dict[str, Series] = field(default_factory=lambda: {k: Series() for k in KINDS})
    cpu: dict[str, float] = field(default_factory=lambda: dict.fromkeys(KINDS, 0.0))
    sent: Counter[str] = field(default_factory=Counter)
    seconds: dict[str, float] = field(default_factory=lambda: dict.fromkeys(KINDS, 0.0))
    unanswered: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)

    def cpu_per(self, kind: str) -> float:
        return self.cpu[kind] / len(self.latency[kind].samples) if self.latency[kind].samples else math.nan

    def rate(self, kind: str) -> float:
        return self.sent[kind] / self.seconds[kind] if self.seconds[kind] else math.nan


async def one_at_a_time(pair: Pair, work: Workload, rounds: int, out: Figures) -> None:
    rng = random.Random(5)
    for round_ in range(rounds):
        for kind in round_order(rng):
            pid = pair.of(kind).proc.pid
            before = cpu_seconds(pid)
            seconds, record = await pair.send(kind, work.payload(kind))
            out.cpu[kind] += cpu_seconds(pid) - before
            if (problem := problem_of(kind, record)) is not None:
                raise BenchError(f"{kind}: {problem}")
            out.latency[kind].samples.append(seconds)
        if round_ % 50 == 49:
            tidy(pair.bot.standin)
            tidy(pair.floors.standin)


async def closed_loop(
    pair: Pair, work: Workload, kind: str, commands: int, in_flight: int, out: Figures
) -> None:
    """``commands`` interactions of one kind, ``in_flight`` at once, each answer checked."""
    left = commands

    async def worker() -> None:
        nonlocal left
        while left > 0:
            left -= 1
            try:
                _, record = await pair.send(kind, work.payload(kind))
                problem = problem_of(kind, record)
            except TimeoutError:
                problem = "no callback within 30 s"
            if problem is not None:
                out.unanswered[kind] += 1
                out.failures.append(f"{kind}: {problem}")

    begin = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(in_flight)))
    out.seconds[kind] += time.perf_counter() - begin
    out.sent[kind] += commands
    tidy(pair.of(kind).standin)


@contextlib.asynccontextmanager
async def running(
    name: str, servers: range, env: dict[str, str], config: Config, workdir: Path
) -> AsyncIterator[Running]:
    """Process ``name`` of :data:`MODULES` over a stand-in of its own, ready (commands synced); stopped
    at the end, and checked to have exited 0."""
    async with DiscordStandin(guilds=guild_payloads(servers)) as standin:
        module, without = MODULES[name], ",".join(config.without)
        argv = [sys.executable, "-c", WITHOUT, without, module] if without else [sys.executable, "-m", module]
        proc = await start(name, argv, standin, env, workdir)
        try:
            yield Running(standin, proc)
        finally:
            await proc.stop()
        if proc.returncode != 0:
            raise BenchError(f"{name} exited with {proc.returncode}:\n{proc.output()[-3000:]}")


async def start(
    name: str, argv: Sequence[str], standin: DiscordStandin, env: dict[str, str], workdir: Path
) -> BotProcess:
    """Process ``name`` started with ``argv`` over ``standin``, once ready. The bot is ready when its
    ``/readyz`` says so (after discord.py's READY, which waits for the servers: what its ``on_ready``
    does, a full collection among others, is then done and not counted in a command); the floors'
    bot, which does nothing when ready, once it has its servers."""
    port = free_port()
    health = {"HEALTH_PORT": str(port)} if name == "bot" else {}
    env = standin.bot_env(LOG_LEVEL="WARNING", **health, **env)
    proc = await BotProcess.start(argv, env=env, log_path=workdir / f"{name}.log")
    standin.watch(proc.unexpected_exit)
    await wait_ready_after(standin, proc, within=120.0)
    if health:
        await wait_readyz(port, proc, within=120.0)
        await asyncio.sleep(0.5)  # on_ready's task, started with READY, ends
    return proc


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def wait_readyz(port: int, proc: BotProcess, within: float) -> None:
    """Until ``GET /readyz`` answers 200."""
    give_up = time.monotonic() + within
    async with aiohttp.ClientSession() as http:
        while True:
            with contextlib.suppress(aiohttp.ClientError):
                async with http.get(f"http://127.0.0.1:{port}/readyz") as response:
                    if response.status == 200:
                        return
            if (problem := proc.exited()) is not None or time.monotonic() > give_up:
                raise BenchError(problem or f"the bot was not ready within {within:g} s")
            await asyncio.sleep(0.05)


async def measure(config: Config, url: str, workdir: Path) -> Figures:
    servers, out = range(config.servers), Figures()
    floor_url = f"sqlite:///{workdir / f'floor-{time.monotonic_ns()}.db'}"  # a new file for each run
    async with (
        running("bot", servers, {"DATABASE_URL": url}, config, workdir) as bot,
        running("floors", servers, {"FLOOR_DATABASE_URL": floor_url}, config, workdir) as floors,
    ):
        pair, work = Pair(bot, floors), Workload(config.shape, servers)
        await one_at_a_time(pair, work, config.warmup, Figures())
        await one_at_a_time(pair, work, config.rounds, out)
        rng = random.Random(6)
        for _ in range(config.throughput_rounds):
            for kind in round_order(rng):
                await closed_loop(pair, work, kind, config.batch, config.in_flight, out)
    return out


def rows(config: Config, fig: Figures) -> list[Row]:
    out: list[Row] = []
    for kind in FLOORS:
        lat = fig.latency[kind]
        measured = f"CPU {ms(fig.cpu_per(kind))}; latency {ms(lat.median)} (p99 {ms(lat.p99)})"
        out.append(Row(f"{LABELS[kind]}: bot CPU per command; latency one at a time", measured, None))
    for kind in COMMANDS:
        floor, bound = FLOOR_OF[kind], TARGET_CPU if kind in TARGETED else None
        cpu, floor_cpu = fig.cpu_per(kind), fig.cpu_per(floor)
        lat, floor_lat = fig.latency[kind], fig.latency[floor].median
        out.append(
            against(f"{LABELS[kind]}: bot CPU per command", ms(cpu), cpu, floor_cpu, ms(floor_cpu), bound)
        )
        measured = f"{ms(lat.median)} (p99 {ms(lat.p99)})"
        figure = f"{LABELS[kind]}: median latency one at a time"
        out.append(against(figure, measured, lat.median, floor_lat, ms(floor_lat), bound))
    trivial = fig.rate("floor")
    for kind in KINDS[1:]:
        rate, missed = fig.rate(kind), fig.unanswered[kind]
        measured = f"{rate:,.0f}/s; {missed} of {fig.sent[kind]:,} not answered"
        figure, bound = f"{LABELS[kind]}: throughput, {config.in_flight} in flight", None
        floor_text = f"trivial command: {trivial:,.0f}/s ({fig.unanswered['floor']} not answered)"
        bound = TARGET_RATE if kind in TARGETED else None
        out.append(
            against(figure, measured, rate, trivial, floor_text, bound, at_least=True, answered=not missed)
        )
    return out


def compared(runs: dict[str, list[Figures]]) -> str:
    """Both sides of ``--compare``: medians over the runs; the change within each pair of runs."""
    (a, with_), (b, without) = runs.items()
    figures: tuple[tuple[str, Callable[[Figures], float], str], ...] = (
        ("bot CPU per `/wound`", lambda f: f.cpu_per("wound") * 1000, "ms"),
        ("bot CPU per trivial command", lambda f: f.cpu_per("floor") * 1000, "ms"),
        ("`/wound` median latency", lambda f: f.latency["wound"].median * 1000, "ms"),
        ("`/wound` throughput", lambda f: f.rate("wound"), "/s"),
        ("trivial command throughput", lambda f: f.rate("floor"), "/s"),
        ("`/wound` CPU / write floor's", lambda f: f.cpu_per("wound") / f.cpu_per("floor write"), "×"),
    )
    lines = [f"| median of {len(with_)} runs | {a} | {b} | change (range over pairs) |", "|---|---|---|---|"]
    for name, get, unit in figures:
        x, y = statistics.median(map(get, with_)), statistics.median(map(get, without))
        pairs = sorted(get(p) / get(q) - 1 for p, q in zip(with_, without, strict=True))
        change = f"{statistics.median(pairs):+.0%} ({pairs[0]:+.0%} to {pairs[-1]:+.0%})"
        lines.append(f"| {name} | {x:,.2f} {unit} | {y:,.2f} {unit} | {change} |")
    return "\n".join(lines)


def run(config: Config, *, compare: tuple[str, ...] = (), runs: int = 1) -> str:
    started = machine()
    workdir = Path(tempfile.mkdtemp(prefix="harmonies-bench-e2e-"))
    try:
        db = data.dataset(config.shape, workdir)
        sides = {"with": config, f"without {', '.join(compare)}": replace(config, without=compare)}
        results: dict[str, list[Figures]] = {name: [] for name in sides}
        for n in range(runs if compare else 1):
            for name, side in list(sides.items())[:: -1 if n % 2 else 1] if compare else [("with", config)]:
                log(f"run {n + 1}: {name}")
                fresh = workdir / f"run-{n}-{len(results[name])}-{side.without}.db"  # the same data each time
                shutil.copyfile(db, fresh)
                results[name].append(asyncio.run(measure(side, f"sqlite:///{fresh}", workdir)))
        shape = config.shape
        parts = [
            f"{started} `python -m bot` on SQLite, {shape.characters:,} characters in {shape.servers} "
            "servers; the floors: `python -m bench.floor_bot`, its own SQLite file; "
            f"{config.rounds} rounds one at a time; throughput: "
            f"{config.throughput_rounds} × {config.batch:,} of each kind, {config.in_flight} in flight."
        ]
        if compare:
            parts.append(compared(results))
        first = results["with"][0]
        parts.append(table(rows(config, first)))
        if first.failures:
            parts.append(f"Failures ({len(first.failures)}), first: {first.failures[:3]}")
        return "\n\n".join(parts) + "\n"
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def main(argv: Sequence[str]) -> None:
    cli = parser("python -m bench e2e", __doc__)
    cli.add_argument("--compare", help="run alternately without (A/B): orjson,uvloop or gc.freeze")
    cli.add_argument("--runs", type=int, default=2, help="runs of each side with --compare")
    args = cli.parse_args(argv)
    config = TINY if args.tiny else QUICK if args.quick else Config()
    compare = tuple(args.compare.split(",")) if args.compare else ()
    publish(run(config, compare=compare, runs=args.runs), args.output)
