"""Measurements: the durable-commit floor, sequential latencies, and sustained throughput."""

from __future__ import annotations

import asyncio
import math
import random
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import discord

from bench.world import COMMANDS, Payload, World, answer_problem


@dataclass
class Series:
    """Samples of one figure, in seconds."""

    samples: list[float] = field(default_factory=list)

    def add(self, seconds: float) -> None:
        self.samples.append(seconds)

    @property
    def median(self) -> float:
        return percentile(self.samples, 50)

    @property
    def p99(self) -> float:
        return percentile(self.samples, 99)


def percentile(samples: Sequence[float], pct: float) -> float:
    """Nearest-rank percentile (the median of an even count is the mean of the middle two)."""
    if not samples:
        return math.nan
    ordered = sorted(samples)
    if pct == 50:
        mid = len(ordered) // 2
        return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2
    rank = max(1, math.ceil(pct / 100 * len(ordered)))
    return ordered[rank - 1]


class Floor(Protocol):
    """One durable commit, sampled between the commands (SQLite's or PostgreSQL's)."""

    series: Series

    def sample(self) -> float: ...


class CommitFloor:
    """One durable SQLite commit: WAL, ``synchronous=FULL``, one row, in the data sets' directory."""

    def __init__(self, directory: Path) -> None:
        self.path = directory / "commit-floor.db"
        self._conn = sqlite3.connect(self.path, isolation_level=None)
        self._conn.execute("PRAGMA journal_mode = WAL")
        self._conn.execute("PRAGMA synchronous = FULL")
        self._conn.execute("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, at REAL NOT NULL)")
        self.series = Series()

    def sample(self) -> float:
        conn = self._conn
        start = time.perf_counter()
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT INTO t (at) VALUES (?)", (start,))
        conn.execute("COMMIT")
        elapsed = time.perf_counter() - start
        self.series.add(elapsed)
        return elapsed

    def close(self) -> None:
        self._conn.close()


class BenchError(RuntimeError):
    """A benchmarked command did not get the answer it should (a bench bug, or a bot bug)."""


async def timed(world: World, command: str, payload: Payload) -> float:
    start = time.perf_counter()
    reply = await world.dispatch(payload)
    elapsed = time.perf_counter() - start
    problem = answer_problem(command, reply)
    if problem is not None:
        raise BenchError(f"{world.label} {command}: {problem}")
    return elapsed


@dataclass
class Latencies:
    """Per world: the floor and each benchmarked command."""

    by_world: dict[str, dict[str, Series]]


async def latencies(
    worlds: Sequence[World], commit: Floor, *, samples: int, warmup: int, seed: int = 1
) -> Latencies:
    """``samples`` rounds; in each, every world runs the floor and each command once (wound before
    heal roll, on the same character), with the commit floor sampled at a random point. Worlds
    alternate, and the floor's place in a round is random, so they all see the same noise."""
    rng = random.Random(seed)
    floors = ("floor", "sized floor")
    result = {w.label: {name: Series() for name in (*floors, *COMMANDS)} for w in worlds}
    # Check the payloads once against what Discord would send (the timed runs skip those checks).
    for world in worlds:
        g, k = world.next_target()
        for command in (*COMMANDS, *floors):
            reply = await world.dispatch(world.payload(command, g, k), checks=True)
            problem = answer_problem(command, reply)
            if problem is not None:
                raise BenchError(f"{world.label} {command}: {problem}")
            if command == "wound":
                world.wound_reply = [discord.Embed.from_dict(e) for e in reply.embeds]
    for round_ in range(warmup + samples):
        keep = round_ >= warmup
        order = list(worlds)
        rng.shuffle(order)
        commit_at = rng.randrange(len(order))
        for index, world in enumerate(order):
            g, k = world.next_target()
            steps = list(COMMANDS)
            for floor in floors:
                steps.insert(rng.randrange(len(steps) + 1), floor)
            for command in steps:
                elapsed = await timed(world, command, world.payload(command, g, k))
                if keep:
                    result[world.label][command].add(elapsed)
            if index == commit_at:
                elapsed = commit.sample()
                if not keep:
                    commit.series.samples.pop()
    return Latencies(result)


@dataclass
class Throughput:
    commands: int
    seconds: float
    latency: Series
    answered: int
    failures: list[str]
    next_index: int
    by_command: dict[str, Series] = field(default_factory=dict)
    max_in_flight: int = 0

    @property
    def rate(self) -> float:
        return self.commands / self.seconds if self.seconds else math.nan

    @property
    def unanswered(self) -> int:
        return self.commands - self.answered


