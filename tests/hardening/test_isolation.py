"""Isolation between servers: nothing of another server is ever shown or changed (quality.md)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests import fakediscord as harness
from tests.databases import characters_of
from tests.hardening.support import Hardened
from tests.hardening.world import SECRET_NAMES, World, build_world, guild_rows
from tests.table import ALICE, GM, GUILD, OTHER_GUILD, OWNER

#: Every command that takes a character, with the other options it needs.
WITH_CHARACTER: list[tuple[str, dict[str, Any]]] = [
    ("character show", {}),
    ("character select", {}),
    ("character edit", {"name": "Stolen"}),
    ("character edit", {"corps": 5}),
    ("character delete", {}),
    ("wound", {"severity": "critical", "count": 7, "note": "cross-server"}),
    ("mental", {"severity": "psychosis", "count": 3}),
    ("heal roll", {}),
    ("heal roll", {"track": "mental", "dice": "10-1"}),
    ("heal wound", {"severity": "serious"}),
    ("heal mental", {"severity": "shock"}),
    ("rest", {"days": 365}),
    ("roll", {"modifier": 5}),
    ("history", {}),
    ("undo", {}),
]


def forged_refs(world: World) -> list[str]:
    """How a user of GUILD could name a character of OTHER_GUILD: its name (the one only it has), its id
    (a forged autocomplete value), with spaces or zeros around it."""
    secret = world.other_ids["Zorglub-secret"]
    other_aria = world.other_ids["Aria"]
    return ["Zorglub-secret", "ZORGLUB-SECRET", str(secret), f" {secret} ", f"0{secret}", str(other_aria)]


@pytest.mark.parametrize("caller", [GM, OWNER, ALICE])
async def test_no_command_reaches_a_character_of_another_server(hard: Hardened, caller: int) -> None:
    world = await build_world(hard)
    other = guild_rows(hard.url, OTHER_GUILD)
    for ref in forged_refs(world):
        for command, options in WITH_CHARACTER:
            outcome = await hard.run(command, {"character": ref, **options}, user=caller, locale="fr")
            if caller == ALICE:  # a player is refused GM commands before any character is looked up
                outcome.refused_with(
                    (
                        "No character called {ref} in this server. Pick one from the "
                        "suggestions, or see /character list."
                    ),
                    (
                        "That character does not exist in this server (any more). Pick one from "
                        "the suggestions, or see /character list."
                    ),
                    ("Only a GM (the GM role, Manage Server, or the server owner) can do this. Ask a GM."),
                    (
                        "Only a GM lowers a wound without a roll (surgery, magic). To heal your "
                        "character, roll for it with /heal roll once the rest period is over."
                    ),
                    (
                        "Only a GM lowers a mental wound by command. Ask a GM; when this server "
                        "allows mental healing rolls, roll with /heal roll track:mental once the "
                        "rest period is over."
                    ),
                )
            else:
                outcome.refused_with(
                    (
                        "No character called {ref} in this server. Pick one from the "
                        "suggestions, or see /character list."
                    ),
                    (
                        "That character does not exist in this server (any more). Pick one from "
                        "the suggestions, or see /character list."
                    ),
                )
            assert guild_rows(hard.url, OTHER_GUILD) == other, (command, ref)


async def test_a_shared_name_means_this_servers_character(hard: Hardened) -> None:
    await build_world(hard)
    other = guild_rows(hard.url, OTHER_GUILD)
    aria_here = await hard.table.store.read(GUILD, lambda r: r.character_by_name("Aria"))
    outcome = await hard.run("wound", {"severity": "light", "character": "aria"}, may_ping=(ALICE,))
    text = outcome.public().text.lower()
    assert "physical 🟨🟨 — light 2/4\n" in text  # Aria of the other server holds a serious wound
    after = await hard.table.store.read(GUILD, lambda r: r.character_by_name("Aria"))
    assert len(after.wounds) == len(aria_here.wounds) + 1
    assert guild_rows(hard.url, OTHER_GUILD) == other
    shown = (await hard.run("character show", {"player": harness.user(ALICE)})).public()
    assert shown.embeds[0]["title"] == "Aria" and "Serious ▫️▫️ 0/2" in shown.text


@pytest.mark.parametrize(
    "command", ["character show", "character select", "wound", "heal roll", "history", "undo", "rest"]
)
async def test_autocomplete_never_offers_another_servers_characters(hard: Hardened, command: str) -> None:
    world = await build_world(hard)
    here = {str(c.id) for c in await characters_of(hard.table.store, GUILD)}
    if command in ("history", "undo"):  # a deleted character's history stays readable
        here.add(str(world.deleted_id))
    for typed in ["", "Z", "zorg", "Zorglub-secret", "Aria", "a", str(world.other_ids["Zorglub-secret"])]:
        for caller in (GM, OWNER, ALICE):
            reply = (await hard.complete(command, {"character": typed}, "character", user=caller)).reply
            values = {c["value"] for c in reply.choices or []}
            assert values <= here, (typed, reply.choices)
            assert all("Zorglub" not in c["name"] for c in reply.choices or [])
    # And from the other server, nothing of this one.
    there = {str(i) for i in world.other_ids.values()}
    reply = (
        await hard.complete(command, {"character": ""}, "character", user=OWNER, guild=OTHER_GUILD)
    ).reply
    assert {c["value"] for c in reply.choices or []} <= there


async def test_server_wide_commands_stay_in_their_server(hard: Hardened) -> None:
    await build_world(hard)
    other = guild_rows(hard.url, OTHER_GUILD)
    listing = (await hard.run("character list", {})).public()
    assert "Zorglub" not in listing.text
    history = (await hard.run("history", {})).public()
    assert "Zorglub" not in history.text and "serious" not in history.text.lower()
    (await hard.run("rest", {"days": 365})).public()
    (await hard.run("config penalties", {"track": "physical", "light": -2})).public()
    (await hard.run("config preset", {"name": "giant", "light": 8})).public()
    exported = (await hard.run("config export", {})).public()
    document = json.loads(exported.files[0].data)
    assert document["guild_id"] == GUILD
    assert {c["name"] for c in document["characters"]}.isdisjoint({"Zorglub-secret"})
    # Undo walks back every change of this server, and never one of the other.
    for _ in range(40):
        outcome = await hard.run("undo", {}, user=OWNER)
        if outcome.refused:
            outcome.refused_with(
                "There is nothing left to undo here. See /history for what was recorded.",
                (
                    "Change #{id} ({kind}), the latest one touching {name}, cannot be undone "
                    "on its own: {tie} changed after "
                    "it, in #{blocked_by_id} ({blocked_by}). Undo the later changes first, "
                    "newest first: /undo character:{tie} reverts #{blocked_by_id}; then undo "
                    "#{id}."
                ),
                (
                    "Change #{id} ({kind}), the latest one touching {name}, cannot be undone "
                    "on its own: a later change, "
                    "#{blocked_by_id} ({blocked_by}), depends on it. Undo the later changes "
                    "first (/undo without a character)."
                ),
            )
            break
        assert "Zorglub" not in outcome.text
    assert guild_rows(hard.url, OTHER_GUILD) == other
    # A file exported from the other server is refused here, whole.
    there = await hard.run("config export", {}, user=OWNER, guild=OTHER_GUILD)
    [file] = there.public().files
    outcome = await hard.run("config import", {"file": harness.attachment("o.json", file.data)}, user=OWNER)
    outcome.refused_with(
        "This file cannot be imported: {errors}. Nothing was changed; use a file made by /config export."
    )
    assert guild_rows(hard.url, OTHER_GUILD) == other


async def test_the_other_servers_names_are_free_here(hard: Hardened) -> None:
    await build_world(hard)
    for name in SECRET_NAMES[:1]:
        await hard.create(name)  # the same name in another server is no conflict
        outcome = await hard.run("character show", {"character": name})
        assert "NPC" in outcome.public().text
