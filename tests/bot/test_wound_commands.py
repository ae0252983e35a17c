"""/wound and /mental through the real dispatch: escalation, death, incoherence, refusals."""

from __future__ import annotations

import pytest

from bot.rules import Track
from tests import fakediscord as harness
from tests.databases import history_of
from tests.table import (
    ALICE,
    BOB,
    GM,
    GUILD,
    MANAGE_GUILD,
    OTHER_GUILD,
    OWNER,
    Table,
    public,
    refused,
)


async def test_a_gm_wounds_a_tagged_player_who_alone_is_pinged(table: Table) -> None:
    await table.create("Aria", ALICE)
    reply = await table.run("wound", {"severity": "light", "target": harness.user(ALICE), "note": "arrow"})
    assert not reply.ephemeral and reply.errors == []
    assert reply.content == f"<@{ALICE}>"
    assert reply.allowed_mentions == {"users": [ALICE], "parse": []}
    aria = await table.character("Aria")
    assert aria.counts(Track.PHYSICAL) == (1, 0, 0)
    assert aria.wounds[0].note == "arrow" and aria.wounds[0].inflicted_by == GM
    assert len(reply.embeds) == 1 and "Aria" in reply.embeds[0]["title"]
    assert "Physical 🟨 — light 1/4" in reply.text and "Penalty −1 on all rolls" in reply.text
    assert reply.text.count("arrow") == 1


async def test_escalation_to_death_stops_the_batch_and_says_so(table: Table) -> None:
    await table.create("Aria", ALICE)
    await table.run("wound", {"severity": "light", "target": harness.user(ALICE), "count": 4})
    await table.run("wound", {"severity": "serious", "character": "Aria", "count": 2})
    await table.run("wound", {"severity": "critical", "character": "Aria"})
    reply = await table.run("wound", {"severity": "light", "character": "Aria", "count": 3})
    assert not reply.ephemeral
    aria = await table.character("Aria")
    assert aria.dead
    assert aria.counts(Track.PHYSICAL) == (4, 2, 1)
    # dead: no rest lost, but the wounds not applied are counted (rules §2, issue 35 point 6)
    assert "2 wounds not applied." in reply.text and "rest" not in reply.text
    refused = await table.run("wound", {"severity": "light", "character": "Aria"})
    assert refused.ephemeral
    assert (await table.character("Aria")) == aria


async def test_mental_wounds_escalate_to_incoherence(table: Table) -> None:
    await table.create("Brann", BOB)
    for _ in range(3):
        await table.run("mental", {"severity": "psychosis", "target": harness.user(BOB)})
    brann = await table.character("Brann")
    assert brann.incoherent and not brann.dead
    assert brann.counts(Track.MENTAL) == (0, 0, 1)


async def test_a_player_cannot_wound(table: Table) -> None:
    await table.create("Aria", ALICE)
    reply = await table.run("wound", {"severity": "light", "character": "Aria"}, user=BOB)
    assert "Only a GM" in refused(reply)
    assert (await table.character("Aria")).wounds == ()


async def test_refusals_are_in_the_callers_language(table: Table) -> None:
    reply = await table.run("wound", {"severity": "light"}, locale="fr")
    text = refused(reply)
    assert "Précisez qui" in text and "cible" in text and "personnage" in text


async def test_a_character_of_another_server_is_not_found(table: Table) -> None:
    aria = await table.create("Aria", ALICE)
    # The owner of the other server is a GM there: the refusal is that no such character exists.
    for ref, words in ((str(aria.id), "does not exist in this server"), ("Aria", "No character called")):
        reply = await table.run(
            "wound", {"severity": "light", "character": ref}, user=OWNER, guild=OTHER_GUILD
        )
        assert words in refused(reply)
    assert (await table.character("Aria")).wounds == ()


async def test_both_target_and_character_must_agree(table: Table) -> None:
    await table.create("Aria", ALICE)
    await table.create("Brann", BOB)
    reply = await table.run(
        "wound", {"severity": "light", "target": harness.user(ALICE), "character": "Brann"}
    )
    text = refused(reply)
    assert "Brann" in text and f"<@{ALICE}>" in text
    assert (await table.character("Brann")).wounds == ()


async def test_public_messages_follow_the_server_language(table: Table) -> None:
    await table.create("Aria", ALICE)
    reply = await table.run(
        "wound", {"severity": "serious", "character": "Aria"}, guild_locale="fr", locale="en-US"
    )
    text = public(reply)
    assert "Blessures — Aria" in text and "blessure grave" in text


# ---- escalation, count, note ---------------------------------------------------------------------


