"""Issue 27: the unmodified bot (``python -m bot``) on a PostgreSQL cluster of its own that the test
restarts, kills, freezes, fills, locks and exhausts, while two servers play.

Each test ends in :meth:`tests.e2e.faults.Game.check` (every change answered as done is there exactly
once, none answered "nothing was changed" is, nothing is there unanswered, every answer in time) and
:meth:`~tests.e2e.faults.Game.recovered` (the same process serves both servers again, ``/readyz``
says ready). See docs/reliability.md for what is guaranteed under each fault.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pwd
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from tests.e2e.faults import (
    ANSWER_S,
    DATABASE,
    DONE,
    FULL,
    READ_ONLY,
    UNCHANGED,
    UNCONFIRMED,
    admin,
    game,
)
from tests.postgres import Cluster, Unavailable, cluster, unavailable
from tests.table import GUILD, OTHER_GUILD, answered, public, refused
from tests.tmpfs import fill, small_tmpfs

pytestmark = pytest.mark.slow


@pytest.fixture
def pg() -> Iterator[Cluster]:
    """A cluster of the test's own (it is restarted, killed, frozen…), small: 30 connections."""
    try:
        with cluster(max_connections=30) as started:
            yield started
    except Unavailable as exc:
        unavailable(str(exc))


async def test_a_restart_costs_no_command_once_it_is_over(pg: Cluster, tmp_path: Path) -> None:
    async with game(pg, tmp_path) as played:
        await played.changes(4)  # the pool holds several connections, all killed by the restart
        await asyncio.to_thread(pg.restart)
        # Idle restart: no command fails afterwards (the pool checks a connection before handing it out).
        assert {o.kind for o in await played.changes(6)} == {DONE}
        # A restart in the middle of a burst: each change done, or "nothing was changed", or (its
        # COMMIT caught by the restart) "not confirmed", never a lost or double one.
        burst = asyncio.gather(played.changes(5))
        await asyncio.sleep(0.05)
        await asyncio.to_thread(pg.restart)
        kinds = {o.kind for o in (await burst)[0]}
        assert kinds <= {DONE, UNCHANGED, UNCONFIRMED}
        await played.recovered()


async def test_a_killed_server_is_said_unavailable_and_served_again_once_back(
    pg: Cluster, tmp_path: Path
) -> None:
    async with game(pg, tmp_path) as played:
        await played.changes(2)
        await asyncio.to_thread(pg.kill)
        down = await played.changes(2)
        assert {o.kind for o in down} == {UNCHANGED}
        assert all("database is unavailable" in o.text for o in down)
        body = await played.wait_readiness(False)
        assert "Connection refused" in body["database"], body  # says why
        # A read during the outage says so too.
        read = await answered(await played.tables[GUILD].send("character list", wait=False), ANSWER_S)
        assert "database is unavailable" in refused(read), read.text
        await asyncio.to_thread(pg.start)
        await played.recovered()


async def test_a_frozen_server_gets_every_command_answered_in_time_and_nothing_committed_late(
    pg: Cluster, tmp_path: Path
) -> None:
    async with game(pg, tmp_path) as played:
        await played.changes(2)
        frozen = await asyncio.to_thread(pg.freeze, stopped=True)
        try:
            during = await played.changes(2)
            body = await played.wait_readiness(False)
        finally:
            for pid in frozen:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, 18)  # SIGCONT, whatever happened above
        assert {o.kind for o in during} == {UNCHANGED}
        assert all(o.deferred for o in during)  # "thinking…" first, then the private answer
        assert body["database"] != "ok", body
        await played.recovered()
        # The units abandoned at their deadline woke with the server, and were rolled back, not
        # committed: the check on leaving finds none of them.
        await asyncio.sleep(1)


