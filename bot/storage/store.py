"""The one way in to the database, of either backend (chosen by the URL): ``await store.run(guild_id,
work)`` runs ``work(tx)``, a plain synchronous function of a :class:`Transaction`, whole, on the thread
that holds the connection, in one transaction: nothing can ``await`` inside it."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias, TypeVar

from bot.rules.character import Character
from bot.rules.ruleset import Ruleset
from bot.storage.errors import AlreadyHandled
from bot.storage.migrations import migrate
from bot.storage.sqlite import SqliteDatabase, damage, database_path, is_postgres, mark, refuse_lost_data
from bot.storage.transaction import Board, Reader, Sql, Transaction

if TYPE_CHECKING:  # imported by open_database only: SQLite deployments do without psycopg (≈ 11 MB)
    from bot.storage.postgres import PostgresDatabase

__all__ = ["Board", "Reader", "Store", "Transaction"]

log = logging.getLogger(__name__)
T = TypeVar("T")

Clock = Callable[[], str]  # now, as ISO-8601 text: every time the bot writes (tests pin it)


def utc_now() -> str:  # with milliseconds, in UTC: sorts as text
    return datetime.now(UTC).isoformat(timespec="milliseconds")


# ``await db.write(lock, work)``: ``work`` in one transaction (after the advisory lock ``lock`` on
# PostgreSQL); ``await db.read(work)``: reads only, the last commit. Always ``await db.close()``.
Database: TypeAlias = "SqliteDatabase | PostgresDatabase"


async def open_database(url: str) -> Database:
    if is_postgres(url):
        from bot.storage.postgres import PostgresDatabase

        return await PostgresDatabase.open(url)
    return await SqliteDatabase.open(url)


# PostgreSQL's NOTIFY channel of committed changes (the payload: the server's id), for the player views.
CHANGES_CHANNEL = "harmonies_changes"


def digest(token: str) -> str:
    """What is stored of a player-view link's token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class Party:
    """What a player-view link's page shows: the server's player characters and its boards' NPCs."""

    guild_id: int
    language: str  # the server's language when the link was given (for a ruleset's "auto")
    ruleset: Ruleset
    characters: list[Character]


# A handled interaction's id is kept a day, far longer than any replay (a Discord snowflake: its time
# in milliseconds from bit 22 on).
KEEP = 24 * 3600 * 1000 << 22


