"""What tells the open player views of a change. One :class:`Feed` per link being watched, shared by
all its open pages: after a change of its server it reads the party once, renders it once, and every
page's stream sends that. A burst of changes costs at most one render per :data:`MIN_INTERVAL`, and the
last state is always sent; a render equal to the last one is not sent again. A link revoked meanwhile
renders as ``None``: its pages are told it is gone.

Changes come from the store's listeners (SQLite: one process does everything), or on PostgreSQL from
``LISTEN`` (:class:`PostgresChanges`): every process NOTIFYs its commits, so a page served by one
process follows the changes made by any other."""

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
    html: str | None
    """The party as HTML; ``None``: the link no longer exists (revoked)."""
    next: asyncio.Event = field(default_factory=asyncio.Event)
    """Set when a newer snapshot exists."""


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
                self._publish(html)
            await self.feeds.sleep(self.feeds.interval)

    def _publish(self, html: str | None) -> None:
        old = self.current
        if old.version and html == old.html:
            return  # the change did not show on this page (another character, a setting): nothing to send
        self.current = Snapshot(old.version + 1, html)
        old.next.set()

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()


class Feeds:
    """Every link being watched in this process, by token digest."""

    def __init__(
        self,
        store: Store,
        *,
        interval: float = MIN_INTERVAL,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.store = store
        self.interval = interval
        self.sleep = sleep
        self._feeds: dict[str, Feed] = {}
        self.closed = False
        """Set at shutdown: the streams end."""
        self.renders = 0
        """How many times a party was read and rendered (tests, benchmarks)."""

    async def render(self, digest: str) -> str | None:
        party = await self.store.party(digest)
        self.renders += 1
        return None if party is None else party_html(party)

    def changed(self, guild_id: int) -> None:
        """A change of the server was committed (a store listener: never blocks)."""
        for feed in list(self._feeds.values()):
            if feed.guild_id == guild_id:
                feed.poke()

    def changed_everywhere(self) -> None:
        """Changes may have been missed (the PostgreSQL listener reconnected): refresh every feed."""
        for feed in list(self._feeds.values()):
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

    def __init__(self, url: str, on_change: Callable[[int], None], on_reconnect: Callable[[], None]) -> None:
        self.url = url
        self.on_change = on_change
        self.on_reconnect = on_reconnect
        self.listening = asyncio.Event()
        """Set while listening (tests wait for it)."""

    async def run(self) -> None:
        import psycopg  # only PostgreSQL deployments have it loaded

        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.url, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANGES_CHANNEL}")
                    self.listening.set()
                    self.on_reconnect()  # what changed while not listening
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
