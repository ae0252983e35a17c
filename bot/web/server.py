"""The player view's web server (aiohttp, in the bot's process, when ``WEB_PORT`` is set):

* ``GET /{token}``: the page of a link (``?overlay=1``: a transparent background, for a stream);
* ``GET /{token}/events``: its update stream (server-sent events: ``party`` with the new HTML, ``gone``
  when the link was revoked);
* ``GET /static/view.css``, ``/static/view.js``: the page's only resources.

An unknown, revoked or malformed link gets the same 404, after the same database lookup. Every answer
carries a strict Content-Security-Policy and the usual security headers. Any process serves any
server's link: it reads the database. The port cannot take the bot down: see :mod:`bot.web.limits`."""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Awaitable, Callable
from importlib import resources
from typing import cast

from aiohttp import web
from aiohttp.web_protocol import RequestHandler

from bot.errors import N_
from bot.storage.store import Party, Store, digest
from bot.ui.i18n import t
from bot.web.feed import Feeds, PostgresChanges
from bot.web.limits import BACKLOG, AddressLimits, Budget, client_address
from bot.web.page import not_found_html, page_html

log = logging.getLogger(__name__)

HEARTBEAT_S = 15.0
"""An ``alive`` event on every idle stream this often: proxies keep it open, a closed one is noticed, and
the page tells a frozen bot (its connection open, nothing coming) from a quiet table."""
REQUEST_S = 5.0
"""A connection is closed when no whole request came within this many seconds of its opening or of its
last answer (an unfinished request, or an idle keep-alive)."""
WRITE_S = 10.0
"""A stream whose write waits this long (its viewer stopped reading) is dropped."""
REFUSED_LOG_S = 60.0
"""Connections refused over the budget are said in the log at most this often."""
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{1,100}")
STATIC = {"view.css": "text/css", "view.js": "text/javascript", "icon.svg": "image/svg+xml"}
HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
    "X-Robots-Tag": "noindex, nofollow",
    "Server": "harmonies",
}
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class PlayerView:
    """The web server of one process: ``await start()``, ``await close()``."""

    def __init__(
        self,
        store: Store,
        host: str,
        port: int,
        *,
        limits: AddressLimits | None = None,
        budget: Budget | None = None,
    ) -> None:
        self.store = store
        self.host = host
        self.port = port
        self.limits = limits if limits is not None else AddressLimits()
        self.budget = budget if budget is not None else Budget.of_this_process()
        self.connections = 0  # open now (accepted, not yet closed)
        self.streams = 0  # update streams open now
        self.refused = 0  # connections closed at once over the budget or their address's share, ever
        self._refused_said = -REFUSED_LOG_S  # when refusals were last said in the log
        self._listener: asyncio.Server | None = None
        self.feeds = Feeds(store)
        self.changes: PostgresChanges | None = None
        self._listening: asyncio.Task[None] | None = None
        self._runner: web.AppRunner | None = None
        self._static = {
            name: (resources.files("bot.web").joinpath("static", name).read_bytes(), kind)
            for name, kind in STATIC.items()
        }

    async def start(self) -> None:
        if (url := self.store.changes_url) is not None:
            self.changes = PostgresChanges(url, self.feeds.changed)
            self._listening = asyncio.create_task(self.changes.run())
        else:
            self.store.listeners.append(self.feeds.changed)
        app = web.Application(middlewares=[self._guard])
        app.router.add_get("/static/{name}", self._file)
        app.router.add_get("/favicon.ico", self._file)  # asked by browsers whatever the page says
        app.router.add_get("/{token}", self._page)
        app.router.add_get("/{token}/events", self._events, allow_head=False)  # a stream has no HEAD
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        server = self._runner.server
        assert server is not None
        self._listener = await asyncio.get_running_loop().create_server(
            lambda: _Connection(self, server), self.host, self.port, backlog=BACKLOG
        )
        if self.port == 0:  # any free port (tests): the one given
            self.port = int(self._listener.sockets[0].getsockname()[1])
        log.info("Player view on http://%s:%d/: %s", self.host, self.port, self.budget.describe())

    async def close(self) -> None:
        if self.feeds.changed in self.store.listeners:
            self.store.listeners.remove(self.feeds.changed)
        if self._listening is not None:
            self._listening.cancel()
            await asyncio.gather(self._listening, return_exceptions=True)
        self.feeds.close()
        if self._listener is not None:
            self._listener.close()
            self._listener = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def status(self) -> dict[str, int]:
        """What ``/readyz`` says of the port: its budget, and what it holds now."""
        return {
            "open_files_limit": self.budget.open_files,
            "reserve": self.budget.reserve,
            "budget": self.budget.connections,
            "connections": self.connections,
            "streams": self.streams,
            "refused": self.refused,
        }

    # ---- every connection ---------------------------------------------------------------------------

    def admit(self, peer: str) -> bool:
        """A connection was accepted from ``peer``: whether it may stay (counted until :meth:`leave`)."""
        if self.connections < self.budget.connections and self.limits.connect(peer):
            self.connections += 1
            return True
        self.refused += 1
        now = time.monotonic()
        if now - self._refused_said >= REFUSED_LOG_S:
            log.warning(
                "Player view: refusing connections over its budget of %d (or their address's share): "
                "%d refused since the start",
                self.budget.connections,
                self.refused,
            )
            self._refused_said = now
        return False

    def leave(self, peer: str) -> None:
        self.connections -= 1
        self.limits.disconnect(peer)

    # ---- every request ----------------------------------------------------------------------------

    @web.middleware
    async def _guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if not self.limits.allow(address_of(request)):
            response: web.StreamResponse = refusal(429, N_("Too many requests: try again in a moment."), 5)
        else:
            try:
                response = await handler(request)
            except web.HTTPNotFound:
                response = not_found()
            except web.HTTPException as error:
                response = web.Response(status=error.status, text=error.reason)
            except Exception:  # the database is away, say: said in the log, not on the page
                log.exception("Player view: could not answer a request")  # never the token: it is the key
                response = refusal(503, N_("Not available right now: try again in a moment."), 5)
        if not response.prepared:  # a stream's headers were sent when it started
            response.headers.update(HEADERS)
        return response

    # ---- the routes ---------------------------------------------------------------------------------

    async def _file(self, request: web.Request) -> web.Response:
        found = self._static.get(request.match_info.get("name", "icon.svg"))
        if found is None:
            return not_found()
        body, kind = found
        cache = {"Cache-Control": "public, max-age=300"}
        return web.Response(body=body, content_type=kind, charset="utf-8", headers=cache)

    async def _party(self, request: web.Request) -> tuple[str, Party | None]:
        """The digest of the link's token, and its party (``None``: no such link)."""
        token = request.match_info["token"]
        # A malformed token is looked up too (as a digest no link has): every 404 costs the same.
        key = digest(token if TOKEN_SHAPE.fullmatch(token) else "")
        return key, await self.store.party(key)

    async def _page(self, request: web.Request) -> web.Response:
        _, party = await self._party(request)
        if party is None:
            return not_found()
        html = page_html(party, overlay=request.query.get("overlay") in ("1", "true"))
        return web.Response(text=html, content_type="text/html", headers={"Cache-Control": "no-store"})

    async def _events(self, request: web.Request) -> web.StreamResponse:
        if self.streams >= self.budget.streams:  # before the lookup: a refusal costs nothing
            return refusal(503, N_("Not available right now: try again in a moment."), 10)
        self.streams += 1  # counted from now: the lookup awaits, others may ask meanwhile
        try:
            key, party = await self._party(request)
            if party is None:
                return not_found()
            address = address_of(request)
            if not self.limits.open_stream(address):
                return refusal(429, N_("Too many pages open from this address: close one and try again."), 30)
            try:
                return await self._stream(request, key, party.guild_id)
            finally:
                self.limits.close_stream(address)
        finally:
            self.streams -= 1

    async def _stream(self, request: web.Request, key: str, guild_id: int) -> web.StreamResponse:
        response = web.StreamResponse(
            headers={
                **HEADERS,
                "Content-Type": "text/event-stream; charset=utf-8",
                "Cache-Control": "no-store",
                "X-Accel-Buffering": "no",  # nginx: send each event at once
            }
        )
        await response.prepare(request)
        lost = cast(_Connection, request.protocol).lost  # every connection is one (see start)
        try:
            await write(response, b"retry: 2000\n" + alive())
            async with self.feeds.watching(key, guild_id) as feed:
                seen = 0
                while not self.feeds.closed and not lost.is_set():
                    snapshot = feed.current
                    if snapshot.version > seen:
                        seen = snapshot.version
                        if snapshot.html is None:
                            await write(response, b"event: gone\ndata: \n\n")
                            break
                        await write(response, event("party", snapshot.html))
                    elif not await either(snapshot.next, lost, HEARTBEAT_S):
                        await write(response, alive())
        except ConnectionError:  # the page was closed
            pass
        except TimeoutError:  # its viewer stopped reading: dropped, whatever it had not read
            if request.transport is not None:
                request.transport.abort()
        return response


