"""PostgreSQL (psycopg 3 and psycopg-pool): a pool, worker threads, and every wait bounded, so that a
server that restarts, stalls, fills up or is locked gives an answer in time (``docs/reliability.md``).
Each unit first takes ``pg_advisory_xact_lock`` on its server's id (READ COMMITTED)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import psycopg
import psycopg_pool
from psycopg_pool.base import AttemptWithBackoff

from bot.storage.errors import StorageError, Unavailable, Unconfirmed, file_fault, one_line
from bot.storage.transaction import Dialect, Sql

T = TypeVar("T")
log = logging.getLogger(__name__)

POOL_SIZE = 8  # connections at most; each server uses one at a time (Turns)
THREADS = 2 * POOL_SIZE  # a unit abandoned on a frozen server keeps its thread until the server wakes
CONNECT_TIMEOUT_S = 3
CHECKOUT_TIMEOUT_S = 3.0
UNIT_DEADLINE_S = 7.0  # the whole unit: its turn, a connection, its statements
COMMIT_GRACE_S = 1.5  # past the deadline, how long a COMMIT already sent is waited for


class _SteadyAttempt(AttemptWithBackoff):
    """A reconnection tried every 0.5 s, not after a doubling delay."""

    INITIAL_DELAY = 0.5
    DELAY_BACKOFF = 1.0


class _Pool(psycopg_pool.ConnectionPool):
    last_error: str | None = None  # why the last new connection failed (None once one succeeds)

    def _add_connection(self, attempt: AttemptWithBackoff | None, growing: bool = False) -> None:
        # psycopg-pool's one hook for its reconnection delay (pinned in uv.lock).
        super()._add_connection(attempt or _SteadyAttempt(timeout=self.reconnect_timeout), growing)

    def _connect(self, timeout: float | None = None) -> psycopg.Connection[Any]:
        try:
            conn = super()._connect(timeout)
        except psycopg.Error as exc:
            self.last_error = describe(exc)
            raise
        self.last_error = None
        return conn


def describe(error: BaseException) -> str:
    """One line naming the cause, with its SQLSTATE when the server gave one."""
    state = getattr(error, "sqlstate", None)
    return f"{type(error).__name__} (SQLSTATE {state}): {one_line(error)}" if state else one_line(error)


def checkout(pool: psycopg_pool.ConnectionPool[Any], deadline: float) -> psycopg.Connection[Any]:
    """A live connection within :data:`CHECKOUT_TIMEOUT_S` and ``deadline``, else :class:`Unavailable`.
    A dead one goes back to the pool and the next is tried at once (psycopg-pool's check waits 1, 2, 4… s)."""
    give_up = min(deadline, time.monotonic() + CHECKOUT_TIMEOUT_S)
    while (remaining := give_up - time.monotonic()) > 0:
        try:
            conn: psycopg.Connection[Any] = pool.getconn(timeout=remaining)
        except psycopg_pool.PoolTimeout:
            break
        try:
            psycopg_pool.ConnectionPool.check_connection(conn)
        except psycopg.Error:
            pool.putconn(conn)
            continue
        return conn
    why = getattr(pool, "last_error", None)
    waited = f"no connection within {CHECKOUT_TIMEOUT_S:g} s"
    raise Unavailable(f"{waited} ({why})" if why else waited)


@dataclass
class _Unit(Generic[T]):
    """A unit on a worker thread: abandoned at its deadline, it is rolled back unless its COMMIT was sent."""

    pool: psycopg_pool.ConnectionPool[Any]
    lock: int | None
    work: Callable[[Sql], T]
    reading: bool  # a read writes nothing: it may be tried again whenever its connection fails
    abandoned: bool = False
    committing: bool = False
    _state: threading.Lock = field(default_factory=threading.Lock)

    def abandon(self) -> bool:
        """Called by the event loop past the deadline: True when nothing will be committed."""
        with self._state:
            self.abandoned = True
            return not self.committing

    def run(self, deadline: float) -> T:
        try:
            return self._attempt(deadline, last=False)
        except _Retry as retry:
            log.warning("A PostgreSQL connection failed before its unit began; trying another: %s", retry)
            return self._attempt(deadline, last=True)

    def _attempt(self, deadline: float, *, last: bool) -> T:
        if self.abandoned:
            raise Unavailable("past the unit's deadline")
        conn = checkout(self.pool, deadline)
        began = False
        try:
            if self.lock is not None:
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (self.lock,))
            began = True
            result = self.work(Sql(conn, "postgres"))
            with self._state:
                if self.abandoned:
                    raise Unavailable("past the unit's deadline")
                self.committing = True
            try:
                conn.commit()
            except psycopg.OperationalError as exc:
                if conn.broken:  # the connection went during the COMMIT: it may have landed, or not
                    raise Unconfirmed(describe(exc), getattr(exc, "sqlstate", None)) from exc
                raise  # the server refused it (a full disk, say): nothing was committed
            return result
        except psycopg.OperationalError as exc:
            if not last and conn.broken and (not began or self.reading):
                raise _Retry(describe(exc)) from exc
            if file_fault(exc) is None:  # a lost connection, a wait past its bound: not a full disk
                raise Unavailable(describe(exc), exc.sqlstate) from exc
            raise
        finally:
            if not conn.broken and conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
                with contextlib.suppress(psycopg.Error):
                    conn.rollback()
            self.pool.putconn(conn)


