"""/character create|show|list|select|edit|delete through the real dispatch."""

from __future__ import annotations

from typing import Any

import pytest

from bot.rules import Track
from bot.ui.text import MINUS
from tests import fakediscord as harness
from tests.databases import characters_of, history_of
from tests.table import ALICE, BOB, GM, GUILD, OTHER_GUILD, Table, public, refused


def custom_ids(reply: harness.Reply | harness.SentMessage | dict[str, Any]) -> list[str]:
    components = reply.get("components", []) if isinstance(reply, dict) else reply.components
    return [button["custom_id"] for row in components for button in row["components"]]


def buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [button for row in message.get("components", []) for button in row["components"]]


# ---- create ---------------------------------------------------------------------------------------


async def test_a_gm_creates_a_character_for_a_player_who_is_pinged_and_whose_active_it_becomes(
    table: Table,
) -> None:
    reply = await table.run(
        "character create",
        {"name": "Aria", "player": harness.user(ALICE), "corps": 2, "resistance": 1, "intuition": -1},
    )
    text = public(reply)
    assert reply.content == f"<@{ALICE}>"
    assert reply.allowed_mentions == {"users": [ALICE], "parse": []}
    assert reply.embeds[0]["title"] == "Aria"
    assert f"<@{ALICE}>" in text and "Cp +2" in text and "Rs +1" in text and f"It {MINUS}1" in text
    aria = await table.character("Aria")
    assert (aria.owner_id, aria.corps, aria.resistance, aria.intuition) == (ALICE, 2, 1, -1)
    assert aria.physical_max == (4, 2, 1) and aria.preset == "humanoid"
    active = await table.store.read(GUILD, lambda r: r.active_character(ALICE))
    assert active is not None and active.id == aria.id


async def test_a_gm_creates_an_npc_without_a_player(table: Table) -> None:
    reply = await table.run("character create", {"name": "Goblin chief"})
    text = public(reply)
    assert "NPC" in text
    assert reply.allowed_mentions == {"parse": []}
    goblin = await table.character("Goblin chief")
    assert goblin.owner_id is None
    assert await table.store.read(GUILD, lambda r: r.active_character(GM)) is None


async def test_a_player_creates_their_own_character(table: Table) -> None:
    reply = await table.run("character create", {"name": "Brann", "resistance": 2}, user=BOB)
    public(reply)
    brann = await table.character("Brann")
    assert brann.owner_id == BOB and brann.resistance == 2
    active = await table.store.read(GUILD, lambda r: r.active_character(BOB))
    assert active is not None and active.id == brann.id
    # Naming themself as the player is the same thing.
    public(await table.run("character create", {"name": "Brann II", "player": harness.user(BOB)}, user=BOB))
    assert (await table.character("Brann II")).owner_id == BOB


async def test_a_player_cannot_create_for_someone_else(table: Table) -> None:
    text = refused(
        await table.run("character create", {"name": "Aria", "player": harness.user(ALICE)}, user=BOB)
    )
    assert "GM" in text
    assert await characters_of(table.store, GUILD) == []


async def test_players_create_off_refuses_players_but_not_gms(table: Table) -> None:
    public(await table.run("config players-create", {"allowed": False}))
    text = refused(await table.run("character create", {"name": "Brann"}, user=BOB))
    assert "GM" in text and "/character create" in text
    assert await characters_of(table.store, GUILD) == []
    await table.create("Brann", BOB)
    assert (await table.character("Brann")).owner_id == BOB


async def test_a_name_is_taken_whatever_its_case(table: Table) -> None:
    await table.create("Aria", ALICE)
    text = refused(await table.run("character create", {"name": "aRIA", "player": harness.user(BOB)}))
    assert "already" in text
    assert [c.name for c in await characters_of(table.store, GUILD)] == ["Aria"]
    assert await table.store.read(GUILD, lambda r: r.active_character(BOB)) is None
    # The same name is free in another server.
    reply = await table.run("character create", {"name": "aria"}, guild=OTHER_GUILD)
    public(reply)
    assert (await table.character("aria", guild=OTHER_GUILD)).guild_id == OTHER_GUILD


