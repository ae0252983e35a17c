"""A real PostgreSQL for the tests: the server of ``HARMONIES_TEST_POSTGRES_URL`` or, when it is not
set, a throwaway cluster started here (``initdb`` + ``pg_ctl`` from ``pg_config --bindir``, in a
temporary folder, ``fsync=off``; as the ``postgres`` user when running as root, since ``initdb``
refuses root) and stopped at the end of the session.

Each test gets a fresh database, copied from a migrated template (``CREATE DATABASE … TEMPLATE``)
or from the empty ``template0``. When PostgreSQL cannot be had, the PostgreSQL tests fail with a
one-line reason, unless ``HARMONIES_TEST_SKIP_POSTGRES=1`` is set (then they are skipped, saying so).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest
from psycopg import sql as pgsql

from bot.storage import Store

URL_VARIABLE = "HARMONIES_TEST_POSTGRES_URL"
SKIP_VARIABLE = "HARMONIES_TEST_SKIP_POSTGRES"
TEMPLATE = "harmonies_template"


class Unavailable(Exception):
    """PostgreSQL cannot be had; the message is the one-line reason."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def as_owner(command: list[str], owner: str | None) -> list[str]:
    return ["runuser", "-u", owner, "--", *command] if owner else command


def run(what: str, command: list[str]) -> None:
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        last = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        raise Unavailable(f"{what} failed: {last[0]}")


def scratch(prefix: str) -> tuple[str, str | None, Path]:
    """What a throwaway cluster needs: PostgreSQL's programs (``pg_config --bindir``), the user to run
    them as (``postgres`` when running as root: ``initdb`` refuses root) and a temporary folder it owns."""
    try:
        bindir = subprocess.run(
            ["pg_config", "--bindir"], capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        raise Unavailable(
            "no PostgreSQL: pg_config is not on the PATH "
            f"(install the postgresql package, or set {URL_VARIABLE})"
        ) from None
    owner = None
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            raise Unavailable("running as root and there is no postgres user to run initdb as") from None
        owner = "postgres"
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    folder.chmod(0o755)
    if owner:
        shutil.chown(folder, owner)
    return bindir, owner, folder


def initdb(bindir: str, data: Path, owner: str | None) -> None:
    command = [f"{bindir}/initdb", "-D", str(data), "-U", "postgres", "-A", "trust", "-E", "UTF8"]
    run("initdb", as_owner([*command, "--locale=C", "--no-sync"], owner))


@dataclass
class Cluster:
    """A throwaway cluster of this session: its URL, and what the fault tests do to it."""

    url: str
    bindir: str
    data: Path
    owner: str | None
    options: str

    def pg_ctl(self, *args: str, check: bool = True) -> None:
        command = as_owner([f"{self.bindir}/pg_ctl", "-D", str(self.data), *args], self.owner)
        if check:
            run(f"pg_ctl {args[-1]}", command)
        else:
            subprocess.run(command, capture_output=True, check=False)

    def start(self) -> None:
        """Start it (again): after a kill, once the old server's processes are gone."""
        log = str(self.data.parent / "log")
        self.pg_ctl("-o", self.options, "-l", log, "-w", "-t", "60", "start")

    def restart(self) -> None:
        """``pg_ctl restart -m fast``: every session is ended, the server is back a moment later."""
        self.pg_ctl("-l", str(self.data.parent / "log"), "-m", "fast", "-w", "-t", "60", "restart")

    def postmaster(self) -> int:
        return int((self.data / "postmaster.pid").read_text().split()[0])

    def processes(self) -> list[int]:
        """The postmaster and its children (the backends, the checkpointer…)."""
        root = self.postmaster()
        found = [root]
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == root:
                found.append(int(stat.parent.name))
        return found

    def kill(self) -> None:
        """SIGKILL of the postmaster: its backends notice and end; the server is down until start()."""
        processes = self.processes()
        os.kill(processes[0], signal.SIGKILL)
        for _ in range(200):  # the backends end within a moment of their postmaster's death
            if not any(Path(f"/proc/{pid}").exists() for pid in processes):
                break
            time.sleep(0.05)

    def freeze(self, *, stopped: bool) -> list[int]:
        """SIGSTOP (or SIGCONT) to the postmaster and every child: the server answers nothing, its
        connections stay open."""
        processes = self.processes()
        for pid in processes:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGSTOP if stopped else signal.SIGCONT)
        return processes

    def stop(self) -> None:
        self.pg_ctl("-m", "immediate", "-w", "stop", check=False)


