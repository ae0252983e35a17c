"""A local Discord stand-in: REST API + gateway on 127.0.0.1 that an unmodified discord.py process talks to.

Usage (pytest-asyncio, auto mode)::

    async with DiscordStandin(guilds=[payloads.guild()]) as standin:
        env = standin.bot_env(DATABASE_URL=f"sqlite:///{tmp_path}/bot.db")  # + DISCORD_TOKEN, _API_BASE
        argv = [sys.executable, "-m", "bot"]
        async with await BotProcess.start(argv, env=env, log_path=tmp_path / "bot.log") as bot:
            standin.watch(bot.exited)  # waits give up at once if the bot dies
            await standin.wait_ready()  # IDENTIFY received, READY + GUILD_CREATE sent
            exchange = await standin.interaction(payloads.slash_command("ping", {"text": "hi"}))
            assert exchange.response["type"] == 4  # the accepted callback's body
            followup = await exchange.wait_followup(1)  # exchange.original: the message as Discord has it
            dropped = await standin.drop_connection(4000)  # or None: TCP abort, no close frame
            assert await standin.wait_reconnected(dropped) == "resume"
            standin.fail_callbacks(1, status=500)  # or hang_callbacks(1, seconds=None); token= for one
            standin.callback_deadline = 3.0  # later callbacks: 404 Unknown interaction, as on Discord
        standin.validate_requests()  # bodies vs Discord's OpenAPI spec (+ the stand-in's answers)

What it speaks:

* REST under ``/api/v10`` (the bot sets ``discord.http.Route.BASE = standin.api_base``): the login
  calls (``GET /users/@me``, ``GET /oauth2/applications/@me``), ``GET /gateway[/bot]``, application
  commands (global and guild: ``GET``/``PUT``), interaction callbacks (``?with_response`` honoured) and
  the interaction webhooks (``@original`` and follow-ups). Anything else answers 404
  ``{"message", "code": 0}`` and is recorded in :attr:`DiscordStandin.unhandled`;
  :meth:`DiscordStandin.add_route` adds handlers. JSON and multipart (``payload_json`` + ``files[n]``)
  bodies are decoded; every request is a :class:`RecordedRequest`.
* The gateway (``ws://127.0.0.1:PORT/gateway``, as ``GET /gateway/bot`` says): HELLO, IDENTIFY → READY +
  GUILD_CREATE per guild, heartbeats, RESUME (missed dispatches are replayed, then RESUMED), invalid
  sessions (op 9), the documented close codes, and transport compression ``zlib-stream`` or
  ``zstd-stream`` (whatever the ``compress`` query parameter asks; discord.py 2.7 asks ``zstd-stream``
  when ``zstandard``/``compression.zstd`` is importable and ``zlib-stream`` otherwise) on top of the
  websocket's own permessage-deflate.

Note on the gateway URL: a non-sharded discord.py ``Client`` never calls ``GET /gateway/bot``; it dials
``DiscordWebSocket.DEFAULT_GATEWAY`` (``wss://gateway.discord.gg/``) and only afterwards uses READY's
``resume_gateway_url``. A bot pointed at the stand-in must therefore set ``DEFAULT_GATEWAY`` from
``GET /gateway/bot`` itself (see ``tiny_bot.py``); otherwise :meth:`DiscordStandin.wait_ready` times out
with a message saying so.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import itertools
import json
import re
import secrets
import time
import zlib
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

import aiohttp
from aiohttp import web

from tests.e2e import payloads
from tests.e2e.payloads import Payload

T = TypeVar("T")

API_PREFIX = re.compile(r"^/api/v(\d+)(?=/|$)")
HOST = "127.0.0.1"

# Gateway opcodes.
OP_DISPATCH, OP_HEARTBEAT, OP_IDENTIFY, OP_PRESENCE, OP_VOICE_STATE = 0, 1, 2, 3, 4
OP_RESUME, OP_RECONNECT, OP_REQUEST_MEMBERS, OP_INVALID_SESSION = 6, 7, 8, 9
OP_HELLO, OP_HEARTBEAT_ACK = 10, 11
OP_REQUEST_SOUNDBOARD = 31
CLIENT_OPS = {OP_HEARTBEAT, OP_IDENTIFY, OP_PRESENCE, OP_VOICE_STATE, OP_RESUME, OP_REQUEST_MEMBERS}
CLIENT_OPS.add(OP_REQUEST_SOUNDBOARD)

# Gateway close codes (https://discord.com/developers/docs/topics/opcodes-and-status-codes).
CLOSE_UNKNOWN_ERROR = 4000
CLOSE_UNKNOWN_OPCODE = 4001
CLOSE_DECODE_ERROR = 4002
CLOSE_NOT_AUTHENTICATED = 4003
CLOSE_AUTHENTICATION_FAILED = 4004
CLOSE_ALREADY_AUTHENTICATED = 4005
CLOSE_INVALID_API_VERSION = 4012
CLOSE_DISALLOWED_INTENTS = 4014

PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15)  # members, presences, message content

# Interaction callback types.
CB_PONG, CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE, CB_UPDATE = 1, 4, 5, 6, 7
CB_AUTOCOMPLETE, CB_MODAL, CB_LAUNCH_ACTIVITY = 8, 9, 12
CALLBACK_TYPES = {CB_PONG, CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE, CB_UPDATE}
CALLBACK_TYPES |= {CB_AUTOCOMPLETE, CB_MODAL, CB_LAUNCH_ACTIVITY}

MESSAGE_FLAG_EPHEMERAL = 1 << 6
MESSAGE_FLAG_LOADING = 1 << 7
MESSAGE_TYPE_CHAT_INPUT = 20

#: Unverified bots: presence / members / message-content intents "limited", plus the commands badge.
DEFAULT_APPLICATION_FLAGS = (1 << 13) | (1 << 15) | (1 << 19) | (1 << 23)

_NULLABLE_COMMAND_FIELDS = {
    "default_member_permissions",
    "contexts",
    "name_localizations",
    "description_localizations",
}
_COMMAND_NAME = re.compile(r"^[-_'\w]{1,32}$")


class StandinTimeout(AssertionError):
    """Something the test waited for did not happen in time (an AssertionError so pytest shows the text)."""


# --------------------------------------------------------------------------------------------------
# Records
# --------------------------------------------------------------------------------------------------


@dataclass
class RecordedFile:
    """One file of a multipart request."""

    field: str  # the form field, e.g. "files[0]"
    filename: str
    content_type: str | None
    data: bytes


@dataclass
class RecordedRequest:
    """One HTTP request the bot made, with the stand-in's answer (field names as in tests/harness)."""

    method: str
    path: str  # without /api/v10 and without the query, e.g. "/webhooks/1/abc/messages/@original"
    json: Any  # decoded JSON body, or the multipart ``payload_json``; None without one
    query: dict[str, str]
    files: list[RecordedFile] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)
    url: str = ""
    seq: int = 0
    at: float = 0.0  # time.monotonic() when it arrived
    api_version: int | None = None
    #: The OpenAPI path template that handled it, e.g. ROUTE_CALLBACK; None when unhandled.
    route: str | None = None
    params: dict[str, str] = field(default_factory=dict)
    status: int | None = None  # None while it is still being answered (or hung by a fault)
    response: Any = None
    answered_at: float | None = None
    fault: Fault | None = None
    raw: bytes = b""

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300

    @property
    def is_api(self) -> bool:
        """Made to the REST API (under /api/vN), as opposed to some other URL of the stand-in."""
        return self.api_version is not None

    @property
    def filenames(self) -> list[str]:
        return [f.filename for f in self.files]

    def __repr__(self) -> str:
        return f"<RecordedRequest #{self.seq} {self.method} {self.path} -> {self.status}>"


