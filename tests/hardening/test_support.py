"""The checks of support.py catch what they are meant to (so a green hardening run means something)."""

from __future__ import annotations

from typing import Any

from tests import fakediscord as harness
from tests.hardening.support import (
    PINGS,
    STRANGER,
    limit_violations,
    mention_violations,
    refusal_of,
    rendered_text,
    touched_players,
)


def reply_with(body: dict[str, Any]) -> harness.Reply:
    request = harness.RecordedRequest("POST", "/webhooks/1/token", body, {}, status=200)
    return harness.Reply(1, "token", {}, requests=[request])


def test_limits_are_checked_on_every_body() -> None:
    fine = {"content": "x" * 2000, "embeds": [{"title": "t" * 256, "description": "d" * 4096}]}
    assert limit_violations(reply_with(fine)) == []
    long = {"content": "x" * 2001, "embeds": [{"title": "t" * 257, "fields": [{"name": "n", "value": ""}]}]}
    problems = limit_violations(reply_with(long))
    assert any("content" in p for p in problems) and any("title" in p for p in problems)
    assert any("value: empty" in p for p in problems)
    total = {"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]}
    assert any("total" in p for p in limit_violations(reply_with(total)))


def test_mentions_are_checked_on_every_body() -> None:
    safe = {"content": "<@3>", "allowed_mentions": {"parse": [], "users": ["3"]}}
    assert mention_violations(reply_with(safe), {3}) == []
    assert mention_violations(reply_with(safe), set()) != []
    assert mention_violations(reply_with({"content": "hi"}), {3}) != []  # Discord's default pings all
    everyone = {"content": "x", "allowed_mentions": {"parse": ["everyone"]}}
    assert mention_violations(reply_with(everyone), {3}) != []
    roles = {"content": "x", "allowed_mentions": {"parse": [], "roles": ["9"]}}
    assert mention_violations(reply_with(roles), {3}) != []


def test_raw_pings_are_found_and_escaped_ones_are_not() -> None:
    raw = {"embeds": [{"fields": [{"name": "n", "value": f"hello <@{STRANGER}>"}]}]}
    assert PINGS.search(rendered_text(reply_with(raw)))
    assert PINGS.search("@everyone") and PINGS.search("@here")
    assert not PINGS.search("@\u200beveryone") and not PINGS.search(f"<\u200b@{STRANGER}>")


def test_refusals_are_recognised_in_their_language_only() -> None:
    english = "Only a GM (the GM role, Manage Server, or the server owner) can do this. Ask a GM."
    assert refusal_of(english, "en") == english
    assert refusal_of(english, "fr") is None
    assert refusal_of("Something went wrong on our side (error id 1a2b3c4d). Please try again.", "en") is None


def test_touched_players_come_from_changed_rows() -> None:
    before = [
        "INSERT INTO \"characters\" VALUES(1,7,3,'Aria');",
        "INSERT INTO \"characters\" VALUES(2,7,NULL,'NPC');",
        "INSERT INTO \"characters\" VALUES(4,7,5,'Brann');",
    ]
    after = [
        *before,
        "INSERT INTO \"wounds\" VALUES(10,1,'physical');",
        "INSERT INTO \"wounds\" VALUES(11,2,'x');",
    ]
    assert touched_players(before, after) == {3}
    assert touched_players(before, before) == set()
    recorded = [*before, 'INSERT INTO "event_characters" VALUES(12,4);']
    assert touched_players(before, recorded) == {5}
