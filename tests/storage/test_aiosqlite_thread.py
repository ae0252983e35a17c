"""What :func:`bot.storage.sqlite.on_thread` relies on in aiosqlite's private ``Connection._execute``:
these fail if a new aiosqlite changes it."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import AsyncIterator
from pathlib import Path

import aiosqlite
import pytest

from bot.storage.sqlite import on_thread


@pytest.fixture
async def conn(tmp_path: Path) -> AsyncIterator[aiosqlite.Connection]:
    connection = await aiosqlite.connect(tmp_path / "t.db", isolation_level=None)
    try:
        await connection.execute("CREATE TABLE t (x TEXT)")
        yield connection
    finally:
        await connection.close()


async def test_the_function_runs_on_the_connection_s_own_thread_with_its_sqlite3_connection(
    conn: aiosqlite.Connection,
) -> None:
    await conn.create_function("thread_id", 0, threading.get_ident)
    async with conn.execute("SELECT thread_id()") as cursor:
        row = await cursor.fetchone()
    assert row is not None
    aiosqlite_thread = row[0]

    def where(sql: sqlite3.Connection) -> tuple[int, object]:
        # sqlite3 refuses a connection used from another thread than its own (check_same_thread).
        return threading.get_ident(), sql.execute("SELECT thread_id()").fetchone()[0]

    assert await on_thread(conn, where) == (aiosqlite_thread, aiosqlite_thread)
    assert aiosqlite_thread != threading.get_ident()


async def test_the_result_or_the_exception_comes_back_and_the_connection_goes_on(
    conn: aiosqlite.Connection,
) -> None:
    result = object()
    assert await on_thread(conn, lambda sql: result) is result

    class Boom(Exception):
        pass

    boom = Boom("no")

    def fails(sql: sqlite3.Connection) -> None:
        sql.execute("INSERT INTO t (x) VALUES ('kept: autocommit')")
        raise boom

    with pytest.raises(Boom) as raised:
        await on_thread(conn, fails)
    assert raised.value is boom
    assert await on_thread(conn, lambda sql: sql.execute("SELECT x FROM t").fetchall()) == [
        ("kept: autocommit",)
    ]


async def test_it_runs_in_order_with_the_connection_s_other_calls(conn: aiosqlite.Connection) -> None:
    started, release = threading.Event(), threading.Event()

    def hold(sql: sqlite3.Connection) -> None:
        started.set()
        release.wait(10)

    def insert_b(sql: sqlite3.Connection) -> list[str]:
        sql.execute("INSERT INTO t (x) VALUES ('b')")
        return [x for (x,) in sql.execute("SELECT x FROM t ORDER BY rowid")]

    held = asyncio.create_task(on_thread(conn, hold))
    await asyncio.to_thread(started.wait, 10)
    # Queued while the thread is busy, in this order: public call, ours, public call.
    a = asyncio.create_task(conn.execute("INSERT INTO t (x) VALUES ('a')"))
    b = asyncio.create_task(on_thread(conn, insert_b))
    c = asyncio.create_task(conn.execute("INSERT INTO t (x) VALUES ('c')"))
    await asyncio.sleep(0)  # each task makes its call
    release.set()
    await asyncio.gather(held, a, c)
    assert await b == ["a", "b"]
    assert await on_thread(conn, lambda sql: sql.execute("SELECT x FROM t ORDER BY rowid").fetchall()) == [
        ("a",),
        ("b",),
        ("c",),
    ]