async def test_only_the_first_character_of_a_player_becomes_active(table: Table) -> None:
    aria = await table.create("Aria", ALICE)
    await table.create("Nyx", ALICE)
    active = await table.store.read(GUILD, lambda r: r.active_character(ALICE))
    assert active is not None and active.id == aria.id


async def test_an_unknown_preset_is_refused_and_a_custom_one_sets_the_maxima(table: Table) -> None:
    text = refused(await table.run("character create", {"name": "Ogre", "preset": "giant"}))
    assert "giant" in text and "humanoid" in text
    public(await table.run("config preset", {"name": "giant", "light": 6, "serious": 3, "critical": 2}))
    public(await table.run("character create", {"name": "Ogre", "preset": "giant"}))
    ogre = await table.character("Ogre")
    assert ogre.preset == "giant" and ogre.physical_max == (6, 3, 2) and ogre.mental_max == (4, 2, 1)


async def test_a_blank_name_is_refused(table: Table) -> None:
    refused(await table.run("character create", {"name": "   "}))
    assert await characters_of(table.store, GUILD) == []


# ---- show -----------------------------------------------------------------------------------------


async def test_show_defaults_to_the_callers_active_character(table: Table) -> None:
    await table.create("Aria", ALICE)
    await table.create("Brann", BOB)
    reply = await table.run("character show", user=ALICE)
    public(reply)
    assert reply.embeds[0]["title"] == "Aria"


async def test_show_without_an_active_character_says_how_to_get_one(table: Table) -> None:
    text = refused(await table.run("character show", user=BOB))
    assert "/character create" in text and "/character select" in text


async def test_show_by_player_and_by_name(table: Table) -> None:
    aria = await table.create("Aria", ALICE)
    await table.create("Brann", BOB)
    by_player = await table.run("character show", {"player": harness.user(ALICE)}, user=BOB)
    public(by_player)
    assert by_player.embeds[0]["title"] == "Aria"
    by_name = await table.run("character show", {"character": "aria"}, user=BOB)
    assert by_name.embeds[0]["title"] == "Aria"
    by_id = await table.run("character show", {"character": str(aria.id)}, user=BOB)
    assert by_id.embeds[0]["title"] == "Aria"
    refused(await table.run("character show", {"character": "Nobody"}))


async def test_the_card_shows_tracks_penalty_warnings_and_rest(table: Table) -> None:
    await table.create("Aria", ALICE)
    await table.run("wound", {"severity": "light", "character": "Aria", "count": 4})
    await table.run("wound", {"severity": "serious", "character": "Aria"})
    await table.run("wound", {"severity": "critical", "character": "Aria"})
    await table.run("mental", {"severity": "shock", "character": "Aria", "count": 2})
    reply = await table.run("character show", {"character": "Aria"})
    text = public(reply)
    card = reply.embeds[0]
    fields = {field["name"]: field["value"] for field in card["fields"]}
    assert "Light 🟨🟨🟨🟨 4/4" in fields["Physical wounds"]
    assert "Serious 🟧▫️ 1/2" in fields["Physical wounds"]
    assert "Critical 🟥 1/1" in fields["Physical wounds"]
    assert "Shock 🟡🟡▫️▫️ 2/4" in fields["Mental wounds"]
    # 4 × −1, 1 × −3, 1 × −5, 2 × −1 (mental) = −14
    assert f"{MINUS}14" in fields["Penalty"]
    assert "next light wound → serious" in fields["Warnings"]
    assert "next critical wound → FATAL" in fields["Warnings"]
    assert fields["Warnings"].index("FATAL") < fields["Warnings"].index("next light wound")
    assert "0/1 day (" in fields["Rest and healing"]
    assert "/heal roll after 1 more day" in fields["Rest and healing"]
    assert "<@" in text  # played by Alice


