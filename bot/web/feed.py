"""What tells the open player views of a change. One :class:`Feed` per link watched, shared by its open
pages: after a change of its server it renders the party once for all of them, at most once per
:data:`MIN_INTERVAL`, the last state always, an unchanged one never; a revoked link renders as ``None``.
Changes come from the store's listeners (SQLite: one process), or on PostgreSQL from ``LISTEN``
(:class:`PostgresChanges`): every process NOTIFYs its commits."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field

from bot.storage.store import CHANGES_CHANNEL, Store
from bot.web.page import party_html

log = logging.getLogger(__name__)

MIN_INTERVAL = 0.5
"""At most one update of a link's pages in this many seconds (two a second)."""
RECONNECT_S = 2.0


@dataclass
class Snapshot:
    version: int
    html: str | None  # None: the link no longer exists (revoked)
    next: asyncio.Event = field(default_factory=asyncio.Event)  # set when a newer snapshot exists


class Feed:
    def __init__(self, feeds: Feeds, digest: str, guild_id: int) -> None:
        self.feeds = feeds
        self.digest = digest
        self.guild_id = guild_id
        self.watchers = 0
        self.current = Snapshot(0, None)
        self._dirty = False
        self._task: asyncio.Task[None] | None = None

    def poke(self) -> None:
        """The server changed: render again (now, or once :data:`MIN_INTERVAL` is over)."""
        self._dirty = True
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._refresh())

    async def _refresh(self) -> None:
        while self._dirty:
            self._dirty = False
            try:
                html = await self.feeds.render(self.digest)
            except Exception:  # the database is away: the pages keep the last state; the next change retries
                log.exception("Could not read a player view")
            else:
                old = self.current
                if not old.version or html != old.html:  # else the change did not show on this page
                    self.current = Snapshot(old.version + 1, html)
                    old.next.set()
            await self.feeds.sleep(self.feeds.interval)

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()


class Feeds:
    """Every link being watched in this process, by token digest."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.interval = MIN_INTERVAL
        self.sleep: Callable[[float], Awaitable[None]] = asyncio.sleep  # tests pause it
        self._feeds: dict[str, Feed] = {}
        self.closed = False  # set at shutdown: the streams end
        self.renders = 0  # how many times a party was read and rendered (tests, benchmarks)

    async def render(self, digest: str) -> str | None:
        party = await self.store.party(digest)
        self.renders += 1
        return None if party is None else party_html(party)

    def changed(self, guild_id: int | None = None) -> None:
        """A change of the server was committed (a store listener: never blocks); ``None``: changes may
        have been missed (the PostgreSQL listener reconnected), every feed refreshes."""
        for feed in list(self._feeds.values()):
            if guild_id is None or feed.guild_id == guild_id:
                feed.poke()

    @contextlib.asynccontextmanager
    async def watching(self, digest: str, guild_id: int) -> AsyncIterator[Feed]:
        """One open page of the link: its feed, started now (read at once), stopped with its last page."""
        feed = self._feeds.get(digest)
        if feed is None:
            feed = self._feeds[digest] = Feed(self, digest, guild_id)
            feed.poke()
        feed.watchers += 1
        try:
            yield feed
        finally:
            feed.watchers -= 1
            if feed.watchers == 0 and self._feeds.get(digest) is feed:
                del self._feeds[digest]
                feed.stop()

    def close(self) -> None:
        self.closed = True
        for feed in self._feeds.values():
            feed.stop()
            feed.current.next.set()  # wake its streams: they see ``closed`` and end


class PostgresChanges:
    """``LISTEN`` on the database's change channel, for as long as :meth:`run` runs (reconnecting)."""

    def __init__(self, url: str, on_change: Callable[[int | None], None]) -> None:
        self.url = url
        self.on_change = on_change
        self.listening = asyncio.Event()  # set while listening (tests wait for it)

    async def run(self) -> None:
        import psycopg  # only PostgreSQL deployments have it loaded

        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.url, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANGES_CHANNEL}")
                    self.listening.set()
                    self.on_change(None)  # what changed while not listening
                    async for notice in conn.notifies():
                        with contextlib.suppress(ValueError):
                            self.on_change(int(notice.payload))
            except psycopg.Error as error:
                log.warning(
                    "Player view: lost the change notifications (%s); again in %g s", error, RECONNECT_S
                )
            finally:
                self.listening.clear()
            await asyncio.sleep(RECONNECT_S)
