"""Measurements in process: latencies one at a time, capacity (a closed loop), sustained load."""

from __future__ import annotations

import asyncio
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from bench.world import KINDS, Payload, World, answer_problem

Maker = Callable[[int], tuple[str, Payload]]


@dataclass
class Series:
    """Samples of one figure, in seconds."""

    samples: list[float] = field(default_factory=list)

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
    return ordered[max(1, math.ceil(pct / 100 * len(ordered))) - 1]


def round_order(rng: random.Random) -> list[str]:
    """Every kind once, in a random order, the wound before the heal roll (of the same character)."""
    order = list(KINDS)
    rng.shuffle(order)
    w, h = order.index("wound"), order.index("heal roll")
    if h < w:
        order[w], order[h] = order[h], order[w]
    return order


async def latencies(
    worlds: Sequence[World], *, samples: int, warmup: int, seed: int = 1
) -> dict[str, dict[str, Series]]:
    """Per world and kind: ``samples`` rounds, each running every kind once on one character, worlds
    and kinds in a random order, so that the floors and the commands all see the same noise."""
    rng = random.Random(seed)
    out = {w.label: {kind: Series() for kind in KINDS} for w in worlds}
    for world in worlds:  # once, checked against what Discord would send (the timed runs skip it)
        g, k = world.next_target()
        for kind in round_order(rng):
            await world.checked(kind, world.payload(kind, g, k), checks=True)
    for round_ in range(warmup + samples):
        order = list(worlds)
        rng.shuffle(order)
        for world in order:
            g, k = world.next_target()
            for kind in round_order(rng):
                body = world.payload(kind, g, k)
                start = time.perf_counter()
                await world.checked(kind, body)
                if round_ >= warmup:
                    out[world.label][kind].samples.append(time.perf_counter() - start)
    return out


@dataclass
class Throughput:
    """Commands dispatched by one or more runs, each reply checked; ``index``: the next command's."""

    index: int = 0
    commands: int = 0
    answered: int = 0
    seconds: float = 0.0
    latency: Series = field(default_factory=Series)
    failures: list[str] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.commands / self.seconds if self.seconds else math.nan

    @property
    def unanswered(self) -> int:
        return self.commands - self.answered

    async def one(self, world: World, make: Maker, since: float | None = None) -> None:
        """The next command; its latency runs from ``since`` (its arrival) or from now."""
        begin = time.perf_counter() if since is None else since
        (kind, body), self.index, self.commands = make(self.index), self.index + 1, self.commands + 1
        try:
            reply = await world.dispatch(kind, body)
        except Exception as exc:  # a time-out of the harness counts as unanswered
            self.failures.append(f"{kind}: {type(exc).__name__}: {exc}"[:300])
            return
        self.latency.samples.append(time.perf_counter() - begin)
        if (problem := answer_problem(kind, reply)) is None:
            self.answered += 1
        else:
            self.failures.append(f"{kind}: {problem}")


#: One player's session on their character, repeated: a wound and its heal roll stay balanced
#: (every character holds a light wound to begin with, so a session may start anywhere).
MIX = ("wound", "autocomplete", "character show", "heal roll", "character show", "autocomplete")


def mixed(world: World) -> Maker:
    """Command ``j``: the players' characters of all servers in turn, each following ``MIX`` from
    its own starting point; the next command about a character comes (servers × players) later."""
    servers, players = world.servers, world.shape.players
    width = len(servers) * players

    def make(j: int) -> tuple[str, Payload]:
        c = j % width
        g, k = servers[c % len(servers)], (c // len(servers)) % players
        kind = MIX[(j // width + c) % len(MIX)]
        return kind, world.payload(kind, g, k)

    return make


def floor_only(world: World) -> Maker:
    return lambda j: ("floor", world.payload("floor", world.servers[j % len(world.servers)], 0))


async def capacity(world: World, make: Maker, out: Throughput, *, in_flight: int, seconds: float) -> None:
    """``in_flight`` interactions at once for ``seconds``, each worker sending the next one as soon as
    its previous one is answered (a closed loop), counted into ``out``."""
    begin = time.perf_counter()

    async def worker() -> None:
        while time.perf_counter() < begin + seconds:
            await out.one(world, make)

    await asyncio.gather(*(worker() for _ in range(in_flight)))
    out.seconds += time.perf_counter() - begin


async def capacities(world: World, *, in_flight: int, seconds: float) -> tuple[Throughput, Throughput]:
    """The trivial command's capacity and the mix's, after a warm-up, in alternating quarters of
    ``seconds`` (so that both see the same noise)."""
    mix, floor, warm = mixed(world), floor_only(world), Throughput()
    await capacity(world, mix, warm, in_flight=in_flight, seconds=min(1.0, seconds / 4))
    runs = Throughput(), Throughput(index=warm.index)
    for _ in range(2):
        for make, out in zip((floor, mix), runs, strict=True):
            await capacity(world, make, out, in_flight=in_flight, seconds=seconds / 4)
    return runs


async def paced(world: World, make: Maker, out: Throughput, *, rate: float, seconds: float, cap: int) -> None:
    """Interactions arriving at ``rate`` per second on average (Poisson arrivals) for ``seconds``;
    ``cap`` workers take them in order, so at most ``cap`` are in flight and the others wait. A
    latency runs from the arrival: the wait counts."""
    rng, arrivals = random.Random(3), asyncio.Queue[float | None]()

    async def worker() -> None:
        while (due := await arrivals.get()) is not None:
            await out.one(world, make, since=due)

    workers = [asyncio.create_task(worker()) for _ in range(cap)]
    begin = due = time.perf_counter()
    while (due := due + rng.expovariate(rate)) - begin <= seconds:
        if (delay := due - time.perf_counter()) > 0:
            await asyncio.sleep(delay)
        arrivals.put_nowait(due)
    for _ in workers:
        arrivals.put_nowait(None)
    await asyncio.gather(*workers)
    out.seconds += time.perf_counter() - begin
