"""/heal roll|wound|mental, /rest and /roll through the real dispatch, with scripted dice."""

from __future__ import annotations

import pytest

from bot.rules import Track
from bot.ui.text import MINUS
from tests import fakediscord as harness
from tests.databases import characters_of, history_of
from tests.table import ALICE, BOB, GM, GUILD, Table, public, refused, shown


async def wounded(
    table: Table, name: str, player: int | None, *wounds: tuple[str, int], **attrs: int
) -> None:
    """A character with the given wounds (``("light", 2)``…), created and wounded by the GM."""
    await table.create(name, player, **attrs)
    for severity, count in wounds:
        command = "wound" if severity in ("light", "serious", "critical") else "mental"
        public(await table.run(command, {"severity": severity, "character": name, "count": count}))


# ---- /heal roll -----------------------------------------------------------------------------------


async def test_no_healing_roll_before_the_rest_is_over(table: Table) -> None:
    await wounded(table, "Aria", ALICE, ("light", 1), ("serious", 1))
    text = refused(await table.run("heal roll", user=ALICE))
    assert "0/1 day of rest" in text and "1 to go" in text and "/rest" in text
    text = refused(await table.run("heal roll", user=ALICE, locale="fr"))
    assert "Pas encore de jet de guérison" in text and "0 jour sur 1" in text and "/repos" in text
    before = await table.character("Aria")
    public(await table.run("rest", {"days": 1, "character": "Aria"}))
    assert (await table.character("Aria")).rest_days == 1
    assert (await table.character("Aria")).wounds == before.wounds


async def test_a_successful_session_heals_the_least_severe_wounds_one_by_one(table: Table) -> None:
    await wounded(table, "Aria", ALICE, ("light", 2), ("serious", 1), corps=1, resistance=1)
    await table.run("rest", {"days": 1})
    table.rng.queue[:] = [6, 2, 5, 3]
    # A roll of −9 would fail by 12 and worsen the wound: the bot asks first.
    public(await table.run("config dice", {"ask-before-healing": "worsening"}))
    _, _, asked = await table.answer(table.run("heal roll", user=ALICE), user=ALICE)
    reply = asked.followups[-1]
    assert not reply.ephemeral
    text = reply.text
    assert reply.embeds[0]["title"] == "Healing session — Aria"
    # Penalty recomputed before each roll: −1 −1 −3 = −5, then −1 −3 = −4.
    assert f"luck 6 {MINUS} unluck 2 = +4, Cp+Rs +2, difficulty +0, penalty {MINUS}5 → margin +1" in text
    assert f"luck 5 {MINUS} unluck 3 = +2, Cp+Rs +2, difficulty +0, penalty {MINUS}4 → margin +0" in text
    # The outcome first, then each roll; how a session goes is on the card, not in every result.
    assert reply.embeds[0]["description"].startswith("Result: 2/2 successful rolls.\n**Roll 1**")
    assert "rest is consumed" not in text
    aria = await table.character("Aria")
    assert aria.counts(Track.PHYSICAL) == (0, 1, 0)  # the serious wound is not rolled in this session
    assert aria.rest_days == 0
    # What is left is shown in short; the card is behind a button.
    assert reply.embeds[0]["fields"][-1]["value"].startswith("Physical 🟧 — serious 1/2\nPenalty −3")
    assert table.rng.queue == []
    # The rest is used up: the next session needs a new full rest period (7 days now).
    text = refused(await table.run("heal roll", user=ALICE))
    assert "0/7" in text


async def test_a_session_failing_by_ten_or_more_worsens_the_wound_with_the_players_dice(table: Table) -> None:
    await wounded(table, "Aria", ALICE, ("light", 2))
    await table.run("rest", {"days": 1})
    reply = await table.run("heal roll", {"dice": "9-1 1-10"}, user=ALICE)
    text = public(reply)
    assert "player's dice" in text
    assert f"luck 9 {MINUS} unluck 1 = +8 (player's dice), Cp+Rs +0, difficulty +0, penalty {MINUS}2" in text
    assert f"luck 1 {MINUS} unluck 10 = {MINUS}9 (player's dice), Cp+Rs +0" in text
    assert f"penalty {MINUS}1 → margin {MINUS}10" in text
    assert "worsened to serious wound" in text
    aria = await table.character("Aria")
    assert aria.counts(Track.PHYSICAL) == (0, 1, 0) and aria.rest_days == 0
    history = await table.run("history", {"character": "Aria"})
    assert "worsened" in public(history)


