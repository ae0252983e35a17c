"""The in-process door: an aiohttp look-alike session for discord.py, and ``connect``/``close``.

discord.py's ``HTTPClient.request`` and its webhook adapter (interaction responses) both do
``async with session.request(method, url, **kwargs) as response`` and read ``status``, ``headers`` and
``await response.text()``. ``FakeSession`` turns each call into a ``RecordedRequest`` for the REST model
(``rest.FakeDiscord.handle``) and its answer into a ``FakeResponse``. Everything above the socket
(routing, retries, rate limits, payload building and parsing) stays discord.py's.

``connect`` runs the real ``Client.login`` (``setup_hook`` included) against the fake, then feeds the
guilds through the ConnectionState's guild parser and fires ``connect``, ``guild_available`` and ``ready``
as the gateway would after READY. No gateway connection is made.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import io
import itertools
import json
import logging
import re
import sys
import types
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable, Iterator, Mapping
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import aiohttp
import discord
from discord.utils import MISSING
from multidict import CIMultiDict, CIMultiDictProxy

from .payloads import DEFAULT_APP_ID, DEFAULT_GUILD_ID, as_guild_payload, clone
from .rest import FakeDiscord, RecordedFile, RecordedRequest, reason

API_PREFIX = re.compile(r"^https://discord\.com/api/v\d+(?=/)")

#: Set while discord.py handles one dispatch; requests and log records made in that context (the tasks
#: discord.py schedules copy it) are attributed to that dispatch.
CURRENT_DISPATCH: contextvars.ContextVar[int | None] = contextvars.ContextVar("fake_dispatch", default=None)


class HarnessError(AssertionError):
    """The fake could not do what the test asked (time-out, undeliverable payload, ...)."""


# --------------------------------------------------------------------------------------------------
# aiohttp look-alikes
# --------------------------------------------------------------------------------------------------


class FakeResponse:
    """What ``aiohttp.ClientResponse`` offers to discord.py: status, reason, headers, text/json/read."""

    def __init__(self, method: str, url: str, status: int, body: Any) -> None:
        self.method, self.url, self.status, self.reason = method, url, status, reason(status)
        headers: CIMultiDict[str] = CIMultiDict()
        if isinstance(body, bytes):
            self._raw, headers["Content-Type"] = body, "application/octet-stream"
        elif isinstance(body, str):
            self._raw, headers["Content-Type"] = body.encode(), "text/plain; charset=utf-8"
        elif body is not None:
            self._raw, headers["Content-Type"] = json.dumps(body).encode(), "application/json"
        else:
            self._raw = b""
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

    async def __aenter__(self) -> FakeResponse:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None


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
        return None

    def __del__(self) -> None:  # never awaited (cancelled before use): no "never awaited" warning
        if self._response is None:
            self._coro.close()


class FakeSession:
    """Duck-typed ``aiohttp.ClientSession`` whose requests go to a ``FakeDiscord``."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.closed = False

    async def close(self) -> None:
        self.closed = True

    def request(self, method: str, url: str, **kwargs: Any) -> _RequestContext:
        if self.closed:
            raise RuntimeError("Session is closed")
        return _RequestContext(self._send(method, str(url), kwargs))

    def get(self, url: str, **kwargs: Any) -> _RequestContext:
        return self.request("GET", url, **kwargs)

    async def ws_connect(self, url: str, **kwargs: Any) -> Any:
        raise RuntimeError(f"the in-process fake has no gateway (ws_connect {url})")

    async def _send(self, method: str, url: str, kwargs: Mapping[str, Any]) -> FakeResponse:
        split = urlsplit(url)
        query = dict(parse_qsl(split.query))
        query.update({str(k): str(v) for k, v in dict(kwargs.get("params") or {}).items()})
        full = f"{split.scheme}://{split.netloc}{split.path}"
        prefix = API_PREFIX.match(full)
        body, files = _decode_body(kwargs)
        record = RecordedRequest(
            method=method.upper(),
            path=full[prefix.end() :] if prefix else full,
            json=body,
            query=query,
            files=files,
            headers={str(k): str(v) for k, v in dict(kwargs.get("headers") or {}).items()},
            url=url,
            dispatch_id=CURRENT_DISPATCH.get(),
        )
        status, answer = await self.fake.handle(record)
        return FakeResponse(record.method, url, status, answer)


