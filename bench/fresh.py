"""Start-up and memory, each in a fresh process (``python -m bench.fresh startup|memory DB SERVERS
PER_SERVER PLAYERS [DELIVERED]``, one JSON object printed), so that building the data sets and the
other figures weigh on neither."""

from __future__ import annotations

import asyncio
import gc
import json
import sys
import time
from pathlib import Path
from typing import Any

from bench.data import Shape
from bench.world import answer_problem, open_world, run_like_the_bot, spread


def resident_kb(field: str = "VmRSS") -> int:
    """A line of /proc/self/status in KiB (``VmRSS``: now; ``VmHWM``: the peak)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def collect_seconds() -> float:
    began = time.perf_counter()
    gc.collect()
    return time.perf_counter() - began


async def startup(db: Path, shape: Shape, delivered: int) -> dict[str, Any]:
    """Store.open (migrations on an up-to-date database) and the bot's set-up until ready, with
    ``delivered`` servers of the database sent as GUILD_CREATE. No network."""
    start = time.perf_counter()
    async with open_world(f"sqlite:///{db}", shape, spread(delivered, shape.servers)) as world:
        ready = time.perf_counter() - start
        synced = any(r.method == "PUT" and r.path.endswith("/commands") for r in world.fake.requests)
    return {"seconds": ready, "synced": synced}


async def memory(db: Path, shape: Shape, in_flight: int = 50) -> dict[str, Any]:
    """Resident memory in every server of the database once each has been used (one
    ``/character show`` each); and what a full garbage collection costs, frozen as the bot runs."""
    gc.collect()
    baseline, failures = resident_kb(), 0
    async with open_world(f"sqlite:///{db}", shape, range(shape.servers)) as world:
        queue = iter(range(shape.servers))

        async def worker() -> None:
            nonlocal failures
            for g in queue:
                reply = await world.dispatch("character show", world.payload("character show", g, 0))
                failures += answer_problem("character show", reply) is not None

        await asyncio.gather(*(worker() for _ in range(in_flight)))
        world.fake.unhandled.clear()
        gc.collect()
        resident = resident_kb()
        pause = collect_seconds()  # what the bot was frozen with once ready is not looked through
        gc.unfreeze()
        pause_unfrozen = collect_seconds()
    found = {"baseline_kb": baseline, "resident_kb": resident, "peak_kb": resident_kb("VmHWM")}
    return found | {"failures": failures, "gc_pause": pause, "gc_pause_unfrozen": pause_unfrozen}


def main(argv: list[str]) -> None:
    what, db, servers, per_server, players, *rest = argv
    shape = Shape(int(servers), int(per_server), int(players))
    found = startup(Path(db), shape, int(rest[0])) if what == "startup" else memory(Path(db), shape)
    print(json.dumps(run_like_the_bot(found)))


if __name__ == "__main__":
    main(sys.argv[1:])
