"""The SQLite database: one writer connection behind a lock, one reader connection.

Every unit of work is one ``BEGIN IMMEDIATE … COMMIT`` on the writer, under an :class:`asyncio.Lock`
(two coroutines on one aiosqlite connection would otherwise share one transaction). Reads that need
no lock go through the reader; in WAL mode they see the last committed state and never block writes.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiosqlite

from bot.storage.errors import StorageError

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 5000
_PRAGMAS = (
    f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}",
    "PRAGMA foreign_keys = ON",
    "PRAGMA synchronous = FULL",
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
    async def write(self) -> AsyncIterator[aiosqlite.Connection]:
        """One unit of work: ``BEGIN IMMEDIATE`` … ``COMMIT``, or ``ROLLBACK`` on any exception
        (cancellation included)."""
        async with self._lock:
            conn = self._writer
            if conn.in_transaction:  # left open by a cancellation during an earlier rollback
                log.warning("rolling back a transaction left open on the writer connection")
                await conn.rollback()
            try:
                await conn.execute("BEGIN IMMEDIATE")
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
