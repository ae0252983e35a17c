"""The fake Discord HTTP transport: an aiohttp-compatible session plus an in-memory Discord REST API.

discord.py's ``HTTPClient.request`` and the webhook adapter used for interaction responses
(``AsyncWebhookAdapter.request``) both do ``async with session.request(method, url, **kwargs) as response``
and then read ``response.status``, ``response.headers`` and ``await response.text()``. ``FakeSession`` answers
those calls from ``FakeDiscord``, which records every request (``RecordedRequest``) and keeps just enough
server-side state (interactions, their messages, application commands, a CDN for attachments) to answer like
Discord does. Everything above the socket (discord.py's routing, retries, rate-limit bookkeeping, payload
building and parsing) stays real.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import copy
import dataclasses
import io
import itertools
import json
import re
import sys
import types
from collections.abc import Awaitable, Callable, Coroutine, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import parse_qsl, urlsplit

import aiohttp
from multidict import CIMultiDict, CIMultiDictProxy

from .payloads import (
    DEFAULT_APP_ID,
    DEFAULT_BOT_NAME,
    DEFAULT_OWNER_ID,
    Payload,
    iso,
    snowflake,
    snowflake_iso,
    user_payload,
)

API_BASE = "https://discord.com/api/v10"
CDN_BASE = "https://cdn.discordapp.com"

#: Message flags Discord uses for interaction responses.
EPHEMERAL = 1 << 6
LOADING = 1 << 7
SUPPRESS_EMBEDS = 1 << 2

#: Set by ``dispatch`` while discord.py handles one interaction; requests and log records made in that
#: context (the tasks discord.py schedules copy it) are attributed to that dispatch.
CURRENT_DISPATCH: contextvars.ContextVar[int | None] = contextvars.ContextVar(
    "harness_dispatch", default=None
)

_request_seq = itertools.count(1)

#: Attachment bytes served by ``FakeSession.get`` (discord.py's ``Attachment.read()`` goes through
#: ``HTTPClient.get_from_cdn``). Shared by every fake: URLs contain fresh snowflakes, so they never clash.
CDN: dict[str, bytes] = {}


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
    """One HTTP request discord.py made, with the fake's answer."""

    method: str
    path: str  # without the /api/v10 prefix and without the query, e.g. "/webhooks/1/abc/messages/@original"
    json: Any  # decoded JSON body (or the multipart ``payload_json``), None without a body
    query: dict[str, str]
    files: list[RecordedFile] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)
    url: str = ""
    seq: int = 0
    dispatch_id: int | None = None
    #: The fake route that handled the request (an OpenAPI path template), None when unhandled.
    route: str | None = None
    status: int | None = None
    response: Any = None
    #: "timeout" when a fault made the request time out; the exception raised to discord.py.
    error: BaseException | None = None
    #: Set by failure injection.
    fault: Fault | None = None
    #: The message the fake created or edited for this request.
    message_id: int | None = None

    @property
    def is_api(self) -> bool:
        return not self.path.startswith("http")

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300

    @property
    def filenames(self) -> list[str]:
        return [f.filename for f in self.files]

    @property
    def file_bytes(self) -> dict[str, bytes]:
        return {f.filename: f.data for f in self.files}

    def __repr__(self) -> str:
        status = self.status if self.error is None else type(self.error).__name__
        return f"<RecordedRequest #{self.seq} {self.method} {self.path} -> {status}>"


# --------------------------------------------------------------------------------------------------
# Failure injection
# --------------------------------------------------------------------------------------------------


def _template_regex(pattern: str) -> re.Pattern[str]:
    """'/interactions/{id}/{token}/callback' -> regex; ``{...}`` matches one path segment, '*' anything."""
    out = []
    for part in re.split(r"(\{[^}/]*\}|\*)", pattern):
        if part == "*":
            out.append(".*")
        elif part.startswith("{") and part.endswith("}"):
            out.append("[^/]+")
        else:
            out.append(re.escape(part))
    return re.compile("^" + "".join(out) + "$")


@dataclass
class Fault:
    """A failure rule: the next ``times`` requests matching ``method`` + ``path`` fail.

    ``kind="status"`` answers ``status`` with ``body``; ``kind="timeout"`` waits ``delay`` seconds (forever
    when None, until the request is cancelled) and raises ``aiohttp.ServerTimeoutError`` (an
    ``asyncio.TimeoutError``) like a real read timeout. With ``process=True`` the fake first applies the
    request (the message is created, the interaction acknowledged) and only then fails: "Discord did it but
    the answer was lost".
    """

    method: str
    path: str
    kind: Literal["status", "timeout"] = "status"
    status: int = 500
    body: Any = None
    times: int | None = 1
    delay: float | None = 0.0
    process: bool = False
    match: Callable[[RecordedRequest], bool] | None = None
    hits: list[RecordedRequest] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._regex = _template_regex(self.path)

    @property
    def remaining(self) -> int | None:
        return None if self.times is None else max(self.times - len(self.hits), 0)

    @property
    def exhausted(self) -> bool:
        return self.times is not None and len(self.hits) >= self.times

    def matches(self, request: RecordedRequest) -> bool:
        if self.exhausted:
            return False
        if self.method != "*" and self.method.upper() != request.method:
            return False
        if not self._regex.match(request.path):
            return False
        return self.match is None or self.match(request)


