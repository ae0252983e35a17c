"""``python -m bot check``: would the bot start on this database? Asked without changing it or Discord.

SQLite: the database is copied (online backup, safe while the bot runs), the copy checked (``PRAGMA
quick_check``) and migrated exactly as a start would, then thrown away. PostgreSQL: a connection, and
the schema version read (a start applies the rest under its lock).
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import tempfile
from pathlib import Path

from bot.storage.errors import StorageError
from bot.storage.migrations import MIGRATIONS_DIR, Migration, find_migrations
from bot.storage.sqlite import backup, database_path, is_postgres
from bot.storage.store import Store, open_database
from bot.storage.transaction import Sql


async def check_database(url: str) -> str:
    """One line saying what a start would do with the database of ``url``; :class:`StorageError`
    with a one-line reason when the bot could not start on it."""
    if is_postgres(url):
        return await _check_postgres(url)
    path = database_path(url)
    migrations = find_migrations()
    latest = migrations[-1].version if migrations else 0
    if not path.exists():
        folder = path.parent.absolute()  # or its nearest existing parent (the bot creates the others)
        while not folder.exists() and folder != folder.parent:
            folder = folder.parent
        if not os.access(folder, os.W_OK | os.X_OK):
            raise StorageError(f"database {path} does not exist, and {folder} is not writable to create it")
        return f"database {path} does not exist yet: the first start creates it (schema version {latest})"
    if path.is_dir():
        raise StorageError(f"cannot open database {path}: it is a folder")
    for needed in (path, path.parent):  # SQLite writes its -wal and -shm files beside the database
        if not os.access(needed, os.W_OK):
            raise StorageError(f"database {path}: {needed} is not writable by this user")

    with tempfile.TemporaryDirectory(prefix="harmonies-check-") as scratch:
        copy = Path(scratch) / "copy.db"
        try:
            await backup(url, str(copy))
        except StorageError:
            raise StorageError(f"cannot read database {path}: {_read_error(path)}") from None
        version, problems = await asyncio.to_thread(_inspect, copy)
        if problems:
            raise StorageError(f"database {path} is damaged (PRAGMA quick_check): {problems}")
        try:
            store = await Store.open(f"sqlite:///{copy}")
        except StorageError as error:
            raise StorageError(f"database {path} at schema version {version}: {error}") from None
        await store.close()

    return _pending(f"database {path}", version, migrations, " (tried on a copy: it works)")


async def _check_postgres(url: str) -> str:
    """PostgreSQL: can the bot connect, and which migrations would a start apply (only read)."""
    migrations = find_migrations(MIGRATIONS_DIR / "postgres")
    latest = migrations[-1].version if migrations else 0

    def version(sql: Sql) -> int:
        if not sql.rows("SELECT 1 FROM pg_tables WHERE tablename = 'schema_version'"):
            return 0
        found = sql.row("SELECT MAX(version) FROM schema_version")
        return int(found[0] or 0) if found else 0

    db = await open_database(url)  # a one-line StorageError when it cannot connect
    try:
        current = await db.read(version)
    finally:
        await db.close()
    if current > latest:
        raise StorageError(
            f"the PostgreSQL database is at schema version {current}, newer than this bot knows"
        )
    return _pending("PostgreSQL database", current, migrations)


def _pending(database: str, version: int, migrations: list[Migration], tried: str = "") -> str:
    pending = [m.path.name for m in migrations[version:]]
    if not pending:
        return f"{database} at schema version {version}, up to date"
    return f"{database} at schema version {version}: the next start applies {', '.join(pending)}{tried}"


def _inspect(copy: Path) -> tuple[int, str]:
    """The schema version of the copy, and what ``PRAGMA quick_check`` finds wrong ('' when nothing)."""
    conn = sqlite3.connect(copy)
    try:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        try:
            found = [str(row[0]) for row in conn.execute("PRAGMA quick_check")]
        except sqlite3.DatabaseError as exc:  # so damaged that the check itself stops
            found = [str(exc)]
    finally:
        conn.close()
    problems = "" if found == ["ok"] else " ".join("; ".join(found[:3]).split())
    return version, problems


def _read_error(path: Path) -> str:
    """Why SQLite cannot read ``path``, in one line."""
    try:
        conn = sqlite3.connect(path.absolute().as_uri() + "?mode=ro", uri=True)
        try:
            conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        finally:
            conn.close()
    except sqlite3.Error as exc:
        return " ".join(str(exc).split())
    return "SQLite could not copy it"
