"""Right-click actions on a member (issue 13): "Wound…" for GMs, "Card" for anyone."""

from __future__ import annotations

import asyncio
import importlib
from typing import Any

import pytest

from bot.rules import Track
from tests import fakediscord as harness
from tests.table import ALICE, BOB, GM, GM_ROLE, GUILD, Table, public, refused

WOUND_MENU = "Wound…"  # the menus as Discord shows them (cogs/menus.py)
CARD_MENU = "Card"
USER_COMMAND = 2
SELECT = 3


async def right_click(
    table: Table, menu: str, member: int, *, user: int, locale: str = "en-US"
) -> harness.Reply:
    """A user context-menu command on ``member``, as Discord sends it (``target_id`` and ``resolved``)."""
    roles = (GM_ROLE,) if user == GM else ()
    payload = harness.slash(
        menu, {"who": harness.user(member)}, guild_id=GUILD, user_id=user, roles=roles, locale=locale
    )
    data: dict[str, Any] = payload["data"]
    data.update(type=USER_COMMAND, target_id=str(member))
    data.pop("options")
    return await harness.dispatch(table.fake, table.bot, payload)


async def choose(table: Table, reply: harness.Reply, custom_id: str, value: str) -> harness.Reply:
    payload = harness.component(
        custom_id, message=reply, component_type=SELECT, values=[value], guild_id=GUILD, user_id=GM,
        roles=(GM_ROLE,),
    )  # fmt: skip
    return await harness.dispatch(table.fake, table.bot, payload)


async def test_a_gm_wounds_a_members_active_character_from_the_menu(table: Table) -> None:
    await table.create("Aria", ALICE)
    menu = await right_click(table, WOUND_MENU, ALICE, user=GM)
    assert "Wound Aria" in refused(menu)  # the choices are the GM's alone
    await choose(table, menu, "wound-menu:severity", "mental:trauma")
    await choose(table, menu, "wound-menu:count", "2")
    (button,) = [
        c for row in menu.components for c in row["components"] if c.get("type") == 2
    ]  # the Inflict button
    assert button["label"] == "Inflict"
    done = await table.click(button["custom_id"], menu, user=GM)
    text = public(done)
    assert "Mental wounds — Aria" in text and "• 2 × trauma" in text
    assert done.content == f"<@{ALICE}>"
    assert (await table.character("Aria")).counts(Track.MENTAL) == (0, 2, 0)


async def test_the_wound_menu_is_for_gms_only_and_needs_an_active_character(table: Table) -> None:
    await table.create("Aria", ALICE)
    assert "GM" in refused(await right_click(table, WOUND_MENU, ALICE, user=BOB))
    text = refused(await right_click(table, WOUND_MENU, BOB, user=GM, locale="fr"))
    assert "personnage actif" in text
    assert (await table.character("Aria")).wounds == ()


async def test_anyone_sees_a_members_card_privately_in_their_language(table: Table) -> None:
    await table.create("Aria", ALICE)
    await table.run("wound", {"severity": "light", "character": "Aria"})
    card = await right_click(table, CARD_MENU, ALICE, user=BOB, locale="fr")
    text = refused(card)  # private to the one who asked
    assert "Blessures physiques" in text and "Légère 🟨▫️▫️▫️ 1/4" in text


async def test_the_menus_are_synced_with_french_names(table: Table) -> None:
    commands = table.fake.commands[None]
    menus = {c["name"]: c for c in commands if c.get("type") == USER_COMMAND}
    assert set(menus) == {WOUND_MENU, CARD_MENU}
    assert menus[WOUND_MENU]["name_localizations"]["fr"] == "Blesser…"
    assert menus[CARD_MENU]["name_localizations"]["fr"] == "Fiche"
    assert all(menu["contexts"] == [0] for menu in menus.values())  # in servers only


