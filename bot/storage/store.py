"""The storage API the actions call. Every method is scoped by server: an id of another server's
character is "not found", exactly like an unknown id.

Writes: ``await store.run(guild_id, work)``, where ``work(tx)`` is a plain function (check -> load ->
rules -> save -> record) run whole in one transaction (see :mod:`bot.storage.database`); its result
comes back once committed. Reads: ``await store.read(guild_id, look)``, or the shortcuts below.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import time
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import TypeVar

from bot.clock import Clock, utc_now
from bot.history import Event
from bot.rules.character import Character
from bot.rules.ruleset import Ruleset
from bot.storage import active, characters, events, export, file_guard, interactions, player_views, settings
from bot.storage import boards as board_rows
from bot.storage.boards import Board
from bot.storage.database import (
    BUSY_TIMEOUT_MS,
    Database,
    SqliteDatabase,
    database_path,
    is_postgres,
    open_database,
)
from bot.storage.errors import StorageError, one_line
from bot.storage.migrations import migrate
from bot.storage.sql import Sql
from bot.storage.transaction import Reader, Transaction

__all__ = ["Reader", "Store", "Transaction", "backup"]

log = logging.getLogger(__name__)
MAX_PER_PAGE = 100
T = TypeVar("T")


class Store:
    def __init__(self, db: Database, *, clock: Clock = utc_now) -> None:
        self._db = db
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
                await db.checkpoint(truncate=True)
                await asyncio.to_thread(file_guard.mark, db.path)
                db.watch_wal()
        except BaseException:
            await db.close()
            raise
        return cls(db, clock=clock)

    @property
    def database(self) -> Database:
        return self._db

    async def close(self) -> None:
        await self._db.close()

    # ---- writes ----------------------------------------------------------------------------------

    async def run(
        self, guild_id: int, work: Callable[[Transaction], T], *, interaction: int | None = None
    ) -> T:
        """Run ``work(tx)`` in one transaction of server ``guild_id`` and commit; any exception rolls
        everything back and is raised here. ``work`` runs once (on PostgreSQL, twice when its first
        connection failed before it began). ``interaction``, the id of the interaction asking, is
        recorded first, in the same transaction: a second delivery of it raises
        :class:`~bot.storage.errors.AlreadyHandled` before ``work`` runs, and changes nothing."""
        now = self.clock()

        def unit(sql: Sql) -> T:
            if interaction is not None:  # first: a replay is never answered with the first's refusal
                interactions.claim(sql, interaction)
            tx = Transaction(sql, guild_id, now)
            try:
                result = work(tx)
            finally:
                tx.end()
            player_views.notify(sql, guild_id)
            return result

        began = time.perf_counter()
        try:
            result = await self._db.write(guild_id, unit)
        except BaseException:
            if self.on_unit is not None:
                self.on_unit(time.perf_counter() - began, False)
            raise
        if self.on_unit is not None:
            self.on_unit(time.perf_counter() - began, True)
        self._tell(guild_id)
        return result

    def _tell(self, guild_id: int) -> None:
        for listener in self.listeners:
            try:
                listener(guild_id)
            except Exception:  # the change is committed: a listener's failure must not undo the answer
                log.exception("A change listener failed for server %s", guild_id)

    async def set_meta(self, key: str, value: str) -> None:
        await self._db.write(None, lambda sql: settings.set_meta(sql, key, value))

    # ---- reads (last committed state) -------------------------------------------------------------

    async def read(self, guild_id: int, look: Callable[[Reader], T]) -> T:
        """``look(reader)``, reads only, in one read transaction."""

        def reads(sql: Sql) -> T:
            reader = Reader(sql, guild_id)
            try:
                return look(reader)
            finally:
                reader.end()

        return await self._db.read(reads)

    async def ruleset(self, guild_id: int) -> Ruleset:
        """The server's settings as stored now: read every time (no cache), since another process
        sharing the database may have changed them."""
        return await self.read(guild_id, Reader.ruleset)

    # ---- file care (SQLite; nothing to do on PostgreSQL) -----------------------------------------

    async def checkpoint(self) -> None:
        """Copy the WAL into the main file, without waiting for readers (run every minute)."""
        if isinstance(self._db, SqliteDatabase):
            await self._db.checkpoint()

    async def forget_old_interactions(self) -> int:
        """Drop the ids of interactions handled more than a day before the newest (run every minute)."""
        return await self._db.write(None, interactions.forget_old)

    async def quick_check(self) -> str | None:
        """``PRAGMA quick_check`` on a connection of its own: ``None``, or what is damaged."""
        if isinstance(self._db, SqliteDatabase):
            return await asyncio.to_thread(file_guard.damage, self._db.path)
        return None

    async def character(self, guild_id: int, character_id: int) -> Character:
        return await self.read(guild_id, lambda r: r.character(character_id))

    async def characters(self, guild_id: int) -> list[Character]:
        return await self.read(guild_id, Reader.characters)

    async def npc_ids(self, guild_id: int) -> list[int]:
        """Ids of the server's NPCs, deleted ones included."""
        return await self._db.read(lambda sql: characters.npc_ids(sql, guild_id))

    async def history(
        self, guild_id: int, *, character_id: int | None = None, page: int = 1, per_page: int = 10
    ) -> tuple[list[Event], int]:
        """One page of events, newest first, and how many there are in all. A deleted character's
        history stays readable."""
        per_page = max(1, min(per_page, MAX_PER_PAGE))
        offset = (max(page, 1) - 1) * per_page

        def look(sql: Sql) -> tuple[list[Event], int]:
            if character_id is not None and not characters.exists(
                sql, guild_id, character_id, deleted_too=True
            ):
                raise characters.not_found(id=character_id)
            found = events.page(sql, guild_id, character_id, limit=per_page, offset=offset)
            return found, events.count(sql, guild_id, character_id)

        return await self._db.read(look)

    async def get_meta(self, key: str) -> str | None:
        return await self._db.read(lambda sql: settings.get_meta(sql, key))

    async def boards(self, guild_id: int) -> list[Board]:
        return await self._db.read(lambda sql: board_rows.of_guild(sql, guild_id))

    async def all_boards(self) -> list[Board]:
        return await self._db.read(board_rows.all_boards)

    # Board writes are the bot's own bookkeeping (which message), not changes of the game: they do not
    # tell the listeners, except a change of the NPCs shown (the player views show them).
    async def save_board(self, board: Board) -> None:
        now = self.clock()
        await self._db.write(board.guild_id, lambda sql: board_rows.put(sql, board, now))

    async def delete_board(self, board: Board) -> None:
        await self._db.write(board.guild_id, lambda sql: board_rows.remove(sql, board))

    async def show_on_board(self, guild_id: int, channel_id: int, character_id: int, *, shown: bool) -> None:
        """An NPC put on a board or taken off: the player views show it too, so the listeners are told."""

        def work(sql: Sql) -> None:
            board_rows.set_npc(sql, guild_id, channel_id, character_id, shown=shown)
            player_views.notify(sql, guild_id)

        await self._db.write(guild_id, work)
        self._tell(guild_id)

    async def party(self, token_sha256: str) -> player_views.Party | None:
        """What the player view of the link with this token digest shows (``None``: no such link)."""
        return await self._db.read(lambda sql: player_views.party(sql, token_sha256))

    async def export_guild(self, guild_id: int) -> bytes:
        """The server's characters, active characters and ruleset as a JSON file (export.py)."""

        def look(sql: Sql) -> tuple[Ruleset | None, list[Character], dict[int, int]]:
            return (
                settings.load_ruleset(sql, guild_id),
                characters.load_all(sql, guild_id, every_wound=True),
                active.all_active(sql, guild_id),
            )

        # Under the server's lock: queries that must agree with each other, on either backend.
        stored, living, chosen = await self._db.write(guild_id, look)
        ruleset = Ruleset() if stored is None else stored
        return export.build_export(guild_id, ruleset, living, chosen, self.clock())


