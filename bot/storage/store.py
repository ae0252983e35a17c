"""The storage API the actions call.

Writes: ``await store.run(guild_id, work)``, where ``work(tx)`` is a plain function (check -> load ->
rules -> save -> record) of a :class:`Transaction`, run whole in one transaction (see
:mod:`bot.storage.database`); its result comes back once committed. Reads: ``await store.read(guild_id,
look)``, where ``look(reader)`` is a plain function of a :class:`Reader`. Both are scoped by server.
What belongs to no server (the installation's facts, every board, a player-view link) is read and
written through :attr:`Store.database` with the plain functions of the storage modules.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from bot.clock import Clock, utc_now
from bot.storage import file_guard, interactions, player_views
from bot.storage.database import Database, is_postgres, open_database
from bot.storage.migrations import migrate
from bot.storage.sql import Sql
from bot.storage.sqlite import SqliteDatabase, database_path
from bot.storage.transaction import Reader, Transaction

__all__ = ["Reader", "Store", "Transaction"]

log = logging.getLogger(__name__)
T = TypeVar("T")


class Store:
    def __init__(self, db: Database, *, clock: Clock = utc_now) -> None:
        self.database = db
        self.clock = clock
        """Where every time written comes from (:mod:`bot.clock`)."""
        self.listeners: list[Callable[[int], None]] = []
        """Called with the server's id after each committed unit of work (the live boards listen). A
        caller cancelled while its unit commits (the bot stopping) does not call them: the boards show
        the state of now again at the next start."""
        self.on_unit: Callable[[float, bool], None] | None = None
        """Told each unit of work's seconds (from asking to commit or rollback) and whether it
        committed (the bot's metrics)."""

    @classmethod
    async def open(cls, url: str, *, clock: Clock = utc_now, migrations: Path | None = None) -> Store:
        """Open the database of ``url`` and bring its schema up to date (``migrations``: the folder
        of numbered files, by default the package's own for the URL's backend). A SQLite database
        that lost its data is refused; once migrated, it is checkpointed into its main file and
        marked (:mod:`bot.storage.file_guard`)."""
        if not is_postgres(url):
            await asyncio.to_thread(file_guard.refuse_lost_data, database_path(url))
        db = await open_database(url)
        try:
            await migrate(db, migrations)
            if isinstance(db, SqliteDatabase):
                await db.checkpoint("TRUNCATE")
                await asyncio.to_thread(file_guard.mark, db.path)
                db.watch_wal()
        except BaseException:
            await db.close()
            raise
        return cls(db, clock=clock)

    async def close(self) -> None:
        await self.database.close()

    # ---- writes ----------------------------------------------------------------------------------

    async def run(
        self,
        guild_id: int,
        work: Callable[[Transaction], T],
        *,
        interaction: int | None = None,
        quiet: bool = False,
    ) -> T:
        """Run ``work(tx)`` in one transaction of server ``guild_id`` and commit; any exception rolls
        everything back and is raised here. ``work`` runs once (on PostgreSQL, twice when its first
        connection failed before it began). ``interaction``, the id of the interaction asking, is
        recorded first, in the same transaction: a second delivery of it raises
        :class:`~bot.storage.errors.AlreadyHandled` before ``work`` runs, and changes nothing.
        ``quiet``: not a change of the game but the bot's own bookkeeping (which message a board is),
        or reads that must agree with each other (under the server's lock, on either backend): no one
        is told of it, neither the listeners, nor the metrics, nor the processes serving player views."""
        now = self.clock()

        def unit(sql: Sql) -> T:
            if interaction is not None:  # first: a replay is never answered with the first's refusal
                interactions.claim(sql, interaction)
            tx = Transaction(sql, guild_id, now)
            try:
                result = work(tx)
            finally:
                tx.end()
            if not quiet:
                player_views.notify(sql, guild_id)
            return result

        if quiet:
            return await self.database.write(guild_id, unit)
        began, committed = time.perf_counter(), False
        try:
            result = await self.database.write(guild_id, unit)
            committed = True
        finally:
            if self.on_unit is not None:
                self.on_unit(time.perf_counter() - began, committed)
        for listener in self.listeners:
            try:
                listener(guild_id)
            except Exception:  # the change is committed: a listener's failure must not undo the answer
                log.exception("A change listener failed for server %s", guild_id)
        return result

    # ---- reads (last committed state) -------------------------------------------------------------

    async def read(self, guild_id: int, look: Callable[[Reader], T]) -> T:
        """``look(reader)``, reads only, in one read transaction."""

        def reads(sql: Sql) -> T:
            reader = Reader(sql, guild_id)
            try:
                return look(reader)
            finally:
                reader.end()

        return await self.database.read(reads)

    # ---- file care (SQLite; nothing to do on PostgreSQL) -----------------------------------------

    async def checkpoint(self) -> None:
        """Copy the WAL into the main file, without waiting for readers (run every minute)."""
        if isinstance(self.database, SqliteDatabase):
            await self.database.checkpoint()

    async def forget_old_interactions(self) -> int:
        """Drop the ids of interactions handled more than a day before the newest (run every minute)."""
        return await self.database.write(None, interactions.forget_old)

    async def quick_check(self) -> str | None:
        """``PRAGMA quick_check`` on a connection of its own: ``None``, or what is damaged."""
        if isinstance(self.database, SqliteDatabase):
            return await asyncio.to_thread(file_guard.damage, self.database.path)
        return None
