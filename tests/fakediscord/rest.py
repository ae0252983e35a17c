"""The REST model: Discord's HTTP API as one in-memory object, whatever door the request came in by.

Both doors (``inprocess.FakeSession`` for the command tests, ``server.DiscordStandin`` over real HTTP)
turn a request into a ``RecordedRequest`` and hand it to ``FakeDiscord.handle``, which records it,
applies the faults, routes it and answers ``(status, body)`` like Discord: login, gateway discovery,
application commands, interaction callbacks and webhooks, channel messages. ``interactions`` (by token)
and ``messages`` (by id) hold the server-side state; a new endpoint is one ``route()``.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import itertools
import re
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import aiohttp

from .payloads import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    CDN,
    CDN_BASE,
    DEFAULT_APP_ID,
    DEFAULT_BOT_NAME,
    DEFAULT_OWNER_ID,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    Payload,
    clone,
    iso,
    member_payload,
    snowflake,
    snowflake_iso,
    user_payload,
)

T = TypeVar("T")

#: Message flags.
SUPPRESS_EMBEDS, EPHEMERAL, LOADING = 1 << 2, 1 << 6, 1 << 7
#: Interaction callback types.
CB_PONG, CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE, CB_UPDATE = 1, 4, 5, 6, 7
CB_AUTOCOMPLETE, CB_MODAL, CB_LAUNCH_ACTIVITY = 8, 9, 12
CALLBACK_TYPES = {1, 4, 5, 6, 7, 8, 9, 12}

ROUTE_CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"
ROUTE_WEBHOOK = "/webhooks/{webhook_id}/{webhook_token}"
ROUTE_ORIGINAL = "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
ROUTE_WEBHOOK_MESSAGE = "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"
ROUTE_GLOBAL_COMMANDS = "/applications/{application_id}/commands"
ROUTE_GUILD_COMMANDS = "/applications/{application_id}/guilds/{guild_id}/commands"
ROUTE_CHANNEL_MESSAGES = "/channels/{channel_id}/messages"
ROUTE_CHANNEL_MESSAGE = "/channels/{channel_id}/messages/{message_id}"

#: Unverified bots: presence / members / message-content intents "limited", plus the commands badge.
DEFAULT_APPLICATION_FLAGS = (1 << 13) | (1 << 15) | (1 << 19) | (1 << 23)

Answer = tuple[int, Any]
Handler = Callable[["RecordedRequest", dict[str, str]], "Answer | Awaitable[Answer]"]

_REASONS = {200: "OK", 204: "No Content", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden"}
_REASONS |= {404: "Not Found", 429: "Too Many Requests", 500: "Internal Server Error"}
_REASONS |= {502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout"}
_NULLABLE_COMMAND_FIELDS = {
    "default_member_permissions",
    "contexts",
    "name_localizations",
    "description_localizations",
}
_COMMAND_NAME = re.compile(r"^[-_'\w]{1,32}$")


class FakeTimeout(aiohttp.ServerTimeoutError):
    """A hung request gave up, as a socket read time-out (an ``asyncio.TimeoutError``) would."""


class FakeUnreachable(aiohttp.ClientOSError):
    """A request that could not even be sent: an OS error opening its connection (no file left)."""


def reason(status: int) -> str:
    return _REASONS.get(status, "Unknown")


# --------------------------------------------------------------------------------------------------
# Records
# --------------------------------------------------------------------------------------------------


@dataclass
class RecordedFile:
    """One file sent in a multipart request."""

    field: str  # the form field, e.g. "files[0]"
    filename: str
    content_type: str | None
    data: bytes


@dataclass
class RecordedRequest:
    """One HTTP request the bot made, with the fake's answer."""

    method: str
    #: Without /api/v10 and without the query, e.g. "/webhooks/1/abc/messages/@original"; the full URL
    #: for anything that is not the REST API (CDN downloads...).
    path: str
    json: Any  # decoded JSON body (or the multipart ``payload_json``), None without a body
    query: dict[str, str]
    files: list[RecordedFile] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)
    url: str = ""
    seq: int = 0
    at: float = field(default_factory=time.monotonic)
    dispatch_id: int | None = None  # the in-process dispatch it belongs to
    route: str | None = None  # the OpenAPI path template that handled it, None when unhandled
    params: dict[str, str] = field(default_factory=dict)
    status: int | None = None  # None while it is being answered (or hung by a fault)
    response: Any = None
    answered_at: float | None = None
    error: BaseException | None = None  # what the client got instead of an answer (a time-out)
    fault: Fault | None = None
    message_id: int | None = None  # the message this request created or edited
    raw: bytes = b""

    @property
    def is_api(self) -> bool:
        return self.path.startswith("/")

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300

    @property
    def token(self) -> str | None:
        """The interaction token in the path (callbacks and interaction webhooks)."""
        return self.params.get("interaction_token") or self.params.get("webhook_token")

    @property
    def filenames(self) -> list[str]:
        return [f.filename for f in self.files]

    @property
    def file_bytes(self) -> dict[str, bytes]:
        return {f.filename: f.data for f in self.files}

    def __repr__(self) -> str:
        status = self.status if self.error is None else type(self.error).__name__
        return f"<RecordedRequest #{self.seq} {self.method} {self.path} -> {status}>"


