"""Bookkeeping shared by ``connect`` and ``dispatch``: which tasks discord.py started, what it logged."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import Callable, Iterator
from typing import Any

from .transport import CURRENT_DISPATCH

_dispatch_ids = itertools.count(1)

#: Log records (WARNING and above, any logger that propagates to the root) per dispatch id.
_SINKS: dict[int, list[logging.LogRecord]] = {}


class HarnessError(AssertionError):
    """The harness could not do what the test asked (time-out, undeliverable payload, ...)."""


class _DispatchLogCapture(logging.Handler):
    def emit(self, record: logging.LogRecord) -> None:
        dispatch_id = CURRENT_DISPATCH.get()
        if dispatch_id is not None:
            sink = _SINKS.get(dispatch_id)
            if sink is not None:
                sink.append(record)


_handler = _DispatchLogCapture(level=logging.WARNING)
_handler_refs = 0


@contextlib.contextmanager
def capture_logs() -> Iterator[None]:
    """Attach (once, reference-counted) the root handler that files log records by dispatch."""
    global _handler_refs
    logger = logging.getLogger()
    if _handler_refs == 0:
        logger.addHandler(_handler)
    _handler_refs += 1
    try:
        yield
    finally:
        _handler_refs -= 1
        if _handler_refs == 0:
            logger.removeHandler(_handler)


def new_dispatch_id() -> int:
    dispatch_id = next(_dispatch_ids)
    _SINKS[dispatch_id] = []
    return dispatch_id


def pop_logs(dispatch_id: int) -> list[logging.LogRecord]:
    return _SINKS.pop(dispatch_id, [])


def start_in_context(dispatch_id: int, fn: Callable[[], Any]) -> set[asyncio.Task[Any]]:
    """Run the synchronous ``fn`` with ``CURRENT_DISPATCH`` set; return the tasks it created.

    discord.py's parsers only *schedule* work (``loop.create_task``); as ``fn`` never yields to the loop,
    the tasks that exist after it and not before are exactly the ones it started, even with hundreds of
    dispatches in flight. They copy the current context, so their requests and log records carry the id.
    """
    token = CURRENT_DISPATCH.set(dispatch_id)
    try:
        before = asyncio.all_tasks()
        fn()
        return asyncio.all_tasks() - before
    finally:
        CURRENT_DISPATCH.reset(token)


async def wait_tasks(tasks: set[asyncio.Task[Any]], max_wait: float, what: str) -> list[BaseException]:
    """Wait for ``tasks``; return the exceptions they raised. On time-out cancel them and raise."""
    if not tasks:
        return []
    done, pending = await asyncio.wait(tasks, timeout=max_wait)
    if pending:
        names = sorted(t.get_name() for t in pending)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        raise HarnessError(f"{what}: tasks still running after {max_wait}s: {names}")
    errors: list[BaseException] = []
    for task in done:
        if task.cancelled():
            errors.append(asyncio.CancelledError(f"task {task.get_name()} was cancelled"))
        elif task.exception() is not None:
            errors.append(task.exception())  # type: ignore[arg-type]
    return errors


def record_exceptions(records: list[logging.LogRecord]) -> list[BaseException]:
    """The exceptions discord.py logged (``Ignoring exception in command ...`` and the like).

    Only the ``discord.*`` loggers count: those records are discord.py's default error handlers reporting
    an exception nobody handled. What the bot logs itself stays in ``Reply.logs``.
    """
    out: list[BaseException] = []
    for record in records:
        if not (record.name == "discord" or record.name.startswith("discord.")):
            continue
        if record.exc_info and record.exc_info[1] is not None:
            out.append(record.exc_info[1])
    return out
