"""A unit of work on the writer connection in as few round trips to its thread as possible.

Every aiosqlite call is a round trip to the connection's thread; while a unit of work holds the write
lock, each one also waits for the event loop to come back to it, which under load means waiting for
every other ready task. So a :class:`Unit`:

* queues the writes handed to :meth:`Unit.defer` (plain functions of a ``sqlite3.Connection``) and
  runs them, in order, on the writer's thread just before its next statement, or with ``COMMIT``;
* chooses the ids of new rows itself (:class:`IdAllocator`), so that a write needs no answer back.

It works in one of two ways:

* **locked** (``Store.transaction``): the caller holds the write lock; ``BEGIN IMMEDIATE`` goes with
  the first statement. A ``/wound`` is two round trips (begin + load, writes + commit), not seven.
* **optimistic** (``Store.run``): no lock while the caller works; reads go to the reader connection
  and are remembered. The commit is one function on the writer's thread: ``BEGIN IMMEDIATE``, every
  read again (any difference, and it raises :class:`Conflict` and rolls back), the writes, ``COMMIT``.
  Nothing waits on the event loop while the database is locked. ``Store.run`` then does the work again
  in a locked unit. A unit that needs more than reads before writes (reading after a write, undo,
  import, a delete) raises :class:`Conflict` at once, for the same fallback.

An error of a queued write (a name taken, say) is raised by the next statement or by the commit, and
rolls the whole unit back like any other.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Mapping
from functools import partial
from typing import Any, TypeVar

import aiosqlite

from bot.storage.database import Database, begin, on_thread

T = TypeVar("T")
Step = Callable[[sqlite3.Connection], object]
Check = Callable[[sqlite3.Connection], bool]

#: Tables whose new rows get their ids from :meth:`Unit.allocate`.
ID_TABLES = ("characters", "wounds", "events")
_NEXT_IDS = "SELECT " + ", ".join(f"(SELECT COALESCE(MAX(id), 0) + 1 FROM {t})" for t in ID_TABLES)


class Conflict(Exception):
    """An optimistic unit cannot commit: what it read has changed, or it needs the lock."""


def _next_ids(conn: sqlite3.Connection) -> dict[str, int]:
    row = conn.execute(_NEXT_IDS).fetchone()
    return {table: int(value) for table, value in zip(ID_TABLES, row, strict=True)}


def _same_rows(conn: sqlite3.Connection, sql: str, params: tuple[Any, ...], rows: list[Any]) -> bool:
    return conn.execute(sql, params).fetchall() == rows


class IdAllocator:
    """The next id of each table of :data:`ID_TABLES`, for every unit of one store: ids taken are
    never given twice, even by units that have not committed yet (a unit that rolls back leaves a
    gap; units may commit in any order). Units that hold the lock raise it to what the database says
    first; optimistic units check at their commit that nobody else (another process, an undo, which
    let SQLite choose) used their ids meanwhile."""

    def __init__(self) -> None:
        self._next: dict[str, int] = {}

    @property
    def ready(self) -> bool:
        return bool(self._next)

    def raise_to(self, found: Mapping[str, int]) -> None:
        for table, value in found.items():
            self._next[table] = max(self._next.get(table, 1), value)

    def take(self, table: str, count: int) -> int:
        first = self._next[table]
        self._next[table] = first + count
        return first


def _ids_free(conn: sqlite3.Connection, taken: Iterable[tuple[str, int, int]]) -> bool:
    """Whether no row has any of the ids an optimistic unit took (``table, first, count``)."""
    for table, first, count in taken:
        if table not in ID_TABLES:
            raise ValueError(table)
        sql = f"SELECT EXISTS (SELECT 1 FROM {table} WHERE id >= ? AND id < ?)"
        if conn.execute(sql, (first, first + count)).fetchone()[0]:
            return False
    return True


class Unit:
    """One ``BEGIN IMMEDIATE … COMMIT`` on the writer ``conn``: locked (the caller holds
    ``Database.locked``), or optimistic when ``db`` is given (reads on ``db.reader``)."""

    def __init__(self, conn: aiosqlite.Connection, ids: IdAllocator, *, db: Database | None = None) -> None:
        self._conn = conn
        self._ids = ids
        self._db = db
        self._reader = None if db is None else db.reader
        self._pending: list[Step] = []
        self._began = False
        self._used = False
        self._next: dict[str, int] | None = None  # locked: MAX(id) + 1 read since the last raw access
        self._checks: list[Check] = []  # optimistic: what must still hold at the commit
        self._taken: list[tuple[str, int, int]] = []  # optimistic: the ids taken (table, first, count)

    @property
    def optimistic(self) -> bool:
        return self._reader is not None

    async def _trip(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Locked: one round trip: begin if not yet, the queued writes, then ``fn``."""
        pending, self._pending = self._pending, []
        self._used = True

        def run(conn: sqlite3.Connection) -> T:
            if not self._began:
                begin(conn)
                self._began = True
                self._next = _next_ids(conn)
            for step in pending:
                step(conn)
            return fn(conn)

        return await on_thread(self._conn, run)

    async def execute_fetchall(self, sql: str, parameters: Iterable[Any] = (), /) -> list[Any]:
        """A read inside the unit (it sees the queued writes: they run first)."""
        params = tuple(parameters)
        if self._reader is None:
            return await self._trip(lambda conn: conn.execute(sql, params).fetchall())
        if self._pending:
            raise Conflict("a read after a write needs the lock")
        rows = list(await self._reader.execute_fetchall(sql, params))
        self._checks.append(partial(_same_rows, sql=sql, params=params, rows=rows))
        return rows

    def check(self, check: Check) -> None:
        """Optimistic: ``check`` must hold at the commit (what was used without a read, e.g. a cached
        ruleset). A locked unit needs none: nobody else writes while it runs."""
        if self._reader is not None:
            self._checks.append(check)

    def defer(self, step: Step) -> None:
        """Run ``step`` on the writer's thread before the next statement (or the commit)."""
        self._pending.append(step)

    async def allocate(self, table: str, count: int = 1) -> int:
        """The first of ``count`` fresh ids of ``table`` (a table of :data:`ID_TABLES`)."""
        if self._reader is None:
            if self._next is None:
                self._next = await self._trip(_next_ids)
            self._ids.raise_to(self._next)
        elif not self._ids.ready:
            rows = list(await self._reader.execute_fetchall(_NEXT_IDS))
            self._ids.raise_to(dict(zip(ID_TABLES, (int(v) for v in rows[0]), strict=True)))
        first = self._ids.take(table, count)
        if count:
            self._taken.append((table, first, count))
        return first

    async def connection(self) -> aiosqlite.Connection:
        """The connection itself, inside the transaction, the queued writes done: for the rarer
        operations that run statements of their own (undo, import, delete). Call it again before
        each such batch: the ids are read again after it."""
        if self._reader is not None:
            raise Conflict("statements of their own need the lock")
        if not self._began or self._pending:
            await self._trip(lambda conn: None)
        self._next = None
        return self._conn

    async def commit(self) -> None:
        """Locked: the queued writes and ``COMMIT``. Optimistic: see the module's docstring; the
        writer's thread gets the work before this coroutine first waits (so a caller that checked
        that nobody holds the lock knows its commit is queued before anyone else's statements)."""
        if self._reader is None:
            if self._began or self._pending:
                await self._trip(lambda conn: conn.execute("COMMIT"))
            return
        if not self._pending:
            return  # only reads: nothing to write, nothing to check
        assert self._db is not None
        checks, steps, taken = self._checks, self._pending, list(self._taken)
        self._pending = []
        await self._db.run_unlocked(partial(_commit_checked, checks=checks, steps=steps, taken=taken))

    async def rollback(self) -> None:
        """Undo everything (a no-op when nothing was sent; queued writes are dropped)."""
        self._pending = []
        if self._used and self._reader is None:
            await self._conn.rollback()  # queued after anything still running: a no-op if nothing began


def _commit_checked(
    conn: sqlite3.Connection, checks: list[Check], steps: list[Step], taken: list[tuple[str, int, int]]
) -> None:
    """An optimistic unit's commit, all on the writer's thread."""
    begin(conn)
    try:
        if not _ids_free(conn, taken) or not all(check(conn) for check in checks):
            raise Conflict("what the unit read has changed")
        for step in steps:
            step(conn)
        conn.execute("COMMIT")
    except BaseException:
        conn.rollback()
        raise
