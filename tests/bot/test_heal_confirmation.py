"""The healing odds wherever a session is offered, and the private question before a risky one."""

from __future__ import annotations

from typing import Any

import pytest

from bot.interface import views
from bot.rules import Track
from tests.databases import ruleset_of
from tests.table import ALICE, BOB, GM, GUILD, Table, public, refused, shown


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
    text = public(card)
    assert "First roll (light wound): **success impossible** · worsening 64% · ☠️ **death 64%**" in text
    # A session that can only hurt is never offered as good news: not "available", a red button.
    assert "/heal roll cannot succeed now" in text and "is available" not in text
    (heal,) = [b for row in card.components for b in row["components"] if b["custom_id"].startswith("heal:")]
    assert heal["label"] == "Heal · success impossible · ☠️ 64%" and heal["style"] == 4  # danger
    french = await table.run("character show", user=ALICE, guild_locale="fr")
    text = public(french)
    assert "Premier jet (blessure légère)\u202f: **réussite impossible** · aggravation 64\u202f%" in text
    assert "mort 64\u202f%" in text and "/soin jet ne peut pas réussir" in text
    assert "est disponible" not in text


async def test_a_risky_heal_asks_the_roller_privately_and_going_on_rolls(table: Table) -> None:
    await aelis(table)
    table.rng.queue[:] = [5, 5]
    question, answered, reply = await table.answer(table.run("heal roll", user=ALICE), user=ALICE)
    assert question["flags"] & 64 and "may **kill** Aélis" in question["content"]
    # What is at stake leads; Cancel (the safe choice) comes first.
    assert question["content"].startswith("⚠️ **success impossible · ☠️ 64%**\n")
    assert "death 64%" in question["embeds"][0]["description"]
    assert labels(question) == ["Cancel", "Roll"]
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
    (go,) = [b for b in buttons if b["custom_id"].endswith(":y")]
    (cancel,) = [b for b in buttons if b["custom_id"].endswith(":n")]
    intruder = await table.click(go["custom_id"], question, user=GM)
    assert "Only the person who ran the command" in refused(intruder)
    assert await table.character("Aélis") == before
    await table.click(cancel["custom_id"], question, user=ALICE)
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
    changed = await table.run("config dice", {"ask-before-healing": "never"})
    assert (
        "Ask before a healing session: when its first roll can kill or make incoherent, or cannot reasonably "
        "succeed → **never**"
    ) in public(changed)
    table.rng.queue[:] = [9, 1]
    assert "Healing session — Aélis" in public(await table.run("heal roll", user=ALICE))
    assert (await ruleset_of(table.store, GUILD)).ask_before_healing == "never"


async def test_the_heal_button_asks_too_in_the_clickers_language(table: Table) -> None:
    await aelis(table)
    card = await table.run("character show", user=ALICE)
    heal = next(b for row in card.components for b in row["components"] if b["custom_id"].startswith("heal:"))
    table.rng.queue[:] = [9, 1]
    question, _, reply = await table.answer(
        table.click(heal["custom_id"], card, user=ALICE, locale="fr"), user=ALICE, locale="fr"
    )
    assert question["flags"] & 64 and "peut **tuer** Aélis" in question["content"]
    assert question["content"].startswith("⚠️ **réussite impossible · ☠️ 64\u202f%**")
    assert labels(question) == ["Annuler", "Lancer"]
    assert "Healing session — Aélis" in reply.followups[-1].text  # public: the server's language
    assert (await table.character("Aélis")).counts(Track.PHYSICAL) == (3, 2, 1)  # 8 + 3 − 14: failed


async def test_a_change_between_question_and_answer_rolls_nothing(table: Table) -> None:
    await aelis(table)
    task, question = await table.asked(table.run("heal roll", user=ALICE))
    public(await table.run("heal wound", {"severity": "light", "character": "Aélis"}))
    before = await table.character("Aélis")
    buttons = [b for row in question["components"] for b in row["components"]]
    (go,) = [b for b in buttons if b["custom_id"].endswith(":y")]
    await table.click(go["custom_id"], question, user=ALICE)
    reply = await task
    assert "changed since the question" in reply.followups[-1].text
    assert reply.followups[-1].ephemeral
    # The question no longer says "Rolling…": it says nothing was rolled.
    assert table.fake.messages[int(question["id"])]["content"] == "Nothing was rolled."
    assert await table.character("Aélis") == before


async def test_another_player_is_refused_before_any_question(table: Table) -> None:
    await aelis(table)
    text = refused(await table.run("heal roll", {"character": "Aélis"}, user=BOB))
    assert text == (
        f"Aélis's healing rolls are rolled by <@{ALICE}>; a GM can heal without a roll with /heal wound."
    )


