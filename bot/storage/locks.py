"""Named locks for what several bot processes must not do at once: IDENTIFY in one bucket within
Discord's window, sync the slash commands.

On SQLite there is only ever one bot process per database file (``bot/storage/lockfile.py`` refuses a
second one), so an :class:`asyncio.Lock` per name is enough.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass


@dataclass(frozen=True)
class LockName:
    """A lock's name: a kind and a number (the identify bucket; 0 when there is one of its kind)."""

    kind: int
    number: int = 0


IDENTIFY = 1
COMMAND_SYNC = LockName(2)


def identify_bucket(shard_id: int, max_concurrency: int) -> LockName:
    """The lock of the identify bucket of ``shard_id`` (Discord's rate limit key for IDENTIFY)."""
    return LockName(IDENTIFY, shard_id % max(max_concurrency, 1))


class Locks:
    """The named locks of one database. Build one per process; :meth:`close` releases what is held."""

    def __init__(self) -> None:
        self._locks: dict[LockName, asyncio.Lock] = {}
        self._holders: set[asyncio.Task[None]] = set()

    @contextlib.asynccontextmanager
    async def held(self, name: LockName) -> AsyncIterator[None]:
        """``async with locks.held(name):`` nobody else (in any process) holds ``name`` meanwhile."""
        lock = self._locks.setdefault(name, asyncio.Lock())
        async with lock:
            yield

    async def hold_for(self, name: LockName, seconds: float) -> None:
        """Take ``name`` and keep it ``seconds`` more in the background; returns once it is taken."""
        taken = asyncio.get_running_loop().create_future()

        async def hold() -> None:
            async with self.held(name):
                taken.set_result(None)
                await asyncio.sleep(seconds)

        holder = asyncio.create_task(hold())
        self._holders.add(holder)
        holder.add_done_callback(self._holders.discard)
        holder.add_done_callback(lambda done: _fail(taken, done))
        try:
            await taken
        except asyncio.CancelledError:
            holder.cancel()  # nobody waits for it any more
            raise

    async def close(self) -> None:
        """Release whatever is still held (the background holds of :meth:`hold_for`)."""
        for holder in list(self._holders):
            holder.cancel()
        await asyncio.gather(*self._holders, return_exceptions=True)


def _fail(taken: asyncio.Future[None], done: asyncio.Task[None]) -> None:
    """A hold that ended before taking its lock passes its failure on to whoever waits for it."""
    if taken.done():
        return
    if done.cancelled():
        taken.cancel()
    elif done.exception() is not None:
        taken.set_exception(done.exception())  # type: ignore[arg-type]