@dataclass
class Fault:
    """Failure injection for the next ``count`` requests matching ``method`` and ``route`` (a template).

    ``delay`` holds the answer that many seconds (``None``: until the stand-in stops, i.e. longer than any
    client timeout); then ``status`` (if set) is answered instead of the real handler's answer. With
    ``token``, only requests about that interaction (callback or webhook with that token) match.
    """

    method: str
    route: str
    count: int = 1
    status: int | None = 500
    delay: float | None = 0.0
    used: int = 0
    token: str | None = None

    def matches(self, method: str, route: str | None, token: str | None = None) -> bool:
        if self.token is not None and token != self.token:
            return False
        return self.used < self.count and self.method == method and self.route == route


@dataclass
class GatewayFrame:
    direction: Literal["recv", "send"]
    connection: int
    op: int | None
    t: str | None
    s: int | None
    d: Any
    at: float


@dataclass
class GatewayConnection:
    """One websocket connection from the bot."""

    index: int
    query: dict[str, str]
    compress: str | None
    opened_at: float
    ws: web.WebSocketResponse = field(repr=False)
    request: web.Request = field(repr=False)
    kind: Literal["identify", "resume"] | None = None  # how it was established
    identify: Payload | None = None
    resume: Payload | None = None
    invalidated: bool = False  # answered op 9
    heartbeats: int = 0
    closed_at: float | None = None
    close_code: int | None = None
    closed_by_standin: bool = False
    established_at: float | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    encoder: Callable[[bytes], bytes] | None = field(default=None, repr=False)


@dataclass
class GatewaySession:
    session_id: str
    identify: Payload
    seq: int = 0
    events: list[Payload] = field(default_factory=list)  # every dispatch of the session, for RESUME
    connection: GatewayConnection | None = None
    invalid: bool = False


# --------------------------------------------------------------------------------------------------
# Interactions
# --------------------------------------------------------------------------------------------------


class InteractionExchange:
    """One interaction sent to the bot, and what the bot did about it (callback, @original, follow-ups)."""

    def __init__(self, standin: DiscordStandin, payload: Payload) -> None:
        self.standin = standin
        self.payload = payload
        self.id: str = str(payload["id"])
        self.token: str = payload["token"]
        self.sent_at = time.monotonic()
        self.callback_type: int | None = None
        self.original: Payload | None = None  # the message @original designates, as Discord would store it
        self.original_deleted = False
        self.followups: dict[str, Payload] = {}

    # ---- what the bot sent ----
    @property
    def requests(self) -> list[RecordedRequest]:
        """Every REST request about this interaction (callback, webhook calls), in arrival order."""
        return [r for r in self.standin.requests if r.params.get("token") == self.token]

    @property
    def callbacks(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.route == ROUTE_CALLBACK]

    @property
    def callback(self) -> RecordedRequest:
        """The callback the stand-in accepted (2xx)."""
        for r in self.callbacks:
            if r.ok:
                return r
        raise AssertionError(f"interaction {self.id} has no accepted callback; requests: {self.requests}")

    @property
    def response(self) -> Payload:
        """The accepted callback's body ``{"type": ..., "data": {...}}``."""
        body: Payload = self.callback.json
        return body

    @property
    def followup_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.route == ROUTE_WEBHOOK and r.method == "POST"]

    @property
    def edits(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.route == ROUTE_ORIGINAL and r.method == "PATCH"]

    @property
    def latency(self) -> float | None:
        """Seconds from dispatching the interaction to the accepted callback's arrival."""
        for r in self.callbacks:
            if r.ok:
                return r.at - self.sent_at
        return None

    # ---- waiting ----
    async def wait_request(
        self, predicate: Callable[[RecordedRequest], bool], *, within: float = 10.0, what: str = "a request"
    ) -> RecordedRequest:
        """The first answered request about this interaction that satisfies ``predicate``."""

        def found() -> RecordedRequest | None:
            return next((r for r in self.requests if r.status is not None and predicate(r)), None)

        return await self.standin.wait_for(found, within=within, what=f"{what} for interaction {self.id}")

    async def wait_callback(self, *, within: float = 10.0, ok: bool = True) -> RecordedRequest:
        """The callback (accepted, or with ``ok=False`` the first one, whatever its answer)."""
        return await self.wait_request(
            lambda r: r.route == ROUTE_CALLBACK and (r.ok or not ok), within=within, what="the callback"
        )

    async def wait_followup(self, count: int = 1, *, within: float = 10.0) -> RecordedRequest:
        """The ``count``-th accepted follow-up (``POST /webhooks/{app}/{token}``)."""
        return await self._wait_nth(lambda r: r.route == ROUTE_WEBHOOK and r.method == "POST", count, within)

    async def wait_edit(self, count: int = 1, *, within: float = 10.0) -> RecordedRequest:
        """The ``count``-th accepted ``PATCH .../messages/@original``."""
        return await self._wait_nth(
            lambda r: r.route == ROUTE_ORIGINAL and r.method == "PATCH", count, within
        )

    async def _wait_nth(
        self, predicate: Callable[[RecordedRequest], bool], count: int, within: float
    ) -> RecordedRequest:
        def found() -> RecordedRequest | None:
            matching = [r for r in self.requests if r.ok and predicate(r)]
            return matching[count - 1] if len(matching) >= count else None

        return await self.standin.wait_for(found, within=within, what=f"request #{count} for {self.id}")

    def __repr__(self) -> str:
        return f"<InteractionExchange {self.id} callback={self.callback_type} requests={len(self.requests)}>"


# --------------------------------------------------------------------------------------------------
# The stand-in
# --------------------------------------------------------------------------------------------------

ROUTE_CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"
ROUTE_WEBHOOK = "/webhooks/{webhook_id}/{webhook_token}"
ROUTE_ORIGINAL = "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
ROUTE_WEBHOOK_MESSAGE = "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"
ROUTE_GLOBAL_COMMANDS = "/applications/{application_id}/commands"
ROUTE_GUILD_COMMANDS = "/applications/{application_id}/guilds/{guild_id}/commands"

Answer = tuple[int, Any]
RouteHandler = Callable[[RecordedRequest, dict[str, str]], "Answer | Awaitable[Answer]"]


@dataclass
class _Route:
    method: str
    template: str
    regex: re.Pattern[str]
    handler: RouteHandler
    auth: bool


def _template_regex(template: str) -> re.Pattern[str]:
    parts = re.split(r"(\{[^}/]+\})", template)
    pattern = "".join(
        f"(?P<{p[1:-1]}>[^/]+)" if p.startswith("{") and p.endswith("}") else re.escape(p) for p in parts
    )
    return re.compile(f"^{pattern}$")