class NullConnector:
    """Stands in for the ``aiohttp.TCPConnector`` that ``HTTPClient.static_login`` would create."""

    closed = False

    async def close(self) -> None:
        self.closed = True


def _read_value(value: Any) -> bytes:
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value)
    if isinstance(value, io.IOBase) or hasattr(value, "read"):
        data = value.read()
        return data.encode() if isinstance(data, str) else bytes(data)
    return str(value).encode()


def _decode_body(kwargs: Mapping[str, Any]) -> tuple[Any, list[RecordedFile]]:
    if kwargs.get("json") is not None:
        return clone(kwargs["json"]), []
    data = kwargs.get("data")
    if isinstance(data, aiohttp.FormData):
        body: Any = None
        files: list[RecordedFile] = []
        # aiohttp keeps the fields as (type_options, headers, value) until the form is serialised.
        for type_options, headers, value in data._fields:
            name, filename = type_options["name"], type_options.get("filename")
            if name == "payload_json" and filename is None:
                body = json.loads(_read_value(value))
            else:
                content_type = headers.get("Content-Type") or headers.get("content-type")
                files.append(RecordedFile(name, filename or name, content_type, _read_value(value)))
        return body, files
    raw = _read_value(data) if data is not None else b""
    if not raw:
        return None, []
    try:
        return json.loads(raw), []
    except ValueError:
        return raw.decode(errors="replace"), []


# --------------------------------------------------------------------------------------------------
# Scoped, reference-counted patches of discord.py's module globals
# --------------------------------------------------------------------------------------------------


class _ModuleProxy(types.ModuleType):
    """A stand-in for a module that delegates every attribute except the ones it overrides."""

    def __init__(self, real: types.ModuleType, **overrides: Any) -> None:
        super().__init__(real.__name__)
        self._real = real
        self.__dict__.update(overrides)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


_real_sleep = asyncio.sleep


def _fast_backoff_sleep(delay: float, result: Any = None) -> Coroutine[Any, Any, Any]:
    """``asyncio.sleep`` for discord.py's HTTP modules: only the back-offs made directly by
    ``HTTPClient.request``/``AsyncWebhookAdapter.request`` (5xx retries, 429 waits) and
    ``Ratelimit._refresh`` take no time; any other sleep (``delete_after``...) is real."""
    if sys._getframe(1).f_code.co_name in ("request", "_refresh"):
        return _real_sleep(0, result)
    return _real_sleep(delay, result)


_patch_refs: dict[str, int] = {}
_patch_saved: dict[str, Any] = {}


@contextlib.contextmanager
def _module_patch(module: types.ModuleType, attr: str, replacement: Any) -> Iterator[None]:
    key = f"{module.__name__}.{attr}"
    if _patch_refs.get(key, 0) == 0:
        _patch_saved[key] = getattr(module, attr)
        setattr(module, attr, replacement)
    _patch_refs[key] = _patch_refs.get(key, 0) + 1
    try:
        yield
    finally:
        _patch_refs[key] -= 1
        if _patch_refs[key] == 0:
            setattr(module, attr, _patch_saved.pop(key))


def fast_backoff() -> contextlib.ExitStack:
    """Patch ``asyncio`` as seen by discord.http and discord.webhook.async_ (undo with ``.close()``)."""
    import discord.http
    import discord.webhook.async_

    stack = contextlib.ExitStack()
    for module in (discord.http, discord.webhook.async_):
        stack.enter_context(
            _module_patch(module, "asyncio", _ModuleProxy(asyncio, sleep=_fast_backoff_sleep))
        )
    return stack


_pending_session: contextvars.ContextVar[FakeSession | None] = contextvars.ContextVar(
    "fake_session", default=None
)


def _client_session_factory(*args: Any, **kwargs: Any) -> Any:
    session = _pending_session.get()
    return aiohttp.ClientSession(*args, **kwargs) if session is None else session


