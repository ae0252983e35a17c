"""The one private call of aiosqlite the storage makes: run a plain function on a connection's thread.

aiosqlite gives each connection a thread of its own and runs every call there, one after the other;
but it offers no public way to run a whole function there (a unit of work: many statements, in one
hop). Its private ``Connection._execute(fn, *args)`` does just that. This module is the only place
that uses it (and ``Connection._conn``, the ``sqlite3`` connection); uv.lock pins aiosqlite, and
``tests/storage/test_aiosqlite_thread.py`` fails if a new version changes what is relied on here.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TypeVar

import aiosqlite

T = TypeVar("T")


async def run(conn: aiosqlite.Connection, fn: Callable[[sqlite3.Connection], T]) -> T:
    """``fn(sqlite3_connection)`` on ``conn``'s thread, after the calls queued before it; its result,
    or its exception. Queued at once, before the first suspension of the caller."""
    result: T = await conn._execute(fn, conn._conn)  # type: ignore[no-untyped-call]  # untyped, private
    return result