class Store:
    def __init__(self, db: Database, *, clock: Clock = utc_now) -> None:
        self.database = db
        self.clock = clock
        # Called with the server's id after each committed unit (the live boards listen); not when the
        # caller is cancelled while its unit commits (the bot stopping: the boards catch up at start).
        self.listeners: list[Callable[[int], None]] = []
        # Told each unit's seconds (asked to committed or rolled back), and whether it committed.
        self.on_unit: Callable[[float, bool], None] | None = None

    @classmethod
    async def open(cls, url: str, *, clock: Clock = utc_now, migrations: Path | None = None) -> Store:
        """Open the database of ``url`` and migrate it; a SQLite file that lost its data is refused."""
        if not is_postgres(url):
            await asyncio.to_thread(refuse_lost_data, database_path(url))
        db = await open_database(url)
        try:
            await migrate(db, migrations)
            if isinstance(db, SqliteDatabase):
                await db.checkpoint("TRUNCATE")
                await asyncio.to_thread(mark, db.path)
                db.watch_wal()
        except BaseException:
            await db.close()
            raise
        return cls(db, clock=clock)

    async def close(self) -> None:
        await self.database.close()

    async def run(
        self, guild_id: int, work: Callable[[Transaction], T], *, interaction: int | None = None
    ) -> T:
        """Commit exactly when ``work(tx)`` returns; an exception rolls everything back. ``interaction``
        is recorded in the same transaction: a second delivery of it (a gateway RESUME) raises
        :class:`~bot.storage.errors.AlreadyHandled` before ``work`` runs."""
        now = self.clock()

        def unit(sql: Sql) -> T:
            # First: a replay is never answered with the first's refusal. (On PostgreSQL, a concurrent
            # claim of the same id waits for the other transaction, then finds it.)
            claim = "INSERT INTO handled_interactions (interaction_id) VALUES (?) ON CONFLICT DO NOTHING"
            if interaction is not None and sql.run(claim, (interaction,)) == 0:
                raise AlreadyHandled(interaction)
            tx = Transaction(sql, guild_id, now)
            try:
                result = work(tx)
            finally:
                tx.end()
            if sql.dialect == "postgres":  # sent at commit, not at all if the unit rolls back
                sql.row("SELECT pg_notify(?, ?)", (CHANGES_CHANNEL, str(guild_id)))
            return result

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

    async def read(self, guild_id: int, look: Callable[[Reader], T], *, serialized: bool = False) -> T:
        """``serialized``: under the server's lock, so that the reads agree on PostgreSQL too."""

        def reads(sql: Sql) -> T:
            reader = Reader(sql, guild_id)
            try:
                return look(reader)
            finally:
                reader.end()

        return await (self.database.write(guild_id, reads) if serialized else self.database.read(reads))

    async def party(self, token_sha256: str) -> Party | None:
        """A player-view link's page (``None``: unknown or revoked), found by its digest (which a guesser
        cannot steer), then compared in constant time."""

        def look(sql: Sql) -> Party | None:
            row = sql.row(
                "SELECT token_sha256, guild_id, language FROM player_views WHERE token_sha256 = ?",
                (token_sha256,),
            )
            if row is None or not hmac.compare_digest(str(row[0]), token_sha256):
                return None
            server = Reader(sql, int(row[1]))
            npcs = {c for board in server.boards() for c in board.npc_ids}
            shown = [c for c in server.characters() if c.owner_id is not None or c.id in npcs]
            return Party(server.guild_id, str(row[2]), server.ruleset(), shown)

        return await self.database.read(look)

    async def all_boards(self) -> list[Board]:  # at start-up: each refreshed once

        def look(sql: Sql) -> list[Board]:
            guilds = sql.rows("SELECT DISTINCT guild_id FROM boards ORDER BY guild_id")
            return [board for (guild_id,) in guilds for board in Reader(sql, int(guild_id)).boards()]

        return await self.database.read(look)

    async def meta(self, key: str) -> str | None:  # a fact of the installation (the commands' hash...)
        found = await self.database.read(
            lambda sql: sql.row("SELECT meta_value FROM meta WHERE meta_key = ?", (key,))
        )
        return None if found is None else str(found[0])

    def usage(self) -> tuple[int, int]:  # (units being written, or connections lent out; units waiting)
        return self.database.usage()

    def count_groups(self, observe: Callable[[int], None] | None) -> None:
        """Tell ``observe`` the size of each group committed together (SQLite), on the writer's thread."""
        self.database.on_group = observe

    @property
    def trouble(self) -> str | None:  # why the last new connection failed, while none has since
        return self.database.trouble

    @property
    def changes_url(self) -> str | None:  # where every process's changes are heard (PostgreSQL's LISTEN)
        return self.database.url if self.database.dialect == "postgres" else None

    async def _keep(self, lock: int | None, statement: str, params: Sequence[object]) -> int:
        return await self.database.write(lock, lambda sql: sql.run(statement, params))

    async def set_meta(self, key: str, value: str) -> None:
        await self._keep(
            None,
            "INSERT INTO meta (meta_key, meta_value) VALUES (?, ?) "
            "ON CONFLICT (meta_key) DO UPDATE SET meta_value = excluded.meta_value",
            (key, value),
        )

    async def save_board(self, guild_id: int, channel_id: int, message_id: int) -> None:  # its NPCs stay
        await self._keep(
            guild_id,
            "INSERT INTO boards (channel_id, guild_id, message_id, created_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (channel_id) DO UPDATE SET message_id = excluded.message_id, "
            "created_at = excluded.created_at",
            (channel_id, guild_id, message_id, self.clock()),
        )

    async def drop_board(self, guild_id: int, channel_id: int, message_id: int) -> None:
        """Forget the board and its NPCs, unless its channel's board is another message now (posted again)."""
        sql = "DELETE FROM boards WHERE guild_id = ? AND channel_id = ? AND message_id = ?"
        await self._keep(guild_id, sql, (guild_id, channel_id, message_id))

    async def checkpoint(self) -> None:  # the WAL into the main file, waiting for no reader
        if isinstance(self.database, SqliteDatabase):
            await self.database.checkpoint()

    async def forget_old_interactions(self) -> int:
        """Drop the ids handled :data:`KEEP` before the newest (each minute, by the thousand); how many."""
        forget = "DELETE FROM handled_interactions WHERE interaction_id < "
        forget += "(SELECT MAX(interaction_id) FROM handled_interactions) - ?"
        return await self._keep(None, forget, (KEEP,))

    async def quick_check(self) -> str | None:  # None, or what PRAGMA quick_check finds damaged
        if isinstance(self.database, SqliteDatabase):
            return await asyncio.to_thread(damage, self.database.path)
        return None