async def test_the_card_warns_loudly_when_any_wound_is_fatal_and_marks_death(table: Table) -> None:
    await table.create("Aria", ALICE)
    await table.run("wound", {"severity": "light", "character": "Aria", "count": 7})
    reply = await table.run("character show", {"character": "Aria"})
    fields = {field["name"]: field["value"] for field in reply.embeds[0]["fields"]}
    assert fields["Warnings"].splitlines()[0].startswith("⚠️") and "FATAL" in fields["Warnings"]
    colour_critical = reply.embeds[0]["color"]
    await table.run("wound", {"severity": "light", "character": "Aria"})
    dead = await table.run("character show", {"character": "Aria"})
    assert "dead" in dead.embeds[0]["title"] and "Aria" in dead.embeds[0]["title"]
    assert "Warnings" not in {field["name"] for field in dead.embeds[0]["fields"]}
    assert dead.embeds[0]["color"] != colour_critical


async def test_card_colours_follow_the_worst_state(table: Table) -> None:
    await table.create("Aria", ALICE)
    colours = [(await table.run("character show", {"character": "Aria"})).embeds[0]["color"]]
    for severity in ("light", "serious", "critical"):
        await table.run("wound", {"severity": severity, "character": "Aria"})
        colours.append((await table.run("character show", {"character": "Aria"})).embeds[0]["color"])
    await table.run("wound", {"severity": "critical", "character": "Aria"})
    colours.append((await table.run("character show", {"character": "Aria"})).embeds[0]["color"])
    assert len(set(colours)) == 5


async def test_the_card_is_in_the_servers_language(table: Table) -> None:
    await table.create("Aria", ALICE)
    await table.run("wound", {"severity": "light", "character": "Aria"})
    reply = await table.run("character show", {"character": "Aria"}, guild_locale="fr", locale="en-US")
    text = public(reply)
    assert "Blessures physiques" in text and "Légère 🟨▫️▫️▫️ 1/4" in text and "Pénalité" in text


# ---- list -----------------------------------------------------------------------------------------


async def test_list_shows_every_character_with_owner_state_and_penalty(table: Table) -> None:
    empty = await table.run("character list")
    assert "/character create" in public(empty)
    await table.create("Aria", ALICE)
    await table.create("Goblin")
    await table.run("wound", {"severity": "serious", "character": "Aria"})
    reply = await table.run("character list", user=BOB)
    text = public(reply)
    lines = reply.embeds[0]["description"].splitlines()
    assert lines[0].startswith("**Aria**") and f"<@{ALICE}>" in lines[0]
    assert "serious wound" in lines[0] and lines[0].endswith(f"{MINUS}3")
    assert lines[1].startswith("**Goblin**") and "NPC" in lines[1] and "unhurt" in lines[1]
    assert reply.components == []
    assert reply.allowed_mentions == {"parse": []}
    assert "Characters" in text


async def test_a_long_list_is_paged_and_the_buttons_turn_the_pages(table: Table) -> None:
    for index in range(23):
        await table.create(f"Npc {index:02d}")
    reply = await table.run("character list", user=ALICE)
    public(reply)
    first = reply.embeds[0]
    assert len(first["description"].splitlines()) == 20
    assert first["footer"]["text"] == "page 1/2"
    previous, following = buttons(reply.message or {})
    assert previous["disabled"] and not following["disabled"]
    turned = await table.click(following["custom_id"], reply, user=BOB)
    assert turned.errors == [] and turned.callback_type == 7
    page = turned.embeds[0]
    assert page["footer"]["text"] == "page 2/2"
    assert page["description"].splitlines() == [
        f"**Npc {index:02d}** — NPC — unhurt — 0" for index in (20, 21, 22)
    ]
    previous, following = buttons(turned.message or {})
    assert not previous["disabled"] and following["disabled"]
    back = await table.click(previous["custom_id"], turned, user=ALICE)
    assert back.embeds[0]["footer"]["text"] == "page 1/2"
    assert "Npc 00" in back.embeds[0]["description"]


# ---- select ---------------------------------------------------------------------------------------


async def test_the_owner_selects_their_active_character(table: Table) -> None:
    await table.create("Aria", ALICE)
    nyx = await table.create("Nyx", ALICE)
    reply = await table.run("character select", {"character": "Nyx"}, user=ALICE)
    public(reply)
    assert reply.embeds[0]["title"] == "Nyx"
    active = await table.store.read(GUILD, lambda r: r.active_character(ALICE))
    assert active is not None and active.id == nyx.id
    shown = await table.run("character show", user=ALICE)
    assert shown.embeds[0]["title"] == "Nyx"


