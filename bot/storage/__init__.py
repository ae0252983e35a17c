"""All SQL of the bot: the database (SQLite or PostgreSQL), its migrations, the :class:`Store`."""

from __future__ import annotations

from bot.storage.errors import StorageError
from bot.storage.store import Database, Reader, Store, Transaction, open_database

__all__ = ["Database", "Reader", "StorageError", "Store", "Transaction", "open_database"]
