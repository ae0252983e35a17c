"""The SQLite backend: three aiosqlite connections, each on its own thread: one writer (group commit:
the units waiting for it run in one transaction, each in its own savepoint, a failing one rolled back
alone), one reader (WAL: it sees the last commit and never waits), one that checkpoints beside the
writer. Until a checkpoint the changes live in the ``-wal`` file only, and a main file without them
looks new and empty: a database that held data and lost it is refused, not silently filled again."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
import threading
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.storage.errors import StorageError, one_line
from bot.storage.transaction import Dialect, Sql

T = TypeVar("T")
log = logging.getLogger(__name__)
Work = Callable[[Sql], T]

BUSY_TIMEOUT_MS = 5000
_PRAGMAS = (
    f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}",
    "PRAGMA foreign_keys = ON",
    "PRAGMA synchronous = FULL",
    # No checkpoint inside a commit (SQLite's own, every 1000 pages, held up the writer and all waiting
    # for it, as measured by the benchmarks): the checkpointer does it beside the writer.
    "PRAGMA wal_autocheckpoint = 0",
)
CHECKPOINT_UNITS = 100  # units of work committed between two checkpoints (and one a minute: run.py)
WAL_WATCH_S = 0.5  # how often the -wal file's path is checked to still name the file held open


def is_postgres(url: str) -> bool:
    return url.split("://", 1)[0].lower() in ("postgresql", "postgres") and "://" in url


def database_path(url: str) -> Path:  # sqlite:///relative.db, sqlite:////abs.db or a plain path
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


async def on_thread(conn: aiosqlite.Connection, fn: Callable[[sqlite3.Connection], T]) -> T:
    """``fn(sqlite3_connection)`` on ``conn``'s thread, in one hop, after the calls queued before it.
    aiosqlite's only way is private: ``uv.lock`` pins it, tests/storage/test_aiosqlite_thread.py checks it."""
    result: T = await conn._execute(fn, conn._conn)  # type: ignore[no-untyped-call]  # untyped, private
    return result


def _sqlite_prepare(conn: sqlite3.Connection, path: Path, *, wal: bool) -> None:
    for pragma in _PRAGMAS:
        conn.execute(pragma)
    if wal:
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()
        if mode is None or str(mode[0]).lower() != "wal":
            raise StorageError(f"cannot open database {path}: WAL journal mode refused")
    # Touch the schema: an unreadable or non-database file fails here, not at the first command.
    conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()


async def _sqlite_connect(path: Path, *, wal: bool) -> aiosqlite.Connection:
    try:
        conn = await aiosqlite.connect(path, isolation_level=None)
        try:
            await on_thread(conn, partial(_sqlite_prepare, path=path, wal=wal))
        except BaseException:
            await conn.close()
            raise
    except (sqlite3.Error, OSError, ValueError) as exc:
        raise StorageError(f"cannot open database {path}: {one_line(exc)}") from None
    return conn


Outcome = tuple[bool, Any]  # (True, result) or (False, exception)


def _sqlite_group(conn: sqlite3.Connection, works: list[Work[Any]]) -> list[Outcome]:
    """On the writer's thread: one group in one transaction. A unit alone needs no savepoint."""
    outcomes: list[Outcome] = []
    alone = len(works) == 1
    try:
        # Inside the try: a BEGIN that fails (a read-only file, a lock held too long by another
        # process) fails the group's units, and the writer's thread goes on with the next group.
        conn.execute("BEGIN IMMEDIATE")
        for work in works:
            if not alone:
                conn.execute("SAVEPOINT unit")
            try:
                outcomes.append((True, work(Sql(conn, "sqlite"))))
            except BaseException as exc:  # its caller gets it; the thread goes on with the others
                if alone:
                    raise
                conn.execute("ROLLBACK TO unit")
                outcomes.append((False, exc))
            if not alone:
                conn.execute("RELEASE unit")
        conn.execute("COMMIT")
    except BaseException as exc:  # the begin, the commit or a savepoint failed: nothing is kept
        if conn.in_transaction:
            conn.rollback()
        return [(False, exc)] * len(works)
    return outcomes


def _identity(path: Path) -> tuple[int, int] | None:  # which file path names (device, inode)
    try:
        found = path.stat()
    except OSError:
        return None
    return found.st_dev, found.st_ino


def _settle(future: asyncio.Future[Any], outcome: Outcome) -> None:
    ok, value = outcome
    if not future.cancelled():
        future.set_result(value) if ok else future.set_exception(value)


def _sqlite_read(conn: sqlite3.Connection, work: Work[T]) -> T:  # one read transaction: one snapshot
    conn.execute("BEGIN")
    try:
        return work(Sql(conn, "sqlite"))
    finally:
        conn.rollback()


