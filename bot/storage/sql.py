"""One open connection of either backend, as the storage modules use it inside a unit of work.

The SQL of ``bot/storage`` is written once, with ``?`` placeholders, in the SQL both SQLite and
PostgreSQL speak; :class:`Sql` turns the placeholders into psycopg's ``%s`` for PostgreSQL, returns
rows as tuples, and raises :class:`UniqueViolation` for a broken unique key on either backend.
Every call is synchronous: a unit of work runs whole on the thread that holds the connection.
"""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:  # psycopg is imported only by a PostgreSQL database (it costs ≈ 11 MB resident)
    import psycopg

Dialect = Literal["sqlite", "postgres"]
Row = tuple[Any, ...]


class UniqueViolation(Exception):
    """A unique key (a character's name in its server) is already taken."""


@lru_cache(maxsize=512)
def _postgres(sql: str) -> str:
    # Our statements hold no '?' or '%' of their own (LIKE patterns are parameters).
    return sql.replace("?", "%s")


class Sql:
    """``rows``/``row``/``run``/``run_many`` over a ``sqlite3`` or ``psycopg`` connection."""

    def __init__(self, raw: sqlite3.Connection | psycopg.Connection[Any], dialect: Dialect) -> None:
        self.raw = raw
        self.dialect: Dialect = dialect
        self._unique: tuple[type[Exception], ...] = (
            (sqlite3.IntegrityError,)
            if dialect == "sqlite"
            else (sys.modules["psycopg"].errors.UniqueViolation,)
        )

    def _text(self, sql: str) -> str:
        return sql if self.dialect == "sqlite" else _postgres(sql)

    def rows(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        try:
            # Both drivers return plain tuples (no row factory is set on either).
            rows: list[Row] = self.raw.execute(self._text(sql), params).fetchall()
            return rows
        except self._unique as exc:
            raise _unique(exc) from None

    def row(self, sql: str, params: Sequence[object] = ()) -> Row | None:
        found = self.rows(sql, params)
        return found[0] if found else None

    def run(self, sql: str, params: Sequence[object] = ()) -> int:
        """A statement without rows; how many rows it changed."""
        try:
            return self.raw.execute(self._text(sql), params).rowcount
        except self._unique as exc:
            raise _unique(exc) from None

    def run_many(self, sql: str, params: Iterable[Sequence[object]]) -> None:
        rows = list(params)
        if not rows:
            return
        if len(rows) == 1:  # most calls: one plain statement is cheaper than executemany
            self.run(sql, rows[0])
            return
        try:
            if isinstance(self.raw, sqlite3.Connection):
                self.raw.executemany(sql, rows)
            else:
                with self.raw.cursor() as cursor:
                    cursor.executemany(_postgres(sql), rows)
        except self._unique as exc:
            raise _unique(exc) from None


def _unique(exc: Exception) -> Exception:
    """``UniqueViolation`` for a broken unique key; any other SQLite integrity error as it is."""
    if not isinstance(exc, sqlite3.IntegrityError):
        return UniqueViolation(str(exc))  # psycopg's UniqueViolation
    if getattr(exc, "sqlite_errorname", "") == "SQLITE_CONSTRAINT_UNIQUE" or "UNIQUE" in str(exc):
        return UniqueViolation(str(exc))
    return exc
