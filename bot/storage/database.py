"""The two backends, chosen by the database URL: SQLite (a file, the default) or PostgreSQL.

Both run a unit of work the same way: a plain synchronous function of an :class:`~bot.storage.transaction.Sql`
connection, run whole, in one hop, on the thread that holds that connection, inside one transaction
(committed when it returns, rolled back when it raises). Nothing can ``await`` inside it, so nothing
else runs in the middle of it (on PostgreSQL, a unit whose connection failed before it began runs
once more, on another connection).

* **SQLite** (:mod:`bot.storage.sqlite`), through aiosqlite, which gives each connection a thread of
  its own: one writer connection, one reader (WAL: reads see the last commit and never wait for the
  writer), and one that checkpoints the WAL beside the writer. aiosqlite has no public way to run a
  whole function on a connection's thread in one hop, only its private ``Connection._execute(fn,
  *args)``: :func:`~bot.storage.sqlite.on_thread` is the one place that calls it (with
  ``Connection._conn``, the ``sqlite3`` connection); ``uv.lock`` pins aiosqlite, and
  ``tests/storage/test_aiosqlite_thread.py`` fails if a new version changes what is relied on.

  *Group commit*: the units waiting for the writer are run together, in arrival order, in one
  ``BEGIN IMMEDIATE … COMMIT``, each in its own ``SAVEPOINT`` (a failing one rolls back alone), and
  each is answered once that commit is done; should the commit fail, every unit of the group fails
  with it. A unit finding none waiting starts the next group; those arriving meanwhile join it.
* **PostgreSQL** (psycopg 3 and psycopg-pool, :mod:`bot.storage.postgres`): a pool of connections,
  worker threads; every unit first takes ``pg_advisory_xact_lock`` on its server's id (READ
  COMMITTED), so the units of one server run one at a time across every process sharing the
  database; every wait is bounded, and a unit past its deadline is rolled back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

from bot.storage.sqlite import SqliteDatabase

if TYPE_CHECKING:  # imported by open_database only: SQLite deployments do without psycopg (≈ 11 MB)
    from bot.storage.postgres import PostgresDatabase

CONNECT_TIMEOUT_S = 10  # a plain connection of the shard locks (the pool's are in postgres.py)


def is_postgres(url: str) -> bool:
    return url.split("://", 1)[0].lower() in ("postgresql", "postgres") and "://" in url


# An open database of either backend: ``await db.write(lock, work)`` runs ``work`` in one transaction
# (first taking the advisory lock ``lock`` on PostgreSQL), ``await db.read(work)`` (reads only) sees the
# last commit. Build it with :func:`open_database`; always ``await db.close()``.
Database: TypeAlias = "SqliteDatabase | PostgresDatabase"


async def open_database(url: str) -> Database:
    if is_postgres(url):
        from bot.storage.postgres import PostgresDatabase

        return await PostgresDatabase.open(url)
    return await SqliteDatabase.open(url)