# --------------------------------------------------------------------------------------------------
# aiohttp look-alikes
# --------------------------------------------------------------------------------------------------

_REASONS = {
    200: "OK",
    204: "No Content",
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    405: "Method Not Allowed",
    429: "Too Many Requests",
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
    504: "Gateway Timeout",
}


class FakeResponse:
    """What ``aiohttp.ClientResponse`` offers to discord.py: status, reason, headers, text/json/read."""

    def __init__(
        self, method: str, url: str, status: int, body: Any = None, raw: bytes | None = None
    ) -> None:
        self.method = method
        self.url = url
        self.status = status
        self.reason = _REASONS.get(status, "Unknown")
        headers: CIMultiDict[str] = CIMultiDict()
        if raw is not None:
            self._raw = raw
            headers["Content-Type"] = "application/octet-stream"
        elif body is None:
            self._raw = b""
        elif isinstance(body, str):
            self._raw = body.encode()
            headers["Content-Type"] = "text/plain; charset=utf-8"
        else:
            self._raw = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        headers["Content-Length"] = str(len(self._raw))
        self.headers: CIMultiDictProxy[str] = CIMultiDictProxy(headers)

    async def text(self, encoding: str | None = None) -> str:
        return self._raw.decode(encoding or "utf-8")

    async def read(self) -> bytes:
        return self._raw

    async def json(self, **_: Any) -> Any:
        return json.loads(self._raw) if self._raw else None

    def release(self) -> None:
        return None

    def close(self) -> None:
        return None

    def raise_for_status(self) -> None:
        if self.status >= 400:
            raise aiohttp.ClientResponseError(
                request_info=None,  # type: ignore[arg-type]
                history=(),
                status=self.status,
                message=self.reason,
            )

    async def __aenter__(self) -> FakeResponse:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None

    def __repr__(self) -> str:
        return f"<FakeResponse {self.status} {self.method} {self.url}>"


class _RequestContext:
    """Like aiohttp's ``_RequestContextManager``: usable with ``async with`` and with ``await``."""

    def __init__(self, coro: Coroutine[Any, Any, FakeResponse]) -> None:
        self._coro = coro
        self._response: FakeResponse | None = None

    def __await__(self) -> Any:
        return self._coro.__await__()

    async def __aenter__(self) -> FakeResponse:
        self._response = await self._coro
        return self._response

    async def __aexit__(self, *exc: object) -> None:
        if self._response is not None:
            self._response.release()

    def __del__(self) -> None:  # never awaited (e.g. cancelled before use): avoid "never awaited" warnings
        if self._response is None:
            self._coro.close()


class FakeSession:
    """Duck-typed ``aiohttp.ClientSession`` whose requests go to a ``FakeDiscord``."""

    def __init__(self, fake: FakeDiscord) -> None:
        self._fake = fake
        self._closed = False

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def fake(self) -> FakeDiscord:
        return self._fake

    async def close(self) -> None:
        self._closed = True

    def request(self, method: str, url: str, **kwargs: Any) -> _RequestContext:
        if self._closed:
            raise RuntimeError("Session is closed")
        return _RequestContext(self._fake.handle(method, str(url), **kwargs))

    def get(self, url: str, **kwargs: Any) -> _RequestContext:
        return self.request("GET", url, **kwargs)

    def post(self, url: str, **kwargs: Any) -> _RequestContext:
        return self.request("POST", url, **kwargs)

    def put(self, url: str, **kwargs: Any) -> _RequestContext:
        return self.request("PUT", url, **kwargs)

    def patch(self, url: str, **kwargs: Any) -> _RequestContext:
        return self.request("PATCH", url, **kwargs)

    def delete(self, url: str, **kwargs: Any) -> _RequestContext:
        return self.request("DELETE", url, **kwargs)

    async def ws_connect(self, url: str, **kwargs: Any) -> Any:
        raise RuntimeError(f"the test harness has no gateway (ws_connect {url})")

    async def __aenter__(self) -> FakeSession:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


class NullConnector:
    """Stands in for the ``aiohttp.TCPConnector`` that ``HTTPClient.static_login`` would create."""

    closed = False

    async def close(self) -> None:
        self.closed = True


# --------------------------------------------------------------------------------------------------
# Server-side state
# --------------------------------------------------------------------------------------------------


@dataclass
class InteractionRecord:
    """What the fake server knows about one interaction it delivered."""

    id: int
    token: str
    type: int
    payload: Payload
    channel_id: int | None
    guild_id: int | None
    user: Payload
    dispatch_id: int | None = None
    callback_type: int | None = None
    callback_data: Payload | None = None
    original_id: int | None = None  # id of the message that @original designates
    original_deleted: bool = False
    followup_ids: list[int] = field(default_factory=list)
    requests: list[RecordedRequest] = field(default_factory=list)

    @property
    def acknowledged(self) -> bool:
        return self.callback_type is not None


Handler = Callable[
    ["FakeDiscord", RecordedRequest, dict[str, str]], "tuple[int, Any] | Awaitable[tuple[int, Any]]"
]


def _error(status: int, code: int, message: str) -> tuple[int, Any]:
    return status, {"message": message, "code": code}