def template_regex(template: str) -> re.Pattern[str]:
    """'/interactions/{id}/{token}/callback' -> regex; ``{name}`` is one path segment, '*' anything."""
    out = []
    for part in re.split(r"(\{[^}/]*\}|\*)", template):
        if part == "*":
            out.append(".*")
        elif part.startswith("{") and part.endswith("}"):
            out.append(f"(?P<{part[1:-1]}>[^/]+)" if part[1:-1].isidentifier() else "[^/]+")
        else:
            out.append(re.escape(part))
    return re.compile("^" + "".join(out) + "$")


@dataclass
class Fault:
    """A failure rule for the next ``times`` (None: every) request matching ``method`` + ``path``.

    ``path`` is a template (``{x}`` one segment, ``*`` the rest). The request waits ``delay`` seconds
    (None: until the fake closes), then: with ``timeout`` the client gets a read time-out
    (``aiohttp.ServerTimeoutError`` in-process; the HTTP door drops the connection); else ``status`` is
    answered with ``body``, or the normal answer when ``status`` is None (a late answer). ``process``:
    the fake first applies the request ("Discord did it, the answer was lost"). ``token``: only requests
    about that interaction; ``match``: any other predicate.
    """

    method: str
    path: str
    status: int | None = 500
    body: Any = None
    times: int | None = 1
    delay: float | None = 0.0
    timeout: bool = False
    process: bool = False
    token: str | None = None
    match: Callable[[RecordedRequest], bool] | None = None
    unreachable: bool = False
    hits: list[RecordedRequest] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._regex = template_regex(self.path)

    @property
    def exhausted(self) -> bool:
        return self.times is not None and len(self.hits) >= self.times

    def matches(self, request: RecordedRequest) -> bool:
        return (
            not self.exhausted
            and self.method in ("*", request.method)
            and (self.token is None or request.token == self.token)
            and self._regex.match(request.path) is not None
            and (self.match is None or self.match(request))
        )


@dataclass(eq=False)
class Interaction:
    """One interaction Discord delivered, and what the bot did about it (callback, @original, follow-ups)."""

    fake: FakeDiscord = field(repr=False)
    payload: Payload = field(repr=False)
    dispatch_id: int | None = None
    sent_at: float = field(default_factory=time.monotonic)
    callback_type: int | None = None
    callback_data: Payload | None = None
    original_id: int | None = None  # the message @original designates
    original_deleted: bool = False
    followup_ids: list[int] = field(default_factory=list)
    requests: list[RecordedRequest] = field(default_factory=list, repr=False)

    @property
    def id(self) -> int:
        return int(self.payload["id"])

    @property
    def token(self) -> str:
        return str(self.payload["token"])

    @property
    def type(self) -> int:
        return int(self.payload["type"])

    @property
    def user(self) -> Payload:
        member = self.payload.get("member")
        found: Payload = member["user"] if member else self.payload.get("user") or {}
        return found

    @property
    def acknowledged(self) -> bool:
        return self.callback_type is not None

    # ---- the messages, as Discord holds them now
    @property
    def original(self) -> Payload | None:
        if self.original_id is None or self.original_deleted:
            return None
        return self.fake.messages.get(self.original_id)

    @property
    def followups(self) -> list[Payload]:
        """The follow-up messages (the first after a deferral is also the original: it replaced it)."""
        return [self.fake.messages[i] for i in self.followup_ids if i in self.fake.messages]

    # ---- the requests
    @property
    def callbacks(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.route == ROUTE_CALLBACK]

    @property
    def callback(self) -> RecordedRequest:
        """The callback Discord accepted (2xx)."""
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
    def latency(self) -> float | None:
        """Seconds from delivering the interaction to the arrival of the accepted callback."""
        accepted = [r for r in self.callbacks if r.ok]
        return accepted[0].at - self.sent_at if accepted else None

    # ---- waiting (for a bot in another process)
    async def wait_request(
        self, predicate: Callable[[RecordedRequest], bool], *, within: float = 10.0, what: str = "a request"
    ) -> RecordedRequest:
        """The first answered request about this interaction that satisfies ``predicate``."""

        def found() -> RecordedRequest | None:
            return next((r for r in self.requests if r.status is not None and predicate(r)), None)

        return await self.fake.wait_for(found, within=within, what=f"{what} for interaction {self.id}")

    async def wait_callback(self, *, within: float = 10.0, ok: bool = True) -> RecordedRequest:
        """The callback (accepted, or with ``ok=False`` the first one, whatever its answer)."""
        return await self.wait_request(
            lambda r: r.route == ROUTE_CALLBACK and (r.ok or not ok), within=within, what="the callback"
        )

    async def wait_followup(self, count: int = 1, *, within: float = 10.0) -> RecordedRequest:
        """The ``count``-th accepted follow-up (``POST /webhooks/{app}/{token}``)."""
        return await self._wait_nth(ROUTE_WEBHOOK, "POST", count, within)

    async def wait_edit(self, count: int = 1, *, within: float = 10.0) -> RecordedRequest:
        """The ``count``-th accepted ``PATCH .../messages/@original``."""
        return await self._wait_nth(ROUTE_ORIGINAL, "PATCH", count, within)

    async def _wait_nth(self, route: str, method: str, count: int, within: float) -> RecordedRequest:
        def found() -> RecordedRequest | None:
            matching = [r for r in self.requests if r.ok and r.route == route and r.method == method]
            return matching[count - 1] if len(matching) >= count else None

        return await self.fake.wait_for(found, within=within, what=f"{method} #{count} for {self.id}")


