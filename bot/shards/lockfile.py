"""One bot process per SQLite file: an exclusive lock on a file beside the database, held for the
process's lifetime; a second process is refused before it opens the database. ``fcntl.flock`` locks
belong to the open file: the kernel drops them however the process ends (SIGKILL included), so a crash
never leaves a stale lock behind.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path

from bot.storage.errors import StorageError


class AlreadyRunning(StorageError):
    """Another process holds the lock of the database."""


@contextlib.contextmanager
def only_process(database: Path) -> Iterator[Path]:
    """Hold the lock of ``database`` while inside; :class:`StorageError` when another process holds it.
    Yields the lock file's path (``harmonies.db.lock`` beside ``harmonies.db``)."""
    if database.is_dir():
        raise StorageError(f"{database} is a folder")
    path = database.with_name(database.name + ".lock")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise StorageError(f"cannot create the lock file {path}: {exc.strerror or exc}") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_pid(fd)
            by = f" (process {holder})" if holder else ""
            raise AlreadyRunning(
                f"another bot process{by} already runs on {database}: one SQLite file serves one "
                "process; to run several processes, use PostgreSQL (DATABASE_URL=postgresql://…)"
            ) from None
        try:
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
        except OSError as exc:  # a full disk, say
            raise StorageError(f"cannot write the lock file {path}: {exc.strerror or exc}") from None
        yield path
    finally:
        os.close(fd)  # releases the lock


def _read_pid(fd: int) -> str:
    """The pid the holder wrote in the lock file ('' when unreadable)."""
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return ""
    return text if text.isdigit() else ""