UNKNOWN_INTERACTION = (404, 10062, "Unknown interaction")
ALREADY_ACKNOWLEDGED = (400, 40060, "Interaction has already been acknowledged.")
UNKNOWN_WEBHOOK = (404, 10015, "Unknown Webhook")
UNKNOWN_MESSAGE = (404, 10008, "Unknown Message")


def _truthy(value: str | None) -> bool:
    return value is not None and value.lower() in {"1", "true", "yes"}


class FakeDiscord:
    """An in-memory Discord REST API recording every request.

    ``requests`` lists everything discord.py sent, in order. ``interactions`` maps interaction tokens to
    ``InteractionRecord``; ``messages`` maps message ids to the message objects the fake created and edited;
    ``commands`` holds the synced application commands (key None for global, else the guild id).
    """

    def __init__(
        self,
        *,
        application_id: int = DEFAULT_APP_ID,
        bot_name: str = DEFAULT_BOT_NAME,
        owner_id: int = DEFAULT_OWNER_ID,
    ) -> None:
        self.application_id = application_id
        self.bot_user: Payload = user_payload(application_id, username=bot_name, bot=True)
        self.owner: Payload = user_payload(owner_id, username="owner")
        self.requests: list[RecordedRequest] = []
        self.unhandled: list[RecordedRequest] = []
        self.faults: list[Fault] = []
        self.interactions: dict[str, InteractionRecord] = {}
        self.messages: dict[int, Payload] = {}
        self.commands: dict[int | None, list[Payload]] = {}
        self.command_versions: dict[int | None, int] = {}
        self.client: Any = None  # set by harness.bot.connect
        self._routes: list[tuple[str, str, re.Pattern[str], Handler]] = []
        self._install_default_routes()

    # ---------------------------------------------------------------- public helpers

    def session(self) -> FakeSession:
        return FakeSession(self)

    def fail(
        self,
        method: str,
        path: str,
        *,
        status: int = 500,
        times: int | None = 1,
        body: Any = None,
        process: bool = False,
        match: Callable[[RecordedRequest], bool] | None = None,
    ) -> Fault:
        """Make the next ``times`` (None: all) requests to ``method path`` answer ``status``.

        ``path`` is a template: ``{anything}`` matches one segment, ``*`` matches the rest, e.g.
        ``fake.fail("POST", "/interactions/{id}/{token}/callback")``. Note that discord.py retries 500, 502,
        504 and 524 up to 5 times: ``times=5`` makes the call fail for good (``discord.DiscordServerError``),
        ``times=1`` is a transient failure discord.py recovers from.
        """
        if body is None:
            body = {"message": _REASONS.get(status, "Error"), "code": 0}
        fault = Fault(
            method, path, "status", status=status, body=body, times=times, process=process, match=match
        )
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
        match: Callable[[RecordedRequest], bool] | None = None,
    ) -> Fault:
        """Make the next matching requests hang ``delay`` seconds (None: until cancelled), then time out."""
        fault = Fault(method, path, "timeout", delay=delay, times=times, process=process, match=match)
        self.faults.append(fault)
        return fault

    def clear_faults(self) -> None:
        self.faults.clear()

    def route(self, method: str, template: str, handler: Handler) -> None:
        """Add (or override) a route: ``handler(fake, request, path_params) -> (status, body)``, or async."""
        self._routes.insert(0, (method.upper(), template, _template_regex(template), handler))

    def requests_for(
        self, method: str | None = None, path: str | None = None, *, dispatch_id: int | None = None
    ) -> list[RecordedRequest]:
        regex = _template_regex(path) if path is not None else None
        return [
            r
            for r in self.requests
            if (method is None or r.method == method.upper())
            and (regex is None or regex.match(r.path))
            and (dispatch_id is None or r.dispatch_id == dispatch_id)
        ]

    def register_interaction(
        self, payload: Mapping[str, Any], *, dispatch_id: int | None = None
    ) -> InteractionRecord:
        """Remember an interaction Discord "sent", so its callback and webhook requests are accepted."""
        member = payload.get("member")
        user = member["user"] if member else payload.get("user", {})
        record = InteractionRecord(
            id=int(payload["id"]),
            token=str(payload["token"]),
            type=int(payload["type"]),
            payload=dict(payload),
            channel_id=int(payload["channel_id"]) if payload.get("channel_id") else None,
            guild_id=int(payload["guild_id"]) if payload.get("guild_id") else None,
            user=dict(user),
            dispatch_id=dispatch_id,
        )
        message = payload.get("message")
        if message is not None and int(message["id"]) not in self.messages:
            self.messages[int(message["id"])] = copy.deepcopy(dict(message))
        self.interactions[record.token] = record
        return record

    def original_message(self, token: str) -> Payload | None:
        record = self.interactions.get(token)
        if record is None or record.original_id is None or record.original_deleted:
            return None
        return self.messages.get(record.original_id)

    # ---------------------------------------------------------------- request entry point

    async def handle(self, method: str, url: str, **kwargs: Any) -> FakeResponse:
        request = self._record(method, url, kwargs)
        for fault in self.faults:
            if fault.matches(request):
                fault.hits.append(request)
                request.fault = fault
                return await self._apply_fault(fault, request)
        status, body = await self._answer(request)
        return self._respond(request, status, body)

    def _respond(self, request: RecordedRequest, status: int, body: Any) -> FakeResponse:
        request.status = status
        request.response = body
        if isinstance(body, bytes):
            return FakeResponse(request.method, request.url, status, raw=body)
        return FakeResponse(request.method, request.url, status, body)

    async def _apply_fault(self, fault: Fault, request: RecordedRequest) -> FakeResponse:
        if fault.process:
            await self._answer(request)
        if fault.kind == "status":
            return self._respond(request, fault.status, copy.deepcopy(fault.body))
        if fault.delay is None:
            await asyncio.Event().wait()  # until cancelled
        else:
            await asyncio.sleep(fault.delay)
        error = aiohttp.ServerTimeoutError(
            f"Timeout on reading data from socket ({request.method} {request.path})"
        )
        request.error = error
        raise error

    async def _answer(self, request: RecordedRequest) -> tuple[int, Any]:
        if not request.is_api:
            return self._cdn(request)
        for method, template, regex, handler in self._routes:
            if method != request.method:
                continue
            found = regex.match(request.path)
            if found is None:
                continue
            request.route = template
            params = _path_params(template, request.path)
            result = handler(self, request, params)
            if isinstance(result, Awaitable):
                result = await result
            return result
        self.unhandled.append(request)
        return _error(
            404, 0, f"404: Not Found (the test harness has no fake for {request.method} {request.path})"
        )

    def _record(self, method: str, url: str, kwargs: Mapping[str, Any]) -> RecordedRequest:
        split = urlsplit(url)
        query: dict[str, str] = dict(parse_qsl(split.query))
        params = kwargs.get("params")
        if params:
            query.update({str(k): str(v) for k, v in dict(params).items()})
        full = f"{split.scheme}://{split.netloc}{split.path}"
        if full.startswith(API_BASE + "/"):
            path = full[len(API_BASE) :]
        elif split.netloc == "discord.com" and re.match(r"^/api/v\d+/", split.path):
            path = re.sub(r"^/api/v\d+", "", split.path)
        else:
            path = full
        body, files = _decode_body(kwargs)
        headers = {str(k): str(v) for k, v in dict(kwargs.get("headers") or {}).items()}
        request = RecordedRequest(
            method=method.upper(),
            path=path,
            json=body,
            query=query,
            files=files,
            headers=headers,
            url=url,
            seq=next(_request_seq),
            dispatch_id=CURRENT_DISPATCH.get(),
        )
        self.requests.append(request)
        token = _token_of(request.path)
        if token is not None and token in self.interactions:
            self.interactions[token].requests.append(request)
        return request

    def _cdn(self, request: RecordedRequest) -> tuple[int, Any]:
        data = CDN.get(request.path)
        if request.method == "GET" and data is not None:
            return 200, data
        self.unhandled.append(request)
        return 404, "404: Not Found"

    # ---------------------------------------------------------------- messages

    def build_message(
        self,
        body: Mapping[str, Any],
        files: list[RecordedFile],
        *,
        channel_id: int | None,
        guild_id: int | None = None,
        interaction: InteractionRecord | None = None,
        flags: int = 0,
        message_id: int | None = None,
    ) -> Payload:
        """A message object as Discord returns it, built from a create-message style request body."""
        mid = message_id or snowflake()
        channel = channel_id or 0
        message: Payload = {
            "id": str(mid),
            "channel_id": str(channel),
            "type": 0,
            "content": "",
            "author": copy.deepcopy(self.bot_user),
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
        if guild_id is not None:
            message["guild_id"] = str(guild_id)
        if interaction is not None:
            message["webhook_id"] = str(self.application_id)
            message["application_id"] = str(self.application_id)
            message["type"] = 20 if interaction.type == 2 else 0
            metadata: Payload = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": copy.deepcopy(interaction.user),
                "authorizing_integration_owners": dict(
                    interaction.payload.get("authorizing_integration_owners") or {}
                ),
            }
            source = interaction.payload.get("message") or {}
            if interaction.type == 3 and source:
                metadata["interacted_message_id"] = str(source["id"])
            elif interaction.type == 5:
                # The interaction that opened the modal: the component's, when it came from a message.
                trigger = source.get("interaction_metadata") or {
                    "id": str(interaction.id),
                    "type": 2,
                    "user": copy.deepcopy(interaction.user),
                    "authorizing_integration_owners": metadata["authorizing_integration_owners"],
                }
                metadata["triggering_interaction_metadata"] = copy.deepcopy(trigger)
            message["interaction_metadata"] = metadata
            if interaction.type == 2:
                message["interaction"] = {
                    "id": str(interaction.id),
                    "type": interaction.type,
                    "name": interaction.payload.get("data", {}).get("name", ""),
                    "user": copy.deepcopy(interaction.user),
                }
        self._apply_edit(message, body, files, created=True)
        self.messages[mid] = message
        return message

    def _apply_edit(
        self, message: Payload, body: Mapping[str, Any], files: list[RecordedFile], *, created: bool
    ) -> None:
        if "content" in body:
            message["content"] = body["content"] or ""
        if "embeds" in body:
            message["embeds"] = [_normalise_embed(e) for e in body["embeds"] or []]
        if "components" in body:
            message["components"] = _number_components(copy.deepcopy(body["components"] or []))
        if body.get("poll"):
            message["poll"] = copy.deepcopy(body["poll"])
        if "flags" in body and body["flags"] is not None:
            keep = message["flags"] & (EPHEMERAL | LOADING)
            message["flags"] = (int(body["flags"]) & ~LOADING) | keep
        new_attachments = self._attachments(body, files, int(message["channel_id"]))
        if "attachments" in body and body["attachments"] is not None:
            kept_ids = {str(a.get("id")) for a in body["attachments"]}
            old = [a for a in message["attachments"] if a["id"] in kept_ids]
            message["attachments"] = old + new_attachments
        else:
            message["attachments"] = list(message["attachments"]) + new_attachments
        message["mentions"], message["mention_roles"] = _mentions(message["content"])
        message["mention_everyone"] = "@everyone" in message["content"] and _allows_everyone(body)
        if not created:
            was_loading = bool(message["flags"] & LOADING)
            message["flags"] &= ~LOADING
            if not was_loading:
                message["edited_timestamp"] = iso()

    def _attachments(
        self, body: Mapping[str, Any], files: list[RecordedFile], channel_id: int
    ) -> list[Payload]:
        if not files:
            return []
        by_index: dict[int, Mapping[str, Any]] = {}
        for meta in body.get("attachments") or []:
            with contextlib.suppress(TypeError, ValueError):
                by_index[int(meta.get("id"))] = meta
        out = []
        for file in files:
            index_match = re.search(r"\[(\d+)\]", file.field)
            index = int(index_match.group(1)) if index_match else 0
            meta = by_index.get(index, {})
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

    # ---------------------------------------------------------------- routes

    def _install_default_routes(self) -> None:
        add = self._routes.append
        for method, template, handler in [
            ("GET", "/users/@me", FakeDiscord._get_me),
            ("GET", "/applications/@me", FakeDiscord._get_application),
            ("GET", "/oauth2/applications/@me", FakeDiscord._get_application),
            ("GET", "/gateway/bot", FakeDiscord._get_gateway_bot),
            ("GET", "/gateway", FakeDiscord._get_gateway),
            ("POST", "/interactions/{interaction_id}/{interaction_token}/callback", FakeDiscord._callback),
            ("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/@original", FakeDiscord._get_original),
            (
                "PATCH",
                "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
                FakeDiscord._edit_original,
            ),
            (
                "DELETE",
                "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
                FakeDiscord._delete_original,
            ),
            (
                "GET",
                "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
                FakeDiscord._get_webhook_message,
            ),
            (
                "PATCH",
                "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
                FakeDiscord._edit_webhook_message,
            ),
            (
                "DELETE",
                "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
                FakeDiscord._delete_webhook_message,
            ),
            ("POST", "/webhooks/{webhook_id}/{webhook_token}", FakeDiscord._followup),
            ("GET", "/applications/{application_id}/commands", FakeDiscord._list_commands),
            ("PUT", "/applications/{application_id}/commands", FakeDiscord._put_commands),
            ("POST", "/applications/{application_id}/commands", FakeDiscord._post_command),
            ("GET", "/applications/{application_id}/guilds/{guild_id}/commands", FakeDiscord._list_commands),
            ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", FakeDiscord._put_commands),
            ("POST", "/applications/{application_id}/guilds/{guild_id}/commands", FakeDiscord._post_command),
            ("POST", "/channels/{channel_id}/messages", FakeDiscord._channel_send),
            ("GET", "/channels/{channel_id}/messages/{message_id}", FakeDiscord._channel_get),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", FakeDiscord._channel_edit),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", FakeDiscord._channel_delete),
        ]:
            add((method, template, _template_regex(template), handler))

    def _get_me(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        me = copy.deepcopy(self.bot_user)
        me.update({"verified": True, "mfa_enabled": False, "locale": "en-US", "email": None})
        return 200, me

    def _get_application(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        return 200, {
            "id": str(self.application_id),
            "name": self.bot_user["username"],
            "icon": None,
            "description": "",
            "type": None,
            "bot": copy.deepcopy(self.bot_user),
            "rpc_origins": [],
            "bot_public": False,
            "bot_require_code_grant": False,
            "integration_types_config": {"0": {}},
            "verify_key": "0" * 64,
            "flags": 0,
            "flags_new": "0",
            "max_participants": None,
            "tags": [],
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "role_connections_verification_url": None,
            "owner": copy.deepcopy(self.owner),
            "approximate_guild_count": 1,
            "approximate_user_install_count": 0,
            "approximate_user_authorization_count": 0,
            "explicit_content_filter": 0,
            "eligible_oauth2_scopes": ["bot", "applications.commands"],
            "team": None,
        }

    def _get_gateway_bot(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        return 200, {
            "url": "wss://gateway.discord.gg",
            "shards": 1,
            "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1},
        }

    def _get_gateway(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        return 200, {"url": "wss://gateway.discord.gg"}

    def _interaction_for_webhook(self, params: dict[str, str]) -> InteractionRecord | None:
        if params.get("webhook_id") != str(self.application_id):
            return None
        return self.interactions.get(params.get("webhook_token", ""))

    def _callback(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        record = self.interactions.get(params["interaction_token"])
        if record is None or str(record.id) != params["interaction_id"]:
            return _error(*UNKNOWN_INTERACTION)
        if record.acknowledged:
            return _error(*ALREADY_ACKNOWLEDGED)
        body = request.json if isinstance(request.json, dict) else {}
        cb_type = int(body.get("type", 0))
        data = body.get("data") or {}
        message: Payload | None = None
        if cb_type == 4:
            flags = int(data.get("flags") or 0)
            message = self.build_message(
                data,
                request.files,
                channel_id=record.channel_id,
                guild_id=record.guild_id,
                interaction=record,
                flags=flags,
            )
            record.original_id = int(message["id"])
        elif cb_type == 5:
            flags = (int(data.get("flags") or 0) & EPHEMERAL) | LOADING
            message = self.build_message(
                {},
                [],
                channel_id=record.channel_id,
                guild_id=record.guild_id,
                interaction=record,
                flags=flags,
            )
            record.original_id = int(message["id"])
        elif cb_type in (6, 7):
            source = record.payload.get("message")
            if source is None:
                return _error(
                    400, 50035, "Invalid Form Body (no message to update: not a component interaction)"
                )
            record.original_id = int(source["id"])
            message = self.messages.setdefault(record.original_id, copy.deepcopy(source))
            if cb_type == 7:
                self._apply_edit(message, data, request.files, created=False)
        elif cb_type in (8, 9, 1, 12):
            pass
        else:
            return _error(400, 50035, f"Invalid Form Body (unknown interaction callback type {cb_type})")
        record.callback_type = cb_type
        record.callback_data = copy.deepcopy(data) if data else None
        if message is not None and cb_type != 6:
            request.message_id = int(message["id"])
        if not _truthy(request.query.get("with_response")):
            return 204, None
        interaction: Payload = {"id": str(record.id), "type": record.type}
        if message is not None:
            interaction["response_message_id"] = message["id"]
            interaction["response_message_loading"] = cb_type == 5
            interaction["response_message_ephemeral"] = bool(message["flags"] & EPHEMERAL)
        response: Payload = {"interaction": interaction}
        if message is not None and cb_type in (4, 7):
            response["resource"] = {"type": cb_type, "message": copy.deepcopy(message)}
        return 200, response

    def _get_original(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        record = self._interaction_for_webhook(params)
        if record is None:
            return _error(*UNKNOWN_WEBHOOK)
        message = self.original_message(record.token)
        if message is None:
            return _error(*UNKNOWN_MESSAGE)
        return 200, copy.deepcopy(message)

    def _edit_original(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        record = self._interaction_for_webhook(params)
        if record is None:
            return _error(*UNKNOWN_WEBHOOK)
        message = self.original_message(record.token)
        if message is None:
            return _error(*UNKNOWN_MESSAGE)
        self._apply_edit(message, request.json or {}, request.files, created=False)
        request.message_id = int(message["id"])
        return 200, copy.deepcopy(message)

    def _delete_original(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        record = self._interaction_for_webhook(params)
        if record is None:
            return _error(*UNKNOWN_WEBHOOK)
        if self.original_message(record.token) is None:
            return _error(*UNKNOWN_MESSAGE)
        record.original_deleted = True
        return 204, None

    def _webhook_message(self, params: dict[str, str]) -> tuple[InteractionRecord | None, Payload | None]:
        record = self._interaction_for_webhook(params)
        if record is None:
            return None, None
        mid = int(params["message_id"])
        if mid not in record.followup_ids and (mid != record.original_id or record.original_deleted):
            return record, None
        return record, self.messages.get(mid)

    def _get_webhook_message(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        record, message = self._webhook_message(params)
        if record is None:
            return _error(*UNKNOWN_WEBHOOK)
        if message is None:
            return _error(*UNKNOWN_MESSAGE)
        return 200, copy.deepcopy(message)

    def _edit_webhook_message(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        record, message = self._webhook_message(params)
        if record is None:
            return _error(*UNKNOWN_WEBHOOK)
        if message is None:
            return _error(*UNKNOWN_MESSAGE)
        self._apply_edit(message, request.json or {}, request.files, created=False)
        request.message_id = int(message["id"])
        return 200, copy.deepcopy(message)

    def _delete_webhook_message(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        record, message = self._webhook_message(params)
        if record is None:
            return _error(*UNKNOWN_WEBHOOK)
        if message is None:
            return _error(*UNKNOWN_MESSAGE)
        mid = int(message["id"])
        if mid == record.original_id:
            record.original_deleted = True
        else:
            record.followup_ids.remove(mid)
        return 204, None

    def _followup(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        record = self._interaction_for_webhook(params)
        if record is None or not record.acknowledged:
            # Before the initial response the interaction webhook does not exist yet.
            return _error(*UNKNOWN_WEBHOOK)
        body = request.json if isinstance(request.json, dict) else {}
        original = self.original_message(record.token)
        if record.callback_type == 5 and original is not None and original["flags"] & LOADING:
            # The first followup after a deferred response replaces the "thinking" message and keeps the
            # defer's ephemerality.
            edit = dict(body)
            edit["flags"] = (int(body.get("flags") or 0) & ~EPHEMERAL) | (original["flags"] & EPHEMERAL)
            self._apply_edit(original, edit, request.files, created=False)
            message = original
        else:
            message = self.build_message(
                body,
                request.files,
                channel_id=record.channel_id,
                guild_id=record.guild_id,
                interaction=record,
                flags=int(body.get("flags") or 0),
            )
        record.followup_ids.append(int(message["id"]))
        request.message_id = int(message["id"])
        if not _truthy(request.query.get("wait")):
            return 204, None
        return 200, copy.deepcopy(message)

    def _scope(self, params: dict[str, str]) -> tuple[int | None, tuple[int, Any] | None]:
        if params.get("application_id") != str(self.application_id):
            return None, _error(404, 10002, "Unknown Application")
        guild = params.get("guild_id")
        return (int(guild) if guild else None), None

    def _complete_command(
        self, scope: int | None, body: Mapping[str, Any], existing: list[Payload]
    ) -> Payload:
        previous = next(
            (
                c
                for c in existing
                if c["name"] == body.get("name") and c.get("type", 1) == body.get("type", 1)
            ),
            None,
        )
        command: Payload = {
            "type": 1,
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "nsfw": False,
            "contexts": None,
            "name_localizations": None,
            "description_localizations": None,
        }
        command.update(copy.deepcopy(dict(body)))
        if command.get("integration_types") is None:
            command["integration_types"] = [0]
        if command.get("default_member_permissions") is not None:
            command["default_member_permissions"] = str(command["default_member_permissions"])
        command["id"] = previous["id"] if previous else str(snowflake())
        command["application_id"] = str(self.application_id)
        command["version"] = str(snowflake())
        if scope is not None:
            command["guild_id"] = str(scope)
            for key in ("contexts", "integration_types", "dm_permission"):
                command.pop(key, None)
        return command

    def _list_commands(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        scope, error = self._scope(params)
        if error is not None:
            return error
        return 200, copy.deepcopy(self.commands.get(scope, []))

    def _put_commands(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        scope, error = self._scope(params)
        if error is not None:
            return error
        body = request.json or []
        if not isinstance(body, list):
            return _error(400, 50035, "Invalid Form Body (expected an array of commands)")
        existing = self.commands.get(scope, [])
        self.commands[scope] = [self._complete_command(scope, c, existing) for c in body]
        return 200, copy.deepcopy(self.commands[scope])

    def _post_command(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        scope, error = self._scope(params)
        if error is not None:
            return error
        body = request.json if isinstance(request.json, dict) else {}
        existing = self.commands.setdefault(scope, [])
        command = self._complete_command(scope, body, existing)
        self.commands[scope] = [c for c in existing if c["id"] != command["id"]] + [command]
        return 200, copy.deepcopy(command)

    def _channel_send(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        body = request.json if isinstance(request.json, dict) else {}
        message = self.build_message(
            body, request.files, channel_id=int(params["channel_id"]), flags=int(body.get("flags") or 0)
        )
        request.message_id = int(message["id"])
        return 200, copy.deepcopy(message)

    def _channel_message(self, params: dict[str, str]) -> Payload | None:
        message = self.messages.get(int(params["message_id"]))
        if message is None or message["channel_id"] != params["channel_id"]:
            return None
        return message

    def _channel_get(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        message = self._channel_message(params)
        return (200, copy.deepcopy(message)) if message is not None else _error(*UNKNOWN_MESSAGE)

    def _channel_edit(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        message = self._channel_message(params)
        if message is None:
            return _error(*UNKNOWN_MESSAGE)
        self._apply_edit(message, request.json or {}, request.files, created=False)
        request.message_id = int(message["id"])
        return 200, copy.deepcopy(message)

    def _channel_delete(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        message = self._channel_message(params)
        if message is None:
            return _error(*UNKNOWN_MESSAGE)
        del self.messages[int(message["id"])]
        return 204, None


# --------------------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------------------


def _path_params(template: str, path: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for t, p in zip(template.split("/"), path.split("/"), strict=False):
        if t.startswith("{") and t.endswith("}"):
            out[t[1:-1]] = p
    return out


_TOKEN_PATTERNS = (
    re.compile(r"^/interactions/[^/]+/([^/]+)/callback$"),
    re.compile(r"^/webhooks/[^/]+/([^/]+)(?:/.*)?$"),
)


def _token_of(path: str) -> str | None:
    for pattern in _TOKEN_PATTERNS:
        found = pattern.match(path)
        if found:
            return found.group(1)
    return None


def _read_value(value: Any) -> bytes:
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value)
    if isinstance(value, str):
        return value.encode()
    if isinstance(value, io.IOBase) or hasattr(value, "read"):
        data = value.read()
        return data.encode() if isinstance(data, str) else bytes(data)
    return str(value).encode()


def _decode_body(kwargs: Mapping[str, Any]) -> tuple[Any, list[RecordedFile]]:
    if kwargs.get("json") is not None:
        return copy.deepcopy(kwargs["json"]), []
    data = kwargs.get("data")
    if data is None:
        return None, []
    if isinstance(data, aiohttp.FormData):
        body: Any = None
        files: list[RecordedFile] = []
        # aiohttp keeps the fields as (type_options, headers, value) until the form is serialised.
        for type_options, headers, value in data._fields:
            name = type_options["name"]
            filename = type_options.get("filename")
            if name == "payload_json" and filename is None:
                body = json.loads(_read_value(value))
            else:
                content_type = headers.get("Content-Type") or headers.get("content-type")
                files.append(RecordedFile(name, filename or name, content_type, _read_value(value)))
        return body, files
    raw = _read_value(data)
    if not raw:
        return None, []
    try:
        return json.loads(raw), []
    except ValueError:
        return raw.decode(errors="replace"), []


def _normalise_embed(embed: Mapping[str, Any]) -> Payload:
    out = copy.deepcopy(dict(embed))
    out.setdefault("type", "rich")
    for key in ("image", "thumbnail"):
        if isinstance(out.get(key), dict) and "url" in out[key]:
            out[key].setdefault("proxy_url", out[key]["url"])
    if out.get("timestamp"):
        out["timestamp"] = str(out["timestamp"])
    return {k: v for k, v in out.items() if v is not None}


def _number_components(components: list[Payload]) -> list[Payload]:
    """Discord gives every component of a message a numeric ``id`` (depth first, from 1) when it has none."""
    counter = itertools.count(1)

    def walk(items: list[Any]) -> None:
        for item in items:
            if isinstance(item, dict):
                if "id" not in item or item["id"] is None:
                    item["id"] = next(counter)
                for key in ("components", "accessory"):
                    child = item.get(key)
                    if isinstance(child, list):
                        walk(child)
                    elif isinstance(child, dict):
                        walk([child])

    walk(components)
    return components


_USER_MENTION = re.compile(r"<@!?(\d+)>")
_ROLE_MENTION = re.compile(r"<@&(\d+)>")


def _mentions(content: str) -> tuple[list[Payload], list[str]]:
    users = [user_payload(int(uid)) for uid in dict.fromkeys(_USER_MENTION.findall(content))]
    roles = list(dict.fromkeys(_ROLE_MENTION.findall(content)))
    return users, roles


def _allows_everyone(body: Mapping[str, Any]) -> bool:
    allowed = body.get("allowed_mentions")
    if allowed is None:
        return True
    return "everyone" in (allowed.get("parse") or [])


# --------------------------------------------------------------------------------------------------
# Patches of discord.py's module globals (scoped and reference-counted)
# --------------------------------------------------------------------------------------------------


class _ModuleProxy(types.ModuleType):
    """A stand-in for a module that delegates every attribute except the ones it overrides."""

    def __init__(self, real: types.ModuleType, **overrides: Any) -> None:
        super().__init__(real.__name__)
        self._real = real
        self.__dict__.update(overrides)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


_RETRY_FRAMES = frozenset({"request", "_refresh"})
_real_sleep = asyncio.sleep


def _fast_backoff_sleep(delay: float, result: Any = None) -> Coroutine[Any, Any, Any]:
    """``asyncio.sleep`` for discord.py's HTTP modules: retry/rate-limit back-offs take no time.

    Only the sleeps made directly by ``HTTPClient.request``/``AsyncWebhookAdapter.request`` (500 retries,
    429 waits) and ``Ratelimit._refresh`` are shortened; any other sleep (``delete_after``...) is real.
    """
    caller = sys._getframe(1).f_code.co_name
    if caller in _RETRY_FRAMES:
        return _real_sleep(0, result)
    return _real_sleep(delay, result)


_patch_refs: dict[str, int] = {}
_patch_saved: dict[str, tuple[types.ModuleType, str, Any]] = {}


@contextlib.contextmanager
def _module_patch(key: str, module: types.ModuleType, attr: str, replacement: Any) -> Iterator[None]:
    if _patch_refs.get(key, 0) == 0:
        _patch_saved[key] = (module, attr, getattr(module, attr))
        setattr(module, attr, replacement)
    _patch_refs[key] = _patch_refs.get(key, 0) + 1
    try:
        yield
    finally:
        _patch_refs[key] -= 1
        if _patch_refs[key] == 0:
            mod, name, original = _patch_saved.pop(key)
            setattr(mod, name, original)


def fast_backoff() -> contextlib.ExitStack:
    """Patch ``asyncio`` as seen by discord.http and discord.webhook.async_ (undo with ``.close()``)."""
    import discord.http
    import discord.webhook.async_

    stack = contextlib.ExitStack()
    for module in (discord.http, discord.webhook.async_):
        proxy = _ModuleProxy(asyncio, sleep=_fast_backoff_sleep)
        stack.enter_context(_module_patch(f"{module.__name__}.asyncio", module, "asyncio", proxy))
    return stack


_pending_session: contextvars.ContextVar[FakeSession | None] = contextvars.ContextVar(
    "harness_pending_session", default=None
)


def _client_session_factory(*args: Any, **kwargs: Any) -> Any:
    session = _pending_session.get()
    if session is None:
        return aiohttp.ClientSession(*args, **kwargs)
    return session


@contextlib.contextmanager
def session_for_static_login(session: FakeSession) -> Iterator[None]:
    """While active (in this context), ``HTTPClient.static_login`` builds ``session`` instead of a real one.

    ``static_login`` calls ``aiohttp.ClientSession(...)`` on ``discord.http``'s ``aiohttp`` global; only that
    name is swapped (for a proxy of the aiohttp module), and only the calls made in this context get the fake.
    """
    import discord.http

    token = _pending_session.set(session)
    proxy = _ModuleProxy(aiohttp, ClientSession=_client_session_factory)
    try:
        with _module_patch("discord.http.aiohttp", discord.http, "aiohttp", proxy):
            yield
    finally:
        _pending_session.reset(token)


def replace_fields(record: RecordedRequest, **changes: Any) -> RecordedRequest:
    """A copy of ``record`` with some fields changed (e.g. to build a deliberately invalid request)."""
    return dataclasses.replace(record, **changes)