async def test_one_servers_lock_held_elsewhere_leaves_the_other_server_served(
    pg: Cluster, tmp_path: Path
) -> None:
    async with game(pg, tmp_path) as played:
        await played.changes(1)
        with psycopg.connect(played.url, autocommit=True) as holder:
            holder.execute("SELECT pg_advisory_lock(%s)", (GUILD,))  # the bot's per-server lock
            locked = asyncio.gather(played.changes(3, [GUILD]))
            others = await played.changes(6, [OTHER_GUILD])
            stuck = (await locked)[0]
        assert {o.kind for o in others} == {DONE}
        assert {o.kind for o in stuck} == {UNCHANGED}
        await played.recovered()


def end_the_bots_sessions(pg: Cluster) -> None:
    """``pg_terminate_backend`` of every session on the bot's database (as a failover or an
    operator does), once they are all gone."""
    with psycopg.connect(pg.url, autocommit=True) as conn:
        conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (DATABASE,))
        while conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s", (DATABASE,)
        ).fetchone() != (0,):
            time.sleep(0.05)


def hog_every_connection(pg: Cluster) -> list[psycopg.Connection[object]]:
    hogs: list[psycopg.Connection[object]] = []
    while True:  # every connection the server allows, superusers' reserve included
        try:
            hogs.append(psycopg.connect(pg.url, autocommit=True))
        except psycopg.OperationalError:
            return hogs


async def test_connections_exhausted_by_others_give_answers_in_time_and_no_lost_change(
    pg: Cluster, tmp_path: Path
) -> None:
    async with game(pg, tmp_path) as played:
        await played.changes(2)
        await asyncio.to_thread(end_the_bots_sessions, pg)  # the pool's connections are dead...
        hogs = await asyncio.to_thread(hog_every_connection, pg)  # ...and no new one can be had
        try:
            starved = await played.changes(2)
            body = await played.wait_readiness(False)
        finally:
            for hog in hogs:
                hog.close()
        assert {o.kind for o in starved} == {UNCHANGED}
        assert body["database"] != "ok", body
        await played.recovered()


async def test_a_database_turned_read_only_says_so_to_every_write_and_still_reads(
    pg: Cluster, tmp_path: Path
) -> None:
    async with game(pg, tmp_path) as played:
        await played.changes(2)
        admin(pg.url, f"ALTER DATABASE {DATABASE} SET default_transaction_read_only = on")
        await asyncio.to_thread(end_the_bots_sessions, pg)  # the setting holds for new sessions
        refused = await played.changes(3)
        assert {o.kind for o in refused} == {READ_ONLY}
        read = await answered(await played.tables[GUILD].send("character list", wait=False), ANSWER_S)
        assert f"c{GUILD % 1000}-0" in public(read), read.text
        admin(pg.url, f"ALTER DATABASE {DATABASE} RESET default_transaction_read_only")
        await asyncio.to_thread(end_the_bots_sessions, pg)
        await played.recovered()


@contextlib.contextmanager
def small_tablespace(pg: Cluster, megabytes: int) -> Iterator[Path]:
    """A tablespace ``small`` on a tmpfs of ``megabytes``, in the cluster's folder (which its owner
    can reach)."""
    entry = pwd.getpwnam(pg.owner) if pg.owner else None
    owner = (entry.pw_uid, entry.pw_gid) if entry else None
    with small_tmpfs(pg.data.parent / "small", megabytes, owner=owner) as folder:
        try:
            admin(pg.url, f"CREATE TABLESPACE small LOCATION '{folder}'")
            yield folder
        finally:
            pg.stop()  # nothing may hold a file on it when it goes


async def test_a_full_disk_is_said_and_served_again_once_space_is_freed(pg: Cluster, tmp_path: Path) -> None:
    with small_tablespace(pg, 48) as folder:
        async with game(pg, tmp_path, tablespace="small") as played:
            await played.changes(1)
            filler = await asyncio.to_thread(fill, folder)
            # Rows go in pages already there until one more page is needed: then "full".
            outcomes = []
            for _ in range(40):
                outcomes += await played.changes(2)
                if any(o.kind == FULL for o in outcomes):
                    break
            assert {o.kind for o in outcomes} <= {DONE, FULL}
            assert FULL in {o.kind for o in outcomes}
            filler.unlink()
            await played.recovered()