async def test_a_wound_that_does_not_fit_escalates_and_says_so(table: Table) -> None:
    await table.create("Aria", ALICE)
    await table.run("wound", {"severity": "light", "character": "Aria", "count": 4})
    await table.run("wound", {"severity": "serious", "character": "Aria"})
    reply = await table.run("wound", {"severity": "light", "character": "Aria"})
    text = public(reply)
    assert "light wound → **serious wound** (light full 4/4)" in text
    assert (await table.character("Aria")).counts(Track.PHYSICAL) == (4, 2, 0)
    reply = await table.run("wound", {"severity": "light", "character": "Aria"})
    assert "light wound → **critical wound** (light full 4/4, serious full 2/2)" in public(reply)
    assert (await table.character("Aria")).counts(Track.PHYSICAL) == (4, 2, 1)
    assert not (await table.character("Aria")).dead


async def test_count_inflicts_several_wounds_each_escalating_on_its_own(table: Table) -> None:
    await table.create("Aria", ALICE)
    reply = await table.run("wound", {"severity": "light", "target": harness.user(ALICE), "count": 6})
    text = public(reply)
    lines = [line for line in reply.embeds[0]["description"].splitlines() if line.startswith("•")]
    assert lines == ["• 4 × light wound", "• 2 × light wound → **serious wound** (light full 4/4)"]
    assert "Physical 🟨🟨🟨🟨🟧🟧 — light 4/4 · serious 2/2" in text
    aria = await table.character("Aria")
    assert aria.counts(Track.PHYSICAL) == (4, 2, 0)
    assert [w.inflicted for w in aria.wounds] == [0] * 6
    history, _ = await history_of(table.store, GUILD)
    assert history[0].kind == "wound" and history[0].details["count"] == 6  # one change, not six


async def test_the_note_is_kept_shown_escaped_and_pings_nobody(table: Table) -> None:
    await table.create("Aria", ALICE)
    note = "@everyone <@&300000000000000001> **arrow** in the shoulder"
    reply = await table.run("wound", {"severity": "serious", "target": harness.user(ALICE), "note": note})
    text = public(reply)
    assert reply.allowed_mentions == {"users": [ALICE], "parse": []}
    assert "@everyone" not in text.replace("@\u200beveryone", "")
    assert "<@&" not in text
    assert "\\*\\*arrow\\*\\*" in text
    aria = await table.character("Aria")
    assert aria.wounds[0].note == note
    history = await table.run("history", {"character": "Aria"})
    assert "arrow" in public(history)


async def test_nul_characters_are_refused_clearly_and_change_nothing(table: Table) -> None:
    await table.create("Aria", ALICE)
    reply = await table.run("wound", {"severity": "light", "character": "Aria", "note": "a\x00b"})
    assert "NUL character (U+0000)" in refused(reply)
    assert (await table.character("Aria")).wounds == ()
    missing = await table.run("character show", {"character": "Ar\x00ia"})
    assert "Ar" in refused(missing)


async def test_a_new_wound_restarts_the_rest_period(table: Table) -> None:
    await table.create("Aria", ALICE)
    await table.run("wound", {"severity": "light", "character": "Aria"})
    await table.run("rest", {"days": 5, "character": "Aria"})
    assert (await table.character("Aria")).rest_days == 5
    reply = await table.run("wound", {"severity": "light", "character": "Aria"})
    assert "The 5 days of rest taken are lost: the rest period starts again." in public(reply)
    again = await table.run("wound", {"severity": "light", "character": "Aria"})  # mid-fight: no rest lost
    assert "rest" not in public(again).lower()
    assert (await table.character("Aria")).rest_days == 0


# ---- target and character ------------------------------------------------------------------------


async def test_target_wounds_the_players_active_character(table: Table) -> None:
    await table.create("Aria", ALICE)
    await table.create("Nyx", ALICE)
    public(await table.run("character select", {"character": "Nyx"}, user=ALICE))
    public(await table.run("wound", {"severity": "light", "target": harness.user(ALICE)}))
    assert (await table.character("Nyx")).counts(Track.PHYSICAL) == (1, 0, 0)
    assert (await table.character("Aria")).wounds == ()
    # With both, the character must be the target's: then the named one is wounded.
    public(
        await table.run("wound", {"severity": "light", "target": harness.user(ALICE), "character": "Aria"})
    )
    assert (await table.character("Aria")).counts(Track.PHYSICAL) == (1, 0, 0)


async def test_a_target_without_an_active_character_is_refused(table: Table) -> None:
    text = refused(await table.run("wound", {"severity": "light", "target": harness.user(BOB)}))
    assert f"<@{BOB}>" in text and "/character create" in text


async def test_neither_target_nor_character_is_refused(table: Table) -> None:
    text = refused(await table.run("wound", {"severity": "light"}))
    assert "target" in text and "character" in text


