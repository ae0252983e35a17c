"""Schema migrations: ``bot/migrations/NNNN_name.sql`` applied in order against ``PRAGMA user_version``.

Each file is atomic: its statements and the new ``user_version`` are in one explicit transaction
(``executescript()`` would commit first, so it is not used). A failing file leaves the schema and the
version untouched. A database newer than the code is refused.

A migration runs inside a transaction, where ``PRAGMA foreign_keys`` cannot be changed: a future
migration that rebuilds a referenced table must keep the rows' ids (``INSERT … SELECT``) so the
references stay valid.
"""

from __future__ import annotations

import logging
import re
import sqlite3
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import aiosqlite

from bot.storage.errors import StorageError

log = logging.getLogger(__name__)

# Package data, wherever the package is (a checkout, an editable install, a wheel installed in any venv).
# Installers unpack wheels, so this is a real folder; a zipped package would be reported as not found.
MIGRATIONS_DIR = Path(str(resources.files("bot") / "migrations"))
_FILE = re.compile(r"^(\d{4})_[A-Za-z0-9_]+\.sql$")
_TRANSACTION_CONTROL = {"BEGIN", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE", "VACUUM"}


@dataclass(frozen=True)
class Migration:
    version: int
    path: Path

    def statements(self) -> list[str]:
        return split_statements(self.path.read_text(encoding="utf-8"))


def find_migrations(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    """The migrations of ``directory``, numbered 1, 2, 3… without gaps."""
    if not directory.is_dir():
        raise StorageError(f"migrations folder not found: {directory}")
    found: list[Migration] = []
    for path in sorted(directory.iterdir()):
        match = _FILE.match(path.name)
        if match:
            found.append(Migration(int(match.group(1)), path))
        elif path.suffix == ".sql":
            raise StorageError(f"migration file {path.name}: the name must look like 0001_description.sql")
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:
            raise StorageError(f"migration {expected:04d} is missing or duplicated in {directory}")
    return found


def latest_version(directory: Path = MIGRATIONS_DIR) -> int:
    migrations = find_migrations(directory)
    return migrations[-1].version if migrations else 0


def split_statements(script: str) -> list[str]:
    """The complete SQL statements of ``script``, in order (triggers with ``BEGIN … END`` included)."""
    statements: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            if _first_keyword(buffer):
                statements.append(buffer.strip())
            buffer = ""
    if _first_keyword(buffer):
        statements.append(buffer.strip())  # a last statement without ';': let SQLite judge it
    return statements


def _first_keyword(statement: str) -> str:
    """The first word of ``statement`` after comments and blanks, upper-cased ('' when none)."""
    text = statement
    while True:
        text = text.lstrip()
        if text.startswith("--"):
            text = text.partition("\n")[2]
        elif text.startswith("/*"):
            text = text.partition("*/")[2]
        else:
            break
    match = re.match(r"[A-Za-z_]+", text)
    return match.group(0).upper() if match else ("" if not text.strip(" ;\n\t") else "?")


async def schema_version(conn: aiosqlite.Connection) -> int:
    rows = list(await conn.execute_fetchall("PRAGMA user_version"))
    return int(rows[0][0])


async def migrate(conn: aiosqlite.Connection, directory: Path = MIGRATIONS_DIR) -> int:
    """Bring the database of ``conn`` (an autocommit connection) to the latest version; return it."""
    migrations = find_migrations(directory)
    latest = migrations[-1].version if migrations else 0
    current = await schema_version(conn)
    if current > latest:
        raise StorageError(
            f"the database schema is version {current}, newer than this bot knows ({latest}): "
            "upgrade the bot, or restore a backup"
        )
    for migration in migrations[current:]:
        await _apply(conn, migration)
        log.info("database migrated to version %d (%s)", migration.version, migration.path.name)
    return max(current, latest)


async def _apply(conn: aiosqlite.Connection, migration: Migration) -> None:
    name = migration.path.name
    try:
        statements = migration.statements()
    except (OSError, UnicodeDecodeError) as exc:
        raise StorageError(f"migration {name} cannot be read: {exc}") from None
    for statement in statements:
        if _first_keyword(statement) in _TRANSACTION_CONTROL:
            raise StorageError(f"migration {name}: transaction control is not allowed in a migration file")
    await conn.execute("BEGIN IMMEDIATE")
    try:
        for statement in statements:
            await conn.execute(statement)
        # user_version lives in the database header: it is part of this transaction.
        await conn.execute(f"PRAGMA user_version = {migration.version:d}")
        await conn.execute("COMMIT")
    except sqlite3.Error as exc:
        await conn.rollback()
        message = " ".join(str(exc).split())
        raise StorageError(f"migration {name} failed, nothing applied: {message}") from None
    except BaseException:
        await conn.rollback()
        raise