@contextlib.contextmanager
def session_for_static_login(session: FakeSession) -> Iterator[None]:
    """While active (in this context), ``HTTPClient.static_login`` builds ``session``: only the
    ``aiohttp`` global of ``discord.http`` is swapped, and only calls made in this context get the fake."""
    import discord.http

    token = _pending_session.set(session)
    try:
        with _module_patch(
            discord.http, "aiohttp", _ModuleProxy(aiohttp, ClientSession=_client_session_factory)
        ):
            yield
    finally:
        _pending_session.reset(token)


# --------------------------------------------------------------------------------------------------
# Dispatch bookkeeping: the tasks discord.py started, what it logged
# --------------------------------------------------------------------------------------------------

_dispatch_ids = itertools.count(1)
#: Log records (WARNING and above, any logger that propagates to the root) per dispatch id.
_SINKS: dict[int, list[logging.LogRecord]] = {}


class _DispatchLogCapture(logging.Handler):
    def emit(self, record: logging.LogRecord) -> None:
        sink = _SINKS.get(CURRENT_DISPATCH.get() or 0)
        if sink is not None:
            sink.append(record)


_log_handler = _DispatchLogCapture(level=logging.WARNING)
_log_users = 0


@contextlib.contextmanager
def capture_logs() -> Iterator[None]:
    """Attach (once, reference-counted) the root handler that files log records by dispatch."""
    global _log_users
    if _log_users == 0:
        logging.getLogger().addHandler(_log_handler)
    _log_users += 1
    try:
        yield
    finally:
        _log_users -= 1
        if _log_users == 0:
            logging.getLogger().removeHandler(_log_handler)


def new_dispatch_id() -> int:
    dispatch_id = next(_dispatch_ids)
    _SINKS[dispatch_id] = []
    return dispatch_id


def pop_logs(dispatch_id: int) -> list[logging.LogRecord]:
    return _SINKS.pop(dispatch_id, [])


def start_in_context(dispatch_id: int, fn: Callable[[], Any]) -> set[asyncio.Task[Any]]:
    """Run the synchronous ``fn`` with ``CURRENT_DISPATCH`` set; return the tasks it created.

    discord.py's parsers only *schedule* work: as ``fn`` never yields to the loop, the tasks that exist
    after it and not before are exactly the ones it started, even with hundreds of dispatches in flight.
    """
    token = CURRENT_DISPATCH.set(dispatch_id)
    try:
        before = asyncio.all_tasks()
        fn()
        return asyncio.all_tasks() - before
    finally:
        CURRENT_DISPATCH.reset(token)


async def wait_tasks(tasks: set[asyncio.Task[Any]], max_wait: float, what: str) -> list[BaseException]:
    """Wait for ``tasks``; return the exceptions they raised. On time-out cancel them and raise."""
    if not tasks:
        return []
    done, pending = await asyncio.wait(tasks, timeout=max_wait)
    if pending:
        names = sorted(t.get_name() for t in pending)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        raise HarnessError(f"{what}: tasks still running after {max_wait}s: {names}")
    errors: list[BaseException] = []
    for task in done:
        if task.cancelled():
            errors.append(asyncio.CancelledError(f"task {task.get_name()} was cancelled"))
        elif task.exception() is not None:
            errors.append(task.exception())  # type: ignore[arg-type]
    return errors


def record_exceptions(records: list[logging.LogRecord]) -> list[BaseException]:
    """The exceptions discord.py logged (``Ignoring exception in command ...``): only the ``discord.*``
    loggers count, they report what nobody handled. What the bot logs itself stays in ``Reply.logs``."""
    return [
        r.exc_info[1]
        for r in records
        if (r.name == "discord" or r.name.startswith("discord.")) and r.exc_info and r.exc_info[1] is not None
    ]


# --------------------------------------------------------------------------------------------------
# connect / close
# --------------------------------------------------------------------------------------------------

_live: dict[int, tuple[FakeDiscord, contextlib.ExitStack]] = {}