class _Recorder:
    """Dispatches and checks one command; keeps latencies, failures and how many are in flight."""

    def __init__(self, world: World, make: Callable[[int], tuple[str, Payload]]) -> None:
        self.world = world
        self.make = make
        self.latency = Series()
        self.by_command: dict[str, Series] = {}
        self.failures: list[str] = []
        self.answered = 0
        self.sent = 0
        self.in_flight = 0
        self.max_in_flight = 0
        self.last = -1

    async def one(self, j: int, since: float | None = None) -> None:
        """Command ``j``; its latency runs from ``since`` (its arrival) or from now."""
        begin = time.perf_counter() if since is None else since
        command, payload = self.make(j)
        self.sent += 1
        self.last = max(self.last, j)
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            reply = await self.world.dispatch(payload)
        except Exception as exc:  # a time-out of the harness counts as unanswered
            self.failures.append(f"{command}: {type(exc).__name__}: {exc}"[:300])
            return
        finally:
            self.in_flight -= 1
        elapsed = time.perf_counter() - begin
        self.latency.add(elapsed)
        self.by_command.setdefault(command, Series()).add(elapsed)
        problem = answer_problem(command, reply)
        if problem is None:
            self.answered += 1
        else:
            self.failures.append(f"{command}: {problem}"[:300])

    def result(self, seconds: float, start: int) -> Throughput:
        return Throughput(
            self.sent,
            seconds,
            self.latency,
            self.answered,
            self.failures,
            max(self.last + 1, start),
            self.by_command,
            self.max_in_flight,
        )


#: One player's session on their character, repeated: a wound, and its heal roll, stay balanced
#: (every character holds a light wound to begin with, so a session may start anywhere).
MIX = ("wound", "autocomplete", "character show", "heal roll", "character show", "autocomplete")


def mixed(world: World) -> Callable[[int], tuple[str, Payload]]:
    """Command ``j``: the players' characters of all servers in turn, each following ``MIX`` from
    its own starting point, so that any run of commands has the mix's proportions. The next command
    about a character comes (servers × players) commands later: never in flight at once."""
    servers, players = world.servers, world.shape.players
    width = len(servers) * players

    def make(j: int) -> tuple[str, Payload]:
        c = j % width
        g = servers[c % len(servers)]
        k = (c // len(servers)) % players
        command = MIX[(j // width + c) % len(MIX)]
        return command, world.payload(command, g, k)

    return make


def floor_only(world: World) -> Callable[[int], tuple[str, Payload]]:
    servers = world.servers

    def make(j: int) -> tuple[str, Payload]:
        return "floor", world.floor(servers[j % len(servers)])

    return make


async def throughput(
    world: World,
    make: Callable[[int], tuple[str, Payload]],
    *,
    in_flight: int,
    seconds: float,
    start: int = 0,
) -> Throughput:
    """Capacity: ``in_flight`` interactions at once for ``seconds``, each worker sending the next as
    soon as its previous one is answered (a closed loop: by Little's law the latency is then
    ``in_flight / rate``, whatever the bot does). Every reply is checked."""
    deadline = time.perf_counter() + seconds
    counter = iter(range(start, 1 << 62))
    recorder = _Recorder(world, make)

    async def worker() -> None:
        while time.perf_counter() < deadline:
            await recorder.one(next(counter))

    begin = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(in_flight)))
    return recorder.result(time.perf_counter() - begin, start)


async def paced(
    world: World,
    make: Callable[[int], tuple[str, Payload]],
    *,
    rate: float,
    seconds: float,
    cap: int,
    start: int = 0,
    seed: int = 3,
) -> Throughput:
    """Sustained load: interactions arrive at ``rate`` per second on average (Poisson arrivals, as
    from many independent users) for ``seconds``; ``cap`` workers handle them in order of arrival, so
    at most ``cap`` are in flight and the others wait (no task each: the harness looks through every
    task at each dispatch). A latency runs from the arrival, so the wait counts."""
    rng = random.Random(seed)
    recorder = _Recorder(world, make)
    arrivals: asyncio.Queue[tuple[int, float] | None] = asyncio.Queue()

    async def worker() -> None:
        while (item := await arrivals.get()) is not None:
            await recorder.one(item[0], since=item[1])

    workers = [asyncio.create_task(worker()) for _ in range(cap)]
    begin = time.perf_counter()
    due = begin
    index = start
    while True:
        due += rng.expovariate(rate)
        if due - begin > seconds:
            break
        delay = due - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        arrivals.put_nowait((index, due))
        index += 1
    for _ in workers:
        arrivals.put_nowait(None)
    await asyncio.gather(*workers)
    return recorder.result(time.perf_counter() - begin, start)
