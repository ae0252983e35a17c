"""The storage API the cogs call. Every method is scoped by server: an id of another server's
character is "not found", exactly like an unknown id."""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from functools import partial
from pathlib import Path
from typing import TypeVar

from bot.clock import Clock, utc_now
from bot.history import Event
from bot.rules.character import Character
from bot.rules.ruleset import Ruleset
from bot.storage import active, characters, events, export, file_guard, interactions, settings
from bot.storage.database import BUSY_TIMEOUT_MS, Database, database_path, on_thread
from bot.storage.errors import StorageError
from bot.storage.migrations import MIGRATIONS_DIR, migrate
from bot.storage.transaction import Transaction
from bot.storage.unit import Conflict, IdAllocator, Unit

__all__ = ["Store", "Transaction", "backup"]

MAX_PER_PAGE = 100
T = TypeVar("T")


class Store:
    def __init__(self, db: Database, *, clock: Clock = utc_now) -> None:
        self._db = db
        self.clock = clock
        """Where every time written comes from (:mod:`bot.clock`)."""
        self._rulesets = settings.RulesetCache()
        self._ids = IdAllocator()
        self.retried = 0
        """How many times :meth:`run` had to do its work again under the lock."""

    @classmethod
    async def open(cls, url: str, *, clock: Clock = utc_now, migrations: Path = MIGRATIONS_DIR) -> Store:
        """Open the database of ``url`` and bring its schema up to date (checkpointed into the main
        file, and marked: see :mod:`bot.storage.file_guard`). A database that lost its data is refused."""
        path = database_path(url)
        await asyncio.to_thread(file_guard.refuse_lost_data, path)
        db = await Database.open(url)
        try:
            await migrate(db.writer, migrations)
            async with db.locked() as conn:
                await on_thread(conn, partial(file_guard.checkpoint, truncate=True))
            await asyncio.to_thread(file_guard.mark, path)
        except BaseException:
            await db.close()
            raise
        return cls(db, clock=clock)

    async def checkpoint(self) -> None:
        """Copy the WAL into the main file, without waiting for readers (run every minute)."""
        async with self._db.locked() as conn:
            await on_thread(conn, file_guard.checkpoint)

    async def quick_check(self) -> str | None:
        """``PRAGMA quick_check`` on a connection of its own: ``None``, or what is damaged."""
        return await asyncio.to_thread(file_guard.damage, self._db.path)

    @property
    def database(self) -> Database:
        return self._db

    async def close(self) -> None:
        await self._db.close()

    # ---- reads (the reader connection: no lock, last committed state) ------------------------------

    async def ruleset(self, guild_id: int) -> Ruleset:
        """The server's settings as stored now: read every time, since another process sharing the
        database may have changed them (what is read also refreshes the cache of the writes, whose
        commit checks it again)."""
        generation = self._rulesets.generation
        stored = await settings.load_ruleset(self._db.reader, guild_id)
        ruleset = Ruleset() if stored is None else stored
        self._rulesets.offer(guild_id, ruleset, generation)
        return ruleset

    async def character(self, guild_id: int, character_id: int) -> Character:
        return await characters.load(self._db.reader, guild_id, character_id)

    async def character_by_name(self, guild_id: int, name: str) -> Character:
        return await characters.load_by_name(self._db.reader, guild_id, name)

    async def active_character(self, guild_id: int, user_id: int) -> Character | None:
        return await characters.load_active(self._db.reader, guild_id, user_id)

    async def characters(self, guild_id: int) -> list[Character]:
        return await characters.load_all(self._db.reader, guild_id)

    async def owned_characters(self, guild_id: int, user_id: int) -> list[Character]:
        return await characters.load_all(self._db.reader, guild_id, owner_id=user_id)

    async def search_characters(
        self, guild_id: int, text: str, *, owner_id: int | None = None, limit: int = 25
    ) -> list[tuple[int, str]]:
        return await characters.search(self._db.reader, guild_id, text, owner_id=owner_id, limit=limit)

    async def deleted_characters(self, guild_id: int, ref: str, *, limit: int = 1) -> list[tuple[int, str]]:
        """(id, name) of deleted characters named by ``ref`` (id, or name or its start), latest first."""
        return await characters.deleted(self._db.reader, guild_id, ref, limit=limit)

    async def history(
        self, guild_id: int, *, character_id: int | None = None, page: int = 1, per_page: int = 10
    ) -> tuple[list[Event], int]:
        """One page of events, newest first, and how many there are in all. A deleted character's
        history stays readable."""
        reader = self._db.reader
        if character_id is not None and not await characters.exists(
            reader, guild_id, character_id, deleted_too=True
        ):
            raise characters.not_found(id=character_id)
        per_page = max(1, min(per_page, MAX_PER_PAGE))
        offset = (max(page, 1) - 1) * per_page
        found = await events.page(reader, guild_id, character_id, limit=per_page, offset=offset)
        return found, await events.count(reader, guild_id, character_id)

    async def get_meta(self, key: str) -> str | None:
        return await settings.get_meta(self._db.reader, key)

    async def set_meta(self, key: str, value: str) -> None:
        async with self._db.write() as conn:
            await settings.set_meta(conn, key, value)

    async def export_guild(self, guild_id: int) -> bytes:
        """The server's characters, active characters and ruleset as a JSON file (export.py)."""
        # Several queries that must agree with each other: read them in one transaction.
        async with self._db.write() as conn:
            stored = await settings.load_ruleset(conn, guild_id)
            living = await characters.load_all(conn, guild_id)
            chosen = await active.all_active(conn, guild_id)
        ruleset = Ruleset() if stored is None else stored
        return export.build_export(guild_id, ruleset, living, chosen, self.clock())

    # ---- writes --------------------------------------------------------------------------------

    def transaction(
        self, guild_id: int, *, interaction: int | None = None
    ) -> AbstractAsyncContextManager[Transaction]:
        """``async with store.transaction(guild_id) as tx:`` one ``BEGIN IMMEDIATE … COMMIT``; any
        exception rolls everything back."""
        return self._transaction(guild_id, interaction)

    @asynccontextmanager
    async def _transaction(self, guild_id: int, interaction: int | None) -> AsyncIterator[Transaction]:
        tx: Transaction | None = None
        try:
            async with self._db.locked() as conn:
                unit = Unit(conn, self._ids)
                tx = Transaction(unit, guild_id, self._rulesets, self.clock())
                try:
                    yield tx
                    _claim(unit, interaction)
                    await unit.commit()
                except BaseException:
                    await asyncio.shield(unit.rollback())
                    raise
        finally:
            if tx is not None:
                tx.end()
                if tx.ruleset_changed:  # after the commit (harmless after a rollback)
                    self._rulesets.invalidate(guild_id)

    async def run(
        self, guild_id: int, work: Callable[[Transaction], Awaitable[T]], *, interaction: int | None = None
    ) -> T:
        """``await work(tx)`` and commit, like ``async with store.transaction(guild_id) as tx``, but
        optimistically: ``work`` reads without the write lock, and its writes go in one round trip
        that first checks that nothing it read has changed. Should something have changed (or should
        ``work`` need the lock: a read after a write, undo, import, delete), ``work`` runs again in an
        ordinary transaction, so it must do nothing but through ``tx`` (its result is discarded).

        Under load this is what keeps writes from queueing: a transaction holds the lock across
        several turns of a busy event loop, this holds the database only on its thread, briefly."""
        unit = Unit(self._db.writer, self._ids, db=self._db)
        tx = Transaction(unit, guild_id, self._rulesets, self.clock())
        try:
            result = await work(tx)
            _claim(unit, interaction)
            await unit.commit()
            return result
        except Conflict:
            self.retried += 1
        finally:
            tx.end()
            if tx.ruleset_changed:
                self._rulesets.invalidate(guild_id)
        async with self.transaction(guild_id, interaction=interaction) as again:
            return await work(again)


