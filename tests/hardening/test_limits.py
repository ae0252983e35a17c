"""Discord's limits at the extremes the bot allows: the longest names and notes everywhere, 100
characters in one server, 20 wounds per severity, healing sessions of 20 rolls, 25 presets — in both
languages. ``Hardened`` checks every message with ``tests.ui.limits`` and the fixture validates every
request against Discord's OpenAPI spec (strict)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.rules import Track
from bot.rules.character import NAME_MAX, NOTE_MAX
from bot.rules.ruleset import MAX_PER_SEVERITY, MAX_PRESETS
from tests import fakediscord as harness
from tests.hardening.support import STRANGER, Hardened, Outcome
from tests.table import ALICE, BOB, GM, GUILD, OWNER

#: Names of 64 characters whose escaped form is as long as can be (markdown, pings, wide characters).
PATTERNS = ("_*~`|>\\", "@everyone ", f"<@{STRANGER}>", "𝕏🩹ﬁ", "É" * 7, "[x](https://e.x) ")
NOTE = ("**@everyone** `x` _y_ ~z~ \\ " * 20)[:NOTE_MAX]
LOCALES = ["en-US", "fr"]


def long_name(index: int, pattern: str | None = None) -> str:
    pattern = pattern or PATTERNS[index % len(PATTERNS)]
    return (f"{index:03d}" + pattern * NAME_MAX)[:NAME_MAX]


def buttons(outcome: Outcome) -> list[dict[str, Any]]:
    return [c for row in outcome.reply.components for c in row["components"]]


@pytest.mark.parametrize("server_locale", LOCALES)
async def test_a_hundred_characters_with_the_longest_names(hard: Hardened, server_locale: str) -> None:
    async def run(command: str, options: dict[str, Any], user: int = GM) -> Outcome:
        outcome = await hard.run(
            command, options, user=user, guild_locale=server_locale, locale=server_locale
        )
        assert not outcome.refused, (command, outcome.text)
        return outcome

    owners = [ALICE, BOB, None]
    for index in range(100):
        owner = owners[index % 3]
        options: dict[str, Any] = {"name": long_name(index)}
        if owner is not None:
            options["player"] = harness.user(owner)
        await run("character create", options)
        if index % 2:
            await run(
                "wound", {"severity": "serious", "character": long_name(index), "note": NOTE, "count": 2}
            )
    # The list, page by page (buttons included).
    page = await run("character list", {})
    pages = [page]
    while True:
        following = next(b for b in buttons(page) if b.get("emoji", {}).get("name") == "▶️")
        if following.get("disabled"):
            break
        page = await hard.click(following["custom_id"], page.reply.message, user=BOB, locale=server_locale)
        pages.append(page)
        assert len(pages) < 20
    assert len(pages) >= 5, "100 lines at 20 a page at most"
    texts = [p.reply.text for p in pages]
    assert all(f"{len(pages)}" in text for text in texts)
    # Autocomplete over long names: at most 25 choices of at most 100 characters (checked by Hardened).
    for typed in ("", "0", "@every", "_"):
        choices = (await hard.complete("wound", {"character": typed}, "character")).reply.choices
        assert choices is not None and len(choices) <= 25
    # Server-wide rest, its history, and undoing it whole.
    await run("rest", {"days": 365})
    for number in range(1, 6):
        await run("history", {"page": number})
    await run("history", {"character": long_name(1)})
    await run("undo", {})
    await run("config show", {})
    exported = await run("config export", {})
    assert exported.reply.files


@pytest.mark.parametrize("server_locale", LOCALES)
async def test_twenty_wounds_per_severity_and_twenty_roll_sessions(
    hard: Hardened, server_locale: str
) -> None:
    async def run(command: str, options: dict[str, Any], user: int = GM) -> Outcome:
        outcome = await hard.run(
            command, options, user=user, guild_locale=server_locale, locale=server_locale, may_ping=(ALICE,)
        )
        assert not outcome.refused, (command, outcome.text)
        return outcome

    top = MAX_PER_SEVERITY
    await run("config preset", {"name": "titan", **dict.fromkeys(
        ("light", "serious", "critical", "shock", "trauma", "psychosis"), top
    )})  # fmt: skip
    await run("config dice", {"open-rolls": True})
    titan = long_name(1, "_*")
    attributes = {"corps": 10, "resistance": 10, "intuition": 10, "preset": "titan"}
    await run("character create", {"name": titan, "player": harness.user(ALICE), **attributes})
    for command, severities in (("wound", ("light", "serious", "critical")), ("mental", ("shock", "trauma"))):
        for severity in severities:
            for count in (7, 7, 6):
                await run(command, {"severity": severity, "character": titan, "count": count, "note": NOTE})
    for count in (7, 7, 5):  # 19 psychoses: the 20th is the last one a titan holds
        await run("mental", {"severity": "psychosis", "character": titan, "count": count, "note": NOTE})
    card = await run("character show", {"character": titan})
    assert f"{top}/{top}" in card.reply.text
    await run("history", {"character": titan})
    # One more batch of each: escalation all the way, death and incoherence, the rest not applied.
    for command, severity in (("mental", "shock"), ("wound", "light")):
        await run(command, {"severity": severity, "character": titan, "count": 7, "note": NOTE})
        await run("undo", {"character": titan})

    # A healing session of 20 rolls, every die open and long (10+10+10+10+10+9 against 10+…+1).
    healer = long_name(2, "@everyone ")
    await run("character create", {"name": healer, "player": harness.user(ALICE), **attributes})
    for count in (7, 7, 6):
        await run("wound", {"severity": "light", "character": healer, "count": count, "note": NOTE})
    await run("rest", {"days": 365, "character": healer})
    card = await run("character show", {"character": healer}, ALICE)
    assert any(b["custom_id"].startswith("heal:") for b in buttons(card))
    hard.table.rng.queue = [10, 10, 10, 10, 10, 9, 10, 10, 10, 10, 10, 1] * top
    session = await run("heal roll", {"character": healer}, ALICE)
    assert not hard.table.rng.queue, "20 rolls, every die thrown six times"
    healed = await hard.table.store.read(GUILD, lambda r: r.character_by_name(healer))
    assert healed.counts(Track.PHYSICAL) == (0, 0, 0), session.text


@pytest.mark.parametrize("server_locale", LOCALES)
async def test_manual_dice_and_the_most_presets(hard: Hardened, server_locale: str) -> None:
    async def run(command: str, options: dict[str, Any], user: int = GM) -> Outcome:
        outcome = await hard.run(
            command, options, user=user, guild_locale=server_locale, locale=server_locale, may_ping=(ALICE,)
        )
        assert not outcome.refused, (command, outcome.text)
        return outcome

    for index in range(MAX_PRESETS - 1):
        name = (f"p{index:02d}" + "-" * 32)[:32]
        await run("config preset", {"name": name, "light": 20, "serious": 20, "critical": 20,
                                    "shock": 20, "trauma": 20, "psychosis": 20})  # fmt: skip
    over = await hard.run("config preset", {"name": "one-too-many", "light": 1}, locale=server_locale)
    over.refused_with(
        "That setting is not valid:\n{errors}\nNothing was changed: fix the value "
        "and try again (/config show lists the current settings)."
    )
    await run("config penalties", {"track": "physical", "light": -50, "serious": -50, "critical": -50})
    await run("config difficulty", {"track": "mental", "light": -50, "serious": 50, "critical": -50})
    await run("config rest", {"track": "physical", "light": 3650, "serious": 3650, "critical": 3650})
    await run("config show", {})
    await run("config dice", {"open-rolls": True, "tie-succeeds": False})
    name = long_name(3, "~")
    await run("character create", {"name": name, "player": harness.user(ALICE), "preset": "p00" + "-" * 29})
    for count in (7, 7, 6):
        await run("wound", {"severity": "light", "character": name, "count": count, "note": NOTE})
    await run("rest", {"days": 365, "character": name})
    for _ in range(10):
        await run("rest", {"days": 365, "character": name})
    manual = " ".join(["999-1"] * 20)
    await run("heal roll", {"character": name, "dice": manual}, ALICE)
    await run("roll", {"character": name, "dice": "999-1", "modifier": 100, "difficulty": -100}, ALICE)
    await run("roll", {"character": name, "dice": "1-999", "modifier": -100, "difficulty": -100}, ALICE)
    await run("history", {})
    await run("undo", {}, OWNER)