async def test_a_session_failing_by_ten_or_more_worsens_the_wound_with_the_bots_dice(table: Table) -> None:
    await wounded(table, "Aria", ALICE, ("light", 1))
    await table.run("rest", {"days": 3})
    table.rng.queue[:] = [1, 10]
    public(await table.run("config dice", {"ask-before-healing": "worsening"}))
    _, _, asked = await table.answer(table.run("heal roll", {"character": "Aria"}, user=ALICE), user=ALICE)
    text = asked.followups[-1].text
    assert "(player's dice)" not in text and "failed by 10" in text
    assert (await table.character("Aria")).counts(Track.PHYSICAL) == (0, 1, 0)


async def test_a_plain_failure_changes_no_wound_but_uses_the_rest(table: Table) -> None:
    await wounded(table, "Aria", ALICE, ("light", 2))
    await table.run("rest", {"days": 1})
    text = public(await table.run("heal roll", {"dice": "2-5"}, user=ALICE))
    assert "failure margin 5" in text and "1 wound not rolled" in text and "0/1 successful" in text
    aria = await table.character("Aria")
    assert aria.counts(Track.PHYSICAL) == (2, 0, 0) and aria.rest_days == 0


async def test_a_worsening_critical_wound_kills(table: Table) -> None:
    await wounded(table, "Aria", ALICE, ("critical", 1))
    await table.run("rest", {"days": 30})
    text = public(await table.run("heal roll", {"dice": "1-10"}, user=ALICE))
    assert "FATAL" in text and "DEAD" in text
    assert (await table.character("Aria")).dead


async def test_a_tie_fails_when_the_server_says_so(table: Table) -> None:
    await wounded(table, "Aria", ALICE, ("light", 1))
    await table.run("rest", {"days": 1})
    public(await table.run("config dice", {"tie-succeeds": False}))
    text = public(await table.run("heal roll", {"dice": "6-5"}, user=ALICE))  # +1 −1 = 0
    assert "0/1 successful" in text
    assert (await table.character("Aria")).counts(Track.PHYSICAL) == (1, 0, 0)


async def test_someone_elses_character_is_refused(table: Table) -> None:
    await wounded(table, "Aria", ALICE, ("light", 1))
    await table.create("Brann", BOB)
    await table.run("rest", {"days": 1})
    before = await table.character("Aria")
    for who in (BOB, GM):
        text = refused(await table.run("heal roll", {"character": "Aria"}, user=who))
        assert "Aria" in text
    assert await table.character("Aria") == before


async def test_a_gm_rolls_healing_for_an_npc_but_a_player_may_not(table: Table) -> None:
    await wounded(table, "Goblin", None, ("serious", 1))
    await table.run("rest", {"days": 7})
    refused(await table.run("heal roll", {"character": "Goblin"}, user=ALICE))
    text = public(await table.run("heal roll", {"character": "Goblin", "dice": "8-1"}))
    assert "now light wound" in text
    assert (await table.character("Goblin")).counts(Track.PHYSICAL) == (1, 0, 0)


async def test_heal_roll_refusals(table: Table) -> None:
    await table.create("Aria", ALICE)
    text = refused(await table.run("heal roll", user=ALICE))
    assert "no wound to heal" in text
    text = refused(await table.run("heal roll", user=BOB))
    assert "/character create" in text
    await table.run("wound", {"severity": "light", "character": "Aria"})
    await table.run("rest", {"days": 1})
    text = refused(await table.run("heal roll", {"dice": "7-3 eleven"}, user=ALICE))
    assert "7-3 10-2" in text
    assert (await table.character("Aria")).rest_days == 1  # nothing consumed


async def test_mental_healing_rolls_only_when_the_server_allows_them(table: Table) -> None:
    await wounded(table, "Aria", ALICE, ("shock", 1), intuition=2, resistance=1)
    await table.run("rest", {"days": 1})
    text = refused(await table.run("heal roll", {"track": "mental"}, user=ALICE))
    assert "/heal mental" in text and "mental-healing-rolls" in text
    shown = await table.run("character show", user=ALICE)
    assert "healed by a GM" in public(shown) and shown.components == []
    public(await table.run("config rest", {"track": "mental", "mental-healing-rolls": True}))
    reply = await table.run("heal roll", {"track": "mental", "dice": "5-5"}, user=ALICE)
    text = public(reply)
    assert reply.embeds[0]["title"] == "Mental healing session — Aria"
    assert f"It+Rs +3, difficulty +0, penalty {MINUS}1 → margin +2" in text
    aria = await table.character("Aria")
    assert aria.counts(Track.MENTAL) == (0, 0, 0) and aria.rest_days == 0