async def connect(
    client: discord.Client,
    *,
    guilds: Iterable[Mapping[str, Any] | int] | None = None,
    fake: FakeDiscord | None = None,
    fast_retries: bool = True,
    max_wait: float = 10.0,
) -> FakeDiscord:
    """Log ``client`` in against a fake Discord and make it ready; return the fake.

    ``guilds``: guild ids or ``guild_payload(...)`` results (or dicts of its keyword arguments with an
    ``"id"``); default: one guild, ``DEFAULT_GUILD_ID``. ``fast_retries``: discord.py's back-offs between
    HTTP retries take no time while connected. Errors of ``on_ready``/``on_guild_available`` are raised.
    """
    if id(client) in _live:
        raise HarnessError("this client is already connected to a fake Discord; close() it first")
    fake = fake or FakeDiscord(application_id=client.application_id or DEFAULT_APP_ID)
    if client.application_id is not None and client.application_id != fake.application_id:
        raise HarnessError(f"client.application_id {client.application_id} != fake's {fake.application_id}")
    fake.client = client
    fake.guilds = [as_guild_payload(g) for g in (guilds if guilds is not None else [DEFAULT_GUILD_ID])]
    stack = contextlib.ExitStack()
    if fast_retries:
        stack.enter_context(fast_backoff())
    stack.enter_context(capture_logs())
    _live[id(client)] = (fake, stack)
    try:
        await _login(client, fake)
        await _become_ready(client, fake, max_wait)
    except BaseException:
        _live.pop(id(client), None)
        stack.close()
        raise
    return fake


async def _login(client: discord.Client, fake: FakeDiscord) -> None:
    session = FakeSession(fake)
    if client.http.connector is MISSING:
        client.http.connector = NullConnector()  # type: ignore[assignment]
    dispatch_id = new_dispatch_id()
    context_token = CURRENT_DISPATCH.set(dispatch_id)
    try:
        with session_for_static_login(session):
            await client.login(fake.token)
    finally:
        CURRENT_DISPATCH.reset(context_token)
        pop_logs(dispatch_id)
    if getattr(client.http, "_HTTPClient__session", None) is not session:
        raise HarnessError("HTTPClient.static_login did not pick up the fake session")


async def _become_ready(client: discord.Client, fake: FakeDiscord, max_wait: float) -> None:
    state = client._connection
    payloads = [fake.guild_create(g) for g in fake.guilds]

    def gateway_events() -> None:
        # What the gateway's READY + GUILD_CREATE handling ends with (ConnectionState._delay_ready).
        state.dispatch("connect")
        for payload in payloads:
            state.dispatch("guild_available", state._get_create_guild(payload))
        state.call_handlers("ready")
        state.dispatch("ready")

    dispatch_id = new_dispatch_id()
    tasks = start_in_context(dispatch_id, gateway_events)
    errors = await wait_tasks(tasks, max_wait, "connect")
    errors += record_exceptions(pop_logs(dispatch_id))
    if errors:
        raise HarnessError(f"listeners failed while the client became ready: {errors!r}") from errors[0]


def fake_of(client: discord.Client) -> FakeDiscord:
    """The fake a connected client talks to."""
    try:
        return _live[id(client)][0]
    except KeyError:
        raise HarnessError("this client is not connected to a fake Discord (use connect)") from None


async def close(target: discord.Client | FakeDiscord) -> None:
    """Stop the client's views, close the client (and its fake session), undo the patches."""
    client: discord.Client | None = target.client if isinstance(target, FakeDiscord) else target
    if client is None:
        return
    entry = _live.pop(id(client), None)
    try:
        store = getattr(client._connection, "_view_store", None)
        views = {}
        for items in getattr(store, "_views", {}).values():
            views.update({id(i.view): i.view for i in items.values() if i.view is not None})
        for extra in ("_modals", "_synced_message_views"):
            views.update({id(v): v for v in getattr(store, extra, {}).values()})
        for view in views.values():
            view.stop()
        await client.close()
    finally:
        if entry is not None:
            entry[1].close()


@contextlib.asynccontextmanager
async def running(client: discord.Client, **kwargs: Any) -> AsyncIterator[FakeDiscord]:
    """``async with running(bot, guilds=[...]) as fake:`` = ``connect`` ... ``close``."""
    fake = await connect(client, **kwargs)
    try:
        yield fake
    finally:
        await close(client)