@pytest.mark.parametrize("locale", ["en-US", "fr"])
async def test_the_wound_menu_answers_every_click_and_says_what_it_inflicted(
    table: Table, locale: str
) -> None:
    await table.create("Aria", ALICE)
    menu = await right_click(table, WOUND_MENU, ALICE, user=GM, locale=locale)
    await choose(table, menu, "wound-menu:count", "2")
    (button,) = [c for row in menu.components for c in row["components"] if c.get("type") == 2]
    for blow in (1, 2):  # mid-fight: the same menu, blow after blow
        done = await table.click(button["custom_id"], menu, user=GM, locale=locale)
        assert "Wounds — Aria" in public(done)  # the result: public, in the server's language
        assert (await table.character("Aria")).counts(Track.PHYSICAL)[0] == 2 * blow
        assert menu.message is not None
        said = table.fake.messages[int(menu.message["id"])]["content"]
        if locale == "fr":
            assert said.startswith("Blesser Aria")
            assert "✅ Infligé\u202f: 2 × blessure légère (le résultat est dans le salon)." in said
        else:
            assert said.startswith("Wound Aria:") and "✅ Inflicted: 2 × light wound" in said
    # A refused blow is answered too (privately), and changes nothing.
    await table.run("wound", {"severity": "critical", "character": "Aria", "count": 2})  # dead now
    refusal = await table.click(button["custom_id"], menu, user=GM, locale=locale)
    assert "Aria" in refused(refusal)


async def test_a_wound_menu_left_alone_closes_and_says_so(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    menus = importlib.import_module("bot.cogs.menus")  # cogs/ is bot.cogs once installed (not to mypy)
    monkeypatch.setattr(menus, "MENU_TIMEOUT", 0.01)
    await table.create("Aria", ALICE)
    menu = await right_click(table, WOUND_MENU, ALICE, user=GM, locale="fr")
    store = table.bot._connection._view_store
    found = {
        id(item.view): item.view
        for items in store._views.values()
        for item in items.values()
        if isinstance(item.view, menus.WoundChooser)
    }
    (chooser,) = found.values()
    assert await chooser.wait()  # timed out
    assert menu.message is not None
    message_id = int(menu.message["id"])
    for _ in range(1000):  # on_timeout runs as its own task: let it edit the message
        if "fermé" in table.fake.messages[message_id]["content"]:
            break
        await asyncio.sleep(0)
    shown = table.fake.messages[message_id]
    assert shown["content"].endswith(
        "Ce menu est fermé\u202f: refaites un clic droit sur le membre pour le coup suivant."
    )
    assert all(c.get("disabled") for row in shown["components"] for c in row["components"])


def _shown_choice(table: Table, menu: harness.Reply) -> list[str]:
    """The options the menu's message shows as chosen, as the GM's client draws them."""
    assert menu.message is not None
    rows = table.fake.messages[int(menu.message["id"])]["components"]
    return [
        option["value"]
        for row in rows
        for select in row["components"]
        if select.get("type") == SELECT
        for option in select["options"]
        if option.get("default")
    ]


async def test_the_wound_menu_inflicts_what_it_shows_blow_after_blow(table: Table) -> None:
    """Issue 37.1: redrawn after a blow, the menu showed "light · 1 wound" while it kept the last
    choice, and a second press inflicted a critical wound that nobody saw chosen."""
    await table.create("Aria", ALICE)
    menu = await right_click(table, WOUND_MENU, ALICE, user=GM)
    await choose(table, menu, "wound-menu:severity", "physical:serious")
    (button,) = [c for row in menu.components for c in row["components"] if c.get("type") == 2]
    for blow in (1, 2):
        await table.click(button["custom_id"], menu, user=GM)
        assert _shown_choice(table, menu) == ["physical:serious", "1"]  # what the next press inflicts
        assert (await table.character("Aria")).counts(Track.PHYSICAL) == (0, blow, 0)
    await choose(table, menu, "wound-menu:count", "2")
    await choose(table, menu, "wound-menu:severity", "physical:light")
    await table.click(button["custom_id"], menu, user=GM)
    assert _shown_choice(table, menu) == ["physical:light", "2"]
    assert (await table.character("Aria")).counts(Track.PHYSICAL) == (2, 2, 0)
