"""The error of the storage layer that is not the user's doing."""

from __future__ import annotations

import sqlite3
from typing import Literal


class StorageError(Exception):
    """The database cannot be used: bad URL, cannot open, schema too new, failed migration...

    The message is one line meant for the operator (printed at start-up instead of a traceback).
    """


class AlreadyHandled(Exception):
    """This interaction's change was already committed (the same interaction delivered twice): nothing
    is applied again, and the second delivery is not answered."""


class Unavailable(Exception):
    """The database could not be reached, or did not answer in time, before the unit's COMMIT was
    sent: the unit was rolled back, nothing was changed. ``cause`` names it for the log (with its
    SQLSTATE when the server gave one)."""

    def __init__(self, cause: str, sqlstate: str | None = None) -> None:
        super().__init__(cause)
        self.cause = cause
        self.sqlstate = sqlstate


class Unconfirmed(Unavailable):
    """The connection failed, or the deadline passed, while the COMMIT was on its way: the change may
    have been committed, or not. The user is told to look at /history."""


FileFault = Literal["full", "read_only"]
_SQLITE_FAULTS: dict[int, FileFault] = {sqlite3.SQLITE_FULL: "full", sqlite3.SQLITE_READONLY: "read_only"}
# psycopg's errors carry the SQLSTATE: disk_full, read_only_sql_transaction.
_POSTGRES_FAULTS: dict[str | None, FileFault] = {"53100": "full", "25006": "read_only"}


def one_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return " ".join(text.split())


def file_fault(error: BaseException) -> FileFault | None:
    """Whether ``error`` says the database cannot be written because its disk is full or its file is
    read-only (a cause worth telling the user, unlike other internal errors)."""
    if isinstance(error, sqlite3.Error):  # extended codes keep the primary one in the low byte
        return _SQLITE_FAULTS.get(getattr(error, "sqlite_errorcode", -1) & 0xFF)
    return _POSTGRES_FAULTS.get(getattr(error, "sqlstate", None))
