"""All SQL of the bot: the database, its migrations, and the :class:`Store` the cogs call."""

from __future__ import annotations

from bot.storage.database import Database
from bot.storage.errors import StorageError
from bot.storage.store import Store, Transaction, backup

__all__ = ["Database", "StorageError", "Store", "Transaction", "backup"]
