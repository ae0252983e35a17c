"""The error of the storage layer that is not the user's doing."""

from __future__ import annotations


class StorageError(Exception):
    """The database cannot be used: bad URL, cannot open, schema too new, failed migration...

    The message is one line meant for the operator (printed at start-up instead of a traceback).
    """