PG_DUMP_HINT = (
    "on PostgreSQL, back up with pg_dump, e.g. pg_dump --format=custom --file=harmonies.dump "
    '"$DATABASE_URL" (restore with pg_restore --clean --dbname="$DATABASE_URL" harmonies.dump)'
)


async def backup(url: str, destination: str) -> None:
    """Copy the SQLite database of ``url`` to ``destination`` (a path or sqlite URL) with SQLite's
    online backup API: a consistent copy while the bot keeps running. Written beside, then renamed.
    On PostgreSQL, says to use ``pg_dump``."""
    if is_postgres(url):
        raise StorageError(PG_DUMP_HINT)
    source = database_path(url)
    target = database_path(destination)
    if not source.is_file():
        raise StorageError(f"cannot back up {source}: no such database file")
    if target.resolve() == source.resolve():
        raise StorageError("the backup destination is the database itself")
    await asyncio.to_thread(_backup, source, target)


def _backup(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    partial_file = target.with_name(target.name + ".partial")
    partial_file.unlink(missing_ok=True)
    try:
        with (
            closing(sqlite3.connect(source, timeout=BUSY_TIMEOUT_MS / 1000)) as src,
            closing(sqlite3.connect(partial_file)) as dst,
        ):
            src.backup(dst)  # all pages in one step: one consistent read snapshot
            dst.execute("PRAGMA journal_mode = DELETE")
        os.replace(partial_file, target)
    except (sqlite3.Error, OSError) as exc:
        partial_file.unlink(missing_ok=True)
        raise StorageError(f"backup to {target} failed: {one_line(exc)}") from None
