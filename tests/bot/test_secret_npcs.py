"""Secret NPCs (issue 13): players learn nothing of a secret NPC but a word, in every public message
and on the board; the GM gets the exact figures privately."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests import fakediscord as harness
from tests.databases import characters_of, history_of
from tests.table import ALICE, GM, GUILD, Table, public, refused, shown


def in_channel(reply: harness.Reply) -> str:
    """What the channel saw of a reply (the GM may get a private copy besides)."""
    assert reply.errors == [], reply.errors
    seen = [m for m in shown(reply) if not m.ephemeral]
    assert seen, reply.text
    return "\n".join(m.text for m in seen)


EPHEMERAL = 1 << 6

# Anything that would tell a wound's count, severity or penalty. Aria, the only other character,
# stays unhurt, so none of this may appear in a public message once Goblin is secret.
FIGURES = (
    *("🟨", "🟧", "🟥", "🟡", "🟠", "🔴", "▫️"),
    *("/4", "/2", "/1", "−"),
    *("light", "serious", "critical", "shock", "trauma", "psychosis", "escalat"),
    *("penalty", "Cp+Rs", "luck", "next ", "%"),
)


def public_bodies(requests: list[harness.RecordedRequest]) -> list[str]:
    """Every message body the channel could see: answers, follow-ups and edits that are not ephemeral."""
    bodies = []
    for request in requests:
        body = request.json
        if not isinstance(body, dict) or request.method not in ("POST", "PATCH"):
            continue
        if request.path.endswith("/callback"):
            body = body.get("data") or {}
        elif not request.path.startswith(("/webhooks/", "/channels/")):
            continue
        if int(body.get("flags") or 0) & EPHEMERAL or not ({"content", "embeds"} & set(body)):
            continue
        shown = ("content", "embeds", "components")  # a button's label is seen too (the Heal odds)
        text = json.dumps({k: body.get(k) for k in shown}, ensure_ascii=False)
        bodies.append(text)
    return bodies


def leaks(text: str) -> list[str]:
    text = re.sub(r"page \d+/\d+", "", text)
    return [figure for figure in FIGURES if figure in text]


async def secret_table(table: Table, *, all_npcs: bool) -> None:
    await table.create("Aria", ALICE)
    await table.create("Goblin")
    options: dict[str, Any] = {"secret": True} if all_npcs else {"secret": True, "character": "Goblin"}
    public(await table.run("config secret-npcs", options))
    public(await table.run("board"))
    await table.run("board", {"add": "Goblin"})
    table.bot.boards.interval = 0


@pytest.mark.parametrize("all_npcs", [False, True])
async def test_a_secret_npc_shows_players_one_word_everywhere(table: Table, all_npcs: bool) -> None:
    await secret_table(table, all_npcs=all_npcs)
    start = len(table.fake.requests)
    wounded = await table.run(
        "wound", {"severity": "light", "character": "Goblin", "count": 5, "note": "axe"}
    )
    assert "State: **badly wounded**" in in_channel(wounded)
    (private,) = wounded.followups  # the GM's own copy, with every figure
    assert private.ephemeral and "light wound → **serious wound** (light full 4/4)" in private.text
    assert "Physical 🟨🟨🟨🟨🟧 — light 4/4 · serious 1/2" in private.text
    changes: list[tuple[str, dict[str, Any]]] = [
        ("mental", {"severity": "trauma", "character": "Goblin"}),
        ("wound", {"damage": 15, "character": "Goblin", "dice": "1-9"}),
        ("heal mental", {"severity": "trauma", "character": "Goblin"}),
        ("rest", {"days": 30}),
        ("character show", {"character": "Goblin"}),  # a Heal button: without its odds
        ("heal roll", {"character": "Goblin", "dice": "9-1 9-1 9-1 1-10"}),
        ("roll", {"character": "Goblin", "modifier": 2, "difficulty": 1}),
        ("character show", {"character": "Goblin"}),
        ("character list", {}),
        ("history", {}),
        ("history", {"character": "Goblin"}),
        ("undo", {}),
        ("wound", {"severity": "critical", "character": "Goblin", "count": 2}),
    ]
    for command, more in changes:
        in_channel(await table.run(command, more))
    for user in (ALICE, GM):
        in_channel(await table.run("character show", {"character": "Goblin"}, user=user))
    await table.bot.boards.settled()
    bodies = public_bodies(table.fake.requests[start:])
    assert len(bodies) >= 15
    for body in bodies:
        assert leaks(body) == [], body
    assert any("dead" in body for body in bodies)  # the last word: it died
    # The Card button: the word for a player, the full card for a GM (both privately).
    goblin = await table.character("Goblin")
    player_card = refused(await table.click(f"card:{goblin.id}", None, user=ALICE))
    assert leaks(player_card) == [] and "dead" in player_card
    gm_card = refused(await table.click(f"card:{goblin.id}", None, user=GM))
    assert "Critical 🟥 1/1" in gm_card


async def test_a_deleted_secret_npc_stays_secret_in_history(table: Table) -> None:
    await secret_table(table, all_npcs=True)
    await table.run("wound", {"severity": "serious", "character": "Goblin", "note": "axe"})
    ask = await table.run("character delete", {"character": "Goblin"})
    confirm = ask.message["components"][0]["components"][0]  # type: ignore[index]
    in_channel(await table.click(confirm["custom_id"], ask, user=GM))
    assert "Goblin" not in [c.name for c in await characters_of(table.store, GUILD)]
    start = len(table.fake.requests)
    for more in ({}, {"character": "Goblin"}):
        in_channel(await table.run("history", more, user=ALICE))
    bodies = public_bodies(table.fake.requests[start:])
    assert len(bodies) == 2 and all("Goblin" in body for body in bodies[1:])
    for body in bodies:
        assert leaks(body) == [], body
    assert "Secret NPCs: off → **all of them**" in bodies[0]  # the setting reads old → new too


async def test_players_characters_are_never_secret_and_only_a_gm_sets_it(table: Table) -> None:
    await table.create("Aria", ALICE)
    await table.create("Goblin")
    assert "only NPCs" in refused(
        await table.run("config secret-npcs", {"secret": True, "character": "Aria"})
    )
    assert "GM" in refused(await table.run("config secret-npcs", {"secret": True}, user=ALICE))
    public(await table.run("config secret-npcs", {"secret": True}))
    text = refused(await table.run("config secret-npcs", {"secret": False, "character": "Goblin"}))
    assert "turn that off first" in text
    reply = await table.run("wound", {"severity": "light", "target": harness.user(ALICE)})
    assert "Physical 🟨 — light 1/4" in public(reply) and reply.followups == []
    shown = await table.run("config show")
    assert "Secret NPCs" in public(shown) and "all of them" in shown.text


async def test_the_server_setting_is_off_by_default(table: Table) -> None:
    await table.create("Goblin")
    reply = await table.run("wound", {"severity": "serious", "character": "Goblin"})
    assert "Physical 🟧 — serious 1/2" in public(reply) and reply.followups == []


@pytest.mark.parametrize("locale", ["en-US", "fr"])
async def test_a_secret_npcs_undo_and_history_read_as_sentences_and_words_follow_the_track(
    table: Table, locale: str
) -> None:
    await secret_table(table, all_npcs=True)
    if locale == "fr":
        public(await table.run("config language", {"language": "fr"}))
    wounded = await table.run("mental", {"severity": "trauma", "character": "Goblin"}, locale=locale)
    word, gm_only = ("sous le choc", "Pour vous uniquement") if locale == "fr" else ("shaken", "For you only")
    assert word in in_channel(wounded)  # mental wounds only: never "dying" or "wounded"
    assert gm_only in wounded.followups[0].text
    event_id = (await history_of(table.store, GUILD))[0][0].id
    undone = in_channel(await table.run("undo", locale=locale))
    history = in_channel(await table.run("history", user=ALICE, locale=locale))
    if locale == "fr":
        assert f"Changement n°{event_id} annulé\u202f: **Goblin** — un changement gardé secret" in undone
        assert f"annulation du changement n°{event_id} — **Goblin**, un changement gardé secret" in history
    else:
        assert f"Reverted change #{event_id}: **Goblin** — a change kept secret" in undone
        assert f"undid change #{event_id} — **Goblin**, a change kept secret" in history
