"""The error of the storage layer that is not the user's doing."""

from __future__ import annotations

import sqlite3
from typing import Literal


class StorageError(Exception):
    """The database cannot be used (bad URL, newer schema, failed migration…): one line, no traceback."""


class AlreadyHandled(Exception):
    """This interaction's change was already committed (delivered twice): the second is not answered."""


class Unavailable(Exception):
    """Nothing changed: the database was not reached, or not in time, before the COMMIT (``cause``: why)."""

    def __init__(self, cause: str, sqlstate: str | None = None) -> None:
        super().__init__(cause)
        self.cause = cause
        self.sqlstate = sqlstate


class Unconfirmed(Unavailable):
    """The COMMIT was sent but not answered (a lost connection, the deadline): it may have landed, or not."""


FileFault = Literal["full", "read_only"]
_SQLITE_FAULTS: dict[int, FileFault] = {sqlite3.SQLITE_FULL: "full", sqlite3.SQLITE_READONLY: "read_only"}
# psycopg's errors carry the SQLSTATE: disk_full, read_only_sql_transaction.
_POSTGRES_FAULTS: dict[str | None, FileFault] = {"53100": "full", "25006": "read_only"}


def one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def file_fault(error: BaseException) -> FileFault | None:
    """Whether ``error`` says the disk is full or the database read-only (worth telling the user)."""
    if isinstance(error, sqlite3.Error):  # extended codes keep the primary one in the low byte
        return _SQLITE_FAULTS.get(getattr(error, "sqlite_errorcode", -1) & 0xFF)
    return _POSTGRES_FAULTS.get(getattr(error, "sqlstate", None))
