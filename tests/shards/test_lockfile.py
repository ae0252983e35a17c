"""One bot process per SQLite file: the lock file beside the database (two real processes are tried in
tests/e2e/test_shards.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.shards.lockfile import AlreadyRunning, only_process
from bot.storage.errors import StorageError


def test_a_second_holder_is_refused_and_told_to_use_postgresql(tmp_path: Path) -> None:
    database = tmp_path / "data" / "harmonies.db"
    with only_process(database) as path:
        assert path == tmp_path / "data" / "harmonies.db.lock"
        assert path.read_text() == f"{os.getpid()}\n"
        with pytest.raises(AlreadyRunning) as refused, only_process(database):
            pass
        message = str(refused.value)
        assert f"process {os.getpid()}" in message and "PostgreSQL" in message
        assert not database.exists()  # the lock is taken before the database is opened
    with only_process(database):  # released on leaving
        pass


def test_a_killed_holder_leaves_no_stale_lock(tmp_path: Path) -> None:
    database = tmp_path / "harmonies.db"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from pathlib import Path; from bot.shards.lockfile import only_process\n"
            "with only_process(Path(sys.argv[1])):\n    print('held', flush=True); time.sleep(60)",
            str(database),
        ],
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        with pytest.raises(AlreadyRunning, match=f"process {holder.pid}"), only_process(database):
            pass
    finally:
        holder.kill()
        holder.wait()
    with only_process(database):
        pass


def test_a_folder_or_an_unwritable_place_is_a_storage_error(tmp_path: Path) -> None:
    with pytest.raises(StorageError, match="is a folder"), only_process(tmp_path):
        pass
    blocked = tmp_path / "file"
    blocked.write_text("a file where a folder should be")
    with pytest.raises(StorageError, match="cannot create the lock file"), only_process(blocked / "x.db"):
        pass