def _claim(unit: Unit, interaction: int | None) -> None:
    """With the change, just before its commit: the interaction that asked for it (none is applied
    twice, :mod:`bot.storage.interactions`)."""
    if interaction is not None:
        unit.defer(partial(interactions.claim, interaction_id=interaction))


async def backup(url: str, destination: str) -> None:
    """Copy the database of ``url`` to ``destination`` (a path or sqlite URL) with SQLite's online
    backup API: a consistent copy while the bot keeps running. Written beside, then renamed."""
    source = database_path(url)
    target = database_path(destination)
    if not source.is_file():
        raise StorageError(f"cannot back up {source}: no such database file")
    if target.resolve() == source.resolve():
        raise StorageError("the backup destination is the database itself")
    await asyncio.to_thread(_backup, source, target)


def _backup(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        src = sqlite3.connect(source, timeout=BUSY_TIMEOUT_MS / 1000)
        try:
            dst = sqlite3.connect(partial)
            try:
                src.backup(dst)  # all pages in one step: one consistent read snapshot
                dst.execute("PRAGMA journal_mode = DELETE")
            finally:
                dst.close()
        finally:
            src.close()
        os.replace(partial, target)
    except (sqlite3.Error, OSError) as exc:
        partial.unlink(missing_ok=True)
        raise StorageError(f"backup to {target} failed: {' '.join(str(exc).split())}") from None
