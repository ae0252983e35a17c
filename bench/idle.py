"""The same unit of work, back to back and with the process idle between units: its CPU time.

In the end-to-end bench every part of a ``/wound`` costs 2-3 times what the same code costs in a
tight loop. This measures why, without Discord: ``Store.run`` of one small change (a character's
rest days set, recorded as an event, durable commit) on a generated database, the process's CPU time
(both threads) per unit, once with the units back to back and once with the process asleep for a
moment between them, as the bot is between one player's commands. The units alternate between the
two modes in blocks, so that a drift of the machine's speed touches both.

    python -m bench.idle [--units N] [--gap-ms MS]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from bench.data import GM, Shape, character_id, generate, guild_id
from bot.storage import Store, Transaction

SHAPE = Shape(servers=10, per_server=10, players=8, events=1000)
BLOCK = 50
"""Units per block; blocks alternate between the two modes."""


def _work(target: int, days: int) -> Callable[[Transaction], None]:
    def work(tx: Transaction) -> None:
        saved = tx.save_character(replace(tx.character(target), rest_days=days))
        tx.record("rest", GM, character=saved, details={"days": days})

    return work


async def measure(path: Path, units: int, gap_s: float) -> dict[str, float]:
    """Median CPU microseconds per unit: ``back to back`` and ``idle between``."""
    store = await Store.open(f"sqlite:///{path}")
    spent: dict[str, list[int]] = {"back to back": [], "idle between": []}
    try:
        for n in range(2 * units):
            mode = "idle between" if (n // BLOCK) % 2 else "back to back"
            g, k = n % SHAPE.servers, (n // SHAPE.servers) % SHAPE.per_server
            if mode == "idle between":
                await asyncio.sleep(gap_s)
            start = time.process_time_ns()
            await store.run(guild_id(g), _work(character_id(SHAPE, g, k), n % 3))
            spent[mode].append(time.process_time_ns() - start)
    finally:
        await store.close()
    return {mode: statistics.median(times) / 1000 for mode, times in spent.items()}


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.idle", description=__doc__.splitlines()[0])
    parser.add_argument("--units", type=int, default=2000, help="units of work in each mode")
    parser.add_argument("--gap-ms", type=float, default=2.0, help="the idle time between two units")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "idle.db"
        generate(path, SHAPE)
        found = asyncio.run(measure(path, args.units, args.gap_ms / 1000))
    back, idle = found["back to back"], found["idle between"]
    print(
        f"CPU per unit of work (median of {args.units:,}, both threads): back to back {back:.0f} µs; "
        f"{args.gap_ms:g} ms idle between units {idle:.0f} µs ({idle / back:.2f}×)"
    )


if __name__ == "__main__":
    main()
