"""Raw hostile payloads, sent with ``discord_checks=False``: what Discord's client would never let a user
send (out-of-range numbers, over-long strings, values outside the choices, unknown options, DMs, forged
buttons). The bot must still refuse them ephemerally, in the caller's language, and change nothing."""

from __future__ import annotations

from typing import Any

import pytest

from tests import fakediscord as harness
from tests.hardening.support import Hardened, is_refusal, refusal_of
from tests.hardening.world import build_world
from tests.table import ALICE, GM, GUILD, OTHER_GUILD, OWNER

HUGE = 10**30
LONG = "x" * 10_000

CASES: list[tuple[str, dict[str, Any]]] = [
    ("wound", {"severity": "light", "character": "Aria", "count": 0}),
    ("wound", {"severity": "light", "character": "Aria", "count": -3}),
    ("wound", {"severity": "light", "character": "Aria", "count": 8}),
    ("wound", {"severity": "light", "character": "Aria", "count": HUGE}),
    ("wound", {"severity": "light", "character": "Aria", "count": -HUGE}),
    ("wound", {"severity": "light", "character": "Aria", "note": LONG}),
    ("wound", {"severity": "fatal", "character": "Aria"}),
    ("wound", {"severity": "shock", "character": "Aria"}),
    ("wound", {"severity": "", "character": "Aria"}),
    ("wound", {"character": "Aria"}),
    ("wound", {"severity": "light", "character": "Aria", "count": "three"}),
    ("mental", {"severity": "light", "character": "Aria"}),
    ("mental", {"severity": "psychosis", "character": "Aria", "count": 10**6, "note": LONG}),
    ("heal wound", {"severity": "deadly", "character": "Aria"}),
    ("heal mental", {"severity": "critical", "character": "Aria"}),
    ("heal roll", {"character": "Aria", "track": "astral"}),
    ("heal roll", {"character": "Aria", "dice": "7-3 " * 2_500}),
    ("rest", {"days": 0}),
    ("rest", {"days": -1}),
    ("rest", {"days": 366}),
    ("rest", {"days": HUGE, "character": "Aria"}),
    ("rest", {}),
    ("roll", {"modifier": 10**9, "character": "Aria"}),
    ("roll", {"difficulty": -HUGE, "character": "Aria"}),
    ("roll", {"character": "Aria", "dice": LONG}),
    ("history", {"page": 0}),
    ("history", {"page": -5}),
    ("history", {"page": HUGE}),
    ("history", {"page": 10**6, "character": "Aria"}),
    ("character create", {"name": LONG}),
    ("character create", {"name": ""}),
    ("character create", {"name": "Valid", "corps": 11}),
    ("character create", {"name": "Valid", "resistance": -HUGE}),
    ("character create", {"name": "Valid", "preset": LONG}),
    ("character create", {}),
    ("character edit", {"character": "Aria", "name": "n" * 65}),
    ("character edit", {"character": "Aria", "intuition": HUGE}),
    ("character edit", {"character": "Aria", "preset": LONG}),
    ("character edit", {"name": "No character"}),
    ("character select", {}),
    ("config penalties", {"track": "physical", "light": -(10**9)}),
    ("config penalties", {"track": "astral", "light": -1}),
    ("config rest", {"track": "physical", "light": HUGE}),
    ("config difficulty", {"track": "mental", "critical": 51}),
    ("config preset", {"name": LONG, "light": 3}),
    ("config preset", {"name": "giant", "light": 21}),
    ("config preset", {"name": "giant", "serious": -1}),
    ("config preset", {"name": "humanoid", "remove": True}),
    ("config language", {"language": "de"}),
    ("config language", {"language": LONG}),
]


async def ready(hard: Hardened) -> None:
    await build_world(hard)


@pytest.mark.parametrize("locale", ["en-US", "fr"])
async def test_out_of_range_values_are_refused_unchanged(hard: Hardened, locale: str) -> None:
    await ready(hard)
    for command, options in CASES:
        outcome = await hard.run(command, options, locale=locale, may_ping=(ALICE,), discord_checks=False)
        assert outcome.refused, f"/{command} {str(options)[:200]}: {outcome.text[:300]!r}"


async def test_an_unknown_option_is_ignored(hard: Hardened) -> None:
    await ready(hard)
    outcome = await hard.run(
        "wound", {"severity": "light", "character": "Aria", "bogus": "@everyone"}, discord_checks=False
    )
    assert "light wound" in outcome.public().text


async def test_guild_commands_in_a_dm_are_refused(hard: Hardened) -> None:
    await ready(hard)
    for command, options in [
        ("wound", {"severity": "light", "character": "Aria"}),
        ("character show", {"character": "Aria"}),
        ("character list", {}),
        ("autocomplete", {}),
    ]:
        if command == "autocomplete":
            payload = harness.autocomplete("wound", {"character": "A"}, focused="character", guild_id=None)
            reply = await harness.dispatch(hard.table.fake, hard.bot, payload, discord_checks=False)
            assert reply.errors == [] and (reply.choices or []) == []
            continue
        payload = harness.slash(command, options, guild_id=None, user_id=GM, locale="fr")
        before = hard.dump()
        reply = await harness.dispatch(hard.table.fake, hard.bot, payload, discord_checks=False)
        hard.table.replies.append(reply)
        outcome = hard.check(reply, "fr", (), before, hard.dump())
        assert (
            outcome.refused
            and refusal_of(reply.text, "fr") == "This command only works in a server, not in direct messages."
        ), reply.text


async def test_forged_heal_buttons_are_refused_unchanged(hard: Hardened) -> None:
    world = await build_world(hard)
    aria = (await hard.table.store.read(OTHER_GUILD, lambda r: r.character_by_name("Aria"))).id
    for custom_id in [
        "heal:9999999999999999999:p",  # beyond SQLite's integers
        "heal:0:m",
        f"heal:{world.deleted_id}:p",
        f"heal:{world.other_ids['Zorglub-secret']}:p",  # a character of the other server
        f"heal:{aria}:m",
        f"heal:{world.departed_id}:p",  # not the clicker's character
    ]:
        for user in (ALICE, GM, OWNER):
            outcome = await hard.click(custom_id, user=user, locale="fr")
            assert is_refusal(outcome.reply), (custom_id, outcome.text)
            assert "Zorglub" not in outcome.text


async def test_an_unknown_button_is_ignored(hard: Hardened) -> None:
    await ready(hard)
    payload = harness.component("heal:nope", user_id=ALICE, guild_id=GUILD)
    before = hard.dump()
    reply = await harness.dispatch(hard.table.fake, hard.bot, payload)
    assert reply.errors == [] and hard.dump() == before


#: Text a user may type in a ``character`` option that looks like a number but is no id of this server.
NOT_IDS = ["²", "𝟙", "١٢", "9999999999999999999", "9223372036854775808", "0", "-1", "+1", "00", " 7 "]


async def test_numbers_that_are_no_ids_are_simply_not_found(hard: Hardened) -> None:
    await ready(hard)
    for ref in NOT_IDS:
        for command, options in [
            ("character show", {}),
            ("history", {}),
            ("wound", {"severity": "light"}),
            ("heal roll", {}),
            ("undo", {}),
        ]:
            outcome = await hard.run(command, {"character": ref, **options}, locale="fr")
            outcome.refused_with(
                (
                    "No character called {ref} in this server. Pick one from the "
                    "suggestions, or see /character list."
                ),
                (
                    "That character does not exist in this server (any more). Pick one from "
                    "the suggestions, or see /character list."
                ),
            )
