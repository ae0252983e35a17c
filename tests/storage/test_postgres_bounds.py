"""Issue 27, PostgreSQL's bounds at the storage level: a unit whose connection died before it began
runs once more, on another connection; a unit stuck on a lock says "unavailable" and changes nothing;
a unit abandoned at its deadline is rolled back even when its thread goes on afterwards."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

import psycopg
import psycopg_pool
import pytest

from bot.storage import postgres
from bot.storage.errors import Unavailable
from bot.storage.postgres import PostgresDatabase
from bot.storage.transaction import Sql

GUILD = 111_111_111_111


def terminate_sessions(url: str) -> None:
    name = url.rpartition("/")[2]
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid()",
            (name,),
        )


async def opened(url: str) -> PostgresDatabase:
    db = await PostgresDatabase.open(url)
    await db.write(None, lambda sql: sql.run("CREATE TABLE t (x INTEGER)"))
    return db


def rows(url: str) -> list[tuple[Any, ...]]:
    with psycopg.connect(url) as conn:
        return conn.execute("SELECT x FROM t ORDER BY x").fetchall()


async def test_a_unit_whose_connection_died_before_it_began_runs_on_another(
    fresh_postgres: Callable[..., str],
) -> None:
    url = fresh_postgres(migrated=False)
    db = await opened(url)
    # Without the pool's check (which would drop the dead connection first): the unit itself finds it.
    unchecked = psycopg_pool.ConnectionPool(
        url, min_size=1, max_size=1, open=True, kwargs={"autocommit": False}
    )
    await db.close()
    db = PostgresDatabase(url, unchecked)
    try:
        await db.write(GUILD, lambda sql: sql.run("INSERT INTO t (x) VALUES (1)"))
        terminate_sessions(url)
        runs: list[int] = []

        def work(sql: Sql) -> None:
            runs.append(1)
            sql.run("INSERT INTO t (x) VALUES (2)")

        await db.write(GUILD, work)
        assert runs == [1]  # the first try died at its lock, before the work began
        assert rows(url) == [(1,), (2,)]
    finally:
        await db.close()


async def test_a_unit_waiting_for_a_lock_held_elsewhere_is_unavailable_and_changes_nothing(
    fresh_postgres: Callable[..., str],
) -> None:
    url = fresh_postgres(migrated=False)
    db = await opened(url)
    try:
        with psycopg.connect(url, autocommit=True) as holder:
            holder.execute("SELECT pg_advisory_lock(%s)", (GUILD,))
            with pytest.raises(Unavailable) as refused:
                await db.write(GUILD, lambda sql: sql.run("INSERT INTO t (x) VALUES (1)"))
            assert refused.value.sqlstate == "55P03"  # lock_not_available: lock_timeout
            # Another server's units go on meanwhile.
            await db.write(GUILD + 1, lambda sql: sql.run("INSERT INTO t (x) VALUES (2)"))
        assert rows(url) == [(2,)]
    finally:
        await db.close()


async def test_a_unit_past_its_deadline_is_rolled_back_though_its_thread_goes_on(
    fresh_postgres: Callable[..., str], monkeypatch: pytest.MonkeyPatch
) -> None:
    url = fresh_postgres(migrated=False)
    db = await opened(url)
    monkeypatch.setattr(postgres, "UNIT_DEADLINE_S", 0.5)
    release, finished = threading.Event(), threading.Event()

    def slow(sql: Sql) -> None:
        sql.run("INSERT INTO t (x) VALUES (1)")
        release.wait(10)  # the server stalls (a frozen server: the thread waits, whatever the deadline)
        finished.set()

    try:
        with pytest.raises(Unavailable):
            await db.write(GUILD, slow)
        release.set()
        await asyncio.to_thread(finished.wait, 10)
        await db.write(GUILD, lambda sql: sql.run("INSERT INTO t (x) VALUES (2)"))
        assert rows(url) == [(2,)]  # the abandoned unit never committed
    finally:
        await db.close()