class SqliteDatabase:
    dialect: Dialect = "sqlite"

    def __init__(self, path: Path, connections: list[aiosqlite.Connection]) -> None:
        self.path = path
        self.url = f"sqlite:///{path}"
        self._writer, self._reader, self._checkpointer = connections
        self._closed = False
        self._committed = 0  # units since the last checkpoint started
        self._checkpointing: asyncio.Task[None] | None = None
        # The units waiting for the writer: the next group, taken whole by the writer's thread (the
        # unit that started it has no future: the thread's call answers it).
        self._waiting: list[tuple[Work[Any], asyncio.Future[Any] | None]] = []
        self._guard = threading.Lock()
        self._writing = 0  # units in the group the writer's thread runs now
        self.on_group: Callable[[int], None] | None = None  # each group's size (the bot's metrics)
        self.wal_lost = False  # the -wal file went: each commit is checkpointed (see watch_wal)
        self._watching: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, url: str) -> SqliteDatabase:
        path = database_path(url)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StorageError(f"cannot create the database folder {path.parent}: {one_line(exc)}") from None
        if path.is_dir():
            raise StorageError(f"cannot open database {path}: it is a folder")
        connections: list[aiosqlite.Connection] = []
        async with contextlib.AsyncExitStack() as opened:  # should one fail, those before are closed
            for wal in (True, False, False):  # the writer (WAL mode is its to set), reader, checkpointer
                opened.push_async_callback((conn := await _sqlite_connect(path, wal=wal)).close)
                connections.append(conn)
            opened.pop_all()
        return cls(path, connections)

    async def write(self, lock: int | None, work: Work[T]) -> T:
        """Queued for the writer; answered once the group it joined is committed."""
        self._refuse_if_closed()
        future: asyncio.Future[T] | None = None
        with self._guard:
            if self._waiting:  # a group is forming: join it
                future = asyncio.get_running_loop().create_future()
            self._waiting.append((work, future))
        result: T = await (future or on_thread(self._writer, self._run_group))
        self._committed += 1
        if self._committed >= CHECKPOINT_UNITS and not self._checkpointing and not self._closed:
            self._committed = 0
            self._checkpointing = asyncio.create_task(self._checkpoint_in_background())
        return result

    async def _checkpoint_in_background(self) -> None:
        try:
            await self.checkpoint()
        except Exception as exc:  # a full disk, say: the next one tries again, commands are not stopped
            log.warning("Database checkpoint failed: %s", one_line(exc))
        finally:
            self._checkpointing = None

    def _run_group(self, conn: sqlite3.Connection) -> Any:
        """On the writer's thread: the waiting units as one group, the first answered by this result."""
        with self._guard:
            group, self._waiting = self._waiting, []
        if self.on_group is not None:
            self.on_group(len(group))
        self._writing = len(group)
        try:
            outcomes = _sqlite_group(conn, [work for work, _ in group])
        finally:
            self._writing = 0
        if self.wal_lost:  # the WAL file has no path any more: what it holds would die with the process
            try:  # the group is committed, whatever happens here
                busy = conn.execute("PRAGMA wal_checkpoint(FULL)").fetchone()
                if busy is not None and busy[0]:
                    log.error(
                        "Database checkpoint after a commit could not copy all of the WAL (a reader held it)"
                    )
            except sqlite3.Error as exc:
                log.error("Database checkpoint after a commit failed: %s", one_line(exc))
        for (_, future), outcome in zip(group, outcomes, strict=True):
            if future is not None:
                future.get_loop().call_soon_threadsafe(_settle, future, outcome)
        ok, value = outcomes[0]
        if ok:
            return value
        raise value

    def usage(self) -> tuple[int, int]:  # (units being written, units waiting for the writer)
        return self._writing, len(self._waiting)

    async def read(self, work: Work[T]) -> T:
        self._refuse_if_closed()
        return await on_thread(self._reader, partial(_sqlite_read, work=work))

    async def checkpoint(self, mode: str = "PASSIVE") -> None:  # PASSIVE: waiting for no one
        pragma = f"PRAGMA wal_checkpoint({mode})"
        await on_thread(self._checkpointer, lambda conn: conn.execute(pragma).fetchall())

    @property
    def wal_path(self) -> Path:
        return self.path.with_name(self.path.name + "-wal")

    trouble: str | None = None  # a file has no connection to lose (see PostgresDatabase.trouble)

    def watch_wal(self) -> None:
        """Once the ``-wal`` path no longer names the file held open (a crash would lose every change
        since the last checkpoint), checkpoint, and from then on after every commit."""
        self._watching = asyncio.create_task(self._watch_wal(_identity(self.wal_path)))

    async def _watch_wal(self, held: tuple[int, int] | None) -> None:
        while not self.wal_lost:
            await asyncio.sleep(WAL_WATCH_S)
            if _identity(self.wal_path) == held:
                continue
            self.wal_lost = True
            log.error(
                "The database's WAL file %s was deleted or replaced while the bot runs: what it held is "
                "copied into %s, and every change from now on too (slower); restart the bot to have a "
                "WAL file again",
                self.wal_path,
                self.path,
            )
            try:
                await self.checkpoint("FULL")
            except Exception as exc:
                log.error("Database checkpoint after the WAL file was lost failed: %s", one_line(exc))

    def _refuse_if_closed(self) -> None:
        if self._closed:
            raise RuntimeError(f"the database {self.path} is closed")

    async def close(self) -> None:  # once what was queued is done, even when one close fails
        self._closed = True
        if self._watching:
            self._watching.cancel()
        if self._checkpointing:
            await self._checkpointing
        async with contextlib.AsyncExitStack() as closing:  # run last first: the writer, the reader...
            for conn in (self._checkpointer, self._reader, self._writer):
                closing.push_async_callback(conn.close)


