"""What every test checks of the requests a bot made, whatever it did: valid for Discord (its OpenAPI
spec, strict), and pinging nobody it should not; and the message bodies it sent."""

from __future__ import annotations

import json
from typing import Any

from .openapi import assert_valid
from .rest import (
    CB_MESSAGE,
    CB_UPDATE,
    ROUTE_CALLBACK,
    ROUTE_ORIGINAL,
    ROUTE_WEBHOOK,
    ROUTE_WEBHOOK_MESSAGE,
    FakeDiscord,
    RecordedRequest,
)

Payload = dict[str, Any]

WEBHOOK_MESSAGE_ROUTES = (ROUTE_WEBHOOK, ROUTE_ORIGINAL, ROUTE_WEBHOOK_MESSAGE)


def sent_messages(fake: FakeDiscord) -> list[Payload]:
    """Every message body the bot sent: callbacks (4, 7), follow-ups and edits of @original."""
    bodies: list[Payload] = []
    for r in fake.requests:
        if not isinstance(r.json, dict):
            continue
        if r.route == ROUTE_CALLBACK and r.json.get("type") in (CB_MESSAGE, CB_UPDATE):
            bodies.append(dict(r.json.get("data") or {}))
        elif r.route in WEBHOOK_MESSAGE_ROUTES and r.method in ("POST", "PATCH"):
            bodies.append(dict(r.json))
    return bodies


_valid_bodies: set[str] = set()
"""Requests already found valid in this session: the command sync sends the very same (large) body
at every start, and validating it again would take longer than most tests."""


def assert_all_valid(requests: list[RecordedRequest]) -> None:
    """Every request the bot made must be valid for Discord (strict: no undeclared property)."""
    fresh = []
    for request in requests:
        key = json.dumps([request.method, request.path, request.json], sort_keys=True, default=str)
        if key not in _valid_bodies:
            fresh.append((key, request))
    assert_valid([request for _, request in fresh], strict=True)
    _valid_bodies.update(key for key, _ in fresh)


def assert_never_pings(requests: list[RecordedRequest]) -> None:
    """Nothing the bot sends may ping @everyone, @here or a role; only the players its content names."""
    for request in requests:
        body = request.json
        if not isinstance(body, dict) or not request.path.startswith(("/interactions/", "/webhooks/")):
            continue
        message = body.get("data") if request.path.endswith("/callback") else body
        if not isinstance(message, dict) or not ({"content", "embeds"} & set(message)):
            continue
        allowed = message.get("allowed_mentions")
        assert isinstance(allowed, dict), f"{request}: no allowed_mentions"
        assert allowed.get("parse") == [] and not allowed.get("roles"), f"{request}: {allowed}"
        content = str(message.get("content") or "")
        assert all(f"<@{user}>" in content for user in allowed.get("users", [])), f"{request}: {allowed}"


def check_requests(requests: list[RecordedRequest]) -> None:
    """What every test checks at the end: valid for Discord, and pinging nobody it should not."""
    assert_all_valid(requests)
    assert_never_pings(requests)
