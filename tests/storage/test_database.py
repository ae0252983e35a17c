from __future__ import annotations

import asyncio
import logging
import os
import shutil
import sqlite3
import threading
from functools import partial
from pathlib import Path

import pytest

from bot.storage import StorageError, open_database
from bot.storage.sqlite import CHECKPOINT_UNITS, SqliteDatabase, database_path
from bot.storage.transaction import Sql, UniqueViolation


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("sqlite:///data/bot.db", Path("data/bot.db")),
        ("sqlite:////var/lib/bot/bot.db", Path("/var/lib/bot/bot.db")),
        ("data/bot.db", Path("data/bot.db")),
        ("/abs/bot.db", Path("/abs/bot.db")),
        ("SQLITE:///x.db", Path("x.db")),
    ],
)
def test_database_urls(url: str, expected: Path) -> None:
    assert database_path(url) == expected


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://user:hunter2@db.example/bot",
        "mysql://x/y",
        "sqlite://host/x.db",
        "sqlite:///",
        "sqlite:///:memory:",
        "sqlite:///x.db?mode=ro",
        "",
    ],
)
def test_unsupported_urls_are_refused_without_echoing_secrets(url: str) -> None:
    with pytest.raises(StorageError) as refused:
        database_path(url)
    message = str(refused.value)
    assert "\n" not in message
    assert "hunter2" not in message
    if url.startswith(("postgresql", "mysql")):
        assert message.startswith("unsupported database URL")