def error(status: int, code: int, message: str, errors: Any = None) -> Answer:
    body: Payload = {"message": message, "code": code}
    if errors is not None:
        body["errors"] = errors
    return status, body


UNKNOWN_INTERACTION = (404, 10062, "Unknown interaction")
ALREADY_ACKNOWLEDGED = (400, 40060, "Interaction has already been acknowledged.")
UNKNOWN_WEBHOOK = (404, 10015, "Unknown Webhook")
UNKNOWN_MESSAGE = (404, 10008, "Unknown Message")
EMPTY_MESSAGE = (400, 50006, "Cannot send an empty message")
MISSING_ACCESS = (403, 50001, "Missing Access")


@dataclass
class _Route:
    method: str
    template: str
    regex: re.Pattern[str]
    handler: Handler
    auth: bool


# --------------------------------------------------------------------------------------------------
# The model
# --------------------------------------------------------------------------------------------------


class FakeDiscord:
    """Discord's REST API in memory, recording every request (``requests``, in arrival order).

    ``interactions`` maps tokens to ``Interaction``; ``messages`` maps ids to the messages as Discord
    holds them; ``commands`` the synced application commands (key None: global, else the guild id);
    ``guilds`` the GUILD_CREATE payloads of the bot's servers; ``unhandled`` the requests no route knew.
    """

    def __init__(
        self,
        *,
        application_id: int = DEFAULT_APP_ID,
        bot_name: str = DEFAULT_BOT_NAME,
        owner_id: int = DEFAULT_OWNER_ID,
        guilds: Sequence[Payload] = (),
        token: str | None = None,
        application_flags: int = DEFAULT_APPLICATION_FLAGS,
    ) -> None:
        self.application_id = application_id
        self.token = token or f"fake.{secrets.token_urlsafe(24)}"
        self.bot_user: Payload = user_payload(application_id, username=bot_name, bot=True)
        self.bot_user.update({"verified": True, "mfa_enabled": False, "email": None, "locale": "en-US"})
        self.owner: Payload = user_payload(owner_id, username="owner")
        self.application_flags = application_flags
        self.guilds: list[Payload] = [dict(g) for g in guilds]
        self.requests: list[RecordedRequest] = []
        self.unhandled: list[RecordedRequest] = []
        self.faults: list[Fault] = []
        self.interactions: dict[str, Interaction] = {}
        self.messages: dict[int, Payload] = {}
        self.commands: dict[int | None, list[Payload]] = {}
        #: Seconds after delivery within which a callback must arrive, as on Discord (3 s); a later one is
        #: refused with 404 "Unknown interaction" (10062). None: no deadline.
        self.callback_deadline: float | None = None
        #: Refuse to deliver an application command the bot never synced (``complete_interaction``).
        self.require_synced_commands = False
        self.session_start_remaining = 1000
        #: What ``GET /gateway/bot`` recommends (``shards``) and allows (``max_concurrency``).
        self.shard_count = 1
        self.max_concurrency = 1
        self.client: Any = None  # the in-process client, set by ``connect``
        self._seq = itertools.count(1)
        self._changed = asyncio.Event()
        self._closing = asyncio.Event()
        self._watchdogs: list[Callable[[], str | None]] = []
        self._routes: list[_Route] = []
        self._install_routes()

    @property
    def gateway_url(self) -> str:
        return "wss://gateway.discord.gg"

    # ---------------------------------------------------------------- faults
    def fail(
        self,
        method: str,
        path: str,
        *,
        status: int | None = 500,
        times: int | None = 1,
        body: Any = None,
        delay: float | None = 0.0,
        process: bool = False,
        token: str | None = None,
        match: Callable[[RecordedRequest], bool] | None = None,
    ) -> Fault:
        """The next ``times`` requests to ``method path`` answer ``status`` (see ``Fault``), e.g.
        ``fake.fail("POST", "/interactions/{id}/{token}/callback")``. discord.py retries 500, 502, 504 and
        524 up to 5 times: ``times=5`` fails the call for good, ``times=1`` is a transient failure."""
        if body is None and status is not None:
            body = {"message": f"{status} {reason(status)} (injected)", "code": 0}
        fault = Fault(method.upper(), path, status, body, times, delay, False, process, token, match)
        self.faults.append(fault)
        return fault

    def hang(
        self,
        method: str,
        path: str,
        *,
        delay: float | None = 0.0,
        times: int | None = 1,
        process: bool = False,
        token: str | None = None,
        match: Callable[[RecordedRequest], bool] | None = None,
    ) -> Fault:
        """The next matching requests wait ``delay`` seconds (None: until closed), then time out."""
        fault = Fault(method.upper(), path, None, None, times, delay, True, process, token, match)
        self.faults.append(fault)
        return fault

    def unreachable(
        self, method: str, path: str, *, times: int | None = 1, token: str | None = None
    ) -> Fault:
        """The next matching requests fail before they are sent, on an OS error (``FakeUnreachable``,
        errno EMFILE, as aiohttp raises when the process has no file left to open a connection; over
        HTTP, the connection is dropped). Nothing is applied."""
        fault = Fault(
            method.upper(), path, None, None, times, 0.0, False, False, token, None, unreachable=True
        )
        self.faults.append(fault)
        return fault

    def fail_callbacks(self, count: int = 1, *, status: int = 500, token: str | None = None) -> Fault:
        """The next ``count`` interaction callbacks answer ``status``."""
        return self.fail("POST", ROUTE_CALLBACK, status=status, times=count, token=token)

    def hang_callbacks(
        self,
        count: int = 1,
        *,
        seconds: float | None = None,
        status: int | None = 503,
        token: str | None = None,
    ) -> Fault:
        """The next ``count`` callbacks get no answer for ``seconds`` (None: until the fake closes), then
        ``status`` (None: the normal answer, late)."""
        return self.fail("POST", ROUTE_CALLBACK, status=status, times=count, delay=seconds, token=token)

    def clear_faults(self) -> None:
        self.faults.clear()

    # ---------------------------------------------------------------- queries
    def route(self, method: str, template: str, handler: Handler, *, auth: bool = True) -> None:
        """Handle ``method template`` (an OpenAPI template) with ``handler(request, params) -> (status,
        body)``, sync or async; later routes win over earlier ones."""
        self._routes.insert(0, _Route(method.upper(), template, template_regex(template), handler, auth))

    def requests_for(
        self, method: str | None = None, path: str | None = None, *, dispatch_id: int | None = None
    ) -> list[RecordedRequest]:
        regex = template_regex(path) if path is not None else None
        return [
            r
            for r in self.requests
            if (method is None or r.method == method.upper())
            and (regex is None or regex.match(r.path))
            and (dispatch_id is None or r.dispatch_id == dispatch_id)
        ]

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

    def validate_requests(
        self, requests: Iterable[RecordedRequest] | None = None, *, strict: bool = False
    ) -> None:
        """Fail when a handled request body breaks Discord's OpenAPI spec, or when one of the fake's own
        2xx answers does (a self-check; injected answers aside). Skips the test when the spec is absent."""
        from . import openapi

        checker = openapi.validator(strict=strict)
        handled = [r for r in (self.requests if requests is None else requests) if r.route is not None]
        genuine = [r for r in handled if r.fault is None]
        problems = [*checker.violations(handled), *checker.response_violations(genuine)]
        if problems:
            listing = "\n  ".join(str(v) for v in problems)
            raise AssertionError(f"{len(problems)} problem(s) against Discord's OpenAPI spec:\n  {listing}")

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
        """Until ``probe()`` returns something truthy (re-checked whenever something happens). With
        ``watched``, give up as soon as a ``watch`` watchdog reports a problem."""
        deadline = time.monotonic() + within
        while True:
            result = probe()
            if result:
                return result
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"timed out after {within:.1f}s waiting for {what}\n{self.describe()}")
            for watchdog in self._watchdogs if watched else ():
                problem = watchdog()
                if problem:
                    raise AssertionError(f"gave up waiting for {what}: {problem}\n{self.describe()}")
            event = self._changed
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), min(remaining, 0.25))

    def watch(self, watchdog: Callable[[], str | None]) -> None:
        """Make every wait give up as soon as ``watchdog()`` returns a reason (e.g. the bot process died)."""
        self._watchdogs.append(watchdog)

    def describe(self, last: int = 15) -> str:
        """A short account of what happened (for failure messages)."""
        lines = [f"fake Discord: {len(self.requests)} requests"]
        for r in self.requests[-last:]:
            text = repr(r.response) if r.response is not None else ""
            lines.append(
                f"  {r.method} {r.path} -> {r.status} {text[:157] + '...' if len(text) > 160 else text}"
            )
        return "\n".join(lines)

    # ---------------------------------------------------------------- interactions and guilds
    def register_interaction(
        self, payload: Mapping[str, Any], *, dispatch_id: int | None = None
    ) -> Interaction:
        """Remember an interaction Discord delivers (its callback and webhook requests are then accepted).
        A component's message is the one Discord holds now, as it would send it."""
        interaction = Interaction(self, dict(payload), dispatch_id)
        message = interaction.payload.get("message")
        if message is not None:
            current = self.messages.setdefault(int(message["id"]), clone(dict(message)))
            interaction.payload["message"] = clone(current)
        self.interactions[interaction.token] = interaction
        return interaction

    def complete_interaction(self, payload: Payload) -> Payload:
        """Fill in what Discord adds: ids, token, the receiving application, and for application commands
        ``data.id`` and (guild commands) ``data.guild_id`` from the synced command of that name."""
        payload.setdefault("id", str(snowflake()))
        payload.setdefault("token", f"fake-token-{payload['id']}")
        payload["application_id"] = str(self.application_id)
        payload.setdefault("version", 1)
        if payload.get("type") not in (APPLICATION_COMMAND, AUTOCOMPLETE):
            return payload
        data = payload["data"] = dict(payload.get("data") or {})
        name, kind = data.get("name"), data.get("type", 1)
        guild_id = int(payload["guild_id"]) if payload.get("guild_id") else None
        for scope in ([guild_id] if guild_id is not None else []) + [None]:
            for command in self.commands.get(scope, []):
                if command["name"] == name and command.get("type", 1) == kind:
                    data["id"] = command["id"]  # the synced id wins over a builder's, as on Discord
                    if scope is not None:
                        data["guild_id"] = str(scope)
                    else:
                        data.pop("guild_id", None)
                    return payload
        if self.require_synced_commands:
            synced = {scope: [c["name"] for c in cmds] for scope, cmds in self.commands.items()}
            raise AssertionError(f"/{name} is not among the commands the bot synced: {synced}")
        return payload

    def guild_create(self, guild: Payload) -> Payload:
        """A guild as delivered to the bot: with the bot's own member (as Discord sends it)."""
        data = clone(guild)
        members = data.setdefault("members", [])
        if not any(m.get("user", {}).get("id") == self.bot_user["id"] for m in members):
            members.append(
                member_payload(
                    user_payload(self.application_id, username=self.bot_user["username"], bot=True)
                )
            )
        data["member_count"] = max(int(data.get("member_count") or 0), len(members))
        return data

    def forget(self, token: str) -> None:
        """Drop an interaction and its messages (for long runs: the bookkeeping would only grow)."""
        interaction = self.interactions.pop(token, None)
        if interaction is not None:
            for message_id in [interaction.original_id, *interaction.followup_ids]:
                if message_id is not None:
                    self.messages.pop(message_id, None)

    # ---------------------------------------------------------------- the entry point of both doors
    async def handle(self, record: RecordedRequest) -> Answer:
        """Record, fault, route and answer one request; sets ``record.status``/``response``. Raises
        ``FakeTimeout`` for a request a ``hang`` fault made time out."""
        record.seq = next(self._seq)
        self.requests.append(record)
        route = self._match(record) if record.is_api else None
        interaction = self.interactions.get(record.token or "")
        if interaction is not None:
            interaction.requests.append(record)
        self._bump()
        try:
            status, body = await self._faulted_or_answered(record, route)
        except (FakeTimeout, FakeUnreachable) as exc:
            record.error, record.answered_at = exc, time.monotonic()
            self._bump()
            raise
        record.status, record.response, record.answered_at = status, body, time.monotonic()
        self._bump()
        return status, body

    def _match(self, record: RecordedRequest) -> _Route | None:
        for route in self._routes:
            found = route.regex.match(record.path) if route.method == record.method else None
            if found is not None:
                record.route, record.params = route.template, found.groupdict()
                return route
        return None

    async def _faulted_or_answered(self, record: RecordedRequest, route: _Route | None) -> Answer:
        fault = next((f for f in self.faults if f.matches(record)), None)
        if fault is None:
            return await self._answer(record, route)
        fault.hits.append(record)
        record.fault = fault
        answer = await self._answer(record, route) if fault.process else None
        if fault.delay is None or fault.delay > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._closing.wait(), fault.delay)
        if fault.unreachable:
            raise FakeUnreachable(errno.EMFILE, "Too many open files")
        if fault.timeout:
            raise FakeTimeout(f"Timeout on reading data from socket ({record.method} {record.path})")
        if fault.status is not None:
            return fault.status, clone(fault.body)
        return answer if answer is not None else await self._answer(record, route)

    async def _answer(self, record: RecordedRequest, route: _Route | None) -> Answer:
        if not record.is_api:
            data = CDN.get(record.path)
            if record.method == "GET" and data is not None:
                return 200, data
        if route is None:
            self.unhandled.append(record)
            return error(404, 0, f"404: Not Found (the fake Discord has no {record.method} {record.path})")
        if route.auth and record.headers.get("Authorization") != f"Bot {self.token}":
            return error(401, 0, "401: Unauthorized")
        try:
            result = route.handler(record, record.params)
            return await result if isinstance(result, Awaitable) else result
        except Exception as exc:  # a bug of the fake: answer 500 but keep it visible
            return error(500, 0, f"fake Discord handler error: {exc!r}")

    # ---------------------------------------------------------------- messages
    def build_message(
        self,
        body: Mapping[str, Any],
        files: Sequence[RecordedFile],
        *,
        channel_id: int | str | None,
        interaction: Interaction | None = None,
        flags: int = 0,
    ) -> Payload:
        """A message object as Discord returns it, from a create-message style request body."""
        mid = snowflake()
        message: Payload = {
            "id": str(mid),
            "channel_id": str(channel_id or 0),
            "type": 0,
            "content": "",
            "author": user_payload(self.application_id, username=self.bot_user["username"], bot=True),
            "timestamp": snowflake_iso(mid),
            "edited_timestamp": None,
            "tts": bool(body.get("tts") or False),
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "mention_channels": [],
            "attachments": [],
            "embeds": [],
            "components": [],
            "reactions": [],
            "pinned": False,
            "flags": flags,
            "position": 0,
        }
        if interaction is not None:
            message["webhook_id"] = message["application_id"] = str(self.application_id)
            message["type"] = 20 if interaction.type == APPLICATION_COMMAND else 0
            message["interaction_metadata"] = _metadata(interaction)
            if interaction.type == APPLICATION_COMMAND:
                message["interaction"] = {
                    "id": str(interaction.id),
                    "type": interaction.type,
                    "name": interaction.payload.get("data", {}).get("name", ""),
                    "user": clone(interaction.user),
                }
        self._apply_edit(message, body, files, created=True)
        self.messages[mid] = message
        return message

    def _apply_edit(
        self, message: Payload, body: Mapping[str, Any], files: Sequence[RecordedFile], *, created: bool
    ) -> None:
        if "content" in body:
            message["content"] = body["content"] or ""
        if "embeds" in body:
            message["embeds"] = [_normalise_embed(e) for e in body["embeds"] or []]
        if "components" in body:
            message["components"] = _number_components(clone(body["components"] or []))
        if body.get("poll"):
            message["poll"] = clone(body["poll"])
        if body.get("flags") is not None:
            keep = message["flags"] & (EPHEMERAL | LOADING)
            message["flags"] = (int(body["flags"]) & ~LOADING) | keep
        new = _attachments(body, files, message["channel_id"])
        if body.get("attachments") is not None:
            kept = {str(a.get("id")) for a in body["attachments"]}
            message["attachments"] = [a for a in message["attachments"] if a["id"] in kept] + new
        else:
            message["attachments"] = list(message["attachments"]) + new
        message["mentions"] = [
            user_payload(int(u)) for u in dict.fromkeys(_USER_MENTION.findall(message["content"]))
        ]
        message["mention_roles"] = list(dict.fromkeys(_ROLE_MENTION.findall(message["content"])))
        allowed = body.get("allowed_mentions")
        everyone_allowed = allowed is None or "everyone" in (allowed.get("parse") or [])
        message["mention_everyone"] = "@everyone" in message["content"] and everyone_allowed
        if not created:
            was_loading = bool(message["flags"] & LOADING)
            message["flags"] &= ~LOADING
            if not was_loading:
                message["edited_timestamp"] = iso()

    # ---------------------------------------------------------------- routes
    def _install_routes(self) -> None:
        add = self.route
        add("GET", "/users/@me", lambda r, p: (200, clone(self.bot_user)))
        add("GET", "/applications/@me", self._application)
        add("GET", "/oauth2/applications/@me", self._application)  # discord.py's login
        add("GET", "/gateway", lambda r, p: (200, {"url": self.gateway_url}), auth=False)
        add("GET", "/gateway/bot", self._gateway_bot)
        for template in (ROUTE_GLOBAL_COMMANDS, ROUTE_GUILD_COMMANDS):
            for method in ("GET", "PUT", "POST"):
                add(method, template, self._commands)
        add("POST", ROUTE_CALLBACK, self._callback, auth=False)
        for template in (ROUTE_WEBHOOK_MESSAGE, ROUTE_ORIGINAL):
            for method in ("GET", "PATCH", "DELETE"):
                add(method, template, self._webhook_message, auth=False)
        add("POST", ROUTE_WEBHOOK, self._followup, auth=False)
        add("POST", ROUTE_CHANNEL_MESSAGES, self._channel_send)
        for method in ("GET", "PATCH", "DELETE"):
            add(method, ROUTE_CHANNEL_MESSAGE, self._channel_message)

    def _application(self, record: RecordedRequest, params: dict[str, str]) -> Answer:
        return 200, {
            "id": str(self.application_id),
            "name": self.bot_user["username"],
            "icon": None,
            "description": "",
            "type": None,
            "bot": user_payload(self.application_id, username=self.bot_user["username"], bot=True),
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "flags": self.application_flags,
            "flags_new": str(self.application_flags),
            "owner": clone(self.owner),
            "team": None,
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "role_connections_verification_url": None,
            "approximate_guild_count": len(self.guilds),
            "approximate_user_install_count": 0,
            "approximate_user_authorization_count": 0,
            "explicit_content_filter": 0,
            "eligible_oauth2_scopes": ["applications.commands", "bot"],
            "integration_types_config": {"0": {}},
        }

    def _gateway_bot(self, record: RecordedRequest, params: dict[str, str]) -> Answer:
        limit = {"total": 1000, "remaining": self.session_start_remaining, "reset_after": 86_400_000}
        limit["max_concurrency"] = self.max_concurrency
        return 200, {"url": self.gateway_url, "shards": self.shard_count, "session_start_limit": limit}

    # -- application commands
    def _commands(self, record: RecordedRequest, params: dict[str, str]) -> Answer:
        if params.get("application_id") != str(self.application_id):
            return error(*MISSING_ACCESS)
        scope = int(params["guild_id"]) if "guild_id" in params else None
        if scope is not None and not any(g["id"] == str(scope) for g in self.guilds):
            return error(*MISSING_ACCESS)
        existing = self.commands.get(scope, [])
        if record.method == "GET":
            return 200, clone(existing)
        body = record.json
        if record.method == "POST":
            body = [body]
        if not isinstance(body, list) or not all(isinstance(c, dict) for c in body):
            return error(400, 50035, "Invalid Form Body", {"_errors": [{"code": "LIST_TYPE_CONVERT"}]})
        problems = _command_problems(body)
        if problems:
            return error(400, 50035, "Invalid Form Body", problems)
        made = [self._complete_command(scope, c, existing) for c in body]
        if record.method == "PUT":
            self.commands[scope] = made
            return 200, clone(made)
        self.commands[scope] = [c for c in existing if c["id"] != made[0]["id"]] + made
        return 200, clone(made[0])

    def register_commands(self, commands: Sequence[Payload], guild_id: int | None = None) -> list[Payload]:
        """Pretend the bot synced ``commands`` earlier (e.g. a bot that skips syncing when unchanged)."""
        params = {"application_id": str(self.application_id)}
        if guild_id is not None:
            params["guild_id"] = str(guild_id)
        status, answer = self._commands(RecordedRequest("PUT", "", list(commands), {}), params)
        if status != 200:
            raise ValueError(f"Discord would refuse these commands: {answer}")
        made: list[Payload] = answer
        return made

    def _complete_command(
        self, scope: int | None, body: Mapping[str, Any], existing: list[Payload]
    ) -> Payload:
        """The command as Discord echoes it: defaults filled in, nulls left out, the id kept by name."""
        key = (body.get("name"), body.get("type", 1))
        previous = next((c for c in existing if (c["name"], c.get("type", 1)) == key), None)
        given = {k: v for k, v in body.items() if v is not None or k in _NULLABLE_COMMAND_FIELDS}
        command: Payload = {
            "type": 1,
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "nsfw": False,
            "contexts": None,
            "integration_types": [0],
            "name_localizations": None,
            "description_localizations": None,
            **clone(given),
            "id": previous["id"] if previous else str(snowflake()),
            "application_id": str(self.application_id),
            "version": str(snowflake()),
        }
        if command["default_member_permissions"] is not None:
            command["default_member_permissions"] = str(command["default_member_permissions"])
        if scope is not None:
            command["guild_id"] = str(scope)
            for key_name in ("contexts", "integration_types", "dm_permission"):
                command.pop(key_name, None)
        return command

    # -- interactions
    def _callback(self, record: RecordedRequest, params: dict[str, str]) -> Answer:
        interaction = self.interactions.get(params["interaction_token"])
        if interaction is None or str(interaction.id) != params["interaction_id"]:
            return error(*UNKNOWN_INTERACTION)
        if interaction.acknowledged:
            return error(*ALREADY_ACKNOWLEDGED)
        if self.callback_deadline is not None and record.at - interaction.sent_at > self.callback_deadline:
            return error(*UNKNOWN_INTERACTION)
        body = record.json if isinstance(record.json, dict) else {}
        kind = body.get("type")
        if kind not in CALLBACK_TYPES:
            return error(
                400, 50035, "Invalid Form Body", {"type": {"_errors": [{"code": "BASE_TYPE_CHOICES"}]}}
            )
        data = body.get("data") or {}
        message: Payload | None = None
        channel_id = interaction.payload.get("channel_id")
        if kind == CB_MESSAGE:
            if _empty_message(data, record.files):
                return error(*EMPTY_MESSAGE)
            flags = int(data.get("flags") or 0)
            message = self.build_message(
                data, record.files, channel_id=channel_id, interaction=interaction, flags=flags
            )
        elif kind == CB_DEFERRED_MESSAGE:
            flags = (int(data.get("flags") or 0) & EPHEMERAL) | LOADING
            message = self.build_message({}, [], channel_id=channel_id, interaction=interaction, flags=flags)
        elif kind in (CB_DEFERRED_UPDATE, CB_UPDATE):
            source = interaction.payload.get("message")
            if source is None:
                return error(
                    400, 50035, "Invalid Form Body (no message to update: not a component interaction)"
                )
            message = self.messages.setdefault(int(source["id"]), clone(source))
            if kind == CB_UPDATE:
                self._apply_edit(message, data, record.files, created=False)
        interaction.callback_type = kind
        interaction.callback_data = clone(data) if data else None
        if message is not None:
            interaction.original_id = int(message["id"])
            if kind != CB_DEFERRED_UPDATE:
                record.message_id = int(message["id"])
        if not _truthy(record.query.get("with_response")):
            return 204, None
        answer: Payload = {"interaction": {"id": str(interaction.id), "type": interaction.type}}
        if message is not None:
            answer["interaction"].update(
                response_message_id=message["id"],
                response_message_loading=kind == CB_DEFERRED_MESSAGE,
                response_message_ephemeral=bool(message["flags"] & EPHEMERAL),
            )
            if kind in (CB_MESSAGE, CB_UPDATE):  # the spec has resources for 4 and 7 only
                answer["resource"] = {"type": kind, "message": clone(message)}
        return 200, answer

    def _interaction_of_webhook(self, params: dict[str, str]) -> Interaction | None:
        interaction = self.interactions.get(params["webhook_token"])
        if params["webhook_id"] != str(self.application_id) or interaction is None:
            return None
        return interaction if interaction.acknowledged else None  # no webhook before the first answer

    def _webhook_message(self, record: RecordedRequest, params: dict[str, str]) -> Answer:
        interaction = self._interaction_of_webhook(params)
        if interaction is None:
            return error(*UNKNOWN_WEBHOOK)
        wanted = params.get("message_id")
        mid = interaction.original_id if wanted is None else int(wanted)
        is_original = mid == interaction.original_id and not interaction.original_deleted
        message = self.messages.get(mid or 0) if is_original or mid in interaction.followup_ids else None
        if message is None:
            return error(*UNKNOWN_MESSAGE)
        if record.method == "DELETE":
            if is_original:
                interaction.original_deleted = True
            else:
                interaction.followup_ids.remove(int(message["id"]))
            return 204, None
        if record.method == "PATCH":
            self._apply_edit(message, record.json or {}, record.files, created=False)
            record.message_id = int(message["id"])
        return 200, clone(message)

    def _followup(self, record: RecordedRequest, params: dict[str, str]) -> Answer:
        interaction = self._interaction_of_webhook(params)
        if interaction is None:
            return error(*UNKNOWN_WEBHOOK)
        body = record.json if isinstance(record.json, dict) else {}
        if _empty_message(body, record.files):
            return error(*EMPTY_MESSAGE)
        original = interaction.original
        if (
            interaction.callback_type == CB_DEFERRED_MESSAGE
            and original is not None
            and original["flags"] & LOADING
        ):
            # The first follow-up after a deferral replaces the "thinking" message and keeps its ephemerality.
            edit = dict(body)
            edit["flags"] = (int(body.get("flags") or 0) & ~EPHEMERAL) | (original["flags"] & EPHEMERAL)
            self._apply_edit(original, edit, record.files, created=False)
            message = original
        else:
            channel_id = interaction.payload.get("channel_id")
            flags = int(body.get("flags") or 0)
            message = self.build_message(
                body, record.files, channel_id=channel_id, interaction=interaction, flags=flags
            )
        interaction.followup_ids.append(int(message["id"]))
        record.message_id = int(message["id"])
        return (200, clone(message)) if _truthy(record.query.get("wait")) else (204, None)

    # -- channel messages
    def _channel_send(self, record: RecordedRequest, params: dict[str, str]) -> Answer:
        body = record.json if isinstance(record.json, dict) else {}
        if _empty_message(body, record.files):
            return error(*EMPTY_MESSAGE)
        flags = int(body.get("flags") or 0)
        message = self.build_message(body, record.files, channel_id=params["channel_id"], flags=flags)
        record.message_id = int(message["id"])
        return 200, clone(message)

    def _channel_message(self, record: RecordedRequest, params: dict[str, str]) -> Answer:
        message = self.messages.get(int(params["message_id"]))
        if message is None or message["channel_id"] != params["channel_id"]:
            return error(*UNKNOWN_MESSAGE)
        if record.method == "DELETE":
            del self.messages[int(message["id"])]
            return 204, None
        if record.method == "PATCH":
            self._apply_edit(message, record.json or {}, record.files, created=False)
            record.message_id = int(message["id"])
        return 200, clone(message)