@pytest.mark.parametrize("who", [BOB, GM])
async def test_only_the_owner_can_select_a_character(table: Table, who: int) -> None:
    aria = await table.create("Aria", ALICE)
    await table.create("Brann", BOB)
    text = refused(await table.run("character select", {"character": "Aria"}, user=who))
    assert "Aria" in text
    active = await table.store.read(GUILD, lambda r: r.active_character(ALICE))
    assert active is not None and active.id == aria.id
    bob_active = await table.store.read(GUILD, lambda r: r.active_character(BOB))
    assert bob_active is not None and bob_active.name == "Brann"


# ---- edit -----------------------------------------------------------------------------------------


async def test_a_gm_edits_anything(table: Table) -> None:
    public(await table.run("config preset", {"name": "giant", "light": 6, "serious": 3, "critical": 2}))
    await table.create("Aria", ALICE)
    reply = await table.run(
        "character edit",
        {
            "character": "Aria",
            "name": "Aria the Bold",
            "corps": 3,
            "resistance": -2,
            "intuition": 1,
            "preset": "giant",
        },
    )
    public(reply)
    assert reply.embeds[0]["title"] == "Aria the Bold"
    aria = await table.character("Aria the Bold")
    assert (aria.corps, aria.resistance, aria.intuition) == (3, -2, 1)
    assert aria.preset == "giant" and aria.physical_max == (6, 3, 2)


async def test_a_gms_edit_of_a_players_character_mentions_the_player(table: Table) -> None:
    await table.create("Aria", ALICE)
    await table.create("Goblin")
    by_gm = await table.run("character edit", {"character": "Aria", "corps": 2})
    public(by_gm)
    assert by_gm.content == f"<@{ALICE}>" and by_gm.allowed_mentions == {"users": [ALICE], "parse": []}
    by_owner = await table.run("character edit", {"character": "Aria", "name": "Arya"}, user=ALICE)
    assert by_owner.content == "" and by_owner.allowed_mentions == {"parse": []}
    npc = await table.run("character edit", {"character": "Goblin", "corps": 1})
    assert npc.content == "" and npc.allowed_mentions == {"parse": []}


async def test_the_owner_may_rename_but_change_nothing_else(table: Table) -> None:
    await table.create("Aria", ALICE)
    public(await table.run("character edit", {"character": "Aria", "name": "Arya"}, user=ALICE))
    arya = await table.character("Arya")
    text = refused(await table.run("character edit", {"character": "Arya", "corps": 5}, user=ALICE))
    assert "GM" in text
    refused(await table.run("character edit", {"character": "Arya", "name": "Ari", "corps": 5}, user=ALICE))
    assert (await table.character("Arya")) == arya
    refused(await table.run("character edit", {"character": "Arya", "name": "Mine"}, user=BOB))
    assert (await table.character("Arya")) == arya


async def test_edit_refusals_change_nothing(table: Table) -> None:
    public(await table.run("config preset", {"name": "small", "light": 1, "serious": 1, "critical": 1}))
    await table.create("Aria", ALICE)
    await table.create("Brann", BOB)
    await table.run("wound", {"severity": "light", "character": "Aria", "count": 2})
    before = await table.character("Aria")
    text = refused(await table.run("character edit", {"character": "Aria", "preset": "small"}))
    assert "small" in text and "Heal" in text
    text = refused(await table.run("character edit", {"character": "Aria", "name": "BRANN"}))
    assert "already" in text
    text = refused(await table.run("character edit", {"character": "Aria"}))
    assert "Nothing to change" in text
    refused(await table.run("character edit", {"character": "Aria", "preset": "unknown"}))
    assert (await table.character("Aria")) == before


# ---- delete ---------------------------------------------------------------------------------------


