"""Damage rolls (rules.md §8) through the real dispatch: /wound and /mental with damage:, dice:,
count: and preview:, /config damage, history, undo, export and import."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.interface.views import Question
from bot.rules import Track
from bot.rules.ruleset import DamageTable
from bot.ui.text import MINUS
from tests import fakediscord as harness
from tests.databases import characters_of, history_of, ruleset_of
from tests.table import ALICE, BOB, GM, GUILD, OWNER, Table, public, refused, shown


async def snapshot(table: Table) -> tuple[Any, ...]:
    """Everything a refused or unconfirmed command must leave as it was."""
    _, events = await history_of(table.store, GUILD)
    return await characters_of(table.store, GUILD), await ruleset_of(table.store, GUILD), events


def waiting_confirmations(table: Table) -> list[Question]:
    """The confirmation views discord.py still routes clicks to (from its view store)."""
    store = table.bot._connection._view_store
    views: dict[int, Any] = {id(v): v for v in store._synced_message_views.values()}
    for items in store._views.values():
        views.update({id(item.view): item.view for item in items.values() if item.view is not None})
    return [view for view in views.values() if isinstance(view, Question)]


def buttons(message: dict[str, Any] | None) -> list[dict[str, Any]]:
    return [button for row in (message or {}).get("components", []) for button in row["components"]]


# ---- the roll ------------------------------------------------------------------------------------------


async def test_a_gm_says_25_points_of_damage_to_alice_and_the_bot_resolves_it(table: Table) -> None:
    await table.create("Aria", ALICE, corps=1, resistance=1)
    table.rng.queue = [1, 9]  # luck 1 − unluck 9 = −8, +2 → margin −6: a failure keeps the 25
    reply = await table.run("wound", {"damage": 25, "target": harness.user(ALICE), "note": "axe"})
    text = public(reply)
    assert reply.content == f"<@{ALICE}>" and reply.allowed_mentions == {"users": [ALICE], "parse": []}
    assert "Damage **25**" in text
    assert f"luck 1 {MINUS} unluck 9 = {MINUS}8, Cp+Rs +2, penalty +0 → margin {MINUS}6" in text
    assert "failure: effective damage **25** ⇒ **serious wound**" in text
    assert "axe" in text and "?" not in text
    assert "none ≤ 10" not in text  # the table is in the preview and /config show, not on every blow
    aria = await table.character("Aria")
    assert aria.counts(Track.PHYSICAL) == (0, 1, 0)
    assert aria.wounds[0].note == "axe" and aria.wounds[0].inflicted_by == GM
    assert "Physical 🟧 — serious 1/2" in text and len(reply.embeds) == 1  # short: the card is a button
    history = public(await table.run("history"))
    assert "**Aria**: damage 25 → serious wound" in history


async def test_a_successful_roll_takes_its_margin_off_in_french_with_the_players_own_dice(
    table: Table,
) -> None:
    await table.create("Aria", ALICE, corps=1, resistance=1)
    reply = await table.run(
        "wound", {"damage": 25, "character": "Aria", "dice": "10-1"}, guild_locale="fr", locale="fr"
    )
    text = public(reply)
    assert "Dommages **25**" in text and "(dés donnés)" in text
    assert "réussite\u202f: dommages effectifs 25 − 11 = **14** ⇒ **blessure légère**" in text
    assert "?" not in text and "aucune ≤ 10" not in text
    assert (await table.character("Aria")).counts(Track.PHYSICAL) == (1, 0, 0)


async def test_damage_under_the_first_threshold_leaves_no_wound_and_the_rest_goes_on(table: Table) -> None:
    await table.create("Aria", ALICE)
    await table.run("wound", {"severity": "light", "character": "Aria"})
    await table.run("rest", {"days": 1})
    before = await table.character("Aria")
    reply = await table.run("wound", {"damage": 12, "character": "Aria", "dice": "9-1"})
    text = public(reply)
    assert "⇒ no wound" in text and "No wound: the effective damage stayed under 11." in text
    assert "rest" not in text.lower()
    assert await table.character("Aria") == before


async def test_mental_damage_is_resisted_with_willpower_and_the_top_band_makes_incoherent(
    table: Table,
) -> None:
    await table.create("Brann", BOB, corps=5, intuition=-2, resistance=1)
    reply = await table.run("mental", {"damage": 45, "target": harness.user(BOB), "dice": "2-2"})
    text = public(reply)
    assert f"It+Rs {MINUS}1" in text and "🌀 **INCOHERENT**" in text
    brann = await table.character("Brann")
    assert brann.incoherent and not brann.dead


async def test_each_wound_of_a_count_is_rolled_with_the_penalty_of_the_wounds_then(table: Table) -> None:
    await table.create("Aria", ALICE, corps=1, resistance=1)
    reply = await table.run("wound", {"damage": 21, "character": "Aria", "count": 3, "dice": "5-5 5-5 5-5"})
    text = public(reply)
    assert "penalty +0 → margin +2" in text
    assert f"penalty {MINUS}1 → margin +1" in text
    assert f"penalty {MINUS}2 → margin +0" in text
    assert (await table.character("Aria")).counts(Track.PHYSICAL) == (2, 1, 0)
    history = public(await table.run("history"))
    assert "damage 21 × 3 → light wound, light wound, serious wound" in history


async def test_a_killing_blow_stops_the_batch_and_undo_brings_the_character_back(table: Table) -> None:
    await table.create("Aria", ALICE)
    reply = await table.run("wound", {"damage": 60, "character": "Aria", "count": 3, "dice": "1-1 9-1"})
    text = public(reply)
    assert "☠️ **FATAL**" in text and "2 blows not rolled." in text  # the burst stopped: said (rules §2)
    assert text.split("\n")[2].startswith("☠️ **Aria is DEAD.**")  # after the mention and the title
    assert "1 of your dice was not needed." in text
    aria = await table.character("Aria")
    assert aria.dead and len(aria.wounds) == 1 and aria.wounds[0].fatal
    assert "damage 60" in public(await table.run("undo"))
    aria = await table.character("Aria")
    assert not aria.dead and aria.wounds == ()


# ---- refusals ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "english", "french"),
    [
        ({"severity": "light", "damage": 20}, "Give either severity", "Donnez soit gravité"),
        ({}, "Give either severity", "Donnez soit gravité"),
        ({"severity": "light", "dice": "7-3"}, "only go with damage", "ne vont qu'avec dommages"),
        ({"severity": "light", "preview": True}, "only go with damage", "ne vont qu'avec dommages"),
        (
            {"damage": 20, "dice": "12-3"},
            "open rolls are off on this server",
            "les jets ouverts sont désactivés",
        ),
    ],
)
async def test_bad_combinations_are_refused_privately_in_the_callers_language(
    table: Table, options: dict[str, Any], english: str, french: str
) -> None:
    await table.create("Aria", ALICE)
    before = await snapshot(table)
    for command, severity in (("wound", "light"), ("mental", "shock")):
        asked = {"character": "Aria"} | {k: severity if k == "severity" else v for k, v in options.items()}
        assert english in refused(await table.run(command, asked))
        assert french in refused(await table.run(command, asked, locale="fr"))
    assert await snapshot(table) == before


async def test_a_player_cannot_deal_damage_nor_see_the_odds(table: Table) -> None:
    await table.create("Aria", ALICE)
    before = await snapshot(table)
    for preview in (False, True):
        reply = await table.run("wound", {"damage": 30, "character": "Aria", "preview": preview}, user=BOB)
        assert "Only a GM" in refused(reply)
    assert await snapshot(table) == before


async def test_the_dead_take_no_damage(table: Table) -> None:
    await table.create("Aria", ALICE)
    await table.run("wound", {"damage": 60, "character": "Aria", "dice": "1-1"})
    before = await snapshot(table)
    for preview in (False, True):
        reply = await table.run("wound", {"damage": 20, "character": "Aria", "preview": preview})
        assert "is dead" in refused(reply)
    assert await snapshot(table) == before


# ---- preview -------------------------------------------------------------------------------------------


async def test_the_gm_sees_the_odds_privately_and_only_that_gm_may_confirm(table: Table) -> None:
    await table.create("Aria", ALICE)
    before = await snapshot(table)
    ask = await table.run("wound", {"damage": 25, "character": "Aria", "preview": True, "count": 2})
    assert ask.ephemeral and ask.errors == []
    text = ask.text
    assert "Damage 25 on Aria: the odds" in text
    # An unhurt average character against 25: a failure (45 %) or a margin of 0 to 4 (40 %) leaves a
    # serious wound; a margin of 5 to 9 (15 %) a light one.
    assert "• **light wound**: **15%**" in text and "• **serious wound**: **85%**" in text
    assert "first of 2 blows" in text and "Nothing is rolled until you confirm" in text
    assert await snapshot(table) == before and table.rng.queue == []
    confirm, cancel = buttons(ask.message)
    assert (confirm["label"], cancel["label"]) == ("Confirm", "Cancel")
    intruder = await table.click(confirm["custom_id"], ask, user=BOB)
    assert "Only the person who ran the command" in refused(intruder)
    other_gm = await table.click(confirm["custom_id"], ask, user=OWNER)  # a GM too, but not the one asking
    assert "Only the person who ran the command" in refused(other_gm)
    assert await snapshot(table) == before
    table.rng.queue = [1, 9, 10, 1]
    done = await table.click(confirm["custom_id"], ask, user=GM)
    assert done.errors == []
    assert all(button["disabled"] for button in buttons(done.message))
    result = done.followups[-1]
    assert not result.ephemeral and result.content == f"<@{ALICE}>"
    assert "**Roll 1**" in result.text and "**Roll 2**" in result.text
    assert (await table.character("Aria")).counts(Track.PHYSICAL) == (1, 1, 0)


async def test_a_confirmation_that_comes_too_late_is_refused_and_spends_the_buttons(table: Table) -> None:
    await table.create("Aria", ALICE)
    ask = await table.run("wound", {"damage": 25, "character": "Aria", "preview": True})
    await table.run("wound", {"damage": 60, "character": "Aria", "dice": "1-1"})  # meanwhile, she died
    before = await snapshot(table)
    confirm, _ = buttons(ask.message)
    late = await table.click(confirm["custom_id"], ask, user=GM)
    assert late.errors == []
    assert all(button["disabled"] for button in buttons(late.message))
    assert late.message is not None and late.message["content"] == "Nothing was rolled."
    assert "is dead" in late.followups[-1].text and late.followups[-1].ephemeral
    assert await snapshot(table) == before


async def test_a_french_gm_reads_the_odds_in_french_with_the_escalation_shown(table: Table) -> None:
    await table.create("Aria", ALICE, corps=5, resistance=5)
    await table.run("wound", {"severity": "light", "character": "Aria", "count": 4})
    ask = await table.run("wound", {"damage": 25, "character": "Aria", "preview": True}, locale="fr")
    text = ask.text
    assert ask.ephemeral and "Dommages 25 sur Aria\u202f: les chances" in text
    assert "blessure légère → **blessure grave** (s'aggrave)" in text
    assert f"Cp+Rs +10, pénalité {MINUS}4" in text
    assert "Rien n'est lancé avant votre confirmation" in text
    assert "Table des dommages\u202f: aucune ≤ 10 · légère 11–20" in text  # the table where it helps


async def test_typed_dice_make_the_preview_certain(table: Table) -> None:
    await table.create("Aria", ALICE)
    ask = await table.run("wound", {"damage": 25, "character": "Aria", "preview": True, "dice": "1-9"})
    assert "The dice given decide the first roll" in ask.text and "**100%**" in ask.text


async def test_cancelling_or_letting_the_preview_time_out_changes_nothing(table: Table) -> None:
    await table.create("Aria", ALICE)
    before = await snapshot(table)
    ask = await table.run("wound", {"damage": 25, "character": "Aria", "preview": True})
    _, cancel = buttons(ask.message)
    cancelled = await table.click(cancel["custom_id"], ask, user=GM)
    assert "Cancelled: nothing was changed." in cancelled.text
    assert all(button["disabled"] for button in buttons(cancelled.message))
    ask = await table.run("mental", {"damage": 25, "character": "Aria", "preview": True})
    (view,) = waiting_confirmations(table)
    view.stop()
    await view.on_timeout()  # what discord.py calls when nobody answered in time
    edits = table.fake.requests_for("PATCH", "/webhooks/{app}/{token}/messages/@original")
    assert edits and all(button["disabled"] for button in buttons(edits[-1].json))
    assert await snapshot(table) == before


# ---- /config damage ------------------------------------------------------------------------------------


async def test_the_damage_table_is_a_setting_shown_recorded_and_undone(table: Table) -> None:
    reply = await table.run("config damage", {"light": 6, "fatal": 60})
    text = public(reply)
    assert "none ≤ 5 · light 6–20 · serious 21–30 · critical 31–59 · fatal ≥ 60" in text
    assert (await ruleset_of(table.store, GUILD)).damage == DamageTable(thresholds=(6, 21, 31, 60))
    shown_fr = public(await table.run("config show", guild_locale="fr"))
    assert "Jets de dommages" in shown_fr and "aucune ≤ 5 · légère 6–20" in shown_fr
    assert "settings changed: Damage rolls (effective damage)" in public(await table.run("history"))
    await table.create("Aria", ALICE)
    await table.run("wound", {"damage": 8, "character": "Aria", "dice": "1-1"})
    assert (await table.character("Aria")).counts(Track.PHYSICAL) == (1, 0, 0)  # 8 is light now
    for _ in range(3):  # the wound, the character's creation, then the table
        public(await table.run("undo"))
    assert (await ruleset_of(table.store, GUILD)).damage == DamageTable()


async def test_thresholds_that_do_not_increase_are_refused_in_the_callers_language(table: Table) -> None:
    before = await snapshot(table)
    text = refused(await table.run("config damage", {"serious": 35}))
    assert "must increase" in text and "11, 35, 31, 41" in text
    assert "doivent croître" in refused(await table.run("config damage", {"fatal": 11}, locale="fr"))
    assert "Only a GM" in refused(await table.run("config damage", {"light": 5}, user=ALICE))
    assert "already the setting" in refused(await table.run("config damage", {"light": 11}))
    assert await snapshot(table) == before


async def test_the_damage_table_goes_out_with_an_export_and_comes_back_with_the_import(table: Table) -> None:
    await table.run("config damage", {"critical": 35})
    reply = await table.run("config export")
    (message,) = shown(reply)
    (file,) = message.files
    assert json.loads(file.data)["ruleset"]["damage"] == {"thresholds": [11, 21, 35, 41]}
    await table.run("config damage", {"critical": 31})
    attachment = harness.attachment("harmonies.json", file.data, "application/json")
    public(await table.run("config import", {"file": attachment}))
    assert (await ruleset_of(table.store, GUILD)).damage.thresholds == (11, 21, 35, 41)


async def test_a_mental_preview_shows_the_mental_table_and_stops_waiting_once_confirmed(table: Table) -> None:
    await table.create("Aria", ALICE)
    ask = await table.run("mental", {"damage": 25, "character": "Aria", "preview": True})
    assert ask.message is not None
    (shown,) = ask.message["embeds"]
    table_words = "none ≤ 10 · shock 11–20 · trauma 21–30 · psychosis 31–40 · incoherent ≥ 41"
    assert shown["footer"]["text"] == f"Damage table: {table_words}"
    french = await table.run("mental", {"damage": 25, "character": "Aria", "preview": True}, locale="fr")
    assert "choc 11–20 · traumatisme 21–30 · psychose 31–40 · incohérence ≥ 41" in french.text
    assert "Nothing is rolled until you confirm" in shown["description"]
    confirm, _ = buttons(ask.message)
    done = await table.click(confirm["custom_id"], ask, user=GM)
    assert done.errors == [] and done.message is not None
    (after,) = done.message["embeds"]
    assert "Nothing is rolled" not in after["description"]
    assert "Confirmed: rolled, the result is in the channel." in after["description"]
    assert sum((await table.character("Aria")).counts(Track.MENTAL)) >= 1  # rolled: a mental wound
