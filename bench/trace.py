"""``python -m bench trace``: the project modules one ``/wound`` crosses, from its arrival to its answer.

The bot runs in process on a small SQLite data set, through discord.py's real dispatch (only Discord's
HTTP is faked: tests/fakediscord). After one ``/wound`` to warm up (imports, caches), a second one is
traced with ``sys.setprofile`` on every thread that runs Python (the event loop's, and each of the
database's connection threads, set from inside them; ``threading.setprofile`` for any thread started
meanwhile): every function of the project (``bot.*``, the cogs included as ``bot.cogs.*``) that runs
between the INTERACTION_CREATE handed to discord.py and the interaction's callback reaching Discord, in
every task and thread. SQLite's own trace callback marks the first SQL statement.

Printed: the project modules crossed, split between ``bot.rules`` and the rest, each with its calls (a
coroutine's resumptions after an ``await`` are counted apart), in the order first reached; and the
project calls before the first SQL statement and before the first SELECT."""

from __future__ import annotations

import argparse
import asyncio
import gc
import inspect
import sqlite3
import sys
import tempfile
import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

import aiosqlite

from bench import data
from bench.data import Shape
from bench.report import publish
from bench.world import answer_problem, open_world, run_like_the_bot
from tests.fakediscord import RecordedRequest

SHAPE = Shape(servers=2, per_server=4, players=3, events=40)
RULES = "bot.rules"
SUSPENDS = inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR


def project_module(name: str) -> bool:
    return name == "bot" or name.startswith("bot.")


@dataclass
class Trace:
    """What the profiler saw, from :meth:`start` until the answer (:meth:`answered`)."""

    calls: Counter[str] = field(default_factory=Counter)  # by module, in the order first reached
    functions: set[tuple[str, str]] = field(default_factory=set)
    total: int = 0
    resumed: int = 0  # resumptions of a coroutine or generator (not counted as calls)
    started: set[FrameType] = field(default_factory=set)  # their frames (kept only while tracing)
    threads: set[str] = field(default_factory=set)
    tasks: set[str] = field(default_factory=set)
    first_sql: tuple[int, str] | None = None  # (project calls before it, the statement)
    first_select: tuple[int, str] | None = None
    on: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)

    def profile(self, frame: FrameType, event: str, arg: Any) -> None:
        if event != "call" or not self.on:
            return
        module = frame.f_globals.get("__name__", "")
        if not project_module(module):
            return
        with self.lock:  # the database threads count too
            if frame.f_code.co_flags & SUSPENDS:
                if frame in self.started:
                    self.resumed += 1
                    return
                self.started.add(frame)
            self.calls[module] += 1
            self.functions.add((module, frame.f_code.co_qualname))
            self.total += 1
            self.threads.add(threading.current_thread().name)
            try:
                task = asyncio.current_task()
            except RuntimeError:  # not the event loop's thread
                task = None
            if task is not None:
                self.tasks.add(task.get_name())

    def statement(self, sql: str) -> None:
        """SQLite's trace callback (on the connection's thread): each statement as it runs."""
        if not self.on:
            return
        with self.lock:
            first = sql.split(None, 1)[0].upper() if sql.strip() else ""
            if self.first_sql is None:
                self.first_sql = (self.total, " ".join(sql.split())[:120])
            if self.first_select is None and first in ("SELECT", "WITH"):
                self.first_select = (self.total, " ".join(sql.split())[:120])

    def answered(self, record: RecordedRequest) -> None:
        if record.method == "POST" and record.path.endswith("/callback"):
            self.on = False


async def on_threads(trace: Trace, profiler: Any) -> int:
    """Set ``profiler`` (and SQLite's trace callback) on every aiosqlite connection's thread; how many."""
    callback = trace.statement if profiler is not None else None

    def there(raw: sqlite3.Connection) -> None:
        sys.setprofile(profiler)
        raw.set_trace_callback(callback)

    gc.unfreeze()  # the bot froze what it held once ready: get_objects() would not see it
    found = [o for o in gc.get_objects() if isinstance(o, aiosqlite.Connection) and o._connection is not None]
    gc.freeze()
    for conn in found:
        await conn._execute(there, conn._conn)  # type: ignore[no-untyped-call]  # untyped, private
    return len(found)


async def traced_wound(workdir: Path) -> Trace:
    db = workdir / "trace.db"
    await data.build(f"sqlite:///{db}", SHAPE)
    trace = Trace()
    async with open_world(f"sqlite:///{db}", SHAPE, range(SHAPE.servers)) as world:
        for k in range(2):  # the first warms up; the second is traced
            body = world.payload("wound", 0, k)
            if k == 1:

                async def watched(record: RecordedRequest, handle: Any = world.fake.handle) -> Any:
                    trace.answered(record)
                    return await handle(record)

                world.fake.handle = watched  # type: ignore[method-assign]
                if not await on_threads(trace, trace.profile):
                    raise RuntimeError("no database thread found to trace")
                threading.setprofile(trace.profile)
                sys.setprofile(trace.profile)
                trace.on = True
            try:
                reply = await world.dispatch("wound", body)
            finally:
                sys.setprofile(None)
                threading.setprofile(None)
                trace.on = False
                trace.started.clear()
                await on_threads(trace, None)
            if (problem := answer_problem("wound", reply)) is not None:
                raise RuntimeError(f"/wound was not answered: {problem}")
    return trace


def report(trace: Trace) -> str:
    rules = [m for m in trace.calls if m == RULES or m.startswith(RULES + ".")]
    rest = [m for m in trace.calls if m not in rules]
    lines = [
        "One `/wound` (light, one character, a note), in process through discord.py's real dispatch "
        "(tests/fakediscord), on SQLite; `sys.setprofile` on every thread, from INTERACTION_CREATE to "
        "the callback.",
        "",
        f"Project modules crossed: {len(trace.calls)} ({len(rules)} in bot/rules, {len(rest)} outside)",
        f"Project calls: {trace.total} (of {len(trace.functions)} functions; and {trace.resumed} resumptions "
        f"of a coroutine), in {len(trace.tasks)} tasks and {len(trace.threads)} threads",
    ]
    for what, found in (("first SQL statement", trace.first_sql), ("first SELECT", trace.first_select)):
        said = f"{found[0]} ({found[1]})" if found else "none"
        lines.append(f"Project calls before the {what}: {said}")
    for title, modules in ((f"Outside bot/rules ({len(rest)})", rest), (f"bot/rules ({len(rules)})", rules)):
        lines += ["", f"{title}, in the order first reached, with their calls:"]
        lines += [f"  {m:<36} {trace.calls[m]:>5}" for m in modules]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str]) -> None:
    cli = argparse.ArgumentParser(prog="python -m bench trace", description=__doc__)
    cli.add_argument("--output", type=Path, help="also write the report to this file")
    args = cli.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="harmonies-trace-") as workdir:
        trace = run_like_the_bot(traced_wound(Path(workdir)))
    publish(report(trace), args.output)
