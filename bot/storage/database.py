"""The SQLite database: one writer connection behind a lock, one reader connection.

Every unit of work is one ``BEGIN IMMEDIATE … COMMIT`` on the writer, under an :class:`asyncio.Lock`
(two coroutines on one aiosqlite connection would otherwise share one transaction). Reads that need
no lock go through the reader; in WAL mode they see the last committed state and never block writes.

Each aiosqlite call is a round trip to the connection's thread, and while a unit of work holds the
lock, every round trip also waits for its turn on a busy event loop: :func:`on_thread` runs several
statements in one trip (see ``bot/storage/unit.py``).
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Protocol, TypeVar, cast

import aiosqlite

from bot.storage.errors import StorageError

log = logging.getLogger(__name__)
T = TypeVar("T")

BUSY_TIMEOUT_MS = 5000
_PRAGMAS = (
    f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}",
    "PRAGMA foreign_keys = ON",
    "PRAGMA synchronous = FULL",
    # Checkpoint whenever the WAL passes 100 pages (default 1000): the main file stays close behind.
    "PRAGMA wal_autocheckpoint = 100",
)


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
            f"unsupported database URL scheme {scheme!r}: use sqlite:///path/to/file.db or a file path"
        )
    if not rest.startswith("/") or rest == "/":
        raise StorageError("unsupported database URL: use sqlite:///relative.db or sqlite:////absolute.db")
    path = rest[1:]  # sqlite:///data/x.db -> data/x.db ; sqlite:////abs/x.db -> /abs/x.db
    if path in (":memory:", "") or "?" in path:
        raise StorageError("unsupported database URL: give a file path, without query parameters")
    return Path(path).expanduser()


async def _connect(path: Path, *, wal: bool) -> aiosqlite.Connection:
    conn = await aiosqlite.connect(path, isolation_level=None)
    try:
        for pragma in _PRAGMAS:
            await conn.execute(pragma)
        if wal:
            rows = list(await conn.execute_fetchall("PRAGMA journal_mode = WAL"))
            if not rows or str(rows[0][0]).lower() != "wal":
                raise StorageError(f"cannot open database {path}: WAL journal mode refused")
        # Touch the schema: an unreadable or non-database file fails here, not at the first command.
        await conn.execute_fetchall("SELECT COUNT(*) FROM sqlite_master")
    except BaseException:
        await conn.close()
        raise
    return conn


class Queryable(Protocol):
    """What the read functions of the storage modules need: an aiosqlite connection, or a
    :class:`~bot.storage.unit.Unit` (which reads inside its transaction)."""

    def execute_fetchall(self, sql: str, parameters: Iterable[Any] = ..., /) -> Awaitable[Iterable[Any]]: ...


async def on_thread(conn: aiosqlite.Connection, fn: Callable[[sqlite3.Connection], T]) -> T:
    """Run ``fn(sqlite3_connection)`` on the thread of ``conn``, in order with its other calls: any
    number of statements for one round trip.

    aiosqlite runs every call of a connection on that connection's own thread, in order;
    ``Connection._execute`` is how its own methods queue theirs (aiosqlite is pinned to 0.22.x in
    pyproject.toml; ``tests/storage`` exercises this on every write).
    """
    raw = conn._conn  # ValueError once the connection is closed, as with aiosqlite's own methods
    return cast(T, await conn._execute(fn, raw))  # type: ignore[no-untyped-call]


def begin(conn: sqlite3.Connection) -> None:
    """``BEGIN IMMEDIATE`` on the writer's thread (after rolling back a transaction a cancelled task
    may have left open: asked there, it comes after everything queued before)."""
    if conn.in_transaction:
        log.warning("rolling back a transaction left open on the writer connection")
        conn.rollback()
    conn.execute("BEGIN IMMEDIATE")


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return " ".join(text.split())


class Database:
    """An open SQLite database. Build it with :meth:`open`; always :meth:`close` it."""

    def __init__(self, path: Path, writer: aiosqlite.Connection, reader: aiosqlite.Connection) -> None:
        self.path = path
        self._writer = writer
        self._reader = reader
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, url: str) -> Database:
        path = database_path(url)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StorageError(f"cannot create the database folder {path.parent}: {_one_line(exc)}") from None
        if path.is_dir():
            raise StorageError(f"cannot open database {path}: it is a folder")
        writer: aiosqlite.Connection | None = None
        try:
            writer = await _connect(path, wal=True)
            reader = await _connect(path, wal=False)
        except (sqlite3.Error, OSError, ValueError) as exc:
            if writer is not None:
                await writer.close()
            raise StorageError(f"cannot open database {path}: {_one_line(exc)}") from None
        except BaseException:
            if writer is not None:
                await writer.close()
            raise
        return cls(path, writer, reader)

    @property
    def reader(self) -> aiosqlite.Connection:
        """For single-statement reads outside any transaction (each is its own consistent snapshot)."""
        return self._reader

    @property
    def writer(self) -> aiosqlite.Connection:
        """The writer connection, for the migration runner only; use :meth:`write` for everything else."""
        return self._writer

    @asynccontextmanager
    async def locked(self) -> AsyncIterator[aiosqlite.Connection]:
        """The writer connection for this task alone, outside any transaction: the caller begins,
        commits or rolls back (``Store.transaction`` does, through a :class:`~bot.storage.unit.Unit`)."""
        async with self._lock:
            yield self._writer

    async def run_unlocked(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn``, a whole ``BEGIN IMMEDIATE … COMMIT`` (or ``ROLLBACK``), on the writer's thread:
        queued at once, before this coroutine first waits, when no unit of work holds the lock (its
        statements cannot interleave with ``fn``'s then), else once it is done."""
        if self._lock.locked():
            async with self._lock:
                return await on_thread(self._writer, fn)
        return await on_thread(self._writer, fn)

    @asynccontextmanager
    async def write(self) -> AsyncIterator[aiosqlite.Connection]:
        """One unit of work: ``BEGIN IMMEDIATE`` … ``COMMIT``, or ``ROLLBACK`` on any exception
        (cancellation included)."""
        async with self.locked() as conn:
            try:
                await on_thread(conn, begin)
                yield conn
                await conn.execute("COMMIT")
            except BaseException:
                await asyncio.shield(self._rollback())
                raise

    async def _rollback(self) -> None:
        await self._writer.rollback()  # a no-op when no transaction is open

    async def close(self) -> None:
        """Close both connections, even when the first close fails."""
        try:
            await self._writer.close()
        finally:
            await self._reader.close()
