"""The two backends, chosen by the database URL: SQLite (a file, the default) or PostgreSQL.

Both run a unit of work the same way: a plain synchronous function of an :class:`~bot.storage.sql.Sql`
connection, run whole, in one hop, on the thread that holds that connection, inside one transaction
(committed when it returns, rolled back when it raises). Nothing can ``await`` inside it, so nothing
else runs in the middle of it, and nothing is ever retried.

* **SQLite**: one writer connection on its own thread (``BEGIN IMMEDIATE … COMMIT``: one unit at a
  time, in arrival order) and one reader connection on another (WAL: reads see the last commit and
  never wait for the writer). This thread per connection is what aiosqlite does; aiosqlite offers no
  public way to run a whole function there, so the storage does it itself with the standard library.
* **PostgreSQL** (psycopg 3 and psycopg-pool): a pool of connections, one worker thread per
  connection; every unit first takes ``pg_advisory_xact_lock`` on its server's id (READ COMMITTED),
  so the units of one server run one at a time across every process sharing the database.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from bot.storage import file_guard
from bot.storage.errors import StorageError
from bot.storage.sql import Dialect, Sql

if TYPE_CHECKING:  # imported by PostgresDatabase.open only: SQLite deployments do without (≈ 11 MB)
    import psycopg_pool

log = logging.getLogger(__name__)
T = TypeVar("T")
Work = Callable[[Sql], T]

BUSY_TIMEOUT_MS = 5000
POOL_SIZE = 8
CONNECT_TIMEOUT_S = 10
_PRAGMAS = (
    f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}",
    "PRAGMA foreign_keys = ON",
    "PRAGMA synchronous = FULL",
    # Checkpoint whenever the WAL passes 1000 pages (4 MB, SQLite's default), and every minute (run.py):
    # a checkpoint every 100 pages cost each /wound ~50 µs of system time for little more safety.
    "PRAGMA wal_autocheckpoint = 1000",
)


def one_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return " ".join(text.split())


def is_postgres(url: str) -> bool:
    return url.split("://", 1)[0].lower() in ("postgresql", "postgres") and "://" in url


def database_path(url: str) -> Path:
    """The file named by ``sqlite:///relative.db``, ``sqlite:////abs.db`` or a plain path."""
    if "://" not in url:
        if not url.strip():
            raise StorageError("empty database URL: use sqlite:///path/to/file.db or a file path")
        return Path(url).expanduser()
    scheme, _, rest = url.partition("://")
    if scheme.lower() != "sqlite":
        # Only the scheme is echoed: the rest of a URL may hold a password.
        raise StorageError(
            f"unsupported database URL scheme {scheme!r}: use sqlite:///path/to/file.db, a file path "
            "or postgresql://user:password@host:port/dbname"
        )
    if not rest.startswith("/") or rest == "/":
        raise StorageError("unsupported database URL: use sqlite:///relative.db or sqlite:////absolute.db")
    path = rest[1:]  # sqlite:///data/x.db -> data/x.db ; sqlite:////abs/x.db -> /abs/x.db
    if path in (":memory:", "") or "?" in path:
        raise StorageError("unsupported database URL: give a file path, without query parameters")
    return Path(path).expanduser()


class Database:
    """An open database of either backend. Build it with :func:`open_database`; always :meth:`close`."""

    dialect: Dialect
    url: str

    async def write(self, lock: int | None, work: Work[T]) -> T:
        """Run ``work`` in one transaction (first taking the advisory lock ``lock`` on PostgreSQL)."""
        raise NotImplementedError

    async def read(self, work: Work[T]) -> T:
        """Run ``work`` (reads only) on a connection that sees the last commit."""
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError


async def open_database(url: str) -> Database:
    if is_postgres(url):
        return await PostgresDatabase.open(url)
    return await SqliteDatabase.open(url)


# ---- SQLite ------------------------------------------------------------------------------------------


def _sqlite_connect(path: Path, *, wal: bool) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        for pragma in _PRAGMAS:
            conn.execute(pragma)
        if wal:
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()
            if mode is None or str(mode[0]).lower() != "wal":
                raise StorageError(f"cannot open database {path}: WAL journal mode refused")
        # Touch the schema: an unreadable or non-database file fails here, not at the first command.
        conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    except BaseException:
        conn.close()
        raise
    return conn


Outcome = tuple[bool, Any]  # (True, result) or (False, exception)


def _sqlite_group(conn: sqlite3.Connection, works: list[Work[Any]]) -> list[Outcome]:
    """On the writer's thread: the units waiting for the writer, in one transaction (group commit):
    ``BEGIN IMMEDIATE``, each unit in its own ``SAVEPOINT`` (a failing one rolls back alone), one
    ``COMMIT`` for all. Should the commit fail, every unit fails with it."""
    outcomes: list[Outcome] = []
    try:
        # Inside the try: a BEGIN that fails (a read-only file, a lock held too long by another
        # process) fails the group's units, and the writer's thread goes on with the next group.
        conn.execute("BEGIN IMMEDIATE")
        for work in works:
            conn.execute("SAVEPOINT unit")
            try:
                outcomes.append((True, work(Sql(conn, "sqlite"))))
            except BaseException as exc:  # its caller gets it; the thread goes on with the others
                conn.execute("ROLLBACK TO unit")
                outcomes.append((False, exc))
            conn.execute("RELEASE unit")
        conn.execute("COMMIT")
    except BaseException as exc:  # the begin, the commit or a savepoint failed: nothing is kept
        if conn.in_transaction:
            conn.rollback()
        return [(False, exc)] * len(works)
    return outcomes


def _settle(future: asyncio.Future[Any], outcome: Outcome) -> None:
    if future.cancelled():
        return
    ok, value = outcome
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)


