"""The named locks: in one process (on SQLite, the only process of its database), and in PostgreSQL
between processes."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import psycopg
import pytest

from bot.shards.locks import COMMAND_SYNC, Locks, PostgresLocks, identify_bucket, locks_for
from bot.storage.errors import StorageError


def test_shards_fall_in_buckets_by_max_concurrency() -> None:
    assert [identify_bucket(s, 1).number for s in range(4)] == [0, 0, 0, 0]
    assert [identify_bucket(s, 2).number for s in range(4)] == [0, 1, 0, 1]
    assert identify_bucket(3, 16) == identify_bucket(19, 16) != COMMAND_SYNC


async def test_a_held_lock_makes_the_next_holder_wait() -> None:
    locks = Locks()
    order: list[str] = []

    async def use(name: str) -> None:
        async with locks.held(COMMAND_SYNC):
            order.append(f"{name} in")
            await asyncio.sleep(0)
            await asyncio.sleep(0)
            order.append(f"{name} out")

    await asyncio.gather(use("a"), use("b"))
    assert order == ["a in", "a out", "b in", "b out"]
    await locks.close()


async def test_hold_for_keeps_the_bucket_for_its_window() -> None:
    locks = Locks()
    bucket = identify_bucket(0, 1)
    await locks.hold_for(bucket, 3600)  # taken at once; kept in the background
    second = asyncio.create_task(locks.hold_for(bucket, 0))
    await locks.hold_for(identify_bucket(1, 2), 0)  # another bucket does not wait
    await asyncio.sleep(0.01)
    assert not second.done()
    await locks.close()  # shutting down: the hour-long hold ends, and so does the waiting one
    assert second.cancelled()
    await asyncio.wait_for(locks.hold_for(bucket, 0), 5)  # nothing is held any more
    await asyncio.wait_for(locks.hold_for(bucket, 0), 5)  # a window of 0 keeps nothing
    await locks.close()


async def test_a_cancelled_waiter_does_not_take_the_bucket_afterwards() -> None:
    locks = Locks()
    bucket = identify_bucket(0, 1)
    await locks.hold_for(bucket, 3600)
    waiter = asyncio.create_task(locks.hold_for(bucket, 3600))
    await asyncio.sleep(0.01)
    waiter.cancel()
    await asyncio.gather(waiter, return_exceptions=True)
    await locks.close()
    await asyncio.wait_for(locks.hold_for(bucket, 0), 5)  # free: nobody queued behind the first
    await locks.close()


# ---- PostgreSQL: the locks are shared by every process on the database ------------------------------


async def test_postgresql_locks_are_shared_between_processes(fresh_postgres: Callable[..., str]) -> None:
    url = fresh_postgres(migrated=False)
    assert isinstance(locks_for(url), PostgresLocks) and not isinstance(
        locks_for("sqlite:///x.db"), PostgresLocks
    )
    one, other = PostgresLocks(url), PostgresLocks(url)  # two processes: two sets of connections
    order: list[str] = []

    async def sync(locks: Locks, name: str, entered: asyncio.Event | None = None) -> None:
        async with locks.held(COMMAND_SYNC):
            order.append(f"{name} in")
            if entered is not None:
                entered.set()
                await asyncio.sleep(0.3)
            order.append(f"{name} out")

    entered = asyncio.Event()
    first = asyncio.create_task(sync(one, "one", entered))
    await entered.wait()
    await sync(other, "other")
    await first
    assert order == ["one in", "one out", "other in", "other out"]

    # An identify bucket kept for its window in one process keeps the other waiting.
    bucket = identify_bucket(0, 1)
    await one.hold_for(bucket, 3600)
    waiting = asyncio.create_task(other.hold_for(bucket, 0))
    await asyncio.sleep(0.3)
    assert not waiting.done()
    await one.close()  # the process ends: its connection goes, and its locks with it
    await asyncio.wait_for(waiting, 10)
    await other.close()


async def test_postgresql_lock_keys_never_meet_the_servers_locks(fresh_postgres: Callable[..., str]) -> None:
    url = fresh_postgres(migrated=False)
    locks = PostgresLocks(url)
    name = identify_bucket(0, 1)
    # The one-number key a server with this id would lock, as the units of work do.
    as_one_number = (name.kind << 32) | name.number
    async with locks.held(name):
        with psycopg.connect(url, autocommit=True) as conn:
            taken = conn.execute("SELECT pg_try_advisory_lock(%s)", (as_one_number,)).fetchone()
            assert taken == (True,)
    await locks.close()


async def test_postgresql_unreachable_is_a_storage_error() -> None:
    locks = PostgresLocks("postgresql://nobody@127.0.0.1:9/none")
    with pytest.raises(StorageError, match="cannot connect to PostgreSQL for a lock"):
        async with locks.held(COMMAND_SYNC):
            pass
