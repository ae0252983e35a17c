"""Named locks for what several bot processes must not do at once: IDENTIFY in one bucket within
Discord's window, sync the slash commands. On SQLite (one process per file: lockfile.py) an
:class:`asyncio.Lock` per name; on PostgreSQL also ``pg_advisory_lock(kind, number)`` on a connection
of its own: two-number keys never meet the servers' one-number keys, and a process that dies loses its
connection and so its locks.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass

from bot.storage.errors import StorageError, one_line
from bot.storage.sqlite import is_postgres


@dataclass(frozen=True)
class LockName:
    """A lock's name: a kind and a number (the identify bucket; 0 when there is one of its kind)."""

    kind: int
    number: int = 0


LOCK_SPACE = 0x48420000  # "HB": the first number of every key of ours
IDENTIFY = LOCK_SPACE + 1
COMMAND_SYNC = LockName(LOCK_SPACE + 2)
CONNECT_TIMEOUT_S = 10  # the locks' plain connection (the pool's are in bot/storage/postgres.py)


def identify_bucket(shard_id: int, max_concurrency: int) -> LockName:
    """The lock of the identify bucket of ``shard_id`` (Discord's rate limit key for IDENTIFY)."""
    return LockName(IDENTIFY, shard_id % max(max_concurrency, 1))


def locks_for(url: str) -> Locks:
    """The locks of the database of ``url``: shared by every process on PostgreSQL."""
    return PostgresLocks(url) if is_postgres(url) else Locks()


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


class PostgresLocks(Locks):
    """Held in this process first (one connection per name at most), then in PostgreSQL."""

    def __init__(self, url: str) -> None:
        super().__init__()
        self._url = url

    @contextlib.asynccontextmanager
    async def held(self, name: LockName) -> AsyncIterator[None]:
        import psycopg  # here: a SQLite bot does without it (see bot/storage/store.py)

        async with super().held(name):
            try:
                conn = await psycopg.AsyncConnection.connect(
                    self._url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S
                )
            except psycopg.Error as exc:
                raise StorageError(f"cannot connect to PostgreSQL for a lock: {one_line(exc)}") from None
            try:
                try:
                    await conn.execute("SELECT pg_advisory_lock(%s::int, %s::int)", (name.kind, name.number))
                except psycopg.Error as exc:
                    raise StorageError(f"cannot take a lock in PostgreSQL: {one_line(exc)}") from None
                yield
            finally:
                await conn.close()  # the session ends, and its advisory locks with it


def _fail(taken: asyncio.Future[None], done: asyncio.Task[None]) -> None:
    """A hold that ended before taking its lock passes its failure on to whoever waits for it."""
    if taken.done():
        return
    if done.cancelled():
        taken.cancel()
    elif done.exception() is not None:
        taken.set_exception(done.exception())  # type: ignore[arg-type]
