"""Figures measured in a fresh process: start-up to ready, and resident memory.

``python -m bench.probe startup DB SERVERS PER_SERVER PLAYERS`` and ``python -m bench.probe memory …``
print one JSON object. The bench runs them as subprocesses so that neither the data generation nor the
other figures weigh on them.
"""

from __future__ import annotations

import asyncio
import copy
import gc
import json
import sys
import time
from pathlib import Path
from typing import Any

from bench.data import Shape
from bench.world import World, answer_problem, guild_payloads, settings_for
from bot.interface.client import COMMANDS_HASH_KEY, HarmoniesBot
from bot.storage.store import Store
from tests.fakediscord import close, connect


def _status_kb(field: str) -> int:
    """A ``VmRSS``/``VmHWM`` line of /proc/self/status, in KiB (0 where there is no /proc)."""
    try:
        text = Path("/proc/self/status").read_text()
    except OSError:
        return 0
    for line in text.splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


async def startup(db: Path, shape: Shape, servers: int) -> dict[str, Any]:
    """Store.open (migrations on an up-to-date database) + the bot's setup through fakediscord.connect,
    with ``servers`` servers of the database delivered as GUILD_CREATE. No network.

    ``harness_copy`` is what ``fakediscord.connect`` spends deep-copying those payloads (it does, to add
    the bot's member), measured beforehand: test bookkeeping, not start-up."""
    payloads = guild_payloads(spread(servers, shape.servers))  # what the gateway sends: not timed
    began = time.perf_counter()
    copy.deepcopy(payloads)
    harness_copy = time.perf_counter() - began
    start = time.perf_counter()
    settings = settings_for(db)
    store = await Store.open(settings.database_url)
    try:
        bot = HarmoniesBot(settings, store, sync_commands=True, freeze_gc=True)
        fake = await connect(bot, guilds=payloads)
        ready = time.perf_counter() - start
        try:
            synced = any(r.method == "PUT" and r.path.endswith("/commands") for r in fake.requests)
            guilds = len(bot.guilds)
        finally:
            await close(bot)
    finally:
        await store.close()
    return {"seconds": ready, "synced": synced, "guilds": guilds, "harness_copy": harness_copy}


async def memory(db: Path, shape: Shape, in_flight: int = 50) -> dict[str, Any]:
    """Resident memory of the bot in every server of the database, once each server has been used
    (one /character show each), the fake Discord's records dropped."""
    gc.collect()
    baseline = _status_kb("VmRSS")
    settings = settings_for(db)
    store = await Store.open(settings.database_url)
    try:
        bot = HarmoniesBot(settings, store, sync_commands=True, freeze_gc=True)
        fake = await connect(bot, guilds=guild_payloads(range(shape.servers)))
        try:
            gc.collect()
            ready = _status_kb("VmRSS")
            world = World(bot, fake, store, shape, list(range(shape.servers)), "memory")
            failures = 0
            queue = iter(range(shape.servers))

            async def worker() -> None:
                nonlocal failures
                for g in queue:
                    reply = await world.dispatch(world.show(g, 0))
                    failures += answer_problem("character show", reply) is not None

            await asyncio.gather(*(worker() for _ in range(in_flight)))
            fake.requests.clear()
            fake.unhandled.clear()
            gc.collect()
            resident = _status_kb("VmRSS")
            peak = _status_kb("VmHWM")
            # What a full collection of the cyclic garbage collector stops everything for: as the bot
            # runs (what was there once ready frozen), and as it would without that.
            began = time.perf_counter()
            gc.collect()
            pause = time.perf_counter() - began
            frozen = gc.get_freeze_count()
            gc.unfreeze()
            began = time.perf_counter()
            gc.collect()
            pause_unfrozen = time.perf_counter() - began
            guilds = len(bot.guilds)
            hash_stored = await store.get_meta(COMMANDS_HASH_KEY) is not None
        finally:
            await close(bot)
    finally:
        await store.close()
    return {
        "baseline_kb": baseline,
        "resident_kb": resident,
        "ready_kb": ready,
        "peak_kb": peak,
        "guilds": guilds,
        "failures": failures,
        "gc_pause": pause,
        "gc_pause_unfrozen": pause_unfrozen,
        "gc_frozen": frozen,
        "hash_stored": hash_stored,
    }


def spread(count: int, total: int) -> list[int]:
    """``count`` server indexes spread evenly over ``total``."""
    count = min(count, total)
    return sorted({i * total // count for i in range(count)})


def main(argv: list[str]) -> None:
    what, db, servers, per_server, players, *rest = argv
    shape = Shape(int(servers), int(per_server), int(players))
    if what == "startup":
        result = asyncio.run(startup(Path(db), shape, int(rest[0]) if rest else shape.servers))
    elif what == "memory":
        result = asyncio.run(memory(Path(db), shape))
    else:
        raise SystemExit(f"unknown probe {what!r}")
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1:])