async def test_delete_asks_privately_and_only_the_author_may_answer(table: Table) -> None:
    await table.create("Aria", ALICE)
    ask = await table.run("character delete", {"character": "Aria"}, user=ALICE)
    assert ask.ephemeral and ask.errors == []
    assert "Aria" in (ask.content or "") and "/undo" in (ask.content or "")
    confirm, cancel = buttons(ask.message or {})
    assert (confirm["label"], cancel["label"]) == ("Confirm", "Cancel")
    intruder = await table.click(confirm["custom_id"], ask, user=BOB)
    assert intruder.ephemeral and "Only the person who ran the command" in intruder.text
    intruder_fr = await table.click(cancel["custom_id"], ask, user=GM, locale="fr")
    assert "Seule la personne qui a lancé la commande" in refused(intruder_fr)
    assert "Aria" in [c.name for c in await characters_of(table.store, GUILD)]


async def test_confirming_deletes_announces_publicly_and_undo_brings_it_back_whole(table: Table) -> None:
    await table.create("Aria", ALICE)
    await table.run("wound", {"severity": "serious", "character": "Aria", "note": "axe"})
    await table.run("mental", {"severity": "shock", "character": "Aria"})
    before = await table.character("Aria")
    ask = await table.run("character delete", {"character": "Aria"}, user=ALICE)
    confirm_id = custom_ids(ask)[0]
    done = await table.click(confirm_id, ask, user=ALICE)
    assert done.errors == []
    assert all(button["disabled"] for button in buttons(done.message or {}))
    announcement = done.followups[-1]
    assert not announcement.ephemeral and announcement.content == ""  # her own deletion: no ping
    assert "Deleted: Aria" in announcement.text and "/undo" in announcement.text
    assert await characters_of(table.store, GUILD) == []
    assert await table.store.read(GUILD, lambda r: r.active_character(ALICE)) is None
    undo = await table.run("undo")
    assert "deleted" in public(undo)
    after = await table.character("Aria")
    assert after == before
    assert after.counts(Track.PHYSICAL) == (0, 1, 0) and after.counts(Track.MENTAL) == (1, 0, 0)
    active = await table.store.read(GUILD, lambda r: r.active_character(ALICE))
    assert active is not None and active.id == before.id


async def test_a_gms_deletion_of_a_players_character_mentions_the_player(table: Table) -> None:
    await table.create("Aria", ALICE)
    ask = await table.run("character delete", {"character": "Aria"})
    done = await table.click(custom_ids(ask)[0], ask, user=GM)
    announcement = done.followups[-1]
    assert announcement.content == f"<@{ALICE}>" and not announcement.ephemeral
    assert announcement.allowed_mentions == {"users": [ALICE], "parse": []}


async def test_cancelling_changes_nothing(table: Table) -> None:
    aria = await table.create("Aria", ALICE)
    ask = await table.run("character delete", {"character": "Aria"})
    cancel_id = custom_ids(ask)[1]
    cancelled = await table.click(cancel_id, ask, user=GM)
    assert cancelled.errors == [] and cancelled.callback_type == 7
    assert "Cancelled" in (cancelled.content or "")
    assert all(button["disabled"] for button in buttons(cancelled.message or {}))
    assert cancelled.followups == []
    assert await table.character("Aria") == aria
    history, _ = await history_of(table.store, GUILD)
    assert "character_delete" not in [event.kind for event in history]


async def test_deleting_the_active_character_makes_the_next_most_recent_active(table: Table) -> None:
    await table.create("Aria", ALICE)
    nyx = await table.create("Nyx", ALICE)
    ask = await table.run("character delete", {"character": "Aria"}, user=ALICE)
    await table.click(custom_ids(ask)[0], ask, user=ALICE)
    active = await table.store.read(GUILD, lambda r: r.active_character(ALICE))
    assert active is not None and active.id == nyx.id


async def test_another_player_cannot_delete(table: Table) -> None:
    aria = await table.create("Aria", ALICE)
    text = refused(await table.run("character delete", {"character": "Aria"}, user=BOB))
    assert "Aria" in text
    assert await table.character("Aria") == aria


