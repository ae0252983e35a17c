"""What keeps a SQLite file from being lost or silently replaced: checks before it is opened, a marker
beside it, an integrity check, and backups made while it runs.

Until a checkpoint, the changes live in the ``-wal`` file only, and a main file without them looks
like a new, empty database, which the migrations would silently fill. So the WAL is checkpointed
after the migrations and regularly; a marker is written beside a database that holds its schema;
and a database found without a schema but with its marker (or beside a non-empty ``-wal`` file SQLite
cannot use: opening would delete it) is refused.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
from contextlib import closing
from pathlib import Path

from bot.storage.errors import StorageError, one_line
from bot.storage.sqlite import BUSY_TIMEOUT_MS, database_path, is_postgres

log = logging.getLogger(__name__)

_HEADER = b"SQLite format 3\x00"
_MARKER_TEXT = (
    "This file tells the Harmonies bot that the database {name} beside it holds its data.\n"
    "If that database is ever found empty or missing, the bot refuses to start instead of silently\n"
    "beginning a new one. Restore a backup (python -m bot backup makes them); delete this file only\n"
    "to start an empty database on purpose.\n"
)


def marker_path(path: Path) -> Path:
    return path.with_name(path.name + ".marker")


def _wal_mode(path: Path) -> bool:
    """Whether the main file's header says WAL mode (bytes 18 and 19 are 2)."""
    with path.open("rb") as file:
        header = file.read(100)
    return header.startswith(_HEADER) and len(header) >= 20 and header[18] == header[19] == 2


def _has_schema(path: Path) -> bool:
    """Whether the database holds a table (read-only: a usable WAL is read, neither checkpointed nor
    deleted)."""
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
        return bool(conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0])


def refuse_lost_data(path: Path) -> None:
    """Before the database is opened: :class:`StorageError` when it lost the data it held."""
    wal = path.with_name(path.name + "-wal")
    marker = marker_path(path)
    size = path.stat().st_size if path.is_file() else 0
    wal_size = wal.stat().st_size if wal.is_file() else 0
    if size == 0 and wal_size == 0 and not marker.exists():
        return
    if wal_size and not (size and _wal_mode(path)):
        raise StorageError(
            f"the database {path} has no usable header but a non-empty {wal.name} beside it, which may "
            f"hold its data: keep both files, and restore a backup (the bot will not open it)"
        )
    try:
        holds_schema = size > 0 and _has_schema(path)
    except sqlite3.Error:
        return  # not a database at all: opening it says so, in its own words
    if not holds_schema and marker.exists():
        raise StorageError(
            f"the database {path} is empty or missing, but it held data before ({marker.name} says so): "
            f"restore a backup, or delete {marker} to start an empty database on purpose"
        )


def mark(path: Path) -> None:
    """Once the database holds its schema: the marker beside it (written once)."""
    marker = marker_path(path)
    if marker.exists():
        return
    try:
        marker.write_text(_MARKER_TEXT.format(name=path.name), encoding="utf-8")
    except OSError as exc:  # a read-only folder: the bot can run, less guarded
        log.warning("Cannot write %s (%s): a lost database would not be noticed", marker, exc)


def damage(path: Path) -> str | None:
    """``PRAGMA quick_check`` (seconds on a large file): ``None`` when sound, else its first finding."""
    try:
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
            rows = conn.execute("PRAGMA quick_check(1)").fetchall()
    except sqlite3.Error as exc:
        return one_line(exc)
    found = str(rows[0][0]) if rows else "no answer"
    return None if found == "ok" else " ".join(found.split())


PG_DUMP_HINT = (
    "on PostgreSQL, back up with pg_dump, e.g. pg_dump --format=custom --file=harmonies.dump "
    '"$DATABASE_URL" (restore with pg_restore --clean --dbname="$DATABASE_URL" harmonies.dump)'
)


async def backup(url: str, destination: str) -> None:
    """A consistent copy of the SQLite database of ``url`` while the bot runs (SQLite's online backup),
    written beside ``destination`` (a path or sqlite URL), then renamed."""
    if is_postgres(url):
        raise StorageError(PG_DUMP_HINT)
    source = database_path(url)
    target = database_path(destination)
    if not source.is_file():
        raise StorageError(f"cannot back up {source}: no such database file")
    if target.resolve() == source.resolve():
        raise StorageError("the backup destination is the database itself")
    await asyncio.to_thread(_backup, source, target)


def _backup(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    partial_file = target.with_name(target.name + ".partial")
    partial_file.unlink(missing_ok=True)
    try:
        with (
            closing(sqlite3.connect(source, timeout=BUSY_TIMEOUT_MS / 1000)) as src,
            closing(sqlite3.connect(partial_file)) as dst,
        ):
            src.backup(dst)  # all pages in one step: one consistent read snapshot
            dst.execute("PRAGMA journal_mode = DELETE")
        os.replace(partial_file, target)
    except (sqlite3.Error, OSError) as exc:
        partial_file.unlink(missing_ok=True)
        raise StorageError(f"backup to {target} failed: {one_line(exc)}") from None