async def test_a_dead_character_makes_no_healing_roll(table: Table) -> None:
    await wounded(table, "Aria", ALICE, ("critical", 2))
    text = refused(await table.run("heal roll", user=ALICE))
    assert "dead" in text


# ---- /heal wound and /heal mental ---------------------------------------------------------------


async def test_a_gm_lowers_the_oldest_wound_of_a_severity_without_a_roll(table: Table) -> None:
    await wounded(table, "Aria", ALICE, ("serious", 1))
    await table.run("rest", {"days": 2})
    reply = await table.run("heal wound", {"severity": "serious", "target": harness.user(ALICE)})
    text = public(reply)
    assert reply.allowed_mentions == {"users": [ALICE], "parse": []}
    assert "serious wound → **light wound**" in text and "rest counter is unchanged" in text
    aria = await table.character("Aria")
    assert aria.counts(Track.PHYSICAL) == (1, 0, 0) and aria.rest_days == 2
    assert aria.wounds[0].inflicted == 1  # the same wound, lowered
    text = public(await table.run("heal wound", {"severity": "light", "character": "Aria"}))
    assert "**healed**" in text
    assert (await table.character("Aria")).counts(Track.PHYSICAL) == (0, 0, 0)


async def test_gm_healing_never_escalates_when_the_rank_below_is_full(table: Table) -> None:
    await wounded(table, "Aria", ALICE, ("light", 4), ("serious", 1))
    before = await table.character("Aria")
    text = refused(await table.run("heal wound", {"severity": "serious", "character": "Aria"}))
    assert "maximum of light wounds" in text and "Heal a light wound first" in text
    text = refused(await table.run("heal wound", {"severity": "critical", "character": "Aria"}))
    assert "no critical wound" in text
    text = refused(await table.run("heal wound", {"severity": "serious", "character": "Aria"}, locale="fr"))
    assert "Soignez d'abord" in text
    assert await table.character("Aria") == before


async def test_a_gm_lowers_mental_wounds(table: Table) -> None:
    await wounded(table, "Aria", ALICE, ("shock", 4), ("trauma", 1), ("psychosis", 1))
    text = refused(await table.run("heal mental", {"severity": "trauma", "character": "Aria"}))
    assert "shocks" in text
    text = public(await table.run("heal mental", {"severity": "psychosis", "character": "Aria"}))
    assert "psychosis → **trauma**" in text
    public(await table.run("heal mental", {"severity": "shock", "character": "Aria"}))
    assert (await table.character("Aria")).counts(Track.MENTAL) == (3, 2, 0)


# ---- /rest ---------------------------------------------------------------------------------------


async def test_a_server_wide_rest_skips_the_dead_and_says_who_can_now_roll(table: Table) -> None:
    await wounded(table, "Aria", ALICE, ("light", 1))
    await wounded(table, "Brann", BOB, ("serious", 1))
    await wounded(table, "Goblin", None, ("critical", 2))
    await table.create("Nyx")
    reply = await table.run("rest", {"days": 1})
    text = public(reply)
    (message,) = shown(reply)
    embed = message.embeds[0]
    assert embed["title"] == "Rest: 1 day"
    lines = embed["description"].splitlines()
    assert not any("Aria" in line for line in lines)  # listed once: under who can roll, with the odds
    assert "Brann: 1/7 days (serious wound)" in lines
    assert "Nyx: unhurt" in lines
    assert "Goblin" not in embed["description"]
    ready = embed["fields"]
    assert (
        len(ready) == 1
        and ready[0]["value"] == "• Aria — First roll (light wound): success 45% · worsening 1%"
    )
    assert "/heal roll" in text
    # Alice, whose character can now heal, is mentioned; nobody else.
    assert message.content == f"<@{ALICE}>" and message.allowed_mentions == {"users": [ALICE], "parse": []}
    rested = {c.name: c.rest_days for c in await characters_of(table.store, GUILD)}
    assert rested == {"Aria": 1, "Brann": 1, "Goblin": 0, "Nyx": 1}
    history, _ = await history_of(table.store, GUILD)
    assert history[0].kind == "rest" and history[0].details["characters"] == 3


async def test_rest_for_one_character(table: Table) -> None:
    await wounded(table, "Aria", ALICE, ("light", 1))
    await wounded(table, "Brann", BOB, ("serious", 1))
    reply = await table.run("rest", {"days": 7, "target": harness.user(BOB)}, guild_locale="fr")
    text = public(reply)
    assert "Repos\u202f: 7 jours" in text and "Brann" in text and "Aria" not in text
    assert "Peuvent faire un jet de guérison" in text
    rested = {c.name: c.rest_days for c in await characters_of(table.store, GUILD)}
    assert rested == {"Aria": 0, "Brann": 7}
    (message,) = shown(reply)
    assert message.content == f"<@{BOB}>" and message.allowed_mentions == {"users": [BOB], "parse": []}


