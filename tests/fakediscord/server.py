"""The HTTP + gateway door: the REST model served on 127.0.0.1, with a gateway, for a bot in another process.

Usage (pytest-asyncio, auto mode)::

    async with DiscordStandin(guilds=[guild_payload()]) as standin:
        env = standin.bot_env(DATABASE_URL=f"sqlite:///{tmp_path}/bot.db")  # + DISCORD_TOKEN, _API_BASE
        async with await BotProcess.start([sys.executable, "-m", "bot"], env=env, log_path=...) as bot:
            standin.watch(bot.exited)  # waits give up at once if the bot dies
            await standin.wait_ready()  # IDENTIFY received, READY + GUILD_CREATE sent
            exchange = await standin.interaction(slash("ping", {"text": "hi"}))
            assert exchange.response["type"] == 4  # the accepted callback's body
            dropped = await standin.drop_connection(4000)  # or None: TCP abort, no close frame
            assert await standin.wait_reconnected(dropped) == "resume"
        standin.validate_requests()  # bodies vs Discord's OpenAPI spec (+ the fake's answers)

REST is ``rest.FakeDiscord`` (this class is one), under ``/api/v10``: the bot sets
``discord.http.Route.BASE = standin.api_base``. The gateway (``ws://127.0.0.1:PORT/gateway``, as
``GET /gateway/bot`` says): HELLO, IDENTIFY -> READY + GUILD_CREATE per guild, heartbeats, RESUME (missed
dispatches replayed, then RESUMED), invalid sessions (op 9), the documented close codes, and transport
compression ``zlib-stream`` or ``zstd-stream`` (as the ``compress`` query parameter asks).

Sharding (``DiscordStandin(shard_count=2)``): ``GET /gateway/bot`` recommends ``shards`` and gives
``session_start_limit.max_concurrency``; an IDENTIFY names its ``shard`` ``[id, count]`` (a wrong one
closes 4010, none while there are several shards 4011) and gets READY with the guilds of that shard
only, ``(guild_id >> 22) % shard_count``. Every event of a guild goes to the sessions of its shard.
As on Discord, a shard may have two live sessions at once (a hand-over between two processes): the
interactions of its guilds then go to them in turn, other events to both.

A non-sharded discord.py ``Client`` never calls ``GET /gateway/bot``: it dials
``DiscordWebSocket.DEFAULT_GATEWAY``. A bot pointed here must set it from ``GET /gateway/bot`` itself
(see ``tests/e2e/tiny_bot.py``); otherwise ``wait_ready`` times out with a message saying so.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import re
import secrets
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import aiohttp
from aiohttp import web

from .payloads import DEFAULT_APP_ID, Payload, guild_payload
from .rest import FakeDiscord, FakeTimeout, FakeUnreachable, Interaction, RecordedFile, RecordedRequest

HOST = "127.0.0.1"
API_PREFIX = re.compile(r"^/api/v\d+(?=/|$)")

# Gateway opcodes.
OP_DISPATCH, OP_HEARTBEAT, OP_IDENTIFY, OP_RESUME = 0, 1, 2, 6
OP_REQUEST_MEMBERS, OP_INVALID_SESSION, OP_HELLO, OP_HEARTBEAT_ACK = 8, 9, 10, 11
CLIENT_OPS = {OP_HEARTBEAT, OP_IDENTIFY, 3, 4, OP_RESUME, OP_REQUEST_MEMBERS, 31}  # 3, 4, 31: ignored

# Gateway close codes (https://discord.com/developers/docs/topics/opcodes-and-status-codes).
CLOSE_UNKNOWN_ERROR, CLOSE_UNKNOWN_OPCODE, CLOSE_DECODE_ERROR = 4000, 4001, 4002
CLOSE_NOT_AUTHENTICATED, CLOSE_AUTHENTICATION_FAILED, CLOSE_ALREADY_AUTHENTICATED = 4003, 4004, 4005
CLOSE_INVALID_SHARD, CLOSE_SHARDING_REQUIRED = 4010, 4011
CLOSE_INVALID_API_VERSION, CLOSE_DISALLOWED_INTENTS = 4012, 4014

PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15)  # members, presences, message content
TRACE = ['["fake-discord",{"micros":0}]']


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
    shard: int = 0
    seq: int = 0
    events: list[Payload] = field(default_factory=list)  # every dispatch of the session, for RESUME
    connection: GatewayConnection | None = None
    invalid: bool = False


class DiscordStandin(FakeDiscord):
    """The REST model over HTTP, plus a gateway. ``async with DiscordStandin(...) as standin:``."""

    def __init__(
        self,
        *,
        guilds: Sequence[Payload] | None = None,
        token: str | None = None,
        app_id: int = DEFAULT_APP_ID,
        heartbeat_interval_ms: int = 41250,
        allowed_intents: int | None = None,
        require_synced_commands: bool = True,
        shard_count: int = 1,
        max_concurrency: int = 1,
        **rest: Any,
    ) -> None:
        guilds = [guild_payload()] if guilds is None else guilds
        super().__init__(application_id=app_id, guilds=guilds, token=token, **rest)
        self.shard_count = shard_count
        self.max_concurrency = max_concurrency
        self.heartbeat_interval_ms = heartbeat_interval_ms
        #: Intents the application may use; IDENTIFY asking for a privileged one outside it closes 4014.
        self.allowed_intents = allowed_intents if allowed_intents is not None else (1 << 26) - 1
        self.require_synced_commands = require_synced_commands
        #: Answer heartbeats (turn off to make the bot see a zombie connection).
        self.ack_heartbeats = True
        self.connections: list[GatewayConnection] = []
        self.gateway_log: list[GatewayFrame] = []
        self.session: GatewaySession | None = None  # the newest session (of any shard)
        self.sessions: list[GatewaySession] = []
        self._turns = 0  # which live session of a shard gets the next interaction
        self._gateway_lock = asyncio.Lock()
        self._runner: web.AppRunner | None = None
        self.port = 0

    @property
    def app_id(self) -> int:
        return self.application_id

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
        await web.TCPSite(self._runner, HOST, 0).start()
        self.port = int(self._runner.addresses[0][1])

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

    def describe(self, last: int = 15) -> str:
        lines = [f"stand-in at {self.base_url}, {len(self.connections)} gateway connections"]
        if not self.connections:
            lines.append(
                "  the bot never opened the gateway: a non-sharded discord.py client dials"
                " DiscordWebSocket.DEFAULT_GATEWAY (wss://gateway.discord.gg/) unless the bot sets it from"
                " GET /gateway/bot"
            )
        for c in self.connections[-3:]:
            lines.append(f"  gateway #{c.index}: compress={c.compress} kind={c.kind} close={c.close_code}")
        return "\n".join([*lines, super().describe(last)])

    # ---------------------------------------------------------------- waiting for the gateway
    async def wait_ready(self, within: float = 15.0) -> Payload:
        """Until the bot IDENTIFYed and got READY plus its GUILD_CREATEs; returns the IDENTIFY ``d``."""

        def ready() -> Payload | None:
            return next(
                (c.identify for c in self.connections if c.kind == "identify" and c.established_at), None
            )

        found: Payload = await self.wait_for(ready, within=within, what="the bot to IDENTIFY")
        return found

    async def wait_shards(
        self, shards: Sequence[int] | None = None, *, since: float = 0.0, within: float = 20.0
    ) -> dict[int, GatewayConnection]:
        """Until each of ``shards`` (default: all) has a connection opened at or after ``since`` (a
        ``time.monotonic()``) that IDENTIFYed and got its READY; returns them by shard."""
        wanted = list(range(self.shard_count)) if shards is None else list(shards)

        def ready() -> dict[int, GatewayConnection] | None:
            found = {
                shard_of_identify(c.identify): c
                for c in self.connections
                if c.kind == "identify" and c.established_at and c.opened_at >= since and not c.ws.closed
            }
            return found if all(s in found for s in wanted) else None

        what = f"shards {wanted} to IDENTIFY"
        connected: dict[int, GatewayConnection] = await self.wait_for(ready, within=within, what=what)
        return connected

    def shard_of(self, guild_id: int | str) -> int:
        """The shard that serves ``guild_id``, as Discord routes it."""
        return (int(guild_id) >> 22) % self.shard_count

    def guilds_of(self, shard: int) -> list[Payload]:
        return [g for g in self.guilds if self.shard_of(g["id"]) == shard]

    @property
    def current_connection(self) -> GatewayConnection | None:
        session = self.session
        if session is None or session.connection is None or session.connection.ws.closed:
            return None
        return session.connection

    def live_sessions(self, shard: int) -> list[GatewaySession]:
        """The sessions of ``shard`` with an open connection, oldest first."""
        return [
            s
            for s in self.sessions
            if s.shard == shard and not s.invalid and s.connection is not None and not s.connection.ws.closed
        ]

    async def drop_connection(self, code: int | None = CLOSE_UNKNOWN_ERROR) -> GatewayConnection:
        """Close the bot's gateway connection: with a close ``code`` (4000 = resumable), or with ``None``
        abort the TCP connection without a close frame. Returns the dropped connection."""
        conn = self.current_connection
        if conn is None:
            raise AssertionError(f"no gateway connection to drop\n{self.describe()}")
        conn.closed_by_standin = True
        try:
            if code is None:
                raise ConnectionError
            await asyncio.wait_for(conn.ws.close(code=code, message=b"dropped by the stand-in"), 2.0)
        except (TimeoutError, ConnectionError):
            if conn.request.transport is not None:
                conn.request.transport.abort()
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
            return next(
                (c.kind for c in self.connections if c.index > floor and c.established_at and c.kind), None
            )

        kind: Literal["identify", "resume"] = await self.wait_for(
            reconnected, within=within, what="the bot to reconnect"
        )
        return kind

    async def wait_disconnected(self, within: float = 10.0) -> GatewayConnection:
        """Until the bot's gateway connection is closed (e.g. after SIGTERM); returns that connection."""
        if not self.connections:
            raise AssertionError("the bot never connected")
        last = self.connections[-1]
        await self.wait_for(
            lambda: last.closed_at is not None, within=within, what="the gateway to close", watched=False
        )
        return last

    # ---------------------------------------------------------------- interactions
    async def interaction(self, payload: Payload, *, within: float = 10.0, wait: bool = True) -> Interaction:
        """Send INTERACTION_CREATE to the bot; with ``wait`` return once its callback was accepted (2xx).

        The payload is completed as Discord sends it (``complete_interaction``: this application's id, the
        synced command's ``data.id`` and ``data.guild_id``). If the bot is not connected the event is
        queued in the session and replayed when it RESUMEs, as Discord does.
        """
        exchange = self.track_interaction(payload)
        exchange.sent_at = time.monotonic()
        await self.dispatch("INTERACTION_CREATE", exchange.payload)
        if wait:
            await exchange.wait_callback(within=within)
        return exchange

    def track_interaction(self, payload: Payload) -> Interaction:
        """Register an interaction without sending it (its callback/webhook calls are then accepted)."""
        return self.register_interaction(self.complete_interaction(dict(payload)))

    # ---------------------------------------------------------------- REST over HTTP
    async def _rest_handler(self, request: web.Request) -> web.StreamResponse:
        prefix = API_PREFIX.match(request.path)
        try:
            body, files, raw = await _decode_body(request)
        except (ValueError, aiohttp.ClientError):  # unparseable multipart / payload_json: keep the record
            body, files, raw = None, [], b""
        record = RecordedRequest(
            method=request.method,
            path=(request.path[prefix.end() :] or "/") if prefix else str(request.url),
            json=body,
            query=dict(request.query),
            files=files,
            headers=dict(request.headers),
            url=str(request.url),
            raw=raw,
        )
        try:
            status, answer = await self.handle(record)
        except (FakeTimeout, FakeUnreachable):
            if request.transport is not None:
                request.transport.abort()  # the answer is lost: the client's read fails
            return web.Response(status=500)
        if isinstance(answer, bytes | str):
            return web.Response(body=answer if isinstance(answer, bytes) else answer.encode(), status=status)
        if status == 204 or answer is None:
            return web.Response(status=status)
        # Exactly "application/json", as Discord sends: discord.py's json_or_text() compares the header
        # verbatim, so aiohttp's default "application/json; charset=utf-8" would reach the bot as text.
        return web.Response(
            body=json.dumps(answer).encode(), status=status, headers={"Content-Type": "application/json"}
        )

    # ---------------------------------------------------------------- gateway: dispatching
    async def dispatch(self, event: str, data: Payload) -> int:
        """Send a dispatch (op 0) to the sessions of the shard of its guild: an interaction to one of
        them in turn, anything else to each; queued for RESUME in the newest session of the shard when
        none is connected. Returns s (of the last session it went to)."""
        guild_id = data.get("guild_id") or (data.get("id") if event.startswith("GUILD_") else None)
        shard = self.shard_of(guild_id) if guild_id is not None else 0
        async with self._gateway_lock:
            targets = self.live_sessions(shard)
            if targets and event == "INTERACTION_CREATE":
                self._turns += 1
                targets = [targets[self._turns % len(targets)]]
            if not targets:
                valid = [s for s in self.sessions if s.shard == shard and not s.invalid]
                targets = valid[-1:] or [s for s in self.sessions if s.shard == shard][-1:]
            if not targets:
                raise AssertionError(f"no gateway session of shard {shard} for {event}\n{self.describe()}")
            seq = 0
            for session in targets:
                seq = await self._dispatch_locked(session, event, data)
            return seq

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
        op, t, s, d = frame.get("op"), frame.get("t"), frame.get("s"), frame.get("d")
        self.gateway_log.append(GatewayFrame("send", conn.index, op, t, s, d, time.monotonic()))
        self._bump()

    # ---------------------------------------------------------------- gateway: connection
    async def _gateway_handler(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(compress=True, autoping=True, max_msg_size=16 * 1024 * 1024)
        await ws.prepare(request)
        query = dict(request.query)
        compress = query.get("compress")
        conn = GatewayConnection(len(self.connections), query, compress, time.monotonic(), ws, request)
        self.connections.append(conn)
        self._bump()
        try:
            if query.get("v") != "10":
                return await self._close(conn, CLOSE_INVALID_API_VERSION, "Invalid API version.")
            if query.get("encoding", "json") != "json":
                return await self._close(conn, CLOSE_DECODE_ERROR, "Only encoding=json is spoken here.")
            if compress is not None:
                conn.encoder = make_encoder(compress)
                if conn.encoder is None:
                    return await self._close(conn, CLOSE_DECODE_ERROR, f"Cannot compress with {compress}.")
            hello = {"heartbeat_interval": self.heartbeat_interval_ms}
            await self._send(conn, {"op": OP_HELLO, "d": hello, "s": None, "t": None})
            async for msg in ws:
                if msg.type not in (aiohttp.WSMsgType.TEXT, aiohttp.WSMsgType.BINARY):
                    break
                text = msg.data if msg.type is aiohttp.WSMsgType.TEXT else msg.data.decode("utf-8", "replace")
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
            session = next((s for s in self.sessions if s.connection is conn), None)
            if session is not None:
                session.connection = None
                # A client closing with 1000/1001 ends its session (Discord invalidates it).
                if not conn.closed_by_standin and conn.close_code in (1000, 1001):
                    session.invalid = True
            self._bump()
        return ws

    async def _close(self, conn: GatewayConnection, code: int, reason: str) -> web.WebSocketResponse:
        conn.closed_by_standin = True
        with contextlib.suppress(Exception):
            await asyncio.wait_for(conn.ws.close(code=code, message=reason.encode()), 2.0)
        return conn.ws

    async def _on_frame(self, conn: GatewayConnection, frame: Payload) -> None:
        op, data = frame.get("op"), frame.get("d")
        self.gateway_log.append(GatewayFrame("recv", conn.index, op, None, None, data, time.monotonic()))
        self._bump()
        data = data if isinstance(data, dict) else {}
        if op not in CLIENT_OPS:
            await self._close(conn, CLOSE_UNKNOWN_OPCODE, "Unknown opcode.")
        elif op == OP_HEARTBEAT:
            conn.heartbeats += 1
            if self.ack_heartbeats:
                await self._send(conn, {"op": OP_HEARTBEAT_ACK, "d": None, "s": None, "t": None})
        elif op in (OP_IDENTIFY, OP_RESUME):
            if conn.kind is not None:
                await self._close(conn, CLOSE_ALREADY_AUTHENTICATED, "Already authenticated.")
            elif not (
                isinstance(data.get("token"), str) and data["token"].removeprefix("Bot ") == self.token
            ):
                await self._close(conn, CLOSE_AUTHENTICATION_FAILED, "Authentication failed.")
            elif op == OP_IDENTIFY:
                await self._on_identify(conn, data)
            else:
                await self._on_resume(conn, data)
        elif conn.kind is None:
            await self._close(conn, CLOSE_NOT_AUTHENTICATED, "Not authenticated.")
        elif op == OP_REQUEST_MEMBERS:
            guild_id = str(data.get("guild_id"))
            guild = next((g for g in self.guilds if g["id"] == guild_id), None)
            members = self.guild_create(guild)["members"] if guild is not None else []
            chunk = {
                "guild_id": guild_id,
                "members": members,
                "chunk_index": 0,
                "chunk_count": 1,
                "not_found": [],
            }
            if "nonce" in data:
                chunk["nonce"] = data["nonce"]
            await self.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    async def _on_identify(self, conn: GatewayConnection, data: Payload) -> None:
        if int(data.get("intents", 0)) & PRIVILEGED_INTENTS & ~self.allowed_intents:
            await self._close(conn, CLOSE_DISALLOWED_INTENTS, "Disallowed intent(s).")
            return
        shard = data.get("shard")
        if shard is None and self.shard_count > 1:
            await self._close(conn, CLOSE_SHARDING_REQUIRED, "Sharding required.")
            return
        if shard is not None and not (
            isinstance(shard, list)
            and len(shard) == 2
            and shard[1] == self.shard_count
            and isinstance(shard[0], int)
            and 0 <= shard[0] < shard[1]
        ):
            await self._close(conn, CLOSE_INVALID_SHARD, "Invalid shard.")
            return
        shard_id = shard_of_identify(data)
        conn.identify, conn.kind = data, "identify"
        self.session_start_remaining -= 1
        async with self._gateway_lock:
            # Other sessions stay valid: Discord lets two sessions serve one shard (a hand-over).
            session = GatewaySession(
                session_id=secrets.token_hex(16), identify=data, shard=shard_id, connection=conn
            )
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
                "guilds": [{"id": g["id"], "unavailable": True} for g in self.guilds_of(shard_id)],
                "session_id": session.session_id,
                "session_type": "normal",
                "resume_gateway_url": self.gateway_url,
                "application": {"id": str(self.application_id), "flags": self.application_flags},
                "auth": {},
                "_trace": TRACE,
            }
            if "shard" in data:
                ready["shard"] = data["shard"]
            await self._dispatch_locked(session, "READY", ready)
            for guild in self.guilds_of(shard_id):
                await self._dispatch_locked(session, "GUILD_CREATE", self.guild_create(guild))
            conn.established_at = time.monotonic()
        self._bump()

    async def _on_resume(self, conn: GatewayConnection, data: Payload) -> None:
        conn.resume = data
        async with self._gateway_lock:
            session = next((s for s in self.sessions if s.session_id == data.get("session_id")), None)
            if session is None or session.invalid:
                conn.invalidated = True
                await self._send(conn, {"op": OP_INVALID_SESSION, "d": False, "s": None, "t": None})
                return
            conn.kind = "resume"
            old, session.connection = session.connection, conn
            if old is not None and old is not conn and not old.ws.closed:
                old.closed_by_standin = True
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(old.ws.close(code=CLOSE_UNKNOWN_ERROR), 1.0)
            since = int(data.get("seq") or 0)
            for frame in session.events:
                if frame["s"] > since:
                    await self._send(conn, frame)
            await self._dispatch_locked(session, "RESUMED", {"_trace": TRACE})
            conn.established_at = time.monotonic()
        self._bump()