def _sqlite_read(conn: sqlite3.Connection, work: Work[T]) -> T:
    """On the reader's thread: ``work`` in one read transaction (one consistent snapshot)."""
    conn.execute("BEGIN")
    try:
        return work(Sql(conn, "sqlite"))
    finally:
        conn.rollback()


class SqliteDatabase(Database):
    dialect: Dialect = "sqlite"

    def __init__(self, path: Path, writer: sqlite3.Connection, reader: sqlite3.Connection) -> None:
        self.path = path
        self.url = f"sqlite:///{path}"
        self._writer = writer
        self._reader = reader
        # One thread per connection: the writer's runs the units one after the other.
        self._writer_thread = ThreadPoolExecutor(1, thread_name_prefix="sqlite-writer")
        self._reader_thread = ThreadPoolExecutor(1, thread_name_prefix="sqlite-reader")
        # Units waiting for the writer; whether a flush of them is queued on its thread.
        self._waiting: list[tuple[Work[Any], asyncio.Future[Any]]] = []
        self._flushing = False
        self._guard = threading.Lock()

    @classmethod
    async def open(cls, url: str) -> SqliteDatabase:
        path = database_path(url)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StorageError(f"cannot create the database folder {path.parent}: {one_line(exc)}") from None
        if path.is_dir():
            raise StorageError(f"cannot open database {path}: it is a folder")
        try:
            writer = await asyncio.to_thread(_sqlite_connect, path, wal=True)
        except (sqlite3.Error, OSError, ValueError) as exc:
            raise StorageError(f"cannot open database {path}: {one_line(exc)}") from None
        try:
            reader = await asyncio.to_thread(_sqlite_connect, path, wal=False)
        except BaseException as exc:
            writer.close()
            if isinstance(exc, sqlite3.Error | OSError | ValueError):
                raise StorageError(f"cannot open database {path}: {one_line(exc)}") from None
            raise
        return cls(path, writer, reader)

    async def write(self, lock: int | None, work: Work[T]) -> T:
        """Queued for the writer's thread, which runs what waits there as one group (see
        :func:`_sqlite_group`); answered once that group is committed."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        with self._guard:
            self._waiting.append((work, future))
            start = not self._flushing
            self._flushing = True
        if start:
            self._writer_thread.submit(self._flush, loop)
        return await future

    def _flush(self, loop: asyncio.AbstractEventLoop) -> None:
        """On the writer's thread: run the waiting units, group after group, until none waits."""
        while True:
            with self._guard:
                group, self._waiting = self._waiting, []
                if not group:
                    self._flushing = False
                    return
            outcomes = _sqlite_group(self._writer, [work for work, _ in group])
            for (_, future), outcome in zip(group, outcomes, strict=True):
                loop.call_soon_threadsafe(_settle, future, outcome)

    async def read(self, work: Work[T]) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._reader_thread, _sqlite_read, self._reader, work)

    async def checkpoint(self, *, truncate: bool = False) -> None:
        """A WAL checkpoint on the writer's thread, between two groups of units (see
        :func:`bot.storage.file_guard.checkpoint`)."""
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(
            self._writer_thread, partial(file_guard.checkpoint, self._writer, truncate=truncate)
        )

    async def close(self) -> None:
        """Close both connections once what was queued is done, even when the first close fails."""
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(self._writer_thread, self._writer.close)
        finally:
            try:
                await loop.run_in_executor(self._reader_thread, self._reader.close)
            finally:
                self._writer_thread.shutdown(wait=False)
                self._reader_thread.shutdown(wait=False)


# ---- PostgreSQL --------------------------------------------------------------------------------------


def _postgres_unit(pool: psycopg_pool.ConnectionPool[Any], lock: int | None, work: Work[T]) -> T:
    """On a worker thread: one transaction on a pooled connection, the server's lock first."""
    with pool.connection() as conn, conn.transaction():
        if lock is not None:
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (lock,))
        return work(Sql(conn, "postgres"))


def _postgres_read(pool: psycopg_pool.ConnectionPool[Any], work: Work[T]) -> T:
    with pool.connection() as conn, conn.transaction():
        return work(Sql(conn, "postgres"))


class PostgresDatabase(Database):
    dialect: Dialect = "postgres"

    def __init__(self, url: str, pool: psycopg_pool.ConnectionPool[Any], size: int) -> None:
        self.url = url
        self._pool = pool
        self._threads = ThreadPoolExecutor(size, thread_name_prefix="postgres")

    @classmethod
    async def open(cls, url: str, size: int = POOL_SIZE) -> PostgresDatabase:
        import psycopg
        import psycopg_pool

        def connect() -> psycopg_pool.ConnectionPool[Any]:
            try:  # one plain connection first: its error says what is wrong (the pool's would not)
                psycopg.connect(url, connect_timeout=CONNECT_TIMEOUT_S).close()
            except psycopg.Error as exc:
                raise StorageError(f"cannot connect to PostgreSQL: {one_line(exc)}") from None
            pool = psycopg_pool.ConnectionPool(
                url, min_size=1, max_size=size, open=False, kwargs={"autocommit": False}
            )
            try:
                pool.open(wait=True, timeout=CONNECT_TIMEOUT_S)
            except psycopg_pool.PoolTimeout:
                pool.close()
                raise StorageError("cannot connect to PostgreSQL: the connection pool timed out") from None
            return pool

        return cls(url, await asyncio.to_thread(connect), size)

    async def write(self, lock: int | None, work: Work[T]) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._threads, _postgres_unit, self._pool, lock, work)

    async def read(self, work: Work[T]) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._threads, _postgres_read, self._pool, work)

    async def close(self) -> None:
        await asyncio.to_thread(self._pool.close)
        self._threads.shutdown(wait=False)