_MARKER_TEXT = (
    "This file tells the Harmonies bot that the database {name} beside it holds its data.\n"
    "If that database is ever found empty or missing, the bot refuses to start instead of silently\n"
    "beginning a new one. Restore a backup (python -m bot backup makes them); delete this file only\n"
    "to start an empty database on purpose.\n"
)


def _wal_mode(path: Path) -> bool:
    """Whether the main file's header says WAL mode (bytes 18 and 19 are 2)."""
    with path.open("rb") as file:
        header = file.read(100)
    return header.startswith(b"SQLite format 3\x00") and len(header) >= 20 and header[18] == header[19] == 2


def _has_schema(path: Path) -> bool:  # read-only: a usable WAL is read, neither checkpointed nor deleted
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
        return bool(conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0])


def refuse_lost_data(path: Path) -> None:
    """Before the database is opened: :class:`StorageError` when it lost the data it held."""
    wal = path.with_name(path.name + "-wal")
    marker = path.with_name(path.name + ".marker")
    size = path.stat().st_size if path.is_file() else 0
    wal_size = wal.stat().st_size if wal.is_file() else 0
    if size == 0 and wal_size == 0 and not marker.exists():
        return
    if wal_size and not (size and _wal_mode(path)):
        raise StorageError(
            f"the database {path} has no usable header but a non-empty {wal.name} beside it, which may "
            f"hold its data: keep both files, and restore a backup (the bot will not open it)"
        )
    try:
        holds_schema = size > 0 and _has_schema(path)
    except sqlite3.Error:
        return  # not a database at all: opening it says so, in its own words
    if not holds_schema and marker.exists():
        raise StorageError(
            f"the database {path} is empty or missing, but it held data before ({marker.name} says so): "
            f"restore a backup, or delete {marker} to start an empty database on purpose"
        )


def mark(path: Path) -> None:
    """Once the database holds its schema: the marker beside it (written once)."""
    marker = path.with_name(path.name + ".marker")
    if marker.exists():
        return
    try:
        marker.write_text(_MARKER_TEXT.format(name=path.name), encoding="utf-8")
    except OSError as exc:  # a read-only folder: the bot can run, less guarded
        log.warning("Cannot write %s (%s): a lost database would not be noticed", marker, exc)


def damage(path: Path) -> str | None:
    """``PRAGMA quick_check`` (seconds on a large file): ``None`` when sound, else its first finding."""
    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
            rows = conn.execute("PRAGMA quick_check(1)").fetchall()
    except sqlite3.Error as exc:
        return one_line(exc)
    found = str(rows[0][0]) if rows else "no answer"
    return None if found == "ok" else " ".join(found.split())


async def backup(url: str, destination: str) -> None:
    """A consistent copy of the SQLite database of ``url`` while the bot runs (SQLite's online backup),
    written beside ``destination`` (a path or sqlite URL), then renamed."""
    if is_postgres(url):
        raise StorageError(
            "on PostgreSQL, back up with pg_dump, e.g. pg_dump --format=custom --file=harmonies.dump "
            '"$DATABASE_URL" (restore with pg_restore --clean --dbname="$DATABASE_URL" harmonies.dump)'
        )
    source = database_path(url)
    target = database_path(destination)
    if not source.is_file():
        raise StorageError(f"cannot back up {source}: no such database file")
    if target.resolve() == source.resolve():
        raise StorageError("the backup destination is the database itself")
    await asyncio.to_thread(_backup, source, target)


def _backup(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    partial_file = target.with_name(target.name + ".partial")
    partial_file.unlink(missing_ok=True)
    try:
        with (
            contextlib.closing(sqlite3.connect(source, timeout=BUSY_TIMEOUT_MS / 1000)) as src,
            contextlib.closing(sqlite3.connect(partial_file)) as dst,
        ):
            src.backup(dst)  # all pages in one step: one consistent read snapshot
            dst.execute("PRAGMA journal_mode = DELETE")
        os.replace(partial_file, target)
    except (sqlite3.Error, OSError) as exc:
        partial_file.unlink(missing_ok=True)
        raise StorageError(f"backup to {target} failed: {one_line(exc)}") from None