async def test_open_creates_the_folder_and_sets_the_pragmas(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "bot.db"
    db = await open_database(f"sqlite:///{path}")
    try:
        assert path.is_file()

        def pragmas(sql: Sql) -> dict[str, object]:
            names = ("journal_mode", "synchronous", "foreign_keys", "busy_timeout", "wal_autocheckpoint")
            return {name: (sql.row(f"PRAGMA {name}") or ("",))[0] for name in names}

        expected = {
            "journal_mode": "wal",
            "synchronous": 2,
            "foreign_keys": 1,
            "busy_timeout": 5000,
            "wal_autocheckpoint": 0,  # the checkpointer's thread does it (below)
        }
        assert await db.write(None, pragmas) == expected
        assert await db.read(pragmas) == expected
    finally:
        await db.close()


async def test_relative_url_is_relative_to_the_working_directory(tmp_path: Path) -> None:
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        db = await open_database("sqlite:///rel/bot.db")
        await db.close()
    finally:
        os.chdir(cwd)
    assert (tmp_path / "rel" / "bot.db").is_file()


async def test_a_file_that_is_not_a_database_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "garbage.db"
    path.write_bytes(b"this is not an sqlite database at all" * 100)
    with pytest.raises(StorageError) as refused:
        await open_database(str(path))
    assert "\n" not in str(refused.value)
    assert str(path) in str(refused.value)


async def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(StorageError):
        await open_database(str(tmp_path))


async def test_a_folder_that_cannot_be_created_is_refused(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StorageError) as refused:
        await open_database(str(blocker / "sub" / "bot.db"))
    assert "\n" not in str(refused.value)


async def test_an_unreachable_postgresql_is_refused_in_one_line_without_the_password() -> None:
    with pytest.raises(StorageError) as refused:
        await open_database("postgresql://bot:hunter2@127.0.0.1:1/harmonies?connect_timeout=2")
    message = str(refused.value)
    assert message.startswith("cannot connect to PostgreSQL") and "\n" not in message
    assert "hunter2" not in message


async def test_a_unit_commits_or_rolls_back_whole(database_url: str) -> None:
    db = await open_database(database_url)
    try:
        await db.write(None, lambda sql: sql.run("CREATE TABLE t (x INTEGER PRIMARY KEY)"))
        await db.write(1, lambda sql: sql.run("INSERT INTO t (x) VALUES (?)", (1,)))

        def two_then_fail(sql: Sql) -> None:
            sql.run("INSERT INTO t (x) VALUES (?)", (2,))
            raise RuntimeError("boom")

        with pytest.raises(RuntimeError):
            await db.write(1, two_then_fail)
        with pytest.raises(UniqueViolation):  # the same error on both backends
            await db.write(1, lambda sql: sql.run_many("INSERT INTO t (x) VALUES (?)", [(3,), (1,)]))
        await db.write(1, lambda sql: sql.run("INSERT INTO t (x) VALUES (?)", (4,)))
        assert await db.read(lambda sql: sql.rows("SELECT x FROM t ORDER BY x")) == [(1,), (4,)]
    finally:
        await db.close()


async def test_a_cancelled_caller_leaves_its_unit_whole_and_the_database_usable(database_url: str) -> None:
    db = await open_database(database_url)
    try:
        await db.write(None, lambda sql: sql.run("CREATE TABLE t (x INTEGER)"))
        started, release = threading.Event(), threading.Event()

        def slow(sql: Sql) -> None:
            sql.run("INSERT INTO t (x) VALUES (?)", (1,))
            started.set()
            release.wait(10)
            sql.run("INSERT INTO t (x) VALUES (?)", (2,))

        task = asyncio.create_task(db.write(1, slow))
        await asyncio.to_thread(started.wait, 10)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        release.set()
        await db.write(1, lambda sql: sql.run("INSERT INTO t (x) VALUES (?)", (3,)))
        # Never part of it. SQLite's writer runs the unit to its end and commits it; on PostgreSQL the
        # unit, abandoned by its caller before its COMMIT, is rolled back (nobody is told of it).
        whole = [(3,)] if db.dialect == "postgres" else [(1,), (2,), (3,)]
        assert await db.read(lambda sql: sql.rows("SELECT x FROM t ORDER BY x")) == whole
    finally:
        await db.close()


async def test_nothing_runs_after_close(tmp_path: Path) -> None:
    db = await open_database(str(tmp_path / "bot.db"))
    assert isinstance(db, SqliteDatabase)
    await db.close()
    with pytest.raises(RuntimeError):
        await db.write(None, lambda sql: sql.run("SELECT 1"))
    with pytest.raises(RuntimeError):
        await db.read(lambda sql: sql.rows("SELECT 1"))


async def test_units_waiting_for_the_sqlite_writer_share_one_commit_and_fail_alone(tmp_path: Path) -> None:
    db = await open_database(str(tmp_path / "bot.db"))
    try:
        await db.write(None, lambda sql: sql.run("CREATE TABLE t (x INTEGER PRIMARY KEY)"))
        started, release = threading.Event(), threading.Event()

        def first(sql: Sql) -> int:
            started.set()
            release.wait(10)  # the others queue up meanwhile
            return sql.run("INSERT INTO t (x) VALUES (?)", (0,))

        def insert(value: int, sql: Sql) -> int:
            sql.run("INSERT INTO t (x) VALUES (?)", (value,))
            if value == 5:
                raise RuntimeError("unit 5 fails")
            return int((sql.row("SELECT COUNT(*) FROM t") or (0,))[0])

        blocker = asyncio.create_task(db.write(None, first))
        await asyncio.to_thread(started.wait, 10)
        queued = [asyncio.create_task(db.write(None, partial(insert, v))) for v in range(1, 11)]
        await asyncio.sleep(0.01)
        release.set()
        assert await blocker == 1
        outcomes = await asyncio.gather(*queued, return_exceptions=True)
        assert isinstance(outcomes[4], RuntimeError)
        # One group after the first unit: each saw the ones before it, not unit 5's row.
        assert outcomes[:4] + outcomes[5:] == [2, 3, 4, 5, 6, 7, 8, 9, 10]
        found = await db.read(lambda sql: sql.rows("SELECT x FROM t ORDER BY x"))
        assert found == [(v,) for v in range(11) if v != 5]
    finally:
        await db.close()


def rows_in_the_main_file(path: Path, tmp_path: Path) -> int:
    """The rows of ``t`` a copy of the main file holds alone, without the WAL: what was checkpointed."""
    copy = tmp_path / "main-file-only.db"
    shutil.copyfile(path, copy)
    conn = sqlite3.connect(copy)
    try:
        tables = conn.execute("SELECT COUNT(*) FROM sqlite_master WHERE name = 't'").fetchone()[0]
        return int(conn.execute("SELECT COUNT(*) FROM t").fetchone()[0]) if tables else 0
    finally:
        conn.close()


async def wait_for_rows_in_the_main_file(path: Path, tmp_path: Path, count: int) -> int:
    found = 0
    for _ in range(500):
        try:
            found = rows_in_the_main_file(path, tmp_path)
        except sqlite3.DatabaseError:  # copied while the checkpointer was writing it: look again
            found = 0
        if found >= count:
            break
        await asyncio.sleep(0.01)
    return found


async def test_the_wal_is_checkpointed_beside_the_writer_every_so_many_units(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    db = await open_database(str(path))
    rows = CHECKPOINT_UNITS - 1  # the first unit creates the table

    def insert(x: int, sql: Sql) -> None:
        sql.run("INSERT INTO t (x) VALUES (?)", (x,))

    try:
        await db.write(None, lambda sql: sql.run("CREATE TABLE t (x INTEGER PRIMARY KEY)"))
        for x in range(1, rows):
            await db.write(None, partial(insert, x))
        assert rows_in_the_main_file(path, tmp_path) == 0  # no commit checkpointed: all in the WAL
        await db.write(None, partial(insert, rows))  # the last unit before a checkpoint
        assert await wait_for_rows_in_the_main_file(path, tmp_path, rows) == rows
    finally:
        await db.close()


async def test_a_failing_checkpoint_is_logged_and_stops_no_write(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = await open_database(str(tmp_path / "bot.db"))
    assert isinstance(db, SqliteDatabase)
    calls = 0

    async def full_disk(*, truncate: bool = False) -> None:
        nonlocal calls
        calls += 1
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(db, "checkpoint", full_disk)
    try:
        await db.write(None, lambda sql: sql.run("CREATE TABLE t (x INTEGER PRIMARY KEY)"))
        with caplog.at_level(logging.WARNING, logger="bot.storage.sqlite"):
            for x in range(1, 2 * CHECKPOINT_UNITS + 1):
                await db.write(None, partial(lambda x, sql: sql.run("INSERT INTO t (x) VALUES (?)", (x,)), x))
            await asyncio.sleep(0.01)
        assert calls == 2
        assert caplog.messages.count("Database checkpoint failed: database or disk is full") == 2
        assert await db.read(lambda sql: sql.row("SELECT COUNT(*) FROM t")) == (2 * CHECKPOINT_UNITS,)
    finally:
        await db.close()
