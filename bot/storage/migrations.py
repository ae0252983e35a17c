"""Schema migrations: ``migrations/<dialect>/NNNN_name.sql``, applied in order at start-up, each with
its Python rewrite (:data:`~bot.storage.rewrites.REWRITES`) and its version in one transaction
(``executescript()`` would commit first). There ``PRAGMA foreign_keys`` cannot be changed: a SQLite
migration that rebuilds a referenced table must keep the rows' ids (``INSERT … SELECT``)."""

from __future__ import annotations

import logging
import re
import sqlite3
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from bot.storage.errors import StorageError, one_line
from bot.storage.rewrites import REWRITES
from bot.storage.transaction import Sql

if TYPE_CHECKING:
    from bot.storage.postgres import PostgresDatabase
    from bot.storage.sqlite import SqliteDatabase

log = logging.getLogger(__name__)

# The checkout's top-level folder (mapped by the editable install) or the wheel's bot/migrations.
MIGRATIONS_DIR = Path(str(resources.files("bot.migrations")))
#: Both dialects are numbered alike (a test checks it): the SQLite folder answers "which versions".
SQLITE_MIGRATIONS = MIGRATIONS_DIR / "sqlite"
MIGRATION_LOCK = -0x4861726D6F6E  # an advisory lock key no server id can be (they are positive)
_FILE = re.compile(r"^(\d{4})_[A-Za-z0-9_]+\.sql$")
_COMMENTS = re.compile(r"--[^\n]*|/\*.*?(?:\*/|$)", re.DOTALL)
_TRANSACTION_CONTROL = {"BEGIN", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE", "VACUUM"}


@dataclass(frozen=True)
class Migration:
    version: int
    path: Path

    def statements(self) -> list[str]:
        try:
            found = split_statements(self.path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            raise StorageError(f"migration {self.path.name} cannot be read: {exc}") from None
        if any(_first_keyword(statement) in _TRANSACTION_CONTROL for statement in found):
            raise StorageError(
                f"migration {self.path.name}: transaction control is not allowed in a migration file"
            )
        return found


def find_migrations(directory: Path = SQLITE_MIGRATIONS) -> list[Migration]:
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
        statements.append(buffer.strip())  # a last statement without ';': let the database judge it
    return statements


def _first_keyword(statement: str) -> str:
    """The first word of ``statement`` after comments, upper-cased ('' when none, '?' when not a word)."""
    text = _COMMENTS.sub(" ", statement).strip()
    match = re.match(r"[A-Za-z_]+", text)
    return match.group(0).upper() if match else ("" if not text.strip(" ;\n\t") else "?")


def schema_version(sql: Sql) -> int:
    if sql.dialect == "sqlite":
        found = sql.row("PRAGMA user_version")
    else:
        sql.run("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        found = sql.row("SELECT MAX(version) FROM schema_version")
    return int(found[0] or 0) if found else 0


async def migrate(db: SqliteDatabase | PostgresDatabase, directory: Path | None = None) -> int:
    """Bring ``db`` to the latest version of its dialect's migrations; return that version."""
    migrations = find_migrations(directory or MIGRATIONS_DIR / db.dialect)
    latest = migrations[-1].version if migrations else 0
    scripts = [migration.statements() for migration in migrations]  # all checked before one is applied

    def step(sql: Sql) -> int | None:
        """Apply the first missing migration; the version reached, or None when up to date."""
        current = schema_version(sql)
        if current > latest:
            raise StorageError(
                f"the database schema is version {current}, newer than this bot knows ({latest}): "
                "upgrade the bot, or restore a backup"
            )
        if current == latest:
            return None
        migration = migrations[current]
        try:
            for statement in scripts[current]:
                sql.run(statement)
            if (rewrite := REWRITES.get(migration.version)) is not None:
                rewrite(sql)
        except Exception as exc:  # the database's own error, whichever driver: the file is wrong
            raise StorageError(
                f"migration {migration.path.name} failed, nothing applied: {one_line(exc)}"
            ) from None
        if sql.dialect == "sqlite":  # user_version lives in the database header: in the transaction
            sql.run(f"PRAGMA user_version = {migration.version:d}")
        else:
            sql.run("DELETE FROM schema_version")
            sql.run("INSERT INTO schema_version (version) VALUES (?)", (migration.version,))
        return migration.version

    while (reached := await db.write(MIGRATION_LOCK, step)) is not None:
        log.info("database migrated to version %d (%s)", reached, migrations[reached - 1].path.name)
    return latest