@contextmanager
def cluster(*, durable: bool = False, max_connections: int = 200) -> Iterator[Cluster]:
    """Start a cluster in a temporary folder; yield it (its URL names the database ``postgres``);
    stop it after. Not ``durable`` (the tests): ``fsync=off``. Durable (the benchmarks): PostgreSQL's
    defaults."""
    bindir, owner, folder = scratch("harmonies-pg-")
    try:
        data, socket_dir = folder / "data", folder / "socket"
        socket_dir.mkdir()
        if owner:
            shutil.chown(socket_dir, owner)
        port = free_port()
        initdb(bindir, data, owner)
        options = "" if durable else "-c fsync=off -c full_page_writes=off "
        options += (
            f"-c port={port} -c listen_addresses=127.0.0.1 "
            f"-c unix_socket_directories={socket_dir} -c max_connections={max_connections}"
        )
        started = Cluster(f"postgresql://postgres@127.0.0.1:{port}/postgres", bindir, data, owner, options)
        started.start()
        try:
            yield started
        finally:
            started.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def throwaway_cluster(*, durable: bool = False) -> Iterator[str]:
    """:func:`cluster`, by its URL."""
    with cluster(durable=durable) as started:
        yield started.url


def with_database(url: str, name: str) -> str:
    """``url`` pointing at database ``name`` instead."""
    base, _, _ = url.rpartition("/")
    return f"{base}/{name}"


class Server:
    """One PostgreSQL server for the session: fresh databases on demand."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._names = itertools.count(1)
        self._template_ready = False

    def _admin(self, statement: pgsql.Composed) -> None:
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(statement)

    def _template(self) -> None:
        if self._template_ready:
            return
        self._admin(pgsql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(pgsql.Identifier(TEMPLATE)))
        self._admin(pgsql.SQL("CREATE DATABASE {} TEMPLATE template0").format(pgsql.Identifier(TEMPLATE)))

        async def migrate() -> None:
            store = await Store.open(with_database(self.url, TEMPLATE))
            await store.close()

        with ThreadPoolExecutor(1) as thread:  # its own event loop, even when called from a test's
            thread.submit(asyncio.run, migrate()).result()
        self._template_ready = True

    def create(self, *, migrated: bool = True) -> str:
        """A new database (migrated, or empty); its URL."""
        if migrated:
            self._template()
        name = f"harmonies_test_{os.getpid()}_{next(self._names)}"
        template = TEMPLATE if migrated else "template0"
        self._admin(
            pgsql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
                pgsql.Identifier(name), pgsql.Identifier(template)
            )
        )
        return with_database(self.url, name)

    def drop(self, url: str) -> None:
        name = url.rpartition("/")[2]
        self._admin(pgsql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(pgsql.Identifier(name)))


@contextmanager
def postgres_server() -> Iterator[Server]:
    given = os.environ.get(URL_VARIABLE)
    if given:
        yield Server(given)
        return
    with throwaway_cluster() as url:
        yield Server(url)


def unavailable(reason: str) -> None:
    """Fail (or, with the documented opt-out, skip) a PostgreSQL test, in one line."""
    if os.environ.get(SKIP_VARIABLE) == "1":
        pytest.skip(f"PostgreSQL tests skipped ({SKIP_VARIABLE}=1): {reason}")
    pytest.fail(f"PostgreSQL is needed for this test: {reason} (or set {SKIP_VARIABLE}=1)", pytrace=False)