async def test_rest_refusals(table: Table) -> None:
    text = refused(await table.run("rest", {"days": 1}))
    assert "/character create" in text
    await wounded(table, "Goblin", None, ("critical", 2))
    text = refused(await table.run("rest", {"days": 1}))  # nobody alive
    assert "alive" in text
    text = refused(await table.run("rest", {"days": 1, "character": "Goblin"}))
    assert "dead" in text
    await table.create("Aria", ALICE)
    text = refused(await table.run("rest", {"days": 3}, user=ALICE))
    assert "GM" in text
    assert (await table.character("Aria")).rest_days == 0


# ---- /roll ---------------------------------------------------------------------------------------


async def test_a_roll_applies_the_wound_penalty_and_shows_every_term(table: Table) -> None:
    await wounded(table, "Aria", ALICE, ("serious", 1), ("shock", 1))
    reply = await table.run("roll", {"modifier": 4, "difficulty": -2, "dice": "7-3"}, user=ALICE)
    text = public(reply)
    assert reply.embeds[0]["title"] == "Roll — Aria"
    assert (
        f"luck 7 {MINUS} unluck 3 = +4 (player's dice), modifier +4, difficulty {MINUS}2, "
        f"penalty {MINUS}4 → margin +2"
    ) in text
    assert "Success" in text and "positive difficulty makes a roll easier" in text
    table.rng.queue[:] = [2, 9]
    text = public(await table.run("roll", {"modifier": 1}, user=ALICE))
    assert (
        f"luck 2 {MINUS} unluck 9 = {MINUS}7, modifier +1, difficulty +0, penalty {MINUS}4 → margin {MINUS}10"
        in text
    )
    assert "Failure" in text and "failure margin 10" in text
    assert (await table.character("Aria")).rest_days == 0  # a roll changes nothing


async def test_a_roll_for_another_players_character_is_refused_but_a_gm_may(table: Table) -> None:
    await table.create("Aria", ALICE)
    await table.create("Brann", BOB)
    refused(await table.run("roll", {"character": "Aria"}, user=BOB))
    text = public(await table.run("roll", {"character": "Aria", "dice": "5-5"}, guild_locale="fr"))
    assert "Jet — Aria" in text and "chance 5" in text and "Réussite" in text


@pytest.mark.parametrize("dice", ["0-3", "7", "5-5 6-6"])
async def test_impossible_dice_are_refused(table: Table, dice: str) -> None:
    await table.create("Aria", ALICE)
    text = refused(await table.run("roll", {"dice": dice}, user=ALICE))
    assert "luck-unluck" in text


async def test_dice_the_session_did_not_need_are_mentioned(table: Table) -> None:
    await wounded(table, "Aria", ALICE, ("light", 1))
    public(await table.run("rest", {"days": 1}))
    text = public(await table.run("heal roll", {"dice": "9-1 9-1 9-1"}, user=ALICE))
    assert "2 of your dice were not needed" in text
    assert (await table.character("Aria")).counts(Track.PHYSICAL) == (0, 0, 0)


async def test_with_no_rest_required_the_card_after_a_wound_offers_the_heal_button(table: Table) -> None:
    public(await table.run("config rest", {"track": "physical", "light": 0}))
    await wounded(table, "Aria", ALICE, ("light", 1))
    reply = await table.run("wound", {"severity": "light", "character": "Aria"})
    buttons = [c["custom_id"] for row in reply.components for c in row["components"]]
    assert buttons and buttons[0].startswith("heal:")


async def test_rest_says_who_can_heal_per_track_with_mental_healing_rolls_on(table: Table) -> None:
    public(await table.run("config rest", {"track": "mental", "mental-healing-rolls": True}))
    await wounded(table, "Aria", ALICE, ("shock", 1))
    await wounded(table, "Brann", BOB, ("serious", 1))
    reply = await table.run("rest", {"days": 1}, guild_locale="fr")
    (message,) = shown(reply)
    (field,) = message.embeds[0]["fields"]
    assert field["name"] == "Peuvent faire un jet de guérison mentale (/soin jet piste:mentale)"
    assert field["value"].startswith("• Aria — Premier jet (choc)\u202f: réussite 45\u202f%")
    assert (
        "Personne ne peut" not in message.text
        and "Brann\u202f: 1 jour sur 7 (blessure grave)" in message.text
    )
    assert message.content == f"<@{ALICE}>" and message.allowed_mentions == {"users": [ALICE], "parse": []}
    # What the summary promised, the next command does.
    healed = await table.run("heal roll", {"dice": "6-2", "track": "mental"}, user=ALICE)
    assert "Mental healing session — Aria" in public(healed)


