"""/history, /undo, /config … (export and import included), GM-only commands, languages, autocomplete."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from bot.rules import Ruleset, Track
from bot.ui.text import MINUS
from tests import fakediscord as harness
from tests.databases import characters_of, history_of, ruleset_of
from tests.table import (
    ALICE,
    BOB,
    GM,
    GM_ROLE,
    GUILD,
    OTHER_GUILD,
    OWNER,
    Table,
    public,
    refused,
    shown,
)

OTHER_ROLE = 300000000000000002


async def snapshot(table: Table, guild: int = GUILD) -> tuple[Any, ...]:
    """Everything a refused command must leave as it was."""
    characters = await characters_of(table.store, guild)
    _, events = await history_of(table.store, guild)
    actives = await table.store.read(
        guild, lambda r: [r.active_character(u) for u in (ALICE, BOB, GM, OWNER)]
    )
    return characters, await ruleset_of(table.store, guild), events, actives


# ---- /history ------------------------------------------------------------------------------------


async def test_history_of_the_server_and_of_one_character_newest_first(table: Table) -> None:
    await table.create("Aria", ALICE)
    await table.create("Brann", BOB)
    await table.run("wound", {"severity": "light", "character": "Aria", "note": "arrow"})
    await table.run("mental", {"severity": "shock", "character": "Brann"})
    reply = await table.run("history", user=BOB)
    public(reply)
    lines = reply.embeds[0]["description"].splitlines()
    assert "**Brann**: shock" in lines[0]
    assert "**Aria**: light wound" in lines[1] and "arrow" in lines[1]
    assert "character **Brann** created" in lines[2]
    assert "settings changed: GM role: none" in lines[-1]
    assert reply.embeds[0]["footer"]["text"] == "page 1/1"
    assert reply.allowed_mentions == {"parse": []}  # the actors are shown, never pinged
    own = await table.run("history", {"character": "Aria"}, user=BOB)
    lines = own.embeds[0]["description"].splitlines()
    assert len(lines) == 2 and all("Aria" in line for line in lines)


async def test_history_pages_and_a_page_out_of_range_is_refused(table: Table) -> None:
    await table.create("Goblin")
    for _ in range(12):
        await table.run("wound", {"severity": "light", "character": "Goblin"})
        await table.run("undo")
    # 1 setting + 1 creation + 12 wounds + 12 undos = 26 events: three pages of ten.
    first = await table.run("history")
    assert first.embeds[0]["footer"]["text"] == "page 1/3"
    third = await table.run("history", {"page": 3})
    public(third)
    assert third.embeds[0]["footer"]["text"] == "page 3/3"
    lines = third.embeds[0]["description"].splitlines()
    assert len(lines) == 6 and "GM role" in lines[-1]
    assert "(undone)" in "\n".join(lines[:-2])
    text = refused(await table.run("history", {"page": 4}))
    assert "1 to 3" in text
    text = refused(await table.run("history", {"page": 9}, locale="fr"))
    assert "entre 1 et 3" in text
    character = await table.run("history", {"character": "Goblin", "page": 3})
    assert character.embeds[0]["footer"]["text"] == "page 3/3"
    refused(await table.run("history", {"character": "Nobody"}))


async def test_history_pages_turn_with_buttons_only_for_the_caller(table: Table) -> None:
    for number in range(12):  # 1 setting + 12 creations: two pages
        await table.create(f"Goblin {number}")
    first = await table.run("history", user=ALICE, guild_locale="fr")
    assert first.embeds[0]["footer"]["text"] == "page 1/2"
    first_id, previous_id, next_id = [b["custom_id"] for row in first.components for b in row["components"]]
    assert [b["disabled"] for row in first.components for b in row["components"]] == [True, True, False]
    intruder = await table.click(next_id, first, user=BOB)
    assert "Only the person who ran the command" in refused(intruder)
    turned = await table.click(next_id, first, user=ALICE)
    assert turned.errors == [] and turned.embeds[0]["footer"]["text"] == "page 2/2"
    assert (
        "réglages modifiés\u202f: Rôle MJ" in turned.embeds[0]["description"]
    )  # the oldest event, in French
    assert [b["disabled"] for row in turned.components for b in row["components"]] == [False, False, True]
    back = await table.click(first_id, turned, user=ALICE)
    assert back.embeds[0]["footer"]["text"] == "page 1/2"
    assert previous_id


# ---- /undo ---------------------------------------------------------------------------------------


async def test_undo_reverts_the_latest_change_and_chains_back(table: Table) -> None:
    await table.create("Aria", ALICE)
    await table.run("wound", {"severity": "light", "character": "Aria"})
    await table.run("wound", {"severity": "critical", "character": "Aria", "count": 2})
    assert (await table.character("Aria")).dead
    reply = await table.run("undo")
    text = public(reply)
    assert "Reverted change" in text and "critical wound" in text and "/undo again" in text
    aria = await table.character("Aria")
    assert not aria.dead and aria.counts(Track.PHYSICAL) == (1, 0, 0)
    text = public(await table.run("undo"))
    assert "light wound" in text
    assert (await table.character("Aria")).wounds == ()
    text = public(await table.run("undo"))
    assert "created" in text
    assert await characters_of(table.store, GUILD) == []
    assert await table.store.read(GUILD, lambda r: r.active_character(ALICE)) is None
    history = await table.run("history")
    lines = history.embeds[0]["description"].splitlines()
    assert "undid" in lines[0] and "(undone)" in lines[3]


async def test_undo_for_one_character_leaves_the_others(table: Table) -> None:
    await table.create("Aria", ALICE)
    await table.create("Brann", BOB)
    await table.run("wound", {"severity": "serious", "character": "Aria"})
    await table.run("wound", {"severity": "light", "character": "Brann"})
    text = public(await table.run("undo", {"character": "Aria"}))
    assert "Aria" in text
    assert (await table.character("Aria")).wounds == ()
    assert (await table.character("Brann")).counts(Track.PHYSICAL) == (1, 0, 0)


async def test_undoing_the_creation_of_the_selected_character_falls_back_to_another(table: Table) -> None:
    aria = await table.create("Aria", ALICE)
    await table.create("Nyx", ALICE)
    public(await table.run("character select", {"character": "Nyx"}, user=ALICE))
    # The choice is undone first (it is recorded), then Nyx's creation.
    assert "Nyx** became the active character" in public(await table.run("undo"))
    assert "Nyx" in public(await table.run("undo"))
    # Like a deletion: Alice plays her remaining character, and the GM can still target her.
    active = await table.store.read(GUILD, lambda r: r.active_character(ALICE))
    assert active is not None and active.id == aria.id
    public(await table.run("wound", {"severity": "light", "target": harness.user(ALICE)}))
    # Undoing the creation of her last character leaves her with none.
    public(await table.run("undo"))
    public(await table.run("undo"))
    assert await characters_of(table.store, GUILD) == []
    assert await table.store.read(GUILD, lambda r: r.active_character(ALICE)) is None


async def test_a_server_wide_rest_is_undone_whole(table: Table) -> None:
    await table.create("Aria", ALICE)
    await table.create("Brann", BOB)
    await table.run("rest", {"days": 4})
    public(await table.run("undo"))
    assert [c.rest_days for c in await characters_of(table.store, GUILD)] == [0, 0]


async def test_undo_refuses_a_change_a_later_one_depends_on(table: Table) -> None:
    await table.create("Aria", ALICE)
    await table.create("Brann", BOB)
    await table.run("rest", {"days": 2})
    await table.run("wound", {"severity": "light", "character": "Aria"})
    before = await snapshot(table)
    text = refused(await table.run("undo", {"character": "Brann"}))
    # The change asked for, the character that ties it to the later one, and the order.
    assert (
        "(rest of the whole server, 2 characters), the latest one touching Brann, cannot be undone on its "
        "own: Aria changed after it" in text
    )
    assert "(wound)" in text
    assert "/undo character:Aria reverts #" in text and "; then undo #" in text
    text = refused(await table.run("undo", {"character": "Brann"}, locale="fr"))
    assert "(repos de tout le serveur, 2 personnages), le dernier à toucher Brann" in text
    assert "Aria a changé depuis" in text and "/annuler personnage:Aria annule le n°" in text
    assert await snapshot(table) == before
    public(await table.run("undo", {"character": "Aria"}))
    public(await table.run("undo", {"character": "Brann"}))
    assert [c.rest_days for c in await characters_of(table.store, GUILD)] == [0, 0]


async def test_a_blocked_undo_says_a_server_wide_change_lies_between(table: Table) -> None:
    # Issue 37, point 6: the GM wants to undo La Dame Grise's wound, but a rest of the whole party came
    # after it, and then a wound of Bastien: the refusal says the rest is what /undo reached, that it
    # was server-wide and touched six characters, and which later change ties it.
    await table.create("La Dame Grise")
    for name in ("Bastien", "Cyra", "Dorn", "Elke", "Faro"):
        await table.create(name)
    await table.run("wound", {"severity": "light", "character": "La Dame Grise"})
    await table.run("rest", {"days": 1})
    await table.run("wound", {"severity": "light", "character": "Bastien"})
    before = await snapshot(table)
    text = refused(await table.run("undo", {"character": "La Dame Grise"}))
    rest, wound = [e.id for e in (await history_of(table.store, GUILD))[0][:2]][::-1]
    assert text.startswith(
        f"Change #{rest} (rest of the whole server, 6 characters), the latest one touching La Dame Grise, "
        f"cannot be undone on its own: Bastien changed after it, in #{wound} (wound)."
    )
    assert f"/undo character:Bastien reverts #{wound}; then undo #{rest}." in text
    text = refused(await table.run("undo", {"character": "La Dame Grise"}, locale="fr"))
    assert f"Le changement n°{rest} (repos de tout le serveur, 6 personnages), le dernier à toucher " in text
    assert await snapshot(table) == before


async def test_nothing_left_to_undo(table: Table) -> None:
    # The owner undoes the one change of the table (naming the GM role), then there is nothing left.
    text = public(await table.run("undo", user=OWNER))
    assert "GM role" in text
    assert (await ruleset_of(table.store, GUILD)).gm_role_id is None
    text = refused(await table.run("undo", user=OWNER))
    assert "nothing left to undo" in text and "/history" in text


async def test_a_player_cannot_undo(table: Table) -> None:
    await table.create("Aria", ALICE)
    await table.run("wound", {"severity": "light", "character": "Aria"})
    before = await snapshot(table)
    text = refused(await table.run("undo", {"character": "Aria"}, user=ALICE))
    assert "GM" in text
    assert await snapshot(table) == before


# ---- /config -------------------------------------------------------------------------------------


async def test_config_show_lists_every_setting_for_anyone(table: Table) -> None:
    reply = await table.run("config show", user=ALICE)
    text = public(reply)
    assert f"<@&{GM_ROLE}>" in text
    assert "humanoid: physical 4/2/1 · mental 4/2/1" in text
    assert f"Physical: light {MINUS}1 · serious {MINUS}3 · critical {MINUS}5" in text
    assert "Mental: shock 1 · trauma 7 · psychosis 30" in text
    assert "open rolls: off · a tie (margin 0) succeeds: on" in text
    assert reply.allowed_mentions == {"parse": []}  # the GM role is shown, not pinged
    french = public(await table.run("config show", user=ALICE, guild_locale="fr"))
    assert "Réglages du serveur" in french and "Pénalité par blessure" in french


async def test_config_gm_role_moves_who_is_gm(table: Table) -> None:
    await table.create("Aria", ALICE)
    public(await table.run("config gm-role", {"role": harness.role(OTHER_ROLE, "Conteur")}))
    assert (await ruleset_of(table.store, GUILD)).gm_role_id == OTHER_ROLE
    refused(await table.run("wound", {"severity": "light", "character": "Aria"}))  # GM lost the role
    public(
        await table.run("wound", {"severity": "light", "character": "Aria"}, user=BOB, roles=(OTHER_ROLE,))
    )
    public(await table.run("config gm-role", user=OWNER))
    assert (await ruleset_of(table.store, GUILD)).gm_role_id is None
    assert "none" in public(await table.run("config show"))


async def test_config_penalties_change_the_card(table: Table) -> None:
    await table.create("Aria", ALICE)
    await table.run("wound", {"severity": "serious", "character": "Aria"})
    text = public(await table.run("config penalties", {"track": "physical", "serious": -4, "critical": -8}))
    assert f"Penalty per wound, serious: {MINUS}3 → **{MINUS}4**" in text
    assert f"Penalty per wound, critical: {MINUS}5 → **{MINUS}8**" in text and "light" not in text
    ruleset = await ruleset_of(table.store, GUILD)
    assert ruleset.physical.penalties == (-1, -4, -8) and ruleset.mental.penalties == (-1, -3, -5)
    card = await table.run("character show", {"character": "Aria"})
    assert f"{MINUS}4 on all rolls" in card.text
    public(await table.run("config penalties", {"track": "mental", "light": 0}))
    assert (await ruleset_of(table.store, GUILD)).mental.penalties == (0, -3, -5)


@pytest.mark.parametrize(
    ("options", "explained"),
    [
        ({"track": "physical", "light": 2}, "Physical, Penalty per wound, light: at most 0"),
        ({"track": "mental", "critical": 1}, "Mental, Penalty per wound, psychosis: at most 0"),
    ],
)
async def test_invalid_penalties_are_refused_with_an_explanation(
    table: Table, options: dict[str, Any], explained: str
) -> None:
    before = await snapshot(table)
    text = refused(await table.run("config penalties", options))
    assert explained in text and "Nothing was changed" in text
    assert await snapshot(table) == before
    text = refused(await table.run("config penalties", options, locale="fr"))
    assert "Rien n'a été modifié" in text and "Pénalité par blessure" in text and ": au plus 0" in text
    assert "less than" not in text and "Input" not in text


async def test_config_rest_and_difficulty(table: Table) -> None:
    public(await table.run("config rest", {"track": "physical", "light": 2, "critical": 60}))
    public(await table.run("config difficulty", {"track": "physical", "light": 3}))
    ruleset = await ruleset_of(table.store, GUILD)
    assert ruleset.physical.rest_days == (2, 7, 60) and ruleset.mental.rest_days == (1, 7, 30)
    assert ruleset.physical.difficulty == (3, 0, 0)
    await table.create("Aria", ALICE)
    await table.run("wound", {"severity": "light", "character": "Aria"})
    await table.run("rest", {"days": 1})
    assert "1/2" in refused(await table.run("heal roll", user=ALICE))
    await table.run("rest", {"days": 1})
    text = public(await table.run("heal roll", {"dice": "1-4"}, user=ALICE))  # −3 + 3 − 1 = −1
    assert f"difficulty +3, penalty {MINUS}1 → margin {MINUS}1" in text


async def test_config_rest_allows_mental_healing_rolls(table: Table) -> None:
    text = public(
        await table.run("config rest", {"track": "mental", "mental-healing-rolls": True, "light": 2})
    )
    assert "Mental healing rolls" in text
    ruleset = await ruleset_of(table.store, GUILD)
    assert ruleset.mental_healing_rolls and ruleset.mental.rest_days == (2, 7, 30)
    public(await table.run("config rest", {"track": "physical", "mental-healing-rolls": False}))
    ruleset = await ruleset_of(table.store, GUILD)
    assert not ruleset.mental_healing_rolls and ruleset.mental.rest_days == (2, 7, 30)


async def test_config_presets_added_changed_and_removed(table: Table) -> None:
    text = public(await table.run("config preset", {"name": "troll", "light": 6, "psychosis": 2}))
    assert "Preset troll: none → **physical 6/2/1 · mental 4/2/2**" in text
    public(await table.run("config preset", {"name": "troll", "serious": 4}))
    assert (await ruleset_of(table.store, GUILD)).presets["troll"].physical == (6, 4, 1)
    public(await table.run("config preset", {"name": "troll", "remove": True}))
    assert "troll" not in (await ruleset_of(table.store, GUILD)).presets
    before = await snapshot(table)
    text = refused(await table.run("config preset", {"name": "humanoid", "remove": True}))
    assert "humanoid" in text and "Nothing was changed" in text
    text = refused(await table.run("config preset", {"name": "troll", "remove": True}))
    assert "troll" in text and "humanoid" in text
    text = refused(await table.run("config preset", {"name": "Big Troll", "light": 5}))
    assert "lowercase" in text
    assert await snapshot(table) == before


async def test_config_dice_and_players_create(table: Table) -> None:
    text = public(await table.run("config dice", {"open-rolls": True, "tie-succeeds": False}))
    assert "Open rolls: off → **on**" in text and "A tie (margin 0) succeeds: on → **off**" in text
    ruleset = await ruleset_of(table.store, GUILD)
    assert ruleset.open_rolls and not ruleset.tie_succeeds
    await table.create("Aria", ALICE)
    table.rng.queue[:] = [10, 4, 3]  # luck 10 + 4 (open), unluck 3
    text = public(await table.run("roll", user=ALICE))
    assert f"luck 10+4 {MINUS} unluck 3 = +11" in text
    public(await table.run("config players-create", {"allowed": False}))
    assert not (await ruleset_of(table.store, GUILD)).players_create
    refused(await table.run("character create", {"name": "Brann"}, user=BOB))
    public(await table.run("config players-create", {"allowed": True}))
    public(await table.run("character create", {"name": "Brann"}, user=BOB))


async def test_config_language_switches_the_public_language_not_refusals(table: Table) -> None:
    await table.create("Aria", ALICE)
    text = public(await table.run("config language", {"language": "fr"}))
    assert "Langue\u202f: celle du serveur → **français**" in text
    assert (await ruleset_of(table.store, GUILD)).language == "fr"
    text = public(await table.run("wound", {"severity": "light", "character": "Aria"}))
    assert "blessure légère" in text
    text = refused(await table.run("wound", {"severity": "light"}))  # the caller's locale: English
    assert "Say who" in text
    # English on a French-speaking server, then back to the server's locale.
    public(await table.run("config language", {"language": "en"}, guild_locale="fr"))
    text = public(await table.run("character show", {"character": "Aria"}, guild_locale="fr"))
    assert "Physical wounds" in text
    public(await table.run("config language", {"language": "auto"}))
    assert (await ruleset_of(table.store, GUILD)).language is None
    assert "Blessures physiques" in public(
        await table.run("character show", {"character": "Aria"}, guild_locale="fr")
    )
    assert "Physical wounds" in public(await table.run("character show", {"character": "Aria"}))


async def test_every_config_change_is_recorded_and_undoable(table: Table) -> None:
    public(await table.run("config dice", {"open-rolls": True}))
    history = await table.run("history")
    assert "settings changed: Open rolls: off → **on**" in history.embeds[0]["description"].splitlines()[0]
    french = await table.run("history", guild_locale="fr")
    assert "réglages modifiés\u202f: Jets ouverts\u202f: non → **oui**" in french.embeds[0]["description"]
    assert "open_rolls" not in history.text and "True" not in history.text and "{" not in history.text
    public(await table.run("undo"))
    assert not (await ruleset_of(table.store, GUILD)).open_rolls


# ---- export and import ---------------------------------------------------------------------------


async def export(table: Table) -> bytes:
    reply = await table.run("config export")
    public(reply)
    (message,) = shown(reply)
    (file,) = message.files
    assert file.filename == f"harmonies-{GUILD}.json"
    return file.data


async def import_(table: Table, data: bytes, **kwargs: Any) -> harness.Reply:
    attachment = harness.attachment("harmonies.json", data, "application/json")
    return await table.run("config import", {"file": attachment}, **kwargs)


async def test_export_then_import_brings_the_server_back(table: Table) -> None:
    await table.create("Aria", ALICE, corps=2)
    await table.create("Nyx", ALICE)
    await table.create("Goblin")
    await table.run("character select", {"character": "Nyx"}, user=ALICE)
    await table.run("wound", {"severity": "serious", "character": "Aria", "note": "axe"})
    await table.run("mental", {"severity": "shock", "character": "Goblin", "count": 5})
    await table.run("rest", {"days": 2})
    await table.run("config preset", {"name": "troll", "light": 6})
    await table.run("config dice", {"open-rolls": True})
    data = await export(table)
    document = json.loads(data)
    assert document["format"] == "harmonies-wounds" and document["guild_id"] == GUILD
    assert {c["name"] for c in document["characters"]} == {"Aria", "Nyx", "Goblin"}
    exported = {c.name: c for c in await characters_of(table.store, GUILD)}
    ruleset = await ruleset_of(table.store, GUILD)
    # Things change after the export…
    await table.run("wound", {"severity": "critical", "character": "Aria", "count": 2})
    await table.run("character create", {"name": "Brann"}, user=BOB)
    await table.run("config dice", {"open-rolls": False})
    await table.run("config preset", {"name": "troll", "remove": True})
    # …and the import puts them back.
    reply = await import_(table, data)
    text = public(reply)
    assert "Import done" in text and "characters: 3" in text and "wounds: 6" in text
    restored = {c.name: c for c in await characters_of(table.store, GUILD)}
    assert set(restored) == {"Aria", "Nyx", "Goblin"}
    for name, before in exported.items():
        after = restored[name]
        assert (after.owner_id, after.corps, after.rest_days, after.dead) == (
            before.owner_id,
            before.corps,
            before.rest_days,
            before.dead,
        )
        assert [(w.track, w.inflicted, w.current, w.note) for w in after.wounds] == [
            (w.track, w.inflicted, w.current, w.note) for w in before.wounds
        ]
    assert await ruleset_of(table.store, GUILD) == ruleset
    active = await table.store.read(GUILD, lambda r: r.active_character(ALICE))
    assert active is not None and active.name == "Nyx"
    assert await table.store.read(GUILD, lambda r: r.active_character(BOB)) is None
    # An import is one change: /undo brings back what it replaced.
    public(await table.run("undo"))
    assert {c.name for c in await characters_of(table.store, GUILD)} == {"Aria", "Nyx", "Goblin", "Brann"}
    assert (await table.character("Aria")).dead


def hostile_files() -> list[tuple[str, bytes]]:
    good: dict[str, Any] = {
        "format": "harmonies-wounds",
        "version": 1,
        "guild_id": GUILD,
        "ruleset": Ruleset().model_dump(mode="json"),
        "characters": [{"name": "Eve", "owner_id": ALICE}],
        "active": [],
    }

    def variant(**changes: Any) -> bytes:
        return json.dumps(good | changes).encode()

    return [
        ("not json", b"{ this is not json"),
        ("another server", variant(guild_id=OTHER_GUILD)),
        ("unknown field", variant(admin=True)),
        ("mention in a name", variant(characters=[{"name": "@everyone\nhi"}])),
        (
            "penalty out of range",
            variant(
                ruleset=Ruleset(gm_role_id=GM_ROLE).model_dump(mode="json")
                | {"physical": {"penalties": [5, -3, -5]}}
            ),
        ),
        ("no humanoid", variant(ruleset={"presets": {}})),
        ("two with one name", variant(characters=[{"name": "Eve"}, {"name": "EVE"}])),
        ("someone else's active", variant(active=[{"user_id": BOB, "character": "Eve"}])),
        (
            "wound held and fatal",
            variant(
                characters=[
                    {
                        "name": "Eve",
                        "wounds": [{"track": "physical", "inflicted": 0, "current": 0, "fatal": True}],
                    }
                ]
            ),
        ),
        ("not an export", b'["harmonies-wounds"]'),
    ]


async def test_a_file_too_large_is_refused_before_it_is_read(table: Table) -> None:
    before = await snapshot(table)
    reply = await import_(table, b" " * (8 * 1024 * 1024 + 1))
    assert "larger than 8 MB" in refused(reply)
    assert "dépasse 8 Mo" in refused(await import_(table, b" " * (8 * 1024 * 1024 + 1), locale="fr"))
    assert await snapshot(table) == before


async def test_a_french_gm_reads_the_problems_of_a_refused_import_in_french(table: Table) -> None:
    await table.create("Eve", ALICE)
    data = json.loads(await export(table))
    data["guild_id"] = OTHER_GUILD
    data["characters"].append(dict(data["characters"][0], name="EVE"))
    data["characters"][0]["wounds"] = [{"track": "physical", "inflicted": 0, "current": None, "fatal": True}]
    text = refused(await import_(table, json.dumps(data).encode(), locale="fr"))
    assert "guild_id\u202f: ce fichier a été exporté depuis un autre serveur" in text
    assert "characters.1.name\u202f: même nom que le personnage 0" in text
    assert "characters.0\u202f: une blessure physique fatale, mais le personnage n'a pas succombé" in text
    data["characters"][1]["corps"] = 99
    text = refused(await import_(table, json.dumps(data).encode(), locale="fr"))
    assert "characters.1.corps\u202f: valeur invalide" in text
    for english in ("another server", "invalid value", "fatal physical wound", "same name"):
        assert english not in text


@pytest.mark.parametrize(("what", "data"), hostile_files(), ids=[what for what, _ in hostile_files()])
async def test_a_hostile_import_is_refused_privately_and_changes_nothing(
    table: Table, what: str, data: bytes
) -> None:
    await table.create("Aria", ALICE)
    await table.run("wound", {"severity": "light", "character": "Aria"})
    before = await snapshot(table)
    reply = await import_(table, data)
    text = refused(reply)
    assert "cannot be imported" in text and "Nothing was changed" in text, what
    assert "@everyone" not in text
    assert await snapshot(table) == before
    text = refused(await import_(table, data, locale="fr"))
    assert "Rien n'a été modifié" in text


async def test_only_gms_export_and_import(table: Table) -> None:
    await table.create("Aria", ALICE)
    data = await export(table)
    text = refused(await table.run("config export", user=ALICE))
    assert "GM" in text
    before = await snapshot(table)
    text = refused(await import_(table, data, user=ALICE))
    assert "GM" in text
    assert await snapshot(table) == before


# ---- GM versus player for every GM-only command --------------------------------------------------

GM_ONLY: list[tuple[str, dict[str, Any]]] = [
    ("wound", {"severity": "light", "character": "Aria"}),
    ("mental", {"severity": "shock", "character": "Aria"}),
    ("heal wound", {"severity": "light", "character": "Aria"}),
    ("heal mental", {"severity": "shock", "character": "Aria"}),
    ("rest", {"days": 1}),
    ("rest", {"days": 1, "character": "Aria"}),
    ("undo", {}),
    ("config gm-role", {"role": harness.role(OTHER_ROLE)}),
    ("config penalties", {"track": "physical", "light": -2}),
    ("config rest", {"track": "physical", "light": 3}),
    ("config difficulty", {"track": "mental", "serious": 2}),
    ("config preset", {"name": "troll", "light": 6}),
    ("config dice", {"open-rolls": True}),
    ("config players-create", {"allowed": False}),
    ("config language", {"language": "fr"}),
    ("config export", {}),
    ("character create", {"name": "Eve", "player": harness.user(GM)}),
]


@pytest.mark.parametrize(("command", "options"), GM_ONLY, ids=[" ".join(c.split()) for c, _ in GM_ONLY])
async def test_gm_only_commands_refuse_players_and_serve_gms(
    table: Table, command: str, options: dict[str, Any]
) -> None:
    await table.create("Aria", ALICE)
    public(await table.run("wound", {"severity": "light", "character": "Aria"}))
    public(await table.run("mental", {"severity": "shock", "character": "Aria"}))
    before = await snapshot(table)
    text = refused(await table.run(command, options, user=ALICE))
    assert "Only a GM" in text
    text = refused(await table.run(command, options, user=BOB, locale="fr"))
    assert "Seul un MJ" in text
    assert await snapshot(table) == before
    public(await table.run(command, options))


@pytest.mark.parametrize("command", ["character list", "config show", "history", "undo"])
async def test_commands_are_guild_only(table: Table, command: str) -> None:
    payload = harness.slash(command, guild_id=None, user_id=ALICE, locale="fr")
    assert not (await harness.dispatch(table.fake, table.bot, payload)).delivered
    # Were Discord to deliver it anyway, the bot would refuse it, privately, in the caller's language.
    forced = await harness.dispatch(table.fake, table.bot, payload, discord_checks=False)
    assert "sur un serveur" in refused(forced)


# ---- languages -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "options", "english", "french"),
    [
        ("wound", {"severity": "light"}, "Say who", "Précisez qui"),
        ("character show", {"character": "Nobody"}, "No character called", "Aucun personnage nommé"),
        ("history", {"page": 2}, "That page does not exist", "Cette page n'existe pas"),
        ("config penalties", {"track": "physical", "light": 10}, "not valid", "pas valide"),
    ],
)
async def test_refusals_follow_the_callers_locale_not_the_servers(
    table: Table, command: str, options: dict[str, Any], english: str, french: str
) -> None:
    assert english in refused(await table.run(command, options, locale="en-GB", guild_locale="fr"))
    assert french in refused(await table.run(command, options, locale="fr", guild_locale="en-US"))
    assert english in refused(await table.run(command, options, locale="de", guild_locale="fr"))


async def test_a_french_server_gets_french_results_whatever_the_callers_locale(table: Table) -> None:
    reply = await table.run(
        "character create",
        {"name": "Aria", "player": harness.user(ALICE)},
        user=OWNER,
        guild=OTHER_GUILD,
        guild_locale="fr",
    )
    assert "Personnage de" in public(reply)
    reply = await table.run(
        "wound", {"severity": "light", "character": "Aria"}, user=OWNER, guild=OTHER_GUILD, guild_locale="fr"
    )
    assert "Blessures — Aria" in public(reply)
    reply = await table.run("rest", {"days": 1}, user=OWNER, guild=OTHER_GUILD, guild_locale="fr")
    assert "Repos\u202f: 1 jour" in public(reply)
    reply = await table.run("history", user=ALICE, guild=OTHER_GUILD, guild_locale="fr", locale="en-US")
    assert "Historique" in public(reply)


# ---- autocomplete --------------------------------------------------------------------------------


async def test_autocomplete_offers_at_most_25_of_this_servers_characters(table: Table) -> None:
    for index in range(30):
        await table.create(f"Npc {index:02d}")
    for name in ("Npc elsewhere", "Aria"):
        public(await table.run("character create", {"name": name}, user=OWNER, guild=OTHER_GUILD))
    ours = {str(c.id): c.name for c in await characters_of(table.store, GUILD)}
    for command in ("character show", "wound", "heal roll", "history", "undo", "rest", "roll"):
        options: dict[str, Any] = {"severity": "light"} if command == "wound" else {}
        if command == "rest":
            options = {"days": 1}
        reply = await table.complete(command, options | {"character": "np"}, "character", user=ALICE)
        assert reply.errors == [] and reply.callback_type == 8, command
        choices = reply.choices or []
        assert 0 < len(choices) <= 25
        named = [choice["name"] == f"{ours.get(choice['value'])} (NPC) — unhurt" for choice in choices]
        assert all(named)
    narrow = await table.complete("character show", {"character": "npc 2"}, "character")
    shown = [choice["name"] for choice in narrow.choices or []]
    assert shown == [f"Npc {i} (NPC) — unhurt" for i in range(20, 30)]
    elsewhere = await table.complete("character show", {"character": ""}, "character", guild=OTHER_GUILD)
    names = sorted(choice["name"].split(" (")[0] for choice in elsewhere.choices or [])
    assert names == ["Aria", "Npc elsewhere"]
    # The value offered is the character's id, which the command then accepts.
    value = (narrow.choices or [])[0]["value"]
    shown_card = await table.run("character show", {"character": value})
    assert shown_card.embeds[0]["title"] == "Npc 20"


async def test_select_autocomplete_offers_only_the_callers_own_characters(table: Table) -> None:
    await table.create("Aria", ALICE)
    await table.create("Nyx", ALICE)
    await table.create("Brann", BOB)
    reply = await table.complete("character select", {"character": ""}, "character", user=ALICE)
    assert sorted(choice["name"].split(" (")[0] for choice in reply.choices or []) == ["Aria", "Nyx"]


async def test_a_setting_that_changes_nothing_is_refused_and_not_recorded(table: Table) -> None:
    before, _ = await history_of(table.store, GUILD)
    text = refused(await table.run("config dice", {}))
    assert text.startswith("Nothing to change: give at least one value.")
    text = refused(await table.run("config rest", {"track": "physical"}, locale="fr"))
    assert text.startswith("Rien à modifier\u202f: donnez au moins une valeur.")
    text = refused(await table.run("config dice", {"tie-succeeds": True}, locale="fr"))
    assert text.startswith("C'est déjà le réglage")
    after, _ = await history_of(table.store, GUILD)
    assert [e.id for e in after] == [e.id for e in before]


async def test_everyone_cannot_be_the_gm_role(table: Table) -> None:
    text = refused(await table.run("config gm-role", {"role": harness.role(GUILD, "@everyone")}, user=OWNER))
    assert "every member" in text
    assert (await ruleset_of(table.store, GUILD)).gm_role_id == GM_ROLE


async def test_two_settings_changed_at_once_are_both_kept(table: Table) -> None:
    await asyncio.gather(
        table.run("config penalties", {"track": "physical", "light": -2}),
        table.run("config difficulty", {"track": "physical", "critical": 3}),
        table.run("config rest", {"track": "physical", "serious": 5}),
    )
    physical = (await ruleset_of(table.store, GUILD)).physical
    assert physical.penalties == (-2, -3, -5)
    assert physical.difficulty == (0, 0, 3)
    assert physical.rest_days == (1, 5, 30)


async def test_undo_shows_what_came_back_and_mentions_the_player(table: Table) -> None:
    await table.create("Aria", ALICE)
    await table.run("wound", {"severity": "critical", "character": "Aria", "count": 2})
    assert (await table.character("Aria")).dead
    reply = await table.run("undo", guild_locale="fr")
    (message,) = shown(reply)
    assert not message.ephemeral
    assert message.content == f"<@{ALICE}>" and message.allowed_mentions == {"users": [ALICE], "parse": []}
    (undo,) = message.embeds  # the card is behind the Card button
    assert (
        undo["description"].splitlines()[1] == "↩️ **Aria** — de nouveau en vie · état rétabli\u202f: indemne"
    )
    assert not (await table.character("Aria")).dead
    (button,) = [b for row in message.components for b in row["components"]]
    assert button["label"] == "Fiche" and button["custom_id"].startswith("card:")


async def test_undoing_a_server_wide_rest_names_everyone_without_cards(table: Table) -> None:
    for name, player in (("Aria", ALICE), ("Brann", BOB), ("Nyx", None)):
        await table.create(name, player)
        await table.run("wound", {"severity": "light", "character": name})
    await table.run("rest", {"days": 1})
    (message,) = shown(await table.run("undo"))
    assert len(message.embeds) == 1
    assert message.embeds[0]["description"].splitlines()[1:] == [
        "↩️ **Aria** — state restored: 1 light · −1",
        "↩️ **Brann** — state restored: 1 light · −1",
        "↩️ **Nyx** — state restored: 1 light · −1",
    ]
    assert message.allowed_mentions == {"users": [ALICE, BOB], "parse": []}


async def test_a_deleted_character_can_be_named_in_history_and_undo(table: Table) -> None:
    await table.create("Aria", ALICE)
    await table.run("wound", {"severity": "light", "character": "Aria"})
    ask = await table.run("character delete", {"character": "Aria"}, user=ALICE)
    buttons = [b["custom_id"] for row in ask.components for b in row["components"]]
    await table.click(buttons[0], ask, user=ALICE)
    assert await characters_of(table.store, GUILD) == []
    choices = (await table.complete("history", {"character": "Ar"}, "character")).choices or []
    assert [c["name"] for c in choices] == ["Aria — deleted character"]
    history = public(await table.run("history", {"character": "Aria"}))
    assert "light wound" in history and "deleted" in history
    by_id = public(await table.run("history", {"character": choices[0]["value"]}))
    assert "light wound" in by_id
    undone = await table.run("undo", {"character": "Aria"})
    assert "Aria" in public(undone)
    assert [c.name for c in await characters_of(table.store, GUILD)] == ["Aria"]
    refused(await table.run("history", {"character": "Nobody"}))


async def test_a_deleted_character_is_named_without_its_accents(table: Table) -> None:
    # Issue 37, point 5, for /history and /undo: a deleted "Aélis" is found as "aelis" too.
    await table.create("Aélis", ALICE)
    await table.run("wound", {"severity": "light", "character": "Aélis"})
    ask = await table.run("character delete", {"character": "Aélis"}, user=ALICE)
    await table.click(ask.components[0]["components"][0]["custom_id"], ask, user=ALICE)
    choices = (await table.complete("history", {"character": "AEL"}, "character")).choices or []
    assert [c["name"] for c in choices] == ["Aélis — deleted character"]
    assert "light wound" in public(await table.run("history", {"character": "aelis"}))
    assert "Aélis" in public(await table.run("undo", {"character": "aelis"}))
    assert [c.name for c in await characters_of(table.store, GUILD)] == ["Aélis"]


@pytest.mark.parametrize("locale", ["en-US", "fr"])
async def test_undoing_a_death_fits_in_a_few_lines_and_cannot_read_as_a_new_wound(
    table: Table, locale: str
) -> None:
    await table.create("Aélis", ALICE)
    for severity, count in (("light", 2), ("serious", 2), ("critical", 1)):
        public(await table.run("wound", {"severity": severity, "character": "Aélis", "count": count}))
    public(await table.run("wound", {"severity": "critical", "character": "Aélis"}))  # fatal
    reply = await table.run("undo", guild_locale=locale)
    (message,) = shown(reply)
    (undo,) = message.embeds
    lines = [message.content, undo["title"], *undo["description"].splitlines(), undo["footer"]["text"]]
    assert len(lines) <= 8, lines
    came_back = undo["description"].splitlines()[1]
    if locale == "fr":
        assert came_back == (
            "↩️ **Aélis** — de nouveau en vie · état rétabli\u202f: 2 légères, 2 graves, 1 critique · −13"
        )
    else:
        assert came_back == "↩️ **Aélis** — alive again · state restored: 2 light, 2 serious, 1 critical · −13"
    (button,) = [b for row in message.components for b in row["components"]]
    card = await table.click(button["custom_id"], reply, user=BOB, locale=locale)
    assert "Aélis" in refused(card)  # the card, privately to whoever asks
