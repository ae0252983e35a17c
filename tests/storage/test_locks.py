"""The named locks of one process (on SQLite, the only process of its database)."""

from __future__ import annotations

import asyncio

from bot.storage.locks import COMMAND_SYNC, Locks, identify_bucket


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
