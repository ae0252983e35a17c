"""The healing odds wherever a session is offered, and the private question before a risky one."""

from __future__ import annotations

from typing import Any

import pytest

from bot.interface import views
from bot.rules import Track
from tests.bot.table import ALICE, BOB, GM, GUILD, Table, public, refused


def labels(message: dict[str, Any]) -> list[str]:
    return [button["label"] for row in message["components"] for button in row["components"]]


async def aelis(table: Table) -> None:
    """The issue's example: −14 (3 light, 2 serious, 1 critical), Cp+Rs +3, rest over."""
    await table.create("Aélis", ALICE, corps=2, resistance=1)
    for severity, count in (("critical", 1), ("serious", 2), ("light", 3)):
        public(await table.run("wound", {"severity": severity, "character": "Aélis", "count": count}))
    public(await table.run("rest", {"days": 1}))


async def test_the_card_shows_the_odds_of_the_first_roll(table: Table) -> None:
    await aelis(table)
    card = await table.run("character show", user=ALICE)
    assert "First roll (light wound): success 0% · worsening 64% · ☠️ **death 64%**" in public(card)
    french = await table.run("character show", user=ALICE, guild_locale="fr")
    assert "Premier jet (blessure légère) : réussite 0\u202f% · aggravation 64\u202f%" in public(french)
    assert "mort 64\u202f%" in french.text


async def test_a_risky_heal_asks_the_roller_privately_and_going_on_rolls(table: Table) -> None:
    await aelis(table)
    table.rng.queue[:] = [5, 5]
    question, answered, reply = await table.answer(table.run("heal roll", user=ALICE), user=ALICE)
    assert question["flags"] & 64 and "may **kill** Aélis" in question["content"]
    assert "death 64%" in question["embeds"][0]["description"]
    assert labels(question) == ["Roll", "Cancel"]
    assert answered.errors == [] and "Rolling" in (answered.content or "")
    result = reply.followups[-1]
    assert not result.ephemeral and "Healing session — Aélis" in result.text
    assert table.rng.queue == []
    # margin 0 + 3 − 14 = −11: worsened, and fatal.
    assert (await table.character("Aélis")).dead


async def test_cancelling_changes_nothing_and_rolls_nothing(table: Table) -> None:
    await aelis(table)
    before = await table.character("Aélis")
    table.rng.queue[:] = [5, 5]
    _, answered, reply = await table.answer(table.run("heal roll", user=ALICE), user=ALICE, go=False)
    assert "Cancelled: nothing was changed." in (answered.content or "") and reply.followups == []
    assert await table.character("Aélis") == before and table.rng.queue == [5, 5]


async def test_only_the_roller_may_answer(table: Table) -> None:
    await aelis(table)
    before = await table.character("Aélis")
    task, question = await table.asked(table.run("heal roll", user=ALICE))
    buttons = [b for row in question["components"] for b in row["components"]]
    intruder = await table.click(buttons[0]["custom_id"], question, user=GM)
    assert "Only the person who ran the command" in refused(intruder)
    assert await table.character("Aélis") == before
    await table.click(buttons[1]["custom_id"], question, user=ALICE)
    await task
    assert await table.character("Aélis") == before


async def test_no_answer_in_time_changes_nothing(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(views, "CONFIRM_TIMEOUT", 0.05)
    await aelis(table)
    before = await table.character("Aélis")
    asked = await table.run("heal roll", user=ALICE)
    assert asked.errors == []
    question = table.fake.messages[int(asked.messages[0].message["id"])]
    assert "No answer in time" in question["content"]
    assert all(b["disabled"] for row in question["components"] for b in row["components"])
    assert await table.character("Aélis") == before


async def test_typed_dice_need_no_question(table: Table) -> None:
    await aelis(table)
    reply = await table.run("heal roll", {"dice": "9-1"}, user=ALICE)
    assert "Healing session — Aélis" in public(reply)
    assert not (await table.character("Aélis")).dead  # 8 + 3 − 14 = −3: failed, not worsened


async def test_a_safe_session_asks_nothing(table: Table) -> None:
    await table.create("Aria", ALICE, corps=3, resistance=3)
    await table.run("wound", {"severity": "light", "character": "Aria"})
    await table.run("rest", {"days": 1})
    table.rng.queue[:] = [1, 10]  # −9 + 6 − 1 = −4: failed, but never by 10
    assert "Healing session — Aria" in public(await table.run("heal roll", user=ALICE))


async def test_the_server_can_turn_the_question_off(table: Table) -> None:
    await aelis(table)
    changed = await table.run("config dice", {"confirm-risky-healing": False})
    assert "Confirm risky healing sessions" in public(changed)
    table.rng.queue[:] = [9, 1]
    assert "Healing session — Aélis" in public(await table.run("heal roll", user=ALICE))
    assert (await table.store.ruleset(GUILD)).confirm_risky_healing is False


async def test_the_heal_button_asks_too_in_the_clickers_language(table: Table) -> None:
    await aelis(table)
    card = await table.run("character show", user=ALICE)
    heal = next(b for row in card.components for b in row["components"] if b["custom_id"].startswith("heal:"))
    table.rng.queue[:] = [9, 1]
    question, _, reply = await table.answer(
        table.click(heal["custom_id"], card, user=ALICE, locale="fr"), user=ALICE, locale="fr"
    )
    assert question["flags"] & 64 and "peut **tuer** Aélis" in question["content"]
    assert labels(question) == ["Lancer", "Annuler"]
    assert "Healing session — Aélis" in reply.followups[-1].text  # public: the server's language
    assert (await table.character("Aélis")).counts(Track.PHYSICAL) == (3, 2, 1)  # 8 + 3 − 14: failed


async def test_a_change_between_question_and_answer_rolls_nothing(table: Table) -> None:
    await aelis(table)
    task, question = await table.asked(table.run("heal roll", user=ALICE))
    public(await table.run("heal wound", {"severity": "light", "character": "Aélis"}))
    before = await table.character("Aélis")
    buttons = [b for row in question["components"] for b in row["components"]]
    await table.click(buttons[0]["custom_id"], question, user=ALICE)
    reply = await task
    assert "changed since the question" in reply.followups[-1].text
    assert reply.followups[-1].ephemeral
    assert await table.character("Aélis") == before


async def test_another_player_is_refused_before_any_question(table: Table) -> None:
    await aelis(table)
    text = refused(await table.run("heal roll", {"character": "Aélis"}, user=BOB))
    assert "Only the player of Aélis" in text
