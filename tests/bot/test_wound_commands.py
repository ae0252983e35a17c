"""/wound and /mental through the real dispatch: escalation, death, incoherence, refusals."""

from __future__ import annotations

from bot.rules import Track
from tests import harness
from tests.bot.table import ALICE, BOB, GM, GUILD, OTHER_GUILD, Table


async def test_a_gm_wounds_a_tagged_player_who_alone_is_pinged(table: Table) -> None:
    await table.create("Aria", ALICE)
    reply = await table.run("wound", {"severity": "light", "target": harness.user(ALICE), "note": "arrow"})
    assert not reply.ephemeral and reply.errors == []
    assert reply.content == f"<@{ALICE}>"
    assert reply.allowed_mentions == {"parse": [], "users": [ALICE], "roles": [], "replied_user": False} or (
        reply.allowed_mentions is not None and reply.allowed_mentions.get("users") in ([ALICE], [str(ALICE)])
    )
    aria = await table.character("Aria")
    assert aria.counts(Track.PHYSICAL) == (1, 0, 0)
    assert aria.wounds[0].note == "arrow" and aria.wounds[0].inflicted_by == GM
    card = reply.embeds[-1]
    assert "Aria" in card["title"]
    assert "1/4" in harness.Reply.text.fget(reply)  # type: ignore[attr-defined]


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
    assert "2" in reply.text  # two wounds not applied
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
    assert reply.ephemeral and "GM" in reply.text
    assert (await table.character("Aria")).wounds == ()


async def test_refusals_are_in_the_callers_language(table: Table) -> None:
    reply = await table.run("wound", {"severity": "light"}, locale="fr")
    assert reply.ephemeral
    assert "cible" in reply.text or "personnage" in reply.text


async def test_a_character_of_another_server_is_not_found(table: Table) -> None:
    aria = await table.create("Aria", ALICE)
    reply = await table.run("wound", {"severity": "light", "character": str(aria.id)}, guild=OTHER_GUILD)
    assert reply.ephemeral
    assert (await table.character("Aria")).wounds == ()


async def test_both_target_and_character_must_agree(table: Table) -> None:
    await table.create("Aria", ALICE)
    await table.create("Brann", BOB)
    reply = await table.run(
        "wound", {"severity": "light", "target": harness.user(ALICE), "character": "Brann"}
    )
    assert reply.ephemeral
    assert (await table.character("Brann")).wounds == ()


async def test_public_messages_follow_the_server_language(table: Table) -> None:
    await table.create("Aria", ALICE)
    reply = await table.run(
        "wound", {"severity": "serious", "character": "Aria"}, guild_locale="fr", locale="en-US"
    )
    assert not reply.ephemeral
    assert "grave" in reply.text.lower()
    assert GUILD
