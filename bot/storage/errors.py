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


def file_fault(error: BaseException) -> Literal["full", "read_only"] | None:
    """Whether ``error`` says the database cannot be written because its disk is full or its file is
    read-only (a cause worth telling the user, unlike other internal errors)."""
    if isinstance(error, sqlite3.Error):
        primary = getattr(error, "sqlite_errorcode", -1) & 0xFF  # extended codes keep it in the low byte
        if primary == sqlite3.SQLITE_FULL:
            return "full"
        if primary == sqlite3.SQLITE_READONLY:
            return "read_only"
    # PostgreSQL (psycopg's errors carry the SQLSTATE): disk_full, read_only_sql_transaction.
    sqlstate = getattr(error, "sqlstate", None)
    if sqlstate == "53100":
        return "full"
    if sqlstate == "25006":
        return "read_only"
    return None
