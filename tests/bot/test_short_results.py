"""Short results (issue 13): one embed per wound, heal or session, at most ten lines for one wound,
the full card behind a persistent "Card" button."""

from __future__ import annotations

from typing import Any

import pytest

from tests import fakediscord as harness
from tests.fakediscord import check_requests
from tests.table import ALICE, BOB, GM, GUILD, OWNER, Table, open_table, public, refused
from tests.ui.limits import message_within_limits


def lines_shown(reply: harness.Reply) -> int:
    """The lines a reader sees: the content, then each embed's title, description and fields."""
    count = len((reply.content or "").splitlines())
    for embed in reply.embeds:
        count += 1 if embed.get("title") else 0
        count += len((embed.get("description") or "").splitlines())
        for field in embed.get("fields", []):
            count += 1 + len(field["value"].splitlines())
    return count


def buttons(message: dict[str, Any] | None, prefix: str) -> list[dict[str, Any]]:
    rows = (message or {}).get("components", [])
    return [b for row in rows for b in row["components"] if str(b.get("custom_id", "")).startswith(prefix)]


def within_limits(reply: harness.Reply) -> None:
    from discord import Embed

    embeds = [Embed.from_dict(e) for e in reply.embeds]
    assert message_within_limits(reply.content, embeds) == []


@pytest.mark.parametrize("locale", ["en-US", "fr"])
async def test_one_wound_is_one_short_embed_of_at_most_ten_lines(table: Table, locale: str) -> None:
    await table.create("Aria", ALICE)
    # The longest case: both tracks wounded, a warning, a note.
    await table.run("wound", {"severity": "light", "character": "Aria", "count": 3}, guild_locale=locale)
    await table.run("mental", {"severity": "trauma", "character": "Aria", "count": 2}, guild_locale=locale)
    reply = await table.run(
        "wound",
        {"severity": "light", "target": harness.user(ALICE), "note": "an arrow in the shoulder"},
        guild_locale=locale,
    )
    text = public(reply)
    assert len(reply.embeds) == 1
    assert lines_shown(reply) <= 10, text
    assert text.count("an arrow in the shoulder") == 1
    assert ("Penalty −10 on all rolls" if locale == "en-US" else "Pénalité −10 à tous les jets") in text
    assert "▫️" not in text  # no empty boxes: only the tracks that hold wounds, no empty track
    within_limits(reply)


async def test_a_fight_of_six_wounds_on_three_characters_stays_short(table: Table) -> None:
    for name, player in (("Aria", ALICE), ("Brann", BOB), ("Goblin", None)):
        await table.create(name, player)
    fight = [
        ("wound", "light", "Aria"),
        ("wound", "serious", "Brann"),
        ("wound", "light", "Goblin"),
        ("mental", "shock", "Aria"),
        ("wound", "critical", "Goblin"),
        ("wound", "light", "Brann"),
    ]
    total = 0
    for command, severity, name in fight:
        reply = await table.run(command, {"severity": severity, "character": name, "note": "a blow"})
        public(reply)
        assert lines_shown(reply) <= 10
        total += lines_shown(reply)
    assert total <= 6 * 8


async def test_the_card_button_shows_the_full_card_privately_in_the_clickers_language(table: Table) -> None:
    aria = await table.create("Aria", ALICE)
    reply = await table.run("wound", {"severity": "serious", "character": "Aria"})
    (button,) = buttons(reply.message, "card:")
    assert button["custom_id"] == f"card:{aria.id}" and button["label"] == "Card"
    clicked = await table.click(button["custom_id"], reply, user=BOB, locale="fr")
    card = refused(clicked)  # private, like a refusal (nothing posted in the channel)
    assert "Blessures physiques" in card and "Grave 🟧▫️ 1/2" in card
    assert "Légère ▫️▫️▫️▫️ 0/4" in card  # the card shows every row, the result only what is held


async def test_results_carry_the_heal_button_when_a_session_is_available(table: Table) -> None:
    await table.create("Aria", ALICE)
    await table.run("config dice", {"ask-before-healing": "never"})  # the button rolls at once
    await table.run("wound", {"severity": "light", "character": "Aria", "count": 2})
    await table.run("rest", {"days": 1})
    lowered = await table.run("heal wound", {"severity": "light", "character": "Aria"})
    text = public(lowered)
    assert "Physical 🟨 — light 1/4" in text and len(lowered.embeds) == 1
    assert buttons(lowered.message, "heal:") and buttons(lowered.message, "card:")
    session = await table.click(buttons(lowered.message, "heal:")[0]["custom_id"], lowered, user=ALICE)
    assert "Unhurt." in public(session) and len(session.embeds) == 1
    assert not buttons(session.message, "heal:") and buttons(session.message, "card:")


async def test_the_card_button_works_after_a_restart_and_refuses_a_deleted_character(
    database_url: str,
) -> None:
    path = database_url
    async with open_table(path) as table:
        await table.create("Aria", ALICE)
        reply = await table.run("wound", {"severity": "light", "character": "Aria"})
        (button,) = buttons(reply.message, "card:")
        message = reply.message
        check_requests(table.fake.requests)
    async with open_table(path) as table:
        clicked = await table.click(button["custom_id"], message, user=GM)
        assert "Light 🟨▫️▫️▫️ 1/4" in refused(clicked)
        assert "does not exist" in refused(await table.click("card:999999", None, user=GM))
        check_requests(table.fake.requests)


async def test_autocomplete_choices_say_whose_character_and_its_state(table: Table) -> None:
    await table.create("Aria", ALICE)
    await table.create("Goblin")
    await table.run("wound", {"severity": "serious", "character": "Aria"})
    await table.run("wound", {"severity": "critical", "character": "Goblin"})
    await table.run("character show", user=ALICE)  # the bot has now seen Alice and her name
    reply = await table.complete("wound", {"severity": "light", "character": ""}, "character")
    names = [c["name"] for c in reply.choices or []]
    alice = table.bot.names.get(GUILD, ALICE)
    assert alice and names == [f"Aria ({alice}) — −3", "Goblin (NPC) — −5"]
    await table.run("config secret-npcs", {"secret": True})
    for user, goblin in ((ALICE, "Goblin (NPC) — at death's door"), (OWNER, "Goblin (NPC) — −5")):
        reply = await table.complete("character show", {"character": "Gob"}, "character", user=user)
        assert [c["name"] for c in reply.choices or []] == [goblin]


async def test_a_choice_holds_in_discords_100_characters(table: Table) -> None:
    await table.create("N" * 64, ALICE)
    table.bot.names.put(GUILD, ALICE, "L" * 90)
    reply = await table.complete("wound", {"severity": "light", "character": ""}, "character")
    (choice,) = reply.choices or []
    assert len(choice["name"]) <= 100 and choice["name"].endswith(") — unhurt")
