"""Two PostgreSQL clusters started by a test: a primary and a streaming standby of it
(``pg_basebackup -R``), synchronous (``synchronous_standby_names``, ``synchronous_commit = on``): a
commit returns only once the standby has it. For the failover test (tests/e2e/test_failover.py).

Like tests/postgres.py, as the ``postgres`` user when running as root (``initdb`` refuses root).
"""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import psycopg

from tests.postgres import Unavailable, as_owner, free_port, initdb, run, scratch

STANDBY_NAME = "standby1"
DATABASE = "harmonies"


@dataclass
class Pair:
    """A primary and its standby, on 127.0.0.1; ``url`` is libpq's multi-host form naming both."""

    bindir: str
    owner: str | None
    folder: Path
    primary_port: int
    standby_port: int

    @property
    def url(self) -> str:
        hosts = f"127.0.0.1:{self.primary_port},127.0.0.1:{self.standby_port}"
        return f"postgresql://postgres@{hosts}/{DATABASE}?target_session_attrs=read-write&connect_timeout=2"

    def url_of(self, port: int) -> str:
        return f"postgresql://postgres@127.0.0.1:{port}/{DATABASE}"

    def _pg_ctl(self, data: str, *args: str) -> list[str]:
        return as_owner([f"{self.bindir}/pg_ctl", "-D", str(self.folder / data), *args], self.owner)

    def start(self, data: str, port: int, *settings: str) -> None:
        options = f"-c port={port} -c listen_addresses=127.0.0.1 -c unix_socket_directories={self.folder}"
        options += " -c fsync=off -c full_page_writes=off " + " ".join(f"-c {s}" for s in settings)
        log = str(self.folder / f"{data}.log")
        run(f"pg_ctl start ({data})", self._pg_ctl(data, "-o", options, "-l", log, "-w", "-t", "60", "start"))

    def stop_primary(self) -> None:
        """The primary dies (``-m immediate``: no shutdown checkpoint, as in a crash)."""
        run("pg_ctl stop (primary)", self._pg_ctl("primary", "-m", "immediate", "-w", "stop"))

    def promote_standby(self) -> None:
        run("pg_ctl promote", self._pg_ctl("standby", "-w", "-t", "60", "promote"))

    def stop_all(self) -> None:
        for data in ("standby", "primary"):
            subprocess.run(
                self._pg_ctl(data, "-m", "immediate", "-w", "stop"), capture_output=True, check=False
            )


def _wait_synchronous(url: str) -> None:
    """Until the primary sees its standby streaming, as its synchronous standby."""
    for _ in range(300):
        with psycopg.connect(url, autocommit=True) as conn:
            row = conn.execute(
                "SELECT sync_state FROM pg_stat_replication WHERE application_name = %s", (STANDBY_NAME,)
            ).fetchone()
        if row is not None and row[0] == "sync":
            return
        time.sleep(0.1)
    raise Unavailable("the standby never became the primary's synchronous standby")


@contextmanager
def primary_and_standby() -> Iterator[Pair]:
    """Start the pair (the database ``harmonies`` created on the primary); stop both after."""
    bindir, owner, folder = scratch("harmonies-pair-")
    pair = Pair(bindir, owner, folder, free_port(), free_port())
    try:
        initdb(bindir, folder / "primary", owner)
        pair.start("primary", pair.primary_port, "wal_level=replica", "synchronous_commit=on")
        admin = f"postgresql://postgres@127.0.0.1:{pair.primary_port}/postgres"
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {DATABASE}")
        basebackup = [f"{bindir}/pg_basebackup", "-D", str(folder / "standby"), "-R", "-X", "stream"]
        where = ["-h", "127.0.0.1", "-p", str(pair.primary_port), "-U", "postgres"]
        run("pg_basebackup", as_owner([*basebackup, *where, "--no-sync"], owner))
        conninfo = f"host=127.0.0.1 port={pair.primary_port} user=postgres application_name={STANDBY_NAME}"
        # -R wrote standby.signal and a primary_conninfo; the last one written wins: this one names the
        # standby for the primary's synchronous_standby_names.
        with (folder / "standby" / "postgresql.auto.conf").open("a") as auto:
            auto.write(f"primary_conninfo = '{conninfo}'\n")
        pair.start("standby", pair.standby_port)
        with psycopg.connect(admin, autocommit=True) as conn:  # only now: commits would wait for it
            conn.execute(f"ALTER SYSTEM SET synchronous_standby_names = '{STANDBY_NAME}'")
            conn.execute("SELECT pg_reload_conf()")
        _wait_synchronous(admin)
        yield pair
    finally:
        pair.stop_all()
        shutil.rmtree(folder, ignore_errors=True)