class _Connection(RequestHandler):
    """aiohttp's handling of one connection, counted by the view from its acceptance to its end, closed
    before a byte is read when over the budget or its address's share. A whole request must come within
    :data:`REQUEST_S` (aiohttp's keep-alive timer, which it also starts at the opening)."""

    def __init__(self, view: PlayerView, server: web.Server) -> None:
        super().__init__(
            server,
            loop=asyncio.get_running_loop(),
            keepalive_timeout=REQUEST_S,
            lingering_time=0,
            access_log=None,  # type: ignore[arg-type]  # none (aiohttp takes None, as AppRunner does)
        )
        self.view = view
        self.peer: str | None = None
        self.lost = asyncio.Event()  # the connection is gone: its stream ends and gives its place back

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peername = transport.get_extra_info("peername")
        peer = str(peername[0]) if peername else "?"
        if not self.view.admit(peer):
            cast(asyncio.Transport, transport).abort()  # closed at once, nothing read
            return
        self.peer = peer
        super().connection_made(transport)

    def connection_lost(self, exc: BaseException | None) -> None:
        if self.peer is None:  # refused: aiohttp never had it
            return
        self.view.leave(self.peer)
        self.peer = None
        self.lost.set()
        super().connection_lost(exc)


async def either(one: asyncio.Event, other: asyncio.Event, seconds: float) -> bool:
    """Wait until either event is set (true), or ``seconds`` (false)."""
    waits = [asyncio.ensure_future(one.wait()), asyncio.ensure_future(other.wait())]
    done, pending = await asyncio.wait(waits, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
    for wait in pending:
        wait.cancel()
    return bool(done)


async def write(response: web.StreamResponse, data: bytes) -> None:
    """Write to a stream; :class:`TimeoutError` when it waits :data:`WRITE_S` for its reader."""
    await asyncio.wait_for(response.write(data), WRITE_S)


def alive() -> bytes:  # its data: how often it comes, in ms (the page waits two of them, and a second)
    return event("alive", str(round(HEARTBEAT_S * 1000)))


def address_of(request: web.Request) -> str:
    return client_address(request.remote, request.headers.get("X-Forwarded-For"))


def event(name: str, data: str) -> bytes:
    lines = "".join(f"data: {line}\n" for line in data.split("\n"))
    return f"event: {name}\n{lines}\n".encode()


def refusal(status: int, message: str, retry_after_s: int) -> web.Response:
    """A plain answer in both languages (before a link is read, its server's language is not known)."""
    text = " / ".join(t(lang, message) for lang in ("en", "fr"))
    return web.Response(status=status, text=text, headers={"Retry-After": str(retry_after_s)})


def not_found() -> web.Response:
    return web.Response(
        status=404, text=not_found_html(), content_type="text/html", headers={"Cache-Control": "no-store"}
    )
