"""Bring any ``discord.Client`` (or ``commands.Bot``) to a ready state without a network.

``connect`` runs the real ``Client.login`` (so ``_async_setup_hook`` and the client's ``setup_hook`` run,
and ``HTTPClient.static_login`` fetches ``/users/@me`` and ``/applications/@me``) against a ``FakeDiscord``,
then feeds the guilds through the ConnectionState's guild parser and fires ``connect``,
``guild_available`` and ``ready`` as the gateway would after READY. No gateway connection is ever made.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import AsyncIterator, Iterable, Mapping
from typing import Any

import discord
from discord.utils import MISSING

from .payloads import DEFAULT_APP_ID, DEFAULT_GUILD_ID, Payload, as_guild_payload, member_payload
from .runtime import (
    HarnessError,
    capture_logs,
    new_dispatch_id,
    pop_logs,
    record_exceptions,
    start_in_context,
    wait_tasks,
)
from .transport import (
    CURRENT_DISPATCH,
    FakeDiscord,
    FakeSession,
    NullConnector,
    fast_backoff,
    session_for_static_login,
)

GuildSpec = Mapping[str, Any] | int

_live: dict[int, tuple[FakeDiscord, contextlib.ExitStack]] = {}


def _session_of(client: discord.Client) -> Any:
    return getattr(client.http, "_HTTPClient__session", MISSING)


async def connect(
    client: discord.Client,
    *,
    guilds: Iterable[GuildSpec] | None = None,
    fake: FakeDiscord | None = None,
    token: str = "harness.fake.token",
    fast_retries: bool = True,
    max_wait: float = 10.0,
) -> FakeDiscord:
    """Log ``client`` in against a fake Discord and make it ready; return the fake.

    ``guilds``: guild ids or ``payloads.guild_payload(...)`` results (or dicts of its keyword arguments with
    an ``"id"``); default: one guild, ``payloads.DEFAULT_GUILD_ID``. The bot's own member is added to each.
    ``fast_retries``: discord.py's back-off sleeps between HTTP retries (1 s, 3 s, 5 s ... after a 500) take
    no time while connected. Errors raised by ``on_ready``/``on_guild_available`` listeners are re-raised.
    """
    if id(client) in _live:
        raise HarnessError("this client is already connected to a fake Discord; close() it first")
    fake = fake or FakeDiscord(application_id=client.application_id or DEFAULT_APP_ID)
    if client.application_id is not None and client.application_id != fake.application_id:
        raise HarnessError(f"client.application_id {client.application_id} != fake's {fake.application_id}")
    fake.client = client
    stack = contextlib.ExitStack()
    if fast_retries:
        stack.enter_context(fast_backoff())
    stack.enter_context(capture_logs())
    _live[id(client)] = (fake, stack)
    try:
        await _login(client, fake, token)
        await _become_ready(client, fake, guilds, max_wait)
    except BaseException:
        _live.pop(id(client), None)
        stack.close()
        raise
    return fake


async def _login(client: discord.Client, fake: FakeDiscord, token: str) -> None:
    session = fake.session()
    if client.http.connector is MISSING:
        # static_login would create an aiohttp.TCPConnector for the session it builds; it is never used.
        client.http.connector = NullConnector()  # type: ignore[assignment]
    dispatch_id = new_dispatch_id()
    context_token = CURRENT_DISPATCH.set(dispatch_id)
    try:
        with session_for_static_login(session):
            await client.login(token)
    finally:
        CURRENT_DISPATCH.reset(context_token)
        pop_logs(dispatch_id)
    if _session_of(client) is not session:
        raise HarnessError("HTTPClient.static_login did not pick up the fake session")
    if not isinstance(_session_of(client), FakeSession):  # pragma: no cover - defensive
        raise HarnessError("the client's HTTP session is not the fake one")


async def _become_ready(
    client: discord.Client, fake: FakeDiscord, guilds: Iterable[GuildSpec] | None, max_wait: float
) -> None:
    state = client._connection
    payloads = [
        _with_bot_member(as_guild_payload(g), fake)
        for g in (guilds if guilds is not None else [DEFAULT_GUILD_ID])
    ]

    def gateway_events() -> None:
        # What the gateway's READY + GUILD_CREATE handling ends with (ConnectionState._delay_ready).
        state.dispatch("connect")
        for payload in payloads:
            guild = state._get_create_guild(payload)
            state.dispatch("guild_available", guild)
        state.call_handlers("ready")
        state.dispatch("ready")

    dispatch_id = new_dispatch_id()
    tasks = start_in_context(dispatch_id, gateway_events)
    errors = await wait_tasks(tasks, max_wait, "connect")
    errors += record_exceptions(pop_logs(dispatch_id))
    if errors:
        raise HarnessError(f"listeners failed while the client became ready: {errors!r}") from errors[0]
    if not client.is_ready():  # pragma: no cover - defensive
        raise HarnessError("the client is not ready after READY")


def _with_bot_member(payload: Payload, fake: FakeDiscord) -> Payload:
    payload = copy.deepcopy(payload)
    members = payload.setdefault("members", [])
    if not any(m["user"]["id"] == fake.bot_user["id"] for m in members):
        members.append(member_payload(copy.deepcopy(fake.bot_user)))
    payload["member_count"] = len(members)
    return payload


def fake_of(client: discord.Client) -> FakeDiscord:
    """The fake a connected client talks to."""
    try:
        return _live[id(client)][0]
    except KeyError:
        raise HarnessError("this client is not connected to a fake Discord (use harness.connect)") from None


async def close(target: discord.Client | FakeDiscord) -> None:
    """Stop the client's views, close the client (and its fake session), undo the harness patches."""
    client: discord.Client | None = target.client if isinstance(target, FakeDiscord) else target
    if client is None:
        return
    entry = _live.pop(id(client), None)
    try:
        for view in _views_of(client):
            view.stop()
        await client.close()
    finally:
        if entry is not None:
            entry[1].close()


def _views_of(client: discord.Client) -> list[Any]:
    store = getattr(client._connection, "_view_store", None)
    if store is None:
        return []
    views: dict[int, Any] = {}
    for items in getattr(store, "_views", {}).values():
        for item in items.values():
            if item.view is not None:
                views[id(item.view)] = item.view
    for view in list(getattr(store, "_modals", {}).values()) + list(
        getattr(store, "_synced_message_views", {}).values()
    ):
        views[id(view)] = view
    return list(views.values())


@contextlib.asynccontextmanager
async def running(client: discord.Client, **kwargs: Any) -> AsyncIterator[FakeDiscord]:
    """``async with running(bot, guilds=[...]) as fake:`` = ``connect`` ... ``close``."""
    fake = await connect(client, **kwargs)
    try:
        yield fake
    finally:
        await close(client)