def _error(status: int, code: int, message: str, errors: Any = None) -> Answer:
    body: Payload = {"message": message, "code": code}
    if errors is not None:
        body["errors"] = errors
    return status, body


def _truthy(value: str | None) -> bool:
    return value is not None and value.lower() in {"1", "true", "yes"}


class DiscordStandin:
    """The stand-in. Use as ``async with DiscordStandin(...) as standin:`` (or ``start()`` / ``stop()``)."""

    def __init__(
        self,
        *,
        guilds: Sequence[Payload] | None = None,
        token: str | None = None,
        app_id: int = payloads.APP_ID,
        bot_name: str = payloads.BOT_NAME,
        owner_id: int = payloads.OWNER_ID,
        heartbeat_interval_ms: int = 41250,
        application_flags: int = DEFAULT_APPLICATION_FLAGS,
        allowed_intents: int | None = None,
        require_synced_commands: bool = True,
    ) -> None:
        self.guilds: list[Payload] = [dict(g) for g in (guilds if guilds is not None else [payloads.guild()])]
        self.token = token or f"standin.{secrets.token_urlsafe(24)}"
        self.app_id = app_id
        self.bot_user = payloads.bot_user(app_id, bot_name)
        self.owner = payloads.user(owner_id, username="owner")
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.application_flags = application_flags
        #: Intents the application may use; IDENTIFY asking for a privileged one outside it closes 4014.
        self.allowed_intents = allowed_intents if allowed_intents is not None else (1 << 26) - 1
        self.require_synced_commands = require_synced_commands
        #: Answer heartbeats (turn off to make the bot see a zombie connection).
        self.ack_heartbeats = True
        #: Seconds after dispatch within which a callback must arrive, as on Discord (3 s); a later one is
        #: refused with 404 "Unknown interaction" (10062). None (the default): no deadline.
        self.callback_deadline: float | None = None

        self.requests: list[RecordedRequest] = []
        self.unhandled: list[RecordedRequest] = []
        self.connections: list[GatewayConnection] = []
        self.gateway_log: list[GatewayFrame] = []
        self.session: GatewaySession | None = None
        self.sessions: list[GatewaySession] = []
        #: Synced application commands: key None = global, else the guild id.
        self.commands: dict[int | None, list[Payload]] = {}
        self.interactions: dict[str, InteractionExchange] = {}  # by interaction id
        self.faults: list[Fault] = []
        self.session_start_remaining = 1000

        self._routes: list[_Route] = []
        self._watchdogs: list[Callable[[], str | None]] = []
        self._seq = itertools.count(1)
        self._changed = asyncio.Event()
        self._closing = asyncio.Event()
        self._gateway_lock = asyncio.Lock()
        self._runner: web.AppRunner | None = None
        self.port: int = 0
        self.started_at = 0.0
        self._install_default_routes()

    # ---------------------------------------------------------------- lifecycle
    async def __aenter__(self) -> DiscordStandin:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway_handler)
        app.router.add_route("*", "/{tail:.*}", self._rest_handler)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None, shutdown_timeout=2.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, HOST, 0)
        await site.start()
        self.port = int(self._runner.addresses[0][1])
        self.started_at = time.monotonic()

    async def stop(self) -> None:
        self._closing.set()  # releases hung requests
        for conn in self.connections:
            if not conn.ws.closed:
                conn.closed_by_standin = True
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(conn.ws.close(code=1001, message=b"stand-in stopping"), 1.0)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # ---------------------------------------------------------------- addresses
    @property
    def base_url(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def api_base(self) -> str:
        """What DISCORD_API_BASE / ``discord.http.Route.BASE`` should be."""
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://{HOST}:{self.port}/gateway"

    def bot_env(self, **extra: str) -> dict[str, str]:
        """Environment variables that point a bot process here (merge into ``os.environ``)."""
        return {
            "DISCORD_TOKEN": self.token,
            "DISCORD_API_BASE": self.api_base,
            "PYTHONUNBUFFERED": "1",
            **extra,
        }

    # ---------------------------------------------------------------- waiting
    def _bump(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_for(
        self,
        probe: Callable[[], T | None],
        *,
        within: float = 10.0,
        what: str = "a condition",
        watched: bool = True,
    ) -> T:
        """Wait until ``probe()`` returns something truthy (re-checked on every request / gateway event).
        With ``watched``, give up early when a :meth:`watch` watchdog reports a problem."""
        deadline = time.monotonic() + within
        while True:
            result = probe()
            if result:
                return result
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise StandinTimeout(f"timed out after {within:.1f}s waiting for {what}\n{self.describe()}")
            for watchdog in self._watchdogs if watched else ():
                problem = watchdog()
                if problem:
                    raise StandinTimeout(f"gave up waiting for {what}: {problem}\n{self.describe()}")
            event = self._changed
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), min(remaining, 0.25))

    def watch(self, watchdog: Callable[[], str | None]) -> None:
        """Make every wait give up as soon as ``watchdog()`` returns a reason (e.g. the bot process died)."""
        self._watchdogs.append(watchdog)

    def describe(self, last: int = 15) -> str:
        """A short account of what happened (for failure messages)."""
        lines = [f"stand-in at {self.base_url}: {len(self.requests)} requests,"]
        lines[0] += f" {len(self.connections)} gateway connections"
        if not any(r.route == "/gateway/bot" for r in self.requests):
            lines.append("  the bot never asked GET /gateway/bot")
        if not self.connections:
            lines.append(
                "  the bot never opened the gateway: a non-sharded discord.py client dials"
                " DiscordWebSocket.DEFAULT_GATEWAY (wss://gateway.discord.gg/) unless the bot sets it from"
                " GET /gateway/bot"
            )
        for r in self.requests[-last:]:
            lines.append(f"  {r.method} {r.path} -> {r.status} {_short(r.response)}")
        for c in self.connections[-3:]:
            lines.append(
                f"  gateway #{c.index}: compress={c.compress} kind={c.kind} close={c.close_code}"
                f" heartbeats={c.heartbeats}"
            )
        return "\n".join(lines)

    async def wait_ready(self, within: float = 15.0) -> Payload:
        """Until the bot IDENTIFYed and got READY plus its GUILD_CREATEs; returns the IDENTIFY ``d``."""

        def ready() -> Payload | None:
            for conn in self.connections:
                if conn.kind == "identify" and conn.established_at is not None:
                    return conn.identify
            return None

        found: Payload = await self.wait_for(ready, within=within, what="the bot to IDENTIFY")
        return found

    @property
    def current_connection(self) -> GatewayConnection | None:
        session = self.session
        if session is None or session.connection is None or session.connection.ws.closed:
            return None
        return session.connection

    async def drop_connection(self, code: int | None = CLOSE_UNKNOWN_ERROR) -> GatewayConnection:
        """Close the bot's gateway connection: with a close ``code`` (4000 = resumable), or with ``None``
        abort the TCP connection without a close frame. Returns the dropped connection."""
        conn = self.current_connection
        if conn is None:
            raise AssertionError(f"no gateway connection to drop\n{self.describe()}")
        conn.closed_by_standin = True
        if code is None:
            transport = conn.request.transport
            if transport is not None:
                transport.abort()
        else:
            try:
                await asyncio.wait_for(conn.ws.close(code=code, message=b"dropped by the stand-in"), 2.0)
            except (TimeoutError, ConnectionError):
                transport = conn.request.transport
                if transport is not None:
                    transport.abort()
        self._bump()
        return conn

    async def wait_reconnected(
        self, after: GatewayConnection | None = None, *, within: float = 15.0
    ) -> Literal["identify", "resume"]:
        """Until a connection opened after ``after`` (default: the last one the stand-in dropped, else the
        latest one) is established; returns how: ``"resume"`` (RESUMED sent) or ``"identify"`` (READY)."""
        if after is None:
            dropped = [c for c in self.connections if c.closed_by_standin]
            after = dropped[-1] if dropped else (self.connections[-1] if self.connections else None)
        floor = after.index if after is not None else -1

        def reconnected() -> Literal["identify", "resume"] | None:
            for conn in self.connections:
                if conn.index > floor and conn.established_at is not None and conn.kind is not None:
                    return conn.kind
            return None

        kind: Literal["identify", "resume"] = await self.wait_for(
            reconnected, within=within, what="the bot to reconnect"
        )
        return kind

    async def wait_disconnected(self, within: float = 10.0) -> GatewayConnection:
        """Until the bot's gateway connection is closed (e.g. after SIGTERM); returns that connection."""
        conns = list(self.connections)
        if not conns:
            raise AssertionError("the bot never connected")
        last = conns[-1]
        await self.wait_for(
            lambda: last.closed_at is not None, within=within, what="the gateway to close", watched=False
        )
        return last

    # ---------------------------------------------------------------- failure injection
    def inject_fault(
        self,
        method: str,
        route: str,
        *,
        count: int = 1,
        status: int | None = 500,
        delay: float | None = 0.0,
        token: str | None = None,
    ) -> Fault:
        """Make the next ``count`` requests to ``method route`` (an OpenAPI template, e.g.
        ``ROUTE_CALLBACK``) wait ``delay`` seconds (None = until the stand-in stops) then answer ``status``
        (None = the normal answer). ``token``: only the requests about the interaction with that token
        (its payload's ``"token"``), so that other interactions meanwhile are answered normally."""
        fault = Fault(method.upper(), route, count=count, status=status, delay=delay, token=token)
        self.faults.append(fault)
        return fault

    def fail_callbacks(self, count: int = 1, *, status: int = 500, token: str | None = None) -> Fault:
        """The next ``count`` interaction callbacks answer ``status`` (discord.py retries a 5xx after 1 s)."""
        return self.inject_fault("POST", ROUTE_CALLBACK, count=count, status=status, delay=0.0, token=token)

    def hang_callbacks(
        self,
        count: int = 1,
        *,
        seconds: float | None = None,
        status: int | None = 503,
        token: str | None = None,
    ) -> Fault:
        """The next ``count`` callbacks get no answer for ``seconds`` (None: until the stand-in stops)."""
        return self.inject_fault(
            "POST", ROUTE_CALLBACK, count=count, status=status, delay=seconds, token=token
        )

    # ---------------------------------------------------------------- interactions
    async def interaction(
        self, payload: Payload, *, within: float = 10.0, wait: bool = True
    ) -> InteractionExchange:
        """Send INTERACTION_CREATE to the bot; with ``wait`` return once its callback was accepted (2xx).

        ``application_id`` is set to the stand-in's; application-command (and autocomplete) payloads get
        ``data.id`` and, for guild commands, ``data.guild_id`` from the synced command of that name (as
        Discord sends them; discord.py looks guild commands up by ``data.guild_id``), so builders need not
        know them - tests/harness builders work too. If the bot is not connected the event is queued in
        the session and replayed when it RESUMEs, as Discord does.
        """
        exchange = self.track_interaction(payload)
        exchange.sent_at = time.monotonic()
        await self.dispatch("INTERACTION_CREATE", exchange.payload)
        if wait:
            await exchange.wait_callback(within=within)
        return exchange

    def track_interaction(self, payload: Payload) -> InteractionExchange:
        """Register an interaction without sending it (its callback/webhook calls are then accepted);
        :meth:`interaction` does this and then dispatches it. Returns the completed payload's exchange."""
        exchange = InteractionExchange(self, self._complete_interaction(dict(payload)))
        self.interactions[exchange.id] = exchange
        return exchange

    def register_commands(self, commands: Sequence[Payload], guild_id: int | None = None) -> list[Payload]:
        """Pretend the bot synced ``commands`` earlier (e.g. a bot that skips syncing when unchanged)."""
        record = RecordedRequest("PUT", "", list(commands), {})
        params = {"application_id": str(self.app_id)}
        if guild_id is not None:
            params["guild_id"] = str(guild_id)
        status, answer = self._put_commands(record, params)
        if status != 200:
            raise ValueError(f"Discord would refuse these commands: {answer}")
        echoed: list[Payload] = answer
        return echoed

    def _complete_interaction(self, payload: Payload) -> Payload:
        payload.setdefault("id", str(payloads.snowflake()))
        payload.setdefault("token", payloads.interaction_token())
        payload["application_id"] = str(self.app_id)  # Discord always sends the receiving app's id
        payload.setdefault("version", 1)
        if payload.get("type") not in (payloads.APPLICATION_COMMAND, payloads.AUTOCOMPLETE):
            return payload
        data = dict(payload.get("data") or {})
        payload["data"] = data
        name, kind = data.get("name"), data.get("type", 1)
        guild_id = int(payload["guild_id"]) if payload.get("guild_id") else None
        candidates: list[tuple[int | None, list[Payload]]] = []
        if guild_id is not None:
            candidates.append((guild_id, self.commands.get(guild_id, [])))
        candidates.append((None, self.commands.get(None, [])))
        for scope, commands in candidates:
            for command in commands:
                if command["name"] == name and command.get("type", 1) == kind:
                    # The synced id wins over whatever a builder made up, as on Discord.
                    data["id"] = command["id"]
                    if scope is not None:
                        data["guild_id"] = str(scope)
                    else:
                        data.pop("guild_id", None)
                    return payload
        if self.require_synced_commands:
            synced = {scope: [c["name"] for c in cmds] for scope, cmds in self.commands.items()}
            raise AssertionError(f"/{name} is not among the commands the bot synced: {synced}")
        data.setdefault("id", str(payloads.snowflake()))
        return payload

    # ---------------------------------------------------------------- gateway: dispatching
    async def dispatch(self, event: str, data: Payload) -> int:
        """Send a dispatch (op 0) in the current session; queued for RESUME when disconnected. Returns s."""
        async with self._gateway_lock:
            session = self.session
            if session is None:
                raise AssertionError(f"no gateway session to dispatch {event} in\n{self.describe()}")
            return await self._dispatch_locked(session, event, data)

    async def _dispatch_locked(self, session: GatewaySession, event: str, data: Any) -> int:
        session.seq += 1
        frame = {"op": OP_DISPATCH, "t": event, "s": session.seq, "d": data}
        session.events.append(frame)
        conn = session.connection
        if conn is not None and not conn.ws.closed:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await self._send(conn, frame)
        return session.seq

    async def _send(self, conn: GatewayConnection, frame: Payload) -> None:
        text = json.dumps(frame, separators=(",", ":"))
        async with conn.lock:  # compression streams must see frames in sending order
            if conn.encoder is None:
                await conn.ws.send_str(text)
            else:
                await conn.ws.send_bytes(conn.encoder(text.encode()))
        self.gateway_log.append(
            GatewayFrame(
                "send",
                conn.index,
                frame.get("op"),
                frame.get("t"),
                frame.get("s"),
                frame.get("d"),
                time.monotonic(),
            )
        )
        self._bump()

    # ---------------------------------------------------------------- gateway: connection
    async def _gateway_handler(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(compress=True, autoping=True, max_msg_size=16 * 1024 * 1024)
        await ws.prepare(request)
        query = dict(request.query)
        compress = query.get("compress")
        conn = GatewayConnection(
            index=len(self.connections),
            query=query,
            compress=compress,
            opened_at=time.monotonic(),
            ws=ws,
            request=request,
        )
        self.connections.append(conn)
        self._bump()
        try:
            if query.get("v") != "10":
                await self._close(conn, CLOSE_INVALID_API_VERSION, "Invalid API version.")
                return ws
            if query.get("encoding", "json") != "json":
                await self._close(conn, CLOSE_DECODE_ERROR, "Only encoding=json is spoken here.")
                return ws
            if compress is not None:
                encoder = make_encoder(compress)
                if encoder is None:
                    await self._close(conn, CLOSE_DECODE_ERROR, f"Cannot compress with {compress}.")
                    return ws
                conn.encoder = encoder
            await self._send(
                conn,
                {
                    "op": OP_HELLO,
                    "d": {"heartbeat_interval": self.heartbeat_interval_ms},
                    "s": None,
                    "t": None,
                },
            )
            async for msg in ws:
                if msg.type is aiohttp.WSMsgType.TEXT:
                    text = msg.data
                elif msg.type is aiohttp.WSMsgType.BINARY:
                    text = msg.data.decode("utf-8", "replace")
                else:
                    break
                try:
                    frame = json.loads(text)
                    if not isinstance(frame, dict):
                        raise ValueError("not an object")
                except ValueError:
                    await self._close(conn, CLOSE_DECODE_ERROR, "Error while decoding payload.")
                    break
                try:
                    await self._on_frame(conn, frame)
                except (ConnectionError, RuntimeError):  # the bot went away mid-answer
                    break
                if ws.closed:
                    break
        finally:
            conn.closed_at = time.monotonic()
            conn.close_code = ws.close_code
            session = self.session
            if session is not None and session.connection is conn:
                session.connection = None
                # A client closing with 1000/1001 ends its session (Discord invalidates it).
                if not conn.closed_by_standin and conn.close_code in (1000, 1001):
                    session.invalid = True
            self._bump()
        return ws

    async def _close(self, conn: GatewayConnection, code: int, reason: str) -> None:
        conn.closed_by_standin = True
        with contextlib.suppress(Exception):
            await asyncio.wait_for(conn.ws.close(code=code, message=reason.encode()), 2.0)

    async def _on_frame(self, conn: GatewayConnection, frame: Payload) -> None:
        op, data = frame.get("op"), frame.get("d")
        self.gateway_log.append(GatewayFrame("recv", conn.index, op, None, None, data, time.monotonic()))
        self._bump()
        if op not in CLIENT_OPS:
            await self._close(conn, CLOSE_UNKNOWN_OPCODE, "Unknown opcode.")
        elif op == OP_HEARTBEAT:
            conn.heartbeats += 1
            if self.ack_heartbeats:
                await self._send(conn, {"op": OP_HEARTBEAT_ACK, "d": None, "s": None, "t": None})
        elif op == OP_IDENTIFY:
            await self._on_identify(conn, data if isinstance(data, dict) else {})
        elif op == OP_RESUME:
            await self._on_resume(conn, data if isinstance(data, dict) else {})
        elif conn.kind is None:
            await self._close(conn, CLOSE_NOT_AUTHENTICATED, "Not authenticated.")
        elif op == OP_REQUEST_MEMBERS:
            await self._on_request_members(data if isinstance(data, dict) else {})

    def _token_ok(self, token: Any) -> bool:
        return isinstance(token, str) and token.removeprefix("Bot ") == self.token

    async def _on_identify(self, conn: GatewayConnection, data: Payload) -> None:
        if conn.kind is not None:
            await self._close(conn, CLOSE_ALREADY_AUTHENTICATED, "Already authenticated.")
            return
        if not self._token_ok(data.get("token")):
            await self._close(conn, CLOSE_AUTHENTICATION_FAILED, "Authentication failed.")
            return
        intents = int(data.get("intents", 0))
        if intents & PRIVILEGED_INTENTS & ~self.allowed_intents:
            await self._close(conn, CLOSE_DISALLOWED_INTENTS, "Disallowed intent(s).")
            return
        conn.identify = data
        conn.kind = "identify"
        self.session_start_remaining -= 1
        async with self._gateway_lock:
            if self.session is not None:
                self.session.invalid = True
            session = GatewaySession(session_id=secrets.token_hex(16), identify=data)
            session.connection = conn
            self.session = session
            self.sessions.append(session)
            ready: Payload = {
                "v": 10,
                "user": self.bot_user,
                "user_settings": {},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "guild_join_requests": [],
                "geo_ordered_rtc_regions": ["local"],
                "guilds": [{"id": g["id"], "unavailable": True} for g in self.guilds],
                "session_id": session.session_id,
                "session_type": "normal",
                "resume_gateway_url": self.gateway_url,
                "application": {"id": str(self.app_id), "flags": self.application_flags},
                "auth": {},
                "_trace": ['["discord-standin",{"micros":0}]'],
            }
            if "shard" in data:
                ready["shard"] = data["shard"]
            await self._dispatch_locked(session, "READY", ready)
            for guild in self.guilds:
                await self._dispatch_locked(session, "GUILD_CREATE", self._guild_create(guild))
            conn.established_at = time.monotonic()
        self._bump()

    def _guild_create(self, guild: Payload) -> Payload:
        data = dict(guild)
        members = list(data.get("members") or [])
        if not any(m.get("user", {}).get("id") == self.bot_user["id"] for m in members):
            members.append(payloads.member(self.bot_user))
        data["members"] = members
        data["member_count"] = max(int(data.get("member_count") or 0), len(members))
        return data

    async def _on_resume(self, conn: GatewayConnection, data: Payload) -> None:
        if conn.kind is not None:
            await self._close(conn, CLOSE_ALREADY_AUTHENTICATED, "Already authenticated.")
            return
        if not self._token_ok(data.get("token")):
            await self._close(conn, CLOSE_AUTHENTICATION_FAILED, "Authentication failed.")
            return
        conn.resume = data
        async with self._gateway_lock:
            session = self.session
            if session is None or session.invalid or data.get("session_id") != session.session_id:
                conn.invalidated = True
                await self._send(conn, {"op": OP_INVALID_SESSION, "d": False, "s": None, "t": None})
                return
            conn.kind = "resume"
            old = session.connection
            session.connection = conn
            if old is not None and old is not conn and not old.ws.closed:
                old.closed_by_standin = True
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(old.ws.close(code=CLOSE_UNKNOWN_ERROR), 1.0)
            since = int(data.get("seq") or 0)
            for frame in session.events:
                if frame["s"] > since:
                    await self._send(conn, frame)
            await self._dispatch_locked(session, "RESUMED", {"_trace": ['["discord-standin",{"micros":0}]']})
            conn.established_at = time.monotonic()
        self._bump()

    async def _on_request_members(self, data: Payload) -> None:
        guild_id = str(data.get("guild_id"))
        guild = next((g for g in self.guilds if g["id"] == guild_id), None)
        members = self._guild_create(guild)["members"] if guild is not None else []
        chunk: Payload = {
            "guild_id": guild_id,
            "members": members,
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if "nonce" in data:
            chunk["nonce"] = data["nonce"]
        await self.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    # ---------------------------------------------------------------- REST: plumbing
    def add_route(self, method: str, template: str, handler: RouteHandler, *, auth: bool = True) -> None:
        """Handle ``method template`` (OpenAPI template, e.g. ``/guilds/{guild_id}/members/{user_id}``)
        with ``handler(request, params) -> (status, json)``; later routes win over earlier ones."""
        self._routes.insert(0, _Route(method.upper(), template, _template_regex(template), handler, auth))

    def _match(self, method: str, path: str) -> tuple[_Route, dict[str, str]] | tuple[None, dict[str, str]]:
        for route in self._routes:
            if route.method != method:
                continue
            found = route.regex.match(path)
            if found:
                return route, found.groupdict()
        return None, {}

    async def _rest_handler(self, request: web.Request) -> web.StreamResponse:
        raw_path = request.path
        prefix = API_PREFIX.match(raw_path)
        path = raw_path[prefix.end() :] if prefix else raw_path
        path = path or "/"
        try:
            body, files, raw = await _decode_body(request)
        except (ValueError, aiohttp.ClientError):  # unparseable multipart / payload_json: keep the record
            body, files, raw = None, [], b""
        record = RecordedRequest(
            method=request.method,
            path=path,
            json=body,
            query=dict(request.query),
            files=files,
            headers=dict(request.headers),
            url=str(request.url),
            seq=next(self._seq),
            at=time.monotonic(),
            api_version=int(prefix.group(1)) if prefix else None,
            raw=raw,
        )
        self.requests.append(record)
        self._bump()
        route, params = self._match(request.method, path) if prefix else (None, {})
        if route is not None:
            record.route = route.template
            record.params = dict(params)
            if "webhook_token" in params or "interaction_token" in params:
                record.params["token"] = params.get("webhook_token") or params["interaction_token"]
        status: int | None = None
        answer: Any = None
        token = record.params.get("token")
        fault = next((f for f in self.faults if f.matches(request.method, record.route, token)), None)
        if fault is not None:
            fault.used += 1
            record.fault = fault
            if fault.delay is None or fault.delay > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._closing.wait(), fault.delay)
            if fault.status is not None:
                status, answer = _error(fault.status, 0, f"{fault.status}: injected by the stand-in")
        if status is None:
            if route is None:
                self.unhandled.append(record)
                status, answer = _error(404, 0, f"404: Not Found ({request.method} {path})")
            elif route.auth and request.headers.get("Authorization") != f"Bot {self.token}":
                status, answer = _error(401, 0, "401: Unauthorized")
            else:
                try:
                    result = route.handler(record, record.params)
                    status, answer = await result if isinstance(result, Awaitable) else result
                except Exception as exc:  # a stand-in bug: answer 500 but keep it visible
                    status, answer = _error(500, 0, f"stand-in handler error: {exc!r}")
        record.status, record.response, record.answered_at = status, answer, time.monotonic()
        self._bump()
        if status == 204 or answer is None:
            return web.Response(status=status)
        # Exactly "application/json", as Discord sends: discord.py's json_or_text() compares the header
        # verbatim, so aiohttp's default "application/json; charset=utf-8" would reach the bot as text.
        body = json.dumps(answer).encode()
        return web.Response(body=body, status=status, headers={"Content-Type": "application/json"})

    # ---------------------------------------------------------------- REST: routes
    def _install_default_routes(self) -> None:
        add = self.add_route
        add("GET", "/users/@me", lambda r, p: (200, self.bot_user))
        add("GET", "/applications/@me", lambda r, p: (200, self.application()))
        add("GET", "/oauth2/applications/@me", lambda r, p: (200, self.application()))  # discord.py's login
        add("GET", "/gateway", lambda r, p: (200, {"url": self.gateway_url}), auth=False)
        add("GET", "/gateway/bot", self._get_gateway_bot)
        add("GET", ROUTE_GLOBAL_COMMANDS, self._get_commands)
        add("PUT", ROUTE_GLOBAL_COMMANDS, self._put_commands)
        add("GET", ROUTE_GUILD_COMMANDS, self._get_commands)
        add("PUT", ROUTE_GUILD_COMMANDS, self._put_commands)
        add("POST", ROUTE_CALLBACK, self._post_callback, auth=False)
        add("GET", ROUTE_WEBHOOK_MESSAGE, self._webhook_message, auth=False)
        add("PATCH", ROUTE_WEBHOOK_MESSAGE, self._webhook_message, auth=False)
        add("DELETE", ROUTE_WEBHOOK_MESSAGE, self._webhook_message, auth=False)
        add("GET", ROUTE_ORIGINAL, self._webhook_message, auth=False)
        add("PATCH", ROUTE_ORIGINAL, self._webhook_message, auth=False)
        add("DELETE", ROUTE_ORIGINAL, self._webhook_message, auth=False)
        add("POST", ROUTE_WEBHOOK, self._post_followup, auth=False)

    def application(self) -> Payload:
        return {
            "id": str(self.app_id),
            "name": self.bot_user["username"],
            "icon": None,
            "description": "",
            "type": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "flags": self.application_flags,
            "owner": self.owner,
            "team": None,
            "bot": payloads.user(self.app_id, username=self.bot_user["username"], bot=True),
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "approximate_guild_count": len(self.guilds),
            "approximate_user_install_count": 0,
            "approximate_user_authorization_count": 0,
            "flags_new": str(self.application_flags),
            "role_connections_verification_url": None,
            "explicit_content_filter": 0,
            "eligible_oauth2_scopes": ["applications.commands", "bot"],
            "integration_types_config": {"0": {}},
        }

    def _get_gateway_bot(self, record: RecordedRequest, params: dict[str, str]) -> Answer:
        limit = {
            "total": 1000,
            "remaining": self.session_start_remaining,
            "reset_after": 86_400_000,
            "max_concurrency": 1,
        }
        return 200, {"url": self.gateway_url, "shards": 1, "session_start_limit": limit}

    def _scope(self, params: Mapping[str, str]) -> int | Answer | None:
        if params.get("application_id") != str(self.app_id):
            return _error(403, 50001, "Missing Access")
        guild_id = params.get("guild_id")
        if guild_id is None:
            return None
        if not any(g["id"] == guild_id for g in self.guilds):
            return _error(403, 50001, "Missing Access")
        return int(guild_id)

    def _get_commands(self, record: RecordedRequest, params: dict[str, str]) -> Answer:
        scope = self._scope(params)
        if isinstance(scope, tuple):
            return scope
        return 200, self.commands.get(scope, [])

    def _put_commands(self, record: RecordedRequest, params: dict[str, str]) -> Answer:
        scope = self._scope(params)
        if isinstance(scope, tuple):
            return scope
        body = record.json
        if not isinstance(body, list):
            return _error(400, 50035, "Invalid Form Body", {"_errors": [{"code": "LIST_TYPE_CONVERT"}]})
        problems = _command_problems(body)
        if problems:
            return _error(400, 50035, "Invalid Form Body", problems)
        old = {(c["name"], c.get("type", 1)): c["id"] for c in self.commands.get(scope, [])}
        version = str(payloads.snowflake())
        echoed = []
        for command in body:
            kind = command.get("type", 1)
            # Discord fills defaults in (integration_types: guild install) and leaves out nulls.
            given = {k: v for k, v in command.items() if v is not None or k in _NULLABLE_COMMAND_FIELDS}
            echo: Payload = {
                "type": 1,
                "description": "",
                "default_member_permissions": None,
                "nsfw": False,
                "contexts": None,
                "integration_types": [0],
                **given,
                "id": old.get((command["name"], kind)) or str(payloads.snowflake()),
                "application_id": str(self.app_id),
                "version": version,
            }
            if scope is not None:
                echo["guild_id"] = str(scope)
            echoed.append(echo)
        self.commands[scope] = echoed
        return 200, echoed

    @property
    def command_syncs(self) -> list[RecordedRequest]:
        return [
            r
            for r in self.requests
            if r.method == "PUT" and r.route in (ROUTE_GLOBAL_COMMANDS, ROUTE_GUILD_COMMANDS)
        ]

    @property
    def last_synced(self) -> Any:
        """The body of the last accepted command sync (PUT), or None."""
        synced = [r for r in self.command_syncs if r.ok]
        return synced[-1].json if synced else None

    def _exchange(self, params: Mapping[str, str]) -> InteractionExchange | None:
        token = params.get("token")
        interaction_id = params.get("interaction_id")
        if interaction_id is not None:
            exchange = self.interactions.get(interaction_id)
            return exchange if exchange is not None and exchange.token == token else None
        if params.get("webhook_id") != str(self.app_id):
            return None
        return next((e for e in self.interactions.values() if e.token == token), None)

    def _message(
        self,
        exchange: InteractionExchange,
        body: Mapping[str, Any],
        files: Sequence[RecordedFile],
        *,
        message_type: int = MESSAGE_TYPE_CHAT_INPUT,
    ) -> Payload:
        attachments = [
            {
                "id": str(payloads.snowflake()),
                "filename": f.filename,
                "size": len(f.data),
                "url": f"{self.base_url}/attachments/{f.filename}",
                "proxy_url": f"{self.base_url}/attachments/{f.filename}",
                "content_type": f.content_type,
            }
            for f in files
        ]
        return payloads.message(
            body,
            message_id=payloads.snowflake(),
            channel_id=exchange.payload.get("channel_id"),
            author=payloads.user(self.app_id, username=self.bot_user["username"], bot=True),
            app_id=self.app_id,
            message_type=message_type,
            attachments=attachments,
            interaction=exchange.payload,
        )

    def _post_callback(self, record: RecordedRequest, params: dict[str, str]) -> Answer:
        exchange = self._exchange(params)
        if exchange is None:
            return _error(404, 10062, "Unknown interaction")
        if exchange.callback_type is not None:
            return _error(400, 40060, "Interaction has already been acknowledged.")
        if self.callback_deadline is not None and record.at - exchange.sent_at > self.callback_deadline:
            return _error(404, 10062, "Unknown interaction")
        body = record.json if isinstance(record.json, dict) else {}
        kind = body.get("type")
        if kind not in CALLBACK_TYPES:
            return _error(
                400, 50035, "Invalid Form Body", {"type": {"_errors": [{"code": "BASE_TYPE_CHOICES"}]}}
            )
        data = body.get("data") or {}
        if kind == CB_MESSAGE and _empty_message(data, record.files):
            return _error(400, 50006, "Cannot send an empty message")
        exchange.callback_type = kind
        message: Payload | None = None
        if kind == CB_MESSAGE:
            message = self._message(exchange, data, record.files)
        elif kind == CB_DEFERRED_MESSAGE:
            flags = MESSAGE_FLAG_LOADING | (int(data.get("flags") or 0) & MESSAGE_FLAG_EPHEMERAL)
            message = self._message(exchange, {"flags": flags}, [])
        elif kind in (CB_DEFERRED_UPDATE, CB_UPDATE) and isinstance(exchange.payload.get("message"), dict):
            message = dict(exchange.payload["message"])
            if kind == CB_UPDATE:
                message.update({k: v for k, v in data.items() if k in ("content", "embeds", "components")})
                message["edited_timestamp"] = payloads.now_iso()
        exchange.original = message
        self._bump()
        if not _truthy(record.query.get("with_response")):
            return 204, None
        interaction: Payload = {"id": exchange.id, "type": exchange.payload.get("type")}
        if message is not None:
            interaction.update(
                response_message_id=message["id"],
                response_message_loading=bool(message["flags"] & MESSAGE_FLAG_LOADING),
                response_message_ephemeral=bool(message["flags"] & MESSAGE_FLAG_EPHEMERAL),
            )
        answer: Payload = {"interaction": interaction}
        if kind in (CB_MESSAGE, CB_UPDATE) and message is not None:
            # The spec only has resources for 4, 7 (and 12): deferrals are told by response_message_loading.
            answer["resource"] = {"type": kind, "message": message}
        return 200, answer

    def _webhook_message(self, record: RecordedRequest, params: dict[str, str]) -> Answer:
        exchange = self._exchange(params)
        if exchange is None or exchange.callback_type is None:
            return _error(404, 10015, "Unknown Webhook")
        message_id = params.get("message_id")
        original = exchange.original if not exchange.original_deleted else None
        if message_id is None or (original is not None and original["id"] == message_id):
            target, is_original = original, True
        else:
            target, is_original = exchange.followups.get(message_id), False
        if target is None:
            return _error(404, 10008, "Unknown Message")
        if record.method == "GET":
            return 200, target
        if record.method == "DELETE":
            if is_original:
                exchange.original_deleted = True
            else:
                assert message_id is not None
                del exchange.followups[message_id]
            return 204, None
        body = record.json if isinstance(record.json, dict) else {}
        updated = dict(target)
        for key in ("content", "components"):
            if key in body:
                updated[key] = body[key] if body[key] is not None else ("" if key == "content" else [])
        if "embeds" in body:
            updated["embeds"] = [payloads.normalise_embed(e) for e in body["embeds"] or []]
        if record.files or "attachments" in body:
            kept = {str(a.get("id")) for a in body.get("attachments") or []}
            new = self._message(exchange, {}, record.files)["attachments"]
            updated["attachments"] = [a for a in target["attachments"] if a["id"] in kept] + new
        updated["flags"] = int(updated.get("flags") or 0) & ~MESSAGE_FLAG_LOADING
        updated["edited_timestamp"] = payloads.now_iso()
        if is_original:
            exchange.original = updated
        else:
            assert message_id is not None
            exchange.followups[message_id] = updated
        return 200, updated

    def _post_followup(self, record: RecordedRequest, params: dict[str, str]) -> Answer:
        exchange = self._exchange(params)
        if exchange is None or exchange.callback_type is None:
            return _error(404, 10015, "Unknown Webhook")
        body = record.json if isinstance(record.json, dict) else {}
        if _empty_message(body, record.files):
            return _error(400, 50006, "Cannot send an empty message")
        original = exchange.original
        if (
            original is not None
            and not exchange.original_deleted
            and exchange.callback_type == CB_DEFERRED_MESSAGE
            and original["flags"] & MESSAGE_FLAG_LOADING
        ):
            # Discord: the first follow-up after a deferred ("thinking...") response replaces that message.
            message = self._message(exchange, body, record.files)
            message["id"] = original["id"]
            message["flags"] = (original["flags"] & MESSAGE_FLAG_EPHEMERAL) | int(body.get("flags") or 0)
            exchange.original = message
        else:
            message = self._message(exchange, body, record.files)
            exchange.followups[message["id"]] = message
        return (200, message) if _truthy(record.query.get("wait")) else (204, None)

    # ---------------------------------------------------------------- OpenAPI
    def validate_requests(
        self, requests: Iterable[RecordedRequest] | None = None, *, strict: bool = False
    ) -> None:
        """Fail when a recorded request body breaks Discord's OpenAPI spec; also checks the stand-in's own
        2xx answers against the spec's response schemas (a self-check). See ``validate_against_openapi``."""
        validate_against_openapi(list(self.requests if requests is None else requests), strict=strict)


def validate_against_openapi(requests: Sequence[RecordedRequest], *, strict: bool = False) -> None:
    """The OpenAPI hook: request bodies (and the stand-in's answers) vs /work/shared/discord-openapi.

    Delegates to ``tests.harness.openapi`` (the in-process harness's validator; it skips the calling test
    when the spec file is absent). Unhandled (404) requests are left to :attr:`DiscordStandin.unhandled`.
    """
    openapi: Any = importlib.import_module("tests.harness.openapi")
    checker = openapi.validator(strict=strict)
    handled = [r for r in requests if r.route is not None]
    genuine = [r for r in handled if r.fault is None]  # injected answers are not the stand-in's to check
    problems = [*checker.violations(handled), *checker.response_violations(genuine)]
    if problems:
        listing = "\n  ".join(str(v) for v in problems)
        raise AssertionError(f"{len(problems)} problem(s) against Discord's OpenAPI spec:\n  {listing}")


# --------------------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------------------


def make_encoder(kind: str) -> Callable[[bytes], bytes] | None:
    """Server side of the gateway transport compression discord.py asks for (``compress=`` query)."""
    if kind == "zlib-stream":
        # One zlib context for the whole connection; every message ends with a Z_SYNC_FLUSH
        # (00 00 ff ff), which is how discord.py knows a message is complete.
        deflate = zlib.compressobj()
        return lambda data: deflate.compress(data) + deflate.flush(zlib.Z_SYNC_FLUSH)
    if kind == "zstd-stream":
        # One zstd stream per connection; every websocket message is one flushed block, which
        # discord.py's streaming decompressor turns back into exactly that message.
        try:
            zstandard: Any = importlib.import_module("zstandard")
        except ImportError:
            pass
        else:
            cobj = zstandard.ZstdCompressor().compressobj()
            flush_block = zstandard.COMPRESSOBJ_FLUSH_BLOCK
            return lambda data: bytes(cobj.compress(data) + cobj.flush(flush_block))
        try:
            stdlib_zstd: Any = importlib.import_module("compression.zstd")
        except ImportError:
            return None
        compressor = stdlib_zstd.ZstdCompressor()
        mode = stdlib_zstd.ZstdCompressor.FLUSH_BLOCK
        return lambda data: bytes(compressor.compress(data, mode=mode))
    return None


async def _decode_body(request: web.Request) -> tuple[Any, list[RecordedFile], bytes]:
    """JSON body, or multipart ``payload_json`` + files; also the raw bytes (empty for multipart)."""
    if not request.body_exists:
        return None, [], b""
    if request.content_type.startswith("multipart/"):
        body: Any = None
        files: list[RecordedFile] = []
        reader = await request.multipart()
        while True:
            part = await reader.next()
            if part is None:
                break
            if not isinstance(part, aiohttp.BodyPartReader):
                continue
            data = await part.read(decode=False)
            name = part.name or ""
            if name == "payload_json":
                body = json.loads(data.decode())
            else:
                files.append(
                    RecordedFile(name, part.filename or "", part.headers.get("Content-Type"), bytes(data))
                )
        return body, files, b""
    raw = await request.read()
    if not raw:
        return None, [], raw
    try:
        return json.loads(raw.decode()), [], raw
    except (UnicodeDecodeError, ValueError):
        return None, [], raw


def _empty_message(body: Mapping[str, Any], files: Sequence[RecordedFile]) -> bool:
    has = any(body.get(k) for k in ("content", "embeds", "components", "sticker_ids", "poll"))
    return not has and not files


def _command_problems(commands: Sequence[Any]) -> Payload:
    """Discord's main checks on a bulk command overwrite (names, descriptions, counts)."""
    problems: Payload = {}
    if len(commands) > 200:
        problems["_errors"] = [{"code": "BASE_TYPE_MAX_LENGTH", "message": "Too many commands"}]
    for index, command in enumerate(commands):
        errors = (
            _option_problems(command, chat_input=command.get("type", 1) == 1)
            if isinstance(command, dict)
            else {}
        )
        if not isinstance(command, dict):
            errors["_errors"] = [{"code": "DICT_TYPE_CONVERT"}]
        if errors:
            problems[str(index)] = errors
    names = [(c.get("name"), c.get("type", 1)) for c in commands if isinstance(c, dict)]
    if len(names) != len(set(names)):
        problems.setdefault("_errors", []).append({"code": "APPLICATION_COMMANDS_DUPLICATE_NAME"})
    return problems


def _option_problems(item: Mapping[str, Any], *, chat_input: bool) -> Payload:
    errors: Payload = {}
    name = item.get("name")
    if not isinstance(name, str) or not (
        _COMMAND_NAME.match(name) and name == name.lower() if chat_input else 1 <= len(name) <= 32
    ):
        errors["name"] = {"_errors": [{"code": "APPLICATION_COMMAND_INVALID_NAME", "message": repr(name)}]}
    description = item.get("description", "")
    if chat_input and not (isinstance(description, str) and 1 <= len(description) <= 100):
        errors["description"] = {"_errors": [{"code": "BASE_TYPE_BAD_LENGTH", "message": repr(description)}]}
    options = item.get("options") or []
    if len(options) > 25:
        errors["options"] = {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH"}]}
    for index, sub in enumerate(options):
        sub_errors = _option_problems(sub, chat_input=True)
        if len(sub.get("choices") or []) > 25:
            sub_errors["choices"] = {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH"}]}
        if sub_errors:
            errors.setdefault("options", {})[str(index)] = sub_errors
    return errors


def _short(value: Any, limit: int = 160) -> str:
    text = json.dumps(value, default=str) if value is not None else ""
    return text if len(text) <= limit else text[: limit - 3] + "..."
