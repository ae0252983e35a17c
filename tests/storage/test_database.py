from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from bot.storage import Database, StorageError
from bot.storage.database import database_path


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
    db = await Database.open(f"sqlite:///{path}")
    try:
        assert path.is_file()
        for conn in (db.writer, db.reader):
            pragmas = {}
            for name in ("journal_mode", "synchronous", "foreign_keys", "busy_timeout"):
                rows = list(await conn.execute_fetchall(f"PRAGMA {name}"))
                pragmas[name] = rows[0][0]
            assert pragmas == {
                "journal_mode": "wal",
                "synchronous": 2,
                "foreign_keys": 1,
                "busy_timeout": 5000,
            }
    finally:
        await db.close()


async def test_relative_url_is_relative_to_the_working_directory(tmp_path: Path) -> None:
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        db = await Database.open("sqlite:///rel/bot.db")
        await db.close()
    finally:
        os.chdir(cwd)
    assert (tmp_path / "rel" / "bot.db").is_file()


async def test_a_file_that_is_not_a_database_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "garbage.db"
    path.write_bytes(b"this is not an sqlite database at all" * 100)
    with pytest.raises(StorageError) as refused:
        await Database.open(str(path))
    assert "\n" not in str(refused.value)
    assert str(path) in str(refused.value)


async def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(StorageError):
        await Database.open(str(tmp_path))


async def test_a_folder_that_cannot_be_created_is_refused(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StorageError) as refused:
        await Database.open(str(blocker / "sub" / "bot.db"))
    assert "\n" not in str(refused.value)


async def test_write_commits_or_rolls_back_whole(tmp_path: Path) -> None:
    db = await Database.open(str(tmp_path / "bot.db"))
    try:
        async with db.write() as conn:
            await conn.execute("CREATE TABLE t (x INTEGER)")
        with pytest.raises(RuntimeError):
            async with db.write() as conn:
                await conn.execute("INSERT INTO t VALUES (1)")
                raise RuntimeError("boom")
        async with db.write() as conn:
            await conn.execute("INSERT INTO t VALUES (2)")
        rows = list(await db.reader.execute_fetchall("SELECT x FROM t"))
        assert [r[0] for r in rows] == [2]
    finally:
        await db.close()


async def test_a_cancelled_unit_of_work_is_rolled_back(tmp_path: Path) -> None:
    db = await Database.open(str(tmp_path / "bot.db"))
    try:
        async with db.write() as conn:
            await conn.execute("CREATE TABLE t (x INTEGER)")
        started = asyncio.Event()

        async def slow() -> None:
            async with db.write() as conn:
                await conn.execute("INSERT INTO t VALUES (1)")
                started.set()
                await asyncio.sleep(10)

        task = asyncio.create_task(slow())
        await started.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        async with db.write() as conn:
            await conn.execute("INSERT INTO t VALUES (2)")
        rows = list(await db.reader.execute_fetchall("SELECT x FROM t"))
        assert [r[0] for r in rows] == [2]
    finally:
        await db.close()


async def test_close_closes_both_connections(tmp_path: Path) -> None:
    db = await Database.open(str(tmp_path / "bot.db"))
    await db.close()
    for conn in (db.writer, db.reader):
        with pytest.raises(ValueError):
            await conn.execute("SELECT 1")