# --------------------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------------------


def _truthy(value: str | None) -> bool:
    return value is not None and value.lower() in {"1", "true", "yes"}


def _metadata(interaction: Interaction) -> Payload:
    metadata: Payload = {
        "id": str(interaction.id),
        "type": interaction.type,
        "user": clone(interaction.user),
        "authorizing_integration_owners": dict(
            interaction.payload.get("authorizing_integration_owners") or {}
        ),
    }
    source = interaction.payload.get("message") or {}
    if interaction.type == MESSAGE_COMPONENT and source:
        metadata["interacted_message_id"] = str(source["id"])
    elif interaction.type == MODAL_SUBMIT:
        # The interaction that opened the modal: the component's, when it came from a message.
        trigger = source.get("interaction_metadata") or {**metadata, "type": APPLICATION_COMMAND}
        metadata["triggering_interaction_metadata"] = clone(trigger)
    return metadata


def _attachments(body: Mapping[str, Any], files: Sequence[RecordedFile], channel_id: str) -> list[Payload]:
    by_index: dict[int, Mapping[str, Any]] = {}
    for meta in body.get("attachments") or []:
        with contextlib.suppress(TypeError, ValueError):
            by_index[int(meta.get("id"))] = meta
    out = []
    for file in files:
        index = re.search(r"\[(\d+)\]", file.field)
        meta = by_index.get(int(index.group(1)) if index else 0, {})
        aid = snowflake()
        url = f"{CDN_BASE}/attachments/{channel_id}/{aid}/{file.filename}"
        CDN[url] = file.data
        attachment: Payload = {
            "id": str(aid),
            "filename": meta.get("filename") or file.filename,
            "size": len(file.data),
            "url": url,
            "proxy_url": url.replace(CDN_BASE, "https://media.discordapp.net"),
        }
        if file.content_type:
            attachment["content_type"] = file.content_type
        if meta.get("description"):
            attachment["description"] = meta["description"]
        out.append(attachment)
    return out