async def test_the_dead_make_no_roll(table: Table) -> None:
    await wounded(table, "Aria", ALICE, ("critical", 2))
    text = refused(await table.run("roll", {"modifier": 2}, user=ALICE))
    assert "Aria is dead" in text and "/undo" in text
    text = refused(await table.run("roll", {"character": "Aria"}, locale="fr"))
    assert "Aria a succombé" in text
    listing = public(await table.run("character list"))
    assert f"**Aria** — <@{ALICE}> — dead" in listing and MINUS not in listing


async def test_refusals_point_to_the_right_door(table: Table) -> None:
    await wounded(table, "Aria", ALICE, ("light", 1))
    # A player trying the GM's healing is told about the roll.
    text = refused(await table.run("heal wound", {"severity": "light", "character": "Aria"}, user=ALICE))
    assert "/heal roll" in text and "Only a GM lowers a wound" in text
    text = refused(await table.run("heal mental", {"severity": "shock", "character": "Aria"}, user=ALICE))
    assert "/heal roll track:mental" in text
    # No mental wound: the refusal says so, not that the setting is off.
    await table.run("rest", {"days": 1})
    text = refused(await table.run("heal roll", {"track": "mental", "dice": "5-5"}, user=ALICE))
    assert "no mental wound" in text and "/config" not in text
    await table.run("mental", {"severity": "shock", "character": "Aria"})
    text = refused(await table.run("heal roll", {"track": "mental", "dice": "5-5"}, user=ALICE))
    assert "mental-healing-rolls" in text
    # A die above 10 without open rolls: say that open rolls are off here.
    text = refused(await table.run("roll", {"dice": "15-3"}, user=ALICE, locale="fr"))
    assert "les jets ouverts sont désactivés sur ce serveur" in text


async def test_a_one_roll_result_is_short_and_leads_with_its_outcome(table: Table) -> None:
    await wounded(table, "Aria", ALICE, ("light", 2))
    await table.run("rest", {"days": 1})
    card = public(await table.run("character show", user=ALICE))
    assert "A session rolls once per wound of the least severe kind" in card  # how it goes: on the card
    (result,) = (await table.run("heal roll", {"dice": "2-5"}, user=ALICE)).embeds
    lines = [*result["description"].splitlines(), *(f["value"] for f in result["fields"])]
    lines = [line for text in lines for line in text.splitlines()]
    assert len(lines) <= 6, lines
    assert lines[0] == "Result: 0/1 successful rolls; 1 wound not rolled."
    assert lines[1].startswith("**Roll 1**: luck 2 ")
    for said_once in ("to heal: one roll per wound", "not rolled in this session", "rest is consumed"):
        assert said_once not in "\n".join(lines)
    # A fatal result leads with it.
    await wounded(table, "Brann", BOB, ("critical", 1))
    await table.run("rest", {"days": 30})
    (fatal,) = (await table.run("heal roll", {"dice": "1-10"}, user=BOB)).embeds
    first, *rest = fatal["description"].splitlines()
    assert first.startswith("☠️ **Brann is DEAD.**") and len(rest) == 1 and "FATAL" in rest[0]


async def test_gm_healing_never_marks_a_deadly_session_as_a_heal(table: Table) -> None:
    await wounded(
        table,
        "Cara",
        ALICE,
        ("critical", 1),
        ("serious", 2),
        ("light", 4),
        ("shock", 1),
        corps=3,
        resistance=3,
    )
    await table.run("rest", {"days": 1})
    reply = await table.run("heal mental", {"severity": "shock", "character": "Cara"})
    state = reply.embeds[0]["fields"][-1]["value"]
    assert "☠️ First roll (light wound): **success 1%** · worsening 45% · ☠️ **death 45%**" in state
    assert "🩹" not in state


async def test_rest_lists_each_character_once(table: Table) -> None:
    await wounded(table, "Aria", ALICE, ("light", 1), ("shock", 1))
    await wounded(table, "Brann", BOB, ("serious", 1), ("trauma", 1))
    (message,) = shown(await table.run("rest", {"days": 1}))
    (embed,) = message.embeds
    text = embed["description"] + "".join(f["value"] for f in embed["fields"])
    assert text.count("Aria") == 1 and text.count("Brann") == 1
    assert "Brann: 1/7 days (serious wound) · mental wounds, healed by a GM (/heal mental)" in text
    (field,) = embed["fields"]
    assert field["value"] == "• Aria — First roll (light wound): success 36% · worsening 3%"