class _Retry(Exception):
    """The connection failed before the unit began: run it once more on another."""


def _open_pool(url: str) -> psycopg_pool.ConnectionPool[Any]:
    try:  # one plain connection first: its error says what is wrong (the pool's would not)
        psycopg.connect(url, connect_timeout=CONNECT_TIMEOUT_S).close()
    except psycopg.Error as exc:
        raise StorageError(f"cannot connect to PostgreSQL: {one_line(exc)}") from None
    # psycopg-pool warns at each reconnection attempt (several a second while the server is down):
    # the units that fail log their cause once each (bot.interface.replies).
    logging.getLogger("psycopg.pool").setLevel(logging.ERROR)
    pool = _Pool(
        url,
        min_size=2,
        max_size=POOL_SIZE,
        open=False,
        kwargs={
            "autocommit": False,
            "connect_timeout": CONNECT_TIMEOUT_S,
            "options": "-c lock_timeout=3000 -c statement_timeout=5000",  # ms
        },
        max_lifetime=30 * 60.0,
        max_idle=5 * 60.0,
        timeout=CHECKOUT_TIMEOUT_S,
        reconnect_timeout=24 * 3600.0,  # never give up: the delay between tries stays short
        name="harmonies",
    )
    try:
        pool.open(wait=True, timeout=10)
    except psycopg_pool.PoolTimeout:
        pool.close()
        raise StorageError("cannot connect to PostgreSQL: the connection pool timed out") from None
    return pool


class PostgresDatabase:
    dialect: Dialect = "postgres"

    def __init__(self, url: str, pool: psycopg_pool.ConnectionPool[Any]) -> None:
        self.url = url
        self.pool = pool
        self._threads = ThreadPoolExecutor(THREADS, thread_name_prefix="postgres")
        # A unit waits for its server's earlier units of this process here, holding no connection (the
        # advisory lock orders those of other processes); a server's lock lives while a unit needs it.
        self._turns: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._in_flight = 0  # units asked for and not yet over
        self.on_group: Callable[[int], None] | None = None  # no groups here (see SqliteDatabase)

    @classmethod
    async def open(cls, url: str) -> PostgresDatabase:
        return cls(url, await asyncio.to_thread(_open_pool, url))

    async def write(self, lock: int | None, work: Callable[[Sql], T]) -> T:
        """``work`` in one transaction, after the server's earlier units of this process and its
        advisory lock ``lock``; within :data:`UNIT_DEADLINE_S`, else :class:`Unavailable` (rolled back)."""
        return await self._run(_Unit(self.pool, lock, work, reading=False))

    async def read(self, work: Callable[[Sql], T]) -> T:  # reads only, in one transaction, no lock
        return await self._run(_Unit(self.pool, None, work, reading=True))

    def usage(self) -> tuple[int, int]:  # (connections lent out, units waiting: turn, thread or pool)
        stats = self.pool.get_stats()
        in_use = stats.get("pool_size", 0) - stats.get("pool_available", 0)
        return in_use, max(self._in_flight - in_use, 0)

    async def _run(self, unit: _Unit[T]) -> T:
        loop = asyncio.get_running_loop()
        deadline = time.monotonic() + UNIT_DEADLINE_S
        running: asyncio.Future[T] | None = None
        self._in_flight += 1
        try:
            lock = unit.lock
            turn = contextlib.nullcontext() if lock is None else self._turns.setdefault(lock, asyncio.Lock())
            async with asyncio.timeout(UNIT_DEADLINE_S), turn:
                running = loop.run_in_executor(self._threads, unit.run, deadline)
                # Its error is retrieved even when nobody waits for it any more (no "never retrieved").
                running.add_done_callback(lambda done: done.cancelled() or done.exception())
                return await asyncio.shield(running)
        except TimeoutError:
            if running is None or unit.abandon():
                raise Unavailable(f"no answer within {UNIT_DEADLINE_S:g} s") from None
            try:  # its COMMIT is on its way: wait a little for it
                return await asyncio.wait_for(asyncio.shield(running), COMMIT_GRACE_S)
            except TimeoutError:
                limit = UNIT_DEADLINE_S + COMMIT_GRACE_S
                raise Unconfirmed(f"no answer to COMMIT within {limit:g} s") from None
        except asyncio.CancelledError:
            unit.abandon()  # the bot is stopping: what nobody will be told of is not committed
            raise
        finally:
            self._in_flight -= 1

    @property
    def trouble(self) -> str | None:  # why the last new connection failed, while none has since
        return getattr(self.pool, "last_error", None)

    async def close(self) -> None:
        await asyncio.to_thread(self.pool.close)
        self._threads.shutdown(wait=False)