async def test_an_npc_is_wounded_by_name_and_nobody_is_pinged(table: Table) -> None:
    await table.create("Goblin")
    reply = await table.run("wound", {"severity": "critical", "character": "goblin", "note": "beheaded"})
    public(reply)
    assert reply.content == ""
    assert reply.allowed_mentions == {"parse": []}
    assert (await table.character("Goblin")).counts(Track.PHYSICAL) == (0, 0, 1)


async def test_an_unknown_character_is_refused(table: Table) -> None:
    text = refused(await table.run("wound", {"severity": "light", "character": "Nobody"}))
    assert "Nobody" in text and "/character list" in text


# ---- who may wound -------------------------------------------------------------------------------


async def test_the_owner_and_manage_server_members_are_gms(table: Table) -> None:
    await table.create("Aria", ALICE)
    public(await table.run("wound", {"severity": "light", "character": "Aria"}, user=OWNER))
    public(
        await table.run(
            "wound", {"severity": "light", "character": "Aria"}, user=BOB, permissions=MANAGE_GUILD
        )
    )
    assert (await table.character("Aria")).counts(Track.PHYSICAL) == (2, 0, 0)


@pytest.mark.parametrize("command", ["wound", "mental"])
async def test_players_cannot_wound_even_themselves(table: Table, command: str) -> None:
    await table.create("Aria", ALICE)
    severity = "light" if command == "wound" else "shock"
    text = refused(
        await table.run(command, {"severity": severity, "target": harness.user(ALICE)}, user=ALICE)
    )
    assert "GM" in text
    text = refused(
        await table.run(command, {"severity": severity, "character": "Aria"}, user=ALICE, locale="fr")
    )
    assert "MJ" in text
    assert (await table.character("Aria")).wounds == ()


# ---- mental --------------------------------------------------------------------------------------


async def test_mental_wounds_escalate_on_their_own_track_and_ping_the_player(table: Table) -> None:
    await table.create("Brann", BOB)
    reply = await table.run("mental", {"severity": "shock", "target": harness.user(BOB), "count": 5})
    text = public(reply)
    assert reply.content == f"<@{BOB}>" and reply.allowed_mentions == {"users": [BOB], "parse": []}
    assert "Mental wounds — Brann" in text and "shock → **trauma**" in text
    brann = await table.character("Brann")
    assert brann.counts(Track.MENTAL) == (4, 1, 0) and brann.counts(Track.PHYSICAL) == (0, 0, 0)


async def test_incoherence_stops_the_batch_and_blocks_further_wounds(table: Table) -> None:
    await table.create("Brann", BOB)
    await table.run("mental", {"severity": "psychosis", "character": "Brann"})
    reply = await table.run("mental", {"severity": "trauma", "character": "Brann", "count": 5})
    text = public(reply)
    assert "INCOHERENT" in text and "2 wounds not applied." in text
    brann = await table.character("Brann")
    assert brann.incoherent and brann.counts(Track.MENTAL) == (0, 2, 1)
    assert "Brann is INCOHERENT" in reply.embeds[0]["description"]
    for command, severity in (("mental", "shock"), ("wound", "light")):
        text = refused(await table.run(command, {"severity": severity, "character": "Brann"}))
        assert "incoherent" in text and "/undo" in text
    assert await table.character("Brann") == brann


async def test_a_dead_character_takes_no_mental_wound_either(table: Table) -> None:
    await table.create("Goblin")
    await table.run("wound", {"severity": "critical", "character": "Goblin", "count": 2})
    assert (await table.character("Goblin")).dead
    text = refused(await table.run("mental", {"severity": "shock", "character": "Goblin"}, locale="fr"))
    assert "a succombé" in text and "/annuler" in text


async def test_wound_results_are_french_for_a_french_server(table: Table) -> None:
    await table.create("Aria", ALICE)
    await table.run("wound", {"severity": "critical", "character": "Aria"})
    reply = await table.run(
        "wound", {"severity": "critical", "character": "Aria", "count": 3}, guild_locale="fr"
    )
    text = public(reply)
    assert "MORTELLE" in text and "a succombé" in text
    assert "2 blessures non appliquées." in text  # the burst stopped: said (rules §2, issue 35)


async def test_history_explains_a_cascade_in_both_languages(table: Table) -> None:
    await table.create("Aria", ALICE)
    await table.run("wound", {"severity": "light", "character": "Aria", "count": 4})
    await table.run("wound", {"severity": "serious", "character": "Aria", "count": 2})
    public(await table.run("wound", {"severity": "light", "character": "Aria"}))
    english = public(await table.run("history", {"character": "Aria"}))
    assert "critical wound (light full 4/4, serious full 2/2)" in english
    french = public(await table.run("history", {"character": "Aria"}, guild_locale="fr"))
    assert "blessure critique (légères au complet 4/4, graves au complet 2/2)" in french
