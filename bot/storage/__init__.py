"""All SQL of the bot: the database (SQLite or PostgreSQL), its migrations, and the :class:`Store`
the actions call."""

from __future__ import annotations

from bot.storage.database import Database, open_database
from bot.storage.errors import StorageError
from bot.storage.store import Reader, Store, Transaction

__all__ = ["Database", "Reader", "StorageError", "Store", "Transaction", "open_database"]
