"""The PostgreSQL part of the bench: the same small data set copied into a PostgreSQL database (a
throwaway cluster with PostgreSQL's durable defaults, or ``HARMONIES_BENCH_POSTGRES_URL``), and one
durable PostgreSQL commit as its floor."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql as pgsql

from bench.measure import Series
from bot.storage.database import is_postgres
from tests.postgres import throwaway_cluster, with_database

URL_VARIABLE = "HARMONIES_BENCH_POSTGRES_URL"
DATABASE = "harmonies_bench"
# Parents first (foreign keys); the tables whose ids PostgreSQL hands out (identity columns).
TABLES = ("guild_settings", "characters", "wounds", "active_characters", "events", "event_characters", "meta")
IDENTITY = ("characters", "wounds", "events")


@contextlib.contextmanager
def server() -> Iterator[str]:
    """The URL of a server database (``postgres``) the bench may create a database in."""
    given = os.environ.get(URL_VARIABLE)
    if given:
        yield given
        return
    with throwaway_cluster(durable=True) as url:
        yield url


def fresh_database(server_url: str) -> str:
    with psycopg.connect(server_url, autocommit=True) as conn:
        name = pgsql.Identifier(DATABASE)
        conn.execute(pgsql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(name))
        conn.execute(pgsql.SQL("CREATE DATABASE {}").format(name))
    return with_database(server_url, DATABASE)


def copy_from_sqlite(source: Path, url: str) -> None:
    """Copy every row of the SQLite data set into the (migrated, empty) PostgreSQL database."""
    assert is_postgres(url)
    src = sqlite3.connect(source)
    try:
        with psycopg.connect(url) as conn, conn.cursor() as cursor:
            for table in TABLES:
                columns = [r[1] for r in src.execute(f"PRAGMA table_info({table})")]
                marks = ", ".join(["%s"] * len(columns))
                override = " OVERRIDING SYSTEM VALUE" if table in IDENTITY else ""
                insert = f"INSERT INTO {table} ({', '.join(columns)}){override} VALUES ({marks})"
                rows = src.execute(f"SELECT {', '.join(columns)} FROM {table}")
                while batch := rows.fetchmany(5000):
                    cursor.executemany(insert, batch)
            for table in IDENTITY:
                cursor.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), MAX(id)) FROM {table} "
                    "HAVING MAX(id) IS NOT NULL"
                )
            cursor.execute("ANALYZE")
    finally:
        src.close()


class PostgresCommitFloor:
    """One durable PostgreSQL commit: one row inserted by an autocommit statement (one round trip,
    the commit's WAL flush included), on the same server as the bench's database."""

    def __init__(self, url: str) -> None:
        self._conn: psycopg.Connection[Any] = psycopg.connect(url, autocommit=True)
        self._conn.execute(
            "CREATE TABLE IF NOT EXISTS bench_commit (id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, "
            "at DOUBLE PRECISION NOT NULL)"
        )
        self.series = Series()

    def sample(self) -> float:
        start = time.perf_counter()
        self._conn.execute("INSERT INTO bench_commit (at) VALUES (%s)", (start,))
        elapsed = time.perf_counter() - start
        self.series.add(elapsed)
        return elapsed

    def close(self) -> None:
        self._conn.close()
