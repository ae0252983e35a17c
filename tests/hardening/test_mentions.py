"""Names and notes holding pings: shown escaped everywhere, and no message may ping anyone but the
player whose character it is about (commands.md, "Messages")."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.ui.text import escape
from tests import fakediscord as harness
from tests.hardening.support import STRANGER, Hardened, Outcome, message_bodies, rendered_text
from tests.table import ALICE, GM, GM_ROLE, OWNER

NAMES = [
    "@everyone @here",
    f"<@&{GM_ROLE}> <@{STRANGER}>",
    f"**<@!{STRANGER}>** __@here__",
    "`@everyone` ||@here|| [x](https://a.b)",
]
NOTE = (
    f"@everyone @here <@&{GM_ROLE}> <@{STRANGER}> <@!{STRANGER}> **bold** `code` > quote\n# big "
    "[link](https://discord.gg/x) ||spoiler||"
)
ANY_ROLE = re.compile(r"<@&\d+>")
RAW = re.compile(rf"@everyone|@here|<@!?{STRANGER}>|<@&{GM_ROLE}>")


def assert_inert(outcome: Outcome, shown: str | None = None) -> None:
    """No raw ping in any message; ``shown`` (a name or note) appears escaped; pings ⊆ {Alice}."""
    text = rendered_text(outcome.reply)
    assert not RAW.search(text), RAW.search(text)
    assert not ANY_ROLE.search(text), ANY_ROLE.search(text)
    for body_mentions in _allowed(outcome):
        assert body_mentions.get("parse") in (None, [])
        assert not body_mentions.get("roles")
        assert {int(u) for u in body_mentions.get("users") or []} <= {ALICE}
    if shown is not None:
        assert escape(shown)[:40] in text, (escape(shown)[:40], text[:800])


def _allowed(outcome: Outcome) -> list[dict[str, Any]]:
    return [body.get("allowed_mentions") or {} for body in message_bodies(outcome.reply)]


@pytest.mark.parametrize(("name", "server_locale"), list(zip(NAMES, ["en-US", "fr"] * 2, strict=True)))
async def test_hostile_names_and_notes_are_shown_inert(hard: Hardened, name: str, server_locale: str) -> None:
    async def run(command: str, options: dict[str, Any], user: int = GM) -> Outcome:
        return await hard.run(command, options, user=user, guild_locale=server_locale, may_ping=(ALICE,))

    assert_inert(await run("character create", {"name": name, "player": harness.user(ALICE)}), name)
    await hard.create("Garde")
    steps: list[tuple[str, dict[str, Any], int, str | None]] = [
        ("wound", {"severity": "light", "target": harness.user(ALICE), "note": NOTE}, GM, NOTE),
        ("wound", {"severity": "serious", "character": name, "count": 2, "note": NOTE}, GM, name),
        ("mental", {"severity": "shock", "character": name, "note": NOTE}, GM, NOTE),
        ("character show", {"character": name}, GM, NOTE),
        ("character show", {"player": harness.user(ALICE)}, ALICE, name),
        ("character list", {}, GM, name),
        ("history", {}, GM, name),
        ("history", {"character": name}, GM, NOTE[:30]),
        ("heal wound", {"severity": "serious", "character": name}, GM, name),
        ("rest", {"days": 30, "character": name}, GM, name),
        ("rest", {"days": 1}, GM, name),
        ("heal roll", {"character": name}, ALICE, name),
        ("roll", {"character": name, "modifier": 2}, ALICE, name),
        ("undo", {"character": name}, GM, None),
        ("character edit", {"character": name, "corps": 3}, GM, name),
        ("character select", {"character": name}, ALICE, name),
    ]
    for command, options, user, shown in steps:
        outcome = await run(command, options, user)
        assert not outcome.refused, (command, outcome.text)
        assert_inert(outcome, shown)
    # The deletion question (ephemeral, with the card) and the public announcement.
    asked = await run("character delete", {"character": name}, ALICE)
    assert_inert(asked, name)
    confirm = next(c for row in asked.reply.components for c in row["components"] if c["style"] == 4)
    assert_inert(await hard.click(confirm["custom_id"], asked.reply.message, user=ALICE), name)
    assert_inert(await run("undo", {}, OWNER), name)
    # Refusals quote what was typed: escaped too.
    for typed in NAMES:
        refused = await run("character show", {"character": typed + "?"})
        assert refused.refused
        assert_inert(refused, typed)
    # A rename to another hostile name.
    other = NAMES[(NAMES.index(name) + 1) % len(NAMES)]
    assert_inert(await run("character edit", {"character": name, "name": other}, ALICE), other)


async def test_the_wounded_player_alone_is_pinged(hard: Hardened) -> None:
    await hard.create(NAMES[0], ALICE)
    await hard.create(NAMES[1])  # an NPC: a wound to it pings nobody
    wounded = await hard.run(
        "wound", {"severity": "light", "character": NAMES[0], "note": NOTE}, may_ping=(ALICE,)
    )
    assert wounded.reply.content == f"<@{ALICE}>"
    assert wounded.reply.allowed_mentions is not None
    assert [int(u) for u in wounded.reply.allowed_mentions["users"]] == [ALICE]
    npc = await hard.run("wound", {"severity": "light", "character": NAMES[1], "note": NOTE})
    assert not npc.reply.content
    assert not (npc.reply.allowed_mentions or {}).get("users")