async def bran(table: Table) -> None:
    """One serious wound (−3), Cp+Rs +1, rest over: the first roll fails by 10 or more 3 times in 100
    (a critical wound then, never fatal)."""
    await table.create("Bran", BOB, corps=1, resistance=0)
    public(await table.run("wound", {"severity": "serious", "character": "Bran"}))
    public(await table.run("rest", {"days": 7}))


@pytest.mark.parametrize(
    ("setting", "asks_at_3_percent", "asks_when_deadly"),
    [(None, False, True), ("worsening", True, True), ("never", False, False)],
)
@pytest.mark.parametrize("locale", ["en-US", "fr"])
async def test_the_question_at_each_setting_at_3_percent_and_at_a_deadly_roll(
    table: Table, setting: str | None, asks_at_3_percent: bool, asks_when_deadly: bool, locale: str
) -> None:
    await aelis(table)
    await bran(table)
    if setting is not None:  # None: the default, deadly only
        public(await table.run("config dice", {"ask-before-healing": setting}))
    for who, player, asks in (("Bran", BOB, asks_at_3_percent), ("Aélis", ALICE, asks_when_deadly)):
        before = await table.character(who)
        task, question = await table.asked(table.run("heal roll", user=player, locale=locale))
        assert (question is not None) == asks, (setting, who)
        if question is None:
            assert "Healing session" in public(await task) or "Séance" in (await task).text
            continue
        lead = question["content"].split("\n")[0]
        if who == "Bran":
            assert lead in ("**success 36% · worsening 3%**", "**réussite 36\u202f% · aggravation 3\u202f%**")
        else:
            assert "☠️ 64" in lead and ("success impossible" in lead or "réussite impossible" in lead)
        (cancel,) = [
            b
            for row in question["components"]
            for b in row["components"]
            if b["label"] in ("Cancel", "Annuler")
        ]
        await table.click(cancel["custom_id"], question, user=player, locale=locale)
        await task
        assert await table.character(who) == before  # cancelled: nothing rolled, nothing changed


async def test_settings_stored_before_the_choice_are_still_read() -> None:
    from bot.rules.ruleset import Ruleset

    assert Ruleset.model_validate({"confirm_risky_healing": True}).ask_before_healing == "deadly"
    assert Ruleset.model_validate({"confirm_risky_healing": False}).ask_before_healing == "never"
    assert Ruleset().ask_before_healing == "deadly"


@pytest.mark.parametrize("locale", ["en-US", "fr"])
async def test_rest_says_plainly_a_session_that_can_only_hurt_and_pings_no_one_for_it(
    table: Table, locale: str
) -> None:
    await table.create("Aélis", ALICE, corps=2, resistance=1)
    for severity, count in (("critical", 1), ("serious", 2), ("light", 3)):
        public(await table.run("wound", {"severity": severity, "character": "Aélis", "count": count}))
    await table.create("Bran", BOB, corps=1, resistance=0)
    public(await table.run("wound", {"severity": "light", "character": "Bran"}))
    reply = await table.run("rest", {"days": 1}, guild_locale=locale)
    (message,) = shown(reply)
    fields = {field["name"]: field["value"] for field in message.embeds[0]["fields"]}
    if locale == "fr":
        ready, hopeless = (
            "Peuvent faire un jet de guérison (/soin jet)",
            "Repos terminé, mais la guérison peut tuer ou ne peut pas réussir pour l'instant "
            "(sans notification)",
        )
    else:
        ready, hopeless = (
            "Can roll healing now (/heal roll)",
            "Rest over, but healing can kill or cannot succeed now (not pinged)",
        )
    assert list(fields) == [ready, hopeless]
    assert "Bran" in fields[ready] and "Aélis" not in fields[ready]
    assert "Aélis" in fields[hopeless] and "☠️" in fields[hopeless]
    assert "impossible" in fields[hopeless]
    # Only the player who can heal is called to the table.
    assert message.content == f"<@{BOB}>" and message.allowed_mentions == {"users": [BOB], "parse": []}


async def test_a_stop_waits_for_the_commands_and_the_clicks_in_flight(table: Table) -> None:
    """What :meth:`HarmoniesBot.drain` waits for: every interaction the tree, a view or a lasting
    button is handling (here a /heal roll, then a Heal click, each waiting for its question's answer)."""
    await aelis(table)
    card = await table.run("character show", user=ALICE)
    heal = next(b for row in card.components for b in row["components"] if b["custom_id"].startswith("heal:"))
    for action in (table.run("heal roll", user=ALICE), table.click(heal["custom_id"], card, user=ALICE)):
        task, question = await table.asked(action)
        assert await table.bot.drain(0.01) == 1  # still waiting for its answer
        buttons = [b for row in question["components"] for b in row["components"]]
        (cancel,) = [b for b in buttons if b["custom_id"].endswith(":n")]
        await table.click(cancel["custom_id"], question, user=ALICE)
        await task
        assert await table.bot.drain(0.01) == 0


