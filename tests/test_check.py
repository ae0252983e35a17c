"""``python -m bot check``: exit 0 when the bot would start, else 1 with a one-line reason; the database
itself is never changed (the migrations are tried on a copy)."""

from __future__ import annotations

import asyncio
import hashlib
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.storage import Store
from bot.storage.migrations import find_migrations
from tests.databases import latest_version

LATEST = latest_version()
ALL_MIGRATIONS = ", ".join(m.path.name for m in find_migrations())


@pytest.fixture(autouse=True)
def clean_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A folder of its own (no .env read from the checkout) and a token; no DATABASE_URL."""
    monkeypatch.chdir(tmp_path)
    for name in ("DISCORD_TOKEN", "DATABASE_URL", "LOG_LEVEL", "DISCORD_API_BASE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", "a-token")


def check(capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """Run ``main(["check"])``: its exit code and what it printed (stdout, or the error line)."""
    try:
        main(["check"])
    except SystemExit as stop:
        if isinstance(stop.code, str):
            return 1, stop.code
        return int(stop.code or 0), capsys.readouterr().out
    return 0, capsys.readouterr().out


def use_database(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{path}")


def fingerprint(path: Path) -> tuple[str, int]:
    return hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns


async def make_database(path: Path) -> None:
    store = await Store.open(f"sqlite:///{path}")
    await store.set_meta("something", "kept")
    await store.close()


def test_an_up_to_date_database_passes_and_is_left_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bot.db"
    asyncio.run(make_database(path))
    before = fingerprint(path)
    use_database(monkeypatch, path)

    code, out = check(capsys)

    assert code == 0, out
    assert out.splitlines() == [
        "ok: settings (log level INFO, Discord API https://discord.com/api/v10)",
        f"ok: database {path} at schema version {LATEST}, up to date",
    ]
    assert fingerprint(path) == before


def test_pending_migrations_are_tried_on_a_copy_and_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as conn:  # a database at version 0, with something in it
        conn.execute("CREATE TABLE notes (text TEXT)")
        conn.execute("INSERT INTO notes VALUES ('hello')")
    conn.close()
    before = fingerprint(path)
    use_database(monkeypatch, path)

    code, out = check(capsys)

    assert code == 0, out
    assert out.splitlines()[1] == (
        f"ok: database {path} at schema version 0: the next start applies {ALL_MIGRATIONS} "
        "(tried on a copy: it works)"
    )
    assert fingerprint(path) == before
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 0
    conn.close()


def test_a_missing_database_passes_and_is_not_created(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = check(capsys)  # the default DATABASE_URL: data/harmonies.db under the current folder

    assert code == 0, out
    assert out.splitlines()[1] == (
        f"ok: database data/harmonies.db does not exist yet: the first start creates it "
        f"(schema version {LATEST})"
    )
    assert list(tmp_path.iterdir()) == []


def test_a_database_newer_than_the_bot_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "future.db"
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {LATEST + 1}")
    conn.close()
    use_database(monkeypatch, path)

    code, message = check(capsys)

    assert code == 1
    assert message == (
        f"error: database {path} at schema version {LATEST + 1}: the database schema is version "
        f"{LATEST + 1}, newer than this bot knows ({LATEST}): upgrade the bot, or restore a backup"
    )


def test_a_file_that_is_not_a_database_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "notes.db"
    path.write_text("these are my notes, not a database\n" * 200)
    use_database(monkeypatch, path)

    code, message = check(capsys)

    assert (code, message) == (1, f"error: cannot read database {path}: file is not a database")
    assert path.read_text().startswith("these are my notes")


def test_a_damaged_database_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "damaged.db"
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA page_size = 4096")
        conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, text TEXT)")
        conn.executemany("INSERT INTO t (text) VALUES (?)", [("x" * 300,) for _ in range(200)])
        conn.execute("CREATE INDEX t_text ON t (text)")
    conn.close()
    data = bytearray(path.read_bytes())
    assert len(data) > 8 * 4096
    data[3 * 4096 : 4 * 4096] = b"\xff" * 4096  # one b-tree page overwritten
    path.write_bytes(bytes(data))
    use_database(monkeypatch, path)

    code, message = check(capsys)

    assert code == 1
    assert message.startswith(f"error: database {path} is damaged (PRAGMA quick_check): "), message
    assert "\n" not in message


def test_a_folder_as_the_database_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "db").mkdir()
    use_database(monkeypatch, tmp_path / "db")

    assert check(capsys) == (1, f"error: cannot open database {tmp_path / 'db'}: it is a folder")


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DISCORD_TOKEN": ""}, "error: DISCORD_TOKEN is not set (put it in the environment or in .env)"),
        ({"LOG_LEVEL": "LOUD"}, "error: bad setting log_level: Value error, LOG_LEVEL must be DEBUG, INFO, "),
        ({"DATABASE_URL": "mysql://db/harmonies"}, "error: unsupported database URL scheme 'mysql'"),
    ],
)
def test_bad_settings_fail_with_one_line(
    env: dict[str, str], message: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)

    code, said = check(capsys)

    assert code == 1
    assert said.startswith(message), said
    assert "\n" not in said


def test_the_command_line_exit_codes(tmp_path: Path) -> None:
    """The real process, as a deploy script runs it: 0 and a summary, or 1 and one line on stderr."""
    env = {"PATH": "/usr/bin:/bin", "DISCORD_TOKEN": "a-token", "DATABASE_URL": f"sqlite:///{tmp_path}/x.db"}
    ok = subprocess.run(
        [sys.executable, "-m", "bot", "check"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.startswith("ok: settings") and ok.stderr == ""

    del env["DISCORD_TOKEN"]
    failed = subprocess.run(
        [sys.executable, "-m", "bot", "check"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert failed.returncode == 1
    assert failed.stderr == "error: DISCORD_TOKEN is not set (put it in the environment or in .env)\n"


def test_the_check_says_the_player_views_budget(tmp_path: Path) -> None:
    """With WEB_PORT, the budget a start would give the page, from the hard open-files limit (a start
    raises the soft one to it)."""
    env = {
        "PATH": "/usr/bin:/bin",
        "DISCORD_TOKEN": "a-token",
        "DATABASE_URL": f"sqlite:///{tmp_path}/x.db",
        "WEB_PORT": "8088",
        "WEB_BASE_URL": "https://harmonies.example.org",
    }
    ok = subprocess.run(
        ["prlimit", "--nofile=256:1024", sys.executable, "-m", "bot", "check"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.splitlines()[-1] == (
        "ok: player view on 127.0.0.1:8088: up to 704 connections at once (616 update streams), "
        "open-files limit 1024, 256 kept for Discord and the database"
    )
