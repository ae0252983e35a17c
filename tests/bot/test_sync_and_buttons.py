"""The persistent Heal button (across a restart), command sync at start-up, and Discord failures."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord import app_commands

from bot.rules import Track
from bot.ui.i18n import CATALOGUES, command_context
from tests import fakediscord as harness
from tests.databases import history_of
from tests.fakediscord import check_requests
from tests.table import ALICE, BOB, GM, GUILD, Table, open_table, public, refused

COMMANDS_PATH = "/applications/{id}/commands"


def heal_buttons(message: dict[str, Any] | None) -> list[dict[str, Any]]:
    rows = (message or {}).get("components", [])
    return [b for row in rows for b in row["components"] if str(b.get("custom_id", "")).startswith("heal:")]


async def ready_to_heal(table: Table, *wounds: tuple[str, str, int]) -> harness.Reply:
    """Aria (Alice's) with the given wounds and her rest over; returns her card."""
    await table.create("Aria", ALICE)
    for command, severity, count in wounds:
        public(await table.run(command, {"severity": severity, "character": "Aria", "count": count}))
    await table.run("rest", {"days": 1})
    card = await table.run("character show", user=ALICE)
    public(card)
    return card


# ---- the Heal button -----------------------------------------------------------------------------


async def test_the_card_shows_the_heal_button_only_when_healing_is_available(table: Table) -> None:
    aria = await table.create("Aria", ALICE)
    assert heal_buttons((await table.run("character show", user=ALICE)).message) == []
    await table.run("wound", {"severity": "light", "character": "Aria"})
    waiting = await table.run("character show", user=ALICE)
    assert heal_buttons(waiting.message) == []
    await table.run("rest", {"days": 1})
    ready = await table.run("character show", user=ALICE)
    (button,) = heal_buttons(ready.message)
    # The button says the odds of the first roll; blue: it can succeed and cannot kill.
    assert (
        button["custom_id"] == f"heal:{aria.id}:p" and button["label"] == "Heal · success 45% · worsening 1%"
    )
    assert button["style"] == 1
    assert "/heal roll is available now" in ready.text
    french = await table.run("character show", user=ALICE, guild_locale="fr")
    assert [b["label"] for b in heal_buttons(french.message)] == [
        "Soigner · réussite 45\u202f% · aggravation 1\u202f%"
    ]


async def test_a_mental_heal_button_when_the_server_allows_mental_healing_rolls(table: Table) -> None:
    card = await ready_to_heal(table, ("mental", "shock", 1))
    assert heal_buttons(card.message) == []
    public(await table.run("config rest", {"track": "mental", "mental-healing-rolls": True}))
    card = await table.run("character show", user=ALICE)
    (button,) = heal_buttons(card.message)
    assert button["custom_id"].endswith(":m") and button["label"].startswith("Heal (mental) · success")
    text = await table.healed(table.click(button["custom_id"], card, user=ALICE), user=ALICE)
    assert "Mental healing session — Aria" in text


async def test_clicking_heal_runs_the_session_for_the_owner(table: Table) -> None:
    card = await ready_to_heal(table, ("wound", "light", 2), ("wound", "serious", 1))
    (button,) = heal_buttons(card.message)
    table.rng.queue[:] = [8, 2, 9, 1]
    text = await table.healed(table.click(button["custom_id"], card, user=ALICE), user=ALICE)
    assert "Healing session — Aria" in text and "2/2 successful rolls" in text
    assert (await table.character("Aria")).counts(Track.PHYSICAL) == (0, 1, 0)
    # The rest is used up: the same button now refuses, privately, and says why.
    again = await table.click(button["custom_id"], card, user=ALICE)
    assert "No healing roll yet" in refused(again) and "0/7" in again.text


async def test_a_gm_clicks_heal_for_an_npc(table: Table) -> None:
    await table.create("Goblin")
    await table.run("wound", {"severity": "light", "character": "Goblin"})
    await table.run("rest", {"days": 1})
    card = await table.run("character show", {"character": "Goblin"}, user=ALICE)
    (button,) = heal_buttons(card.message)
    refused(await table.click(button["custom_id"], card, user=ALICE))
    text = await table.healed(table.click(button["custom_id"], card, user=GM), user=GM)
    assert "Healing session — Goblin" in text
    assert (await table.character("Goblin")).rest_days == 0


async def test_the_heal_button_refuses_anyone_but_the_owner(table: Table) -> None:
    card = await ready_to_heal(table, ("wound", "light", 1))
    (button,) = heal_buttons(card.message)
    before = await table.character("Aria")
    said = (
        ("Aria's healing rolls are rolled by", "a GM can heal"),
        ("Les jets de guérison d'Aria", "/soin blessure"),
    )
    for user, locale, words in ((BOB, "en-US", said[0]), (GM, "fr", said[1])):
        clicked = await table.click(button["custom_id"], card, user=user, locale=locale)
        assert all(part in refused(clicked) for part in words)
    assert await table.character("Aria") == before


async def test_the_heal_button_still_works_after_a_restart(database_url: str) -> None:
    path = database_url
    async with open_table(path) as table:
        card = await ready_to_heal(table, ("wound", "light", 1))
        (button,) = heal_buttons(card.message)
        message = card.message
        check_requests(table.fake.requests)
    async with open_table(path) as table:
        table.rng.queue[:] = [7, 2]
        text = await table.healed(table.click(button["custom_id"], message, user=ALICE), user=ALICE)
        assert "Healing session — Aria" in text and "1/1 successful rolls" in text
        assert (await table.character("Aria")).counts(Track.PHYSICAL) == (0, 0, 0)
        refused(await table.click(button["custom_id"], message, user=BOB))
        # A button naming a character that is gone is refused too, not a crash.
        gone = await table.click("heal:999999:p", None, user=ALICE)
        assert "does not exist" in refused(gone)
        check_requests(table.fake.requests)


# ---- command sync --------------------------------------------------------------------------------


def localised_everywhere(command: dict[str, Any], where: str = "") -> list[str]:
    """What lacks a French name or description in ``command`` (its options and choices too)."""
    here = f"{where} {command['name']}".strip()
    missing = [] if (command.get("name_localizations") or {}).get("fr") else [here]
    menu = command.get("type") in (2, 3)  # a context menu has a name and no description
    if not menu and not (command.get("description_localizations") or {}).get("fr"):
        missing.append(f"{here} (description)")
    for option in command.get("options") or []:
        missing += localised_everywhere(option, here)
    for choice in command.get("choices") or []:
        if not (choice.get("name_localizations") or {}).get("fr"):
            missing.append(f"{here} = {choice['name']}")
    return missing


async def test_a_new_database_syncs_every_command_with_french_names(table: Table) -> None:
    (put,) = table.fake.requests_for("PUT", COMMANDS_PATH)
    assert put.ok
    harness.assert_valid([put], strict=True)
    commands = put.json
    names = {c["name"] for c in commands}
    assert names == {
        "character",
        "wound",
        "mental",
        "heal",
        "rest",
        "roll",
        "history",
        "undo",
        "config",
        "board",
        "fight",
        "Wound…",
        "Card",
    }
    missing = [gap for command in commands for gap in localised_everywhere(command)]
    assert missing == []
    by_name = {c["name"]: c for c in commands}
    assert by_name["wound"]["name_localizations"]["fr"] == "blessure"
    assert by_name["heal"]["name_localizations"]["fr"] == "soin"
    assert by_name["fight"]["name_localizations"]["fr"] == "combat"
    subcommands = {o["name"]: o for o in by_name["character"]["options"]}
    assert subcommands["create"]["name_localizations"]["fr"] == "créer"
    assert set(subcommands) == {"create", "show", "list", "select", "edit", "delete"}
    config = {o["name"] for o in by_name["config"]["options"]}
    assert config == {
        "show", "gm-role", "penalties", "rest", "difficulty", "preset", "damage", "dice", "players-create",
        "language", "export", "import", "secret-npcs",
    }  # fmt: skip
    assert all(c.get("contexts") == [0] or c.get("dm_permission") is False for c in commands)


class Recorder(app_commands.Translator):
    """Every text of the commands the tree asks to translate, with its context in the catalogue."""

    def __init__(self) -> None:
        self.texts: list[tuple[str | None, str]] = []

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if locale is discord.Locale.french:
            self.texts.append((command_context(context), string.message))
        return None


async def test_every_command_text_has_its_french_in_the_catalogue(
    table: Table,
) -> None:
    recorder = Recorder()
    for command in table.bot.tree.get_commands():
        await command.get_translated_payload(table.bot.tree, recorder)
    french = CATALOGUES["fr"].messages
    assert len(recorder.texts) > 150
    assert [text for text in recorder.texts if text not in french] == []
    names = {
        key for key in french if key[0] is not None and key[0].startswith(("/", "option", "choice", "menu"))
    }
    assert names - set(recorder.texts) == set()  # no name, option or choice left unused


async def test_a_second_start_on_the_same_database_does_not_sync(database_url: str) -> None:
    path = database_url
    async with open_table(path) as first:
        assert len(first.fake.requests_for("PUT", COMMANDS_PATH)) == 1
        check_requests(first.fake.requests)
    async with open_table(path) as second:
        assert second.fake.requests_for("PUT", COMMANDS_PATH) == []
        assert second.fake.requests_for("POST", COMMANDS_PATH) == []
        # Still fully working.
        await second.create("Aria", ALICE)
        check_requests(second.fake.requests)


async def test_a_changed_definition_syncs_again(database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    path = database_url
    async with open_table(path) as first:
        check_requests(first.fake.requests)
    # The cogs are loaded afresh at every start (load_extension): change a definition they share.
    monkeypatch.setitem(
        CATALOGUES["fr"].messages, (None, "Inflict physical wounds (GM)"), "Blesser (MJ seulement)"
    )
    async with open_table(path) as second:
        (put,) = second.fake.requests_for("PUT", COMMANDS_PATH)
        wound = next(c for c in put.json if c["name"] == "wound")
        assert wound["description_localizations"]["fr"] == "Blesser (MJ seulement)"
        check_requests(second.fake.requests)
    async with open_table(path) as third:
        assert third.fake.requests_for("PUT", COMMANDS_PATH) == []


# ---- Discord failing -----------------------------------------------------------------------------


async def test_a_wound_stays_committed_when_discord_fails_to_take_the_answer(table: Table) -> None:
    await table.create("Aria", ALICE)
    fault = table.fake.fail("POST", "/interactions/{id}/{token}/callback", status=500, times=10)
    reply = await table.run("wound", {"severity": "serious", "target": harness.user(ALICE)})
    assert reply.original is None  # nothing reached the channel, not even the error message
    assert fault.exhausted  # discord.py tried (and retried) the answer, then the error message
    assert any("Could not tell the user" in record.getMessage() for record in reply.logs)
    aria = await table.character("Aria")
    assert aria.counts(Track.PHYSICAL) == (0, 1, 0)
    history, _ = await history_of(table.store, GUILD)
    assert history[0].kind == "wound"
    after = await table.run("wound", {"severity": "light", "character": "Aria"})
    assert "Physical 🟨🟧 — light 1/4 · serious 1/2" in public(after)
    shown_card = await table.run("character show", user=ALICE)
    public(shown_card)