async def test_the_delete_question_is_in_the_callers_language(table: Table) -> None:
    await table.create("Aria", ALICE)
    ask = await table.run("character delete", {"character": "Aria"}, user=ALICE, locale="fr")
    assert ask.ephemeral and "Supprimer Aria" in (ask.content or "")
    confirm, cancel = buttons(ask.message or {})
    assert (confirm["label"], cancel["label"]) == ("Confirmer", "Annuler")


async def test_confirming_a_deletion_someone_else_already_made_is_refused(table: Table) -> None:
    await table.create("Aria", ALICE)
    asked_by_alice = await table.run("character delete", {"character": "Aria"}, user=ALICE)
    asked_by_gm = await table.run("character delete", {"character": "Aria"})
    await table.click(custom_ids(asked_by_gm)[0], asked_by_gm, user=GM)
    late = await table.click(custom_ids(asked_by_alice)[0], asked_by_alice, user=ALICE, locale="fr")
    assert "n'existe pas" in refused(late)
    history, _ = await history_of(table.store, GUILD)
    assert [event.kind for event in history].count("character_delete") == 1


async def test_a_character_may_be_renamed_to_its_own_name_in_another_case(table: Table) -> None:
    await table.create("Aria", ALICE)
    public(await table.run("character edit", {"character": "Aria", "name": "ARIA"}, user=ALICE))
    assert [c.name for c in await characters_of(table.store, GUILD)] == ["ARIA"]


async def test_an_edit_that_changes_nothing_is_refused(table: Table) -> None:
    await table.create("Aria", ALICE, corps=2)
    text = refused(await table.run("character edit", {"character": "Aria", "corps": 2}))
    assert "nothing was changed" in text
    assert (await table.character("Aria")).corps == 2


@pytest.mark.parametrize("typed", ["humanoïde", "Humanoide", "HUMANOID"])
async def test_the_built_in_preset_is_typed_as_shown_in_either_language(table: Table, typed: str) -> None:
    public(await table.run("config preset", {"name": "giant", "light": 6, "serious": 3, "critical": 2}))
    public(await table.run("character create", {"name": "Ogre", "preset": "giant"}))
    edited = await table.run("character edit", {"character": "Ogre", "preset": typed}, guild_locale="fr")
    assert "humanoïde" in public(edited)
    ogre = await table.character("Ogre")
    assert ogre.preset == "humanoid" and ogre.physical_max == (4, 2, 1)
    text = refused(await table.run("character create", {"name": "Nyx", "preset": "géant"}, locale="fr"))
    assert "Aucun gabarit nommé géant. Gabarits connus\u202f: giant, humanoïde." in text
    shown = public(await table.run("config show", guild_locale="fr"))
    assert "humanoïde\u202f: physique 4/2/1" in shown and "humanoid" not in shown


# ---- names typed without accents or case (issue 37, point 5) ---------------------------------------


async def test_a_name_is_found_and_suggested_without_its_accents_or_case(table: Table) -> None:
    aelis = await table.create("Aélis de Varenne", ALICE)
    await table.create("Bastien", BOB)
    # Autocomplete: "Aeli" offers her, first; "varenne" too (within the name).
    for typed in ("Aeli", "AELIS", "varenne"):
        reply = await table.complete("wound", {"severity": "light", "character": typed}, "character")
        assert [c["value"] for c in reply.choices or []] == [str(aelis.id)], typed
    # A typed name: "aelis de varenne" finds her.
    text = public(await table.run("wound", {"severity": "light", "character": "aelis de varenne"}))
    assert "Aélis de Varenne" in text
    assert len((await table.character("Aélis de Varenne")).wounds) == 1
    # A name that is only close: refused, with the one it may mean.
    text = refused(await table.run("character show", {"character": "Aelis"}))
    assert "No character called Aelis in this server. Did you mean Aélis de Varenne?" in text
    text = refused(await table.run("character show", {"character": "Bastein"}, locale="fr"))
    assert "Aucun personnage nommé Bastein sur ce serveur. Vouliez-vous dire Bastien\u202f?" in text
    text = refused(await table.run("character show", {"character": "Zorglub"}))
    assert "Did you mean" not in text and "No character called Zorglub" in text