async def unwelcome(table: Table) -> None:
    """Two sessions the rules allow but that are not worth offering, rest over:
    Cara (Alice): 4 light, 2 serious, 1 critical (−15), Cp+Rs +6: success 1 %, death 45 % (the issue's);
    Bastien (Bob): 4 light, 2 serious (−10), Cp+Rs 0: success impossible, worsening 55 %, never fatal."""
    await table.create("Cara", ALICE, corps=3, resistance=3)
    await table.create("Bastien", BOB)
    for name, wounds in (
        ("Cara", (("critical", 1), ("serious", 2), ("light", 4))),
        ("Bastien", (("serious", 2), ("light", 4))),
    ):
        for severity, count in wounds:
            public(await table.run("wound", {"severity": severity, "character": name, "count": count}))


@pytest.mark.parametrize("locale", ["en-US", "fr"])
async def test_a_rest_pings_exactly_whom_it_says_never_for_a_session_that_can_kill_or_hardly_succeed(
    table: Table, locale: str
) -> None:
    await unwelcome(table)
    reply = await table.run("rest", {"days": 1}, guild_locale=locale)
    (message,) = shown(reply)
    (embed,) = message.embeds
    (field,) = embed["fields"]
    if locale == "fr":
        assert embed["description"].startswith("Personne ne peut encore faire de jet de guérison.")
        assert field["name"] == (
            "Repos terminé, mais la guérison peut tuer ou ne peut pas réussir pour l'instant "
            "(sans notification)"
        )
        assert "réussite 1\u202f%" in field["value"] and "mort 45\u202f%" in field["value"]
    else:
        assert embed["description"].startswith("Nobody can roll healing yet.")
        assert field["name"] == "Rest over, but healing can kill or cannot succeed now (not pinged)"
        assert (
            "• Cara — First roll (light wound): **success 1%** · worsening 45% · ☠️ **death 45%**"
            in (field["value"])
        )
        assert (
            "• Bastien — First roll (light wound): **success impossible** · worsening 55%" in field["value"]
        )
    # Listed once each (under the field, not again in the description), and nobody is pinged.
    assert "Cara" not in embed["description"] and "Bastien" not in embed["description"]
    assert message.content in ("", None) and not (message.allowed_mentions or {}).get("users")
    # The same for one character: "/rest character:Bastien" does not ping Bob after saying "not pinged".
    (one,) = shown(await table.run("rest", {"days": 1, "character": "Bastien"}, guild_locale=locale))
    assert "not pinged" in one.text or "sans notification" in one.text
    assert one.content in ("", None) and not (one.allowed_mentions or {}).get("users")


async def test_a_session_that_can_kill_or_hardly_succeed_is_not_offered_as_good_news_and_is_asked_about(
    table: Table,
) -> None:
    await unwelcome(table)
    public(await table.run("rest", {"days": 1}))
    cara = await table.run("character show", user=ALICE)
    text = public(cara)
    assert "/heal roll can hardly succeed now" in text and "is available" not in text
    assert "A session rolls once per wound of the least severe kind" in text  # the procedure, once, here
    (heal,) = [b for row in cara.components for b in row["components"] if b["custom_id"].startswith("heal:")]
    assert heal["style"] == 4 and heal["emoji"]["name"] == "☠️"  # danger
    bastien = await table.run("character show", {"character": "Bastien"}, user=BOB)
    assert "/heal roll cannot succeed now" in public(bastien)
    (heal,) = [
        b for row in bastien.components for b in row["components"] if b["custom_id"].startswith("heal:")
    ]
    assert heal["label"] == "Heal · success impossible · worsening 55%"
    assert heal["style"] == 2 and heal["emoji"]["name"] == "⛔"  # grey, not 🩹
    # The bot asks before rolling either (the default asks before a session not worth offering).
    for name, player, lead in (
        ("Bastien", BOB, "**success impossible · worsening 55%**"),
        ("Cara", ALICE, "⚠️ **success 1% · ☠️ 45%**"),
    ):
        before = await table.character(name)
        task, question = await table.asked(table.run("heal roll", {"character": name}, user=player))
        assert question is not None, name
        assert question["content"].split("\n")[0] == lead
        if name == "Bastien":
            assert "can hardly succeed" in question["content"]
        (cancel,) = [b for row in question["components"] for b in row["components"] if b["label"] == "Cancel"]
        await table.click(cancel["custom_id"], question, user=player)
        await task
        assert await table.character(name) == before
    # Typed dice still roll at once; "never" never asks.
    public(await table.run("config dice", {"ask-before-healing": "never"}))
    assert "Healing session — Bastien" in public(
        await table.run("heal roll", {"character": "Bastien"}, user=BOB)
    )