def shard_of_identify(identify: Payload | None) -> int:
    """The shard id an IDENTIFY names (0 when it names none)."""
    shard = (identify or {}).get("shard")
    return int(shard[0]) if isinstance(shard, list) and shard else 0


def make_encoder(kind: str) -> Callable[[bytes], bytes] | None:
    """Server side of the gateway transport compression discord.py asks for (``compress=`` query)."""
    if kind == "zlib-stream":
        # One zlib context per connection; every message ends with a Z_SYNC_FLUSH (00 00 ff ff),
        # which is how discord.py knows a message is complete.
        deflate = zlib.compressobj()
        return lambda data: deflate.compress(data) + deflate.flush(zlib.Z_SYNC_FLUSH)
    if kind == "zstd-stream":
        # One zstd stream per connection; every websocket message is one flushed block.
        with contextlib.suppress(ImportError):
            zstandard: Any = importlib.import_module("zstandard")
            cobj = zstandard.ZstdCompressor().compressobj()
            return lambda data: bytes(cobj.compress(data) + cobj.flush(zstandard.COMPRESSOBJ_FLUSH_BLOCK))
        with contextlib.suppress(ImportError):
            stdlib_zstd: Any = importlib.import_module("compression.zstd")
            compressor, mode = stdlib_zstd.ZstdCompressor(), stdlib_zstd.ZstdCompressor.FLUSH_BLOCK
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
        while (part := await reader.next()) is not None:
            if not isinstance(part, aiohttp.BodyPartReader):
                continue
            data = await part.read(decode=False)
            if part.name == "payload_json":
                body = json.loads(data.decode())
            else:
                content_type = part.headers.get("Content-Type")
                files.append(RecordedFile(part.name or "", part.filename or "", content_type, bytes(data)))
        return body, files, b""
    raw = await request.read()
    try:
        return (json.loads(raw.decode()) if raw else None), [], raw
    except (UnicodeDecodeError, ValueError):
        return None, [], raw