def _normalise_embed(embed: Mapping[str, Any]) -> Payload:
    out = clone(dict(embed))
    out.setdefault("type", "rich")
    for key in ("image", "thumbnail"):
        if isinstance(out.get(key), dict) and "url" in out[key]:
            out[key].setdefault("proxy_url", out[key]["url"])
    if out.get("timestamp"):
        out["timestamp"] = str(out["timestamp"])
    return {k: v for k, v in out.items() if v is not None}


def _number_components(components: list[Payload]) -> list[Payload]:
    """Discord gives every component of a message a numeric ``id`` (depth first, from 1) when it has none,
    and shows a unicode emoji without an ``id``."""
    counter = itertools.count(1)

    def walk(items: list[Any]) -> None:
        for item in items:
            if isinstance(item, dict):
                if item.get("id") is None:
                    item["id"] = next(counter)
                emoji = item.get("emoji")
                if isinstance(emoji, dict) and emoji.get("id") is None:
                    emoji.pop("id", None)
                for key in ("components", "accessory"):
                    child = item.get(key)
                    walk(child if isinstance(child, list) else [child] if isinstance(child, dict) else [])

    walk(components)
    return components


_USER_MENTION = re.compile(r"<@!?(\d+)>")
_ROLE_MENTION = re.compile(r"<@&(\d+)>")


def _empty_message(body: Mapping[str, Any], files: Sequence[RecordedFile]) -> bool:
    has = any(body.get(k) for k in ("content", "embeds", "components", "sticker_ids", "poll"))
    return not has and not files


def _command_problems(commands: Sequence[Payload]) -> Payload:
    """Discord's main checks on application commands (names, descriptions, counts)."""
    problems: Payload = {}
    if len(commands) > 200:
        problems["_errors"] = [{"code": "BASE_TYPE_MAX_LENGTH", "message": "Too many commands"}]
    for index, command in enumerate(commands):
        errors = _option_problems(command, chat_input=command.get("type", 1) == 1)
        if errors:
            problems[str(index)] = errors
    names = [(c.get("name"), c.get("type", 1)) for c in commands]
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
