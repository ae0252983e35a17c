"""A whole game session with the unmodified ``python -m bot`` process against the Discord stand-in.

Two servers at the same time: an English one (the full session: GM role, characters, escalation to
death, undo, rest, healing rolls with the players' own dice, the mental track to incoherence, history)
and a French one (``preferred_locale`` "fr", French callers) whose public messages must be French.
Afterwards the SQLite file is opened and must hold exactly what the messages said.
"""

from __future__ import annotations

import asyncio
import json
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.running import (
    COMMANDS_HASH_KEY,
    DbView,
    character_row,
    meta,
    read_db,
    rows,
    running_bot,
    server_payload,
    wound_counts,
)
from tests.fakediscord import ROUTE_GLOBAL_COMMANDS, DiscordStandin, Reply, sent_messages
from tests.table import (
    ALICE,
    BOB,
    GM,
    GM_ROLE,
    GUILD,
    OTHER_GM_ROLE,
    OTHER_GUILD,
    Table,
    answer,
    pinged,
    player,
)

pytestmark = pytest.mark.slow


def pings_only(shown: Reply, user_id: int) -> None:
    """A public change to a player's character mentions that player, and can ping nobody else."""
    message = answer(shown)
    assert not message.ephemeral, shown.text
    assert message.content == f"<@{user_id}>", message.message
    assert pinged(shown) == [user_id], message.allowed_mentions


def pings_nobody(shown: Reply) -> None:
    assert pinged(shown) == [], answer(shown).allowed_mentions
    assert "@everyone" not in shown.text and "@here" not in shown.text


def has(shown: Reply, *fragments: str) -> None:
    """Every fragment appears in what the message shows (content and embeds)."""
    missing = [f for f in fragments if f not in shown.text]
    assert not missing, f"missing {missing} in:\n{shown.text}"


async def english_session(table: Table) -> None:
    """The English server: the whole session, checked message by message."""
    setup = await table.setup_gm_role()
    has(
        setup,
        "Settings changed",
        f"GM role: none: Manage Server or the server owner only → **<@&{table.gm_role}>**",
    )
    pings_nobody(setup)

    # A player is not a GM: refused privately, in the player's language.
    refused = await table.say("wound", {"severity": "light", "target": player(BOB)}, user=ALICE, public=False)
    has(refused, "GM")

    aria = await table.say(
        "character create", {"name": "Aria", "player": player(ALICE), "corps": 10, "resistance": 10}
    )
    pings_only(aria, ALICE)
    assert aria.embeds[0]["title"] == "Aria"
    has(aria, f"Played by <@{ALICE}>", "Cp +10 · Rs +10")
    brann = await table.say(
        "character create", {"name": "Brann", "player": player(BOB), "corps": -10, "resistance": -10}
    )
    pings_only(brann, BOB)
    npc = await table.say("character create", {"name": "Gobelin", "corps": 1})
    pings_nobody(npc)
    has(npc, "NPC")

    # The live board: posted by the GM, then edited by the bot after the changes below.
    board = await table.say("board")
    pings_nobody(board)
    has(board, "Party board", "**Aria** · <@", "**Brann** · <@")
    assert board.original is not None
    board_id = board.original.id

    # Wounds for Brann and the NPC first, so that Aria's death is the latest change (for /undo).
    hit = await table.say("wound", {"severity": "light", "target": player(BOB), "note": "a slap"})
    pings_only(hit, BOB)
    hit = await table.say("wound", {"severity": "serious", "character": "Gobelin"})
    pings_nobody(hit)
    has(hit, "Physical 🟧 — serious 1/2")

    # Aria, through escalation to death. Every message pings Alice, and only her.
    shown = await table.say("wound", {"severity": "light", "target": player(ALICE), "count": 4})
    pings_only(shown, ALICE)
    has(shown, "• 4 × light wound", "Physical 🟨🟨🟨🟨 — light 4/4", "next light wound → serious")
    shown = await table.say("wound", {"severity": "light", "character": "Aria"})
    pings_only(shown, ALICE)
    has(shown, "→ **serious wound** (light full 4/4)", "light 4/4 · serious 1/2")
    shown = await table.say("wound", {"severity": "serious", "target": player(ALICE)})
    pings_only(shown, ALICE)
    has(shown, "serious 2/2", "next light wound → critical")
    note = "arrow in the shoulder @everyone"
    shown = await table.say("wound", {"severity": "light", "target": player(ALICE), "note": note})
    pings_only(shown, ALICE)  # the note's @everyone is escaped, and could not ping anyway
    has(
        shown,
        "→ **critical wound** (light full 4/4, serious full 2/2)",
        "critical 1/1",
        "arrow in the shoulder",
    )
    shown = await table.say("wound", {"severity": "critical", "target": player(ALICE), "count": 2})
    pings_only(shown, ALICE)
    has(shown, "FATAL", "Aria is DEAD")
    assert "1 wound not applied." in shown.text  # the burst stopped part-way: said (rules §2, issue 35)
    assert len(shown.embeds) == 1 and "Penalty" not in shown.text  # dead: the state, not numbers
    dead_again = await table.say("wound", {"severity": "light", "character": "Aria"}, public=False)
    assert "dead" in dead_again.text.lower(), dead_again.text

    def board_shows(text: str) -> bool:
        message = table.standin.messages.get(board_id) or {}
        return any(text in (embed.get("description") or "") for embed in message.get("embeds") or [])

    # Over HTTP too: the board was edited (at most every 2 s) until it showed her death.
    await table.standin.wait_for(lambda: board_shows("**Aria** · <@"), what="the board")
    await table.standin.wait_for(lambda: board_shows("† dead"), within=15, what="the board to show the death")
    edits = table.standin.requests_for("PATCH", f"/channels/{table.channel_id}/messages/{board_id}")
    assert edits and all(r.json["allowed_mentions"] == {"parse": []} for r in edits)

    # /undo brings her back: it reverts the fatal wound, whole.
    undone = await table.say("undo")
    pings_only(undone, ALICE)  # her character came back
    has(
        undone,
        "Reverted change #",
        "**Aria** — alive again · state restored: 4 light, 2 serious, 1 critical · −15",
    )
    card = await table.say("character show", {"character": "Aria"}, user=ALICE)
    pings_nobody(card)
    assert card.embeds[0]["title"] == "Aria"  # no longer marked dead
    has(card, "Light 🟨🟨🟨🟨 4/4", "Serious 🟧🟧 2/2", "Critical 🟥 1/1", "−15 on all rolls")

    # A week of rest for the whole server: everyone alive can now roll healing.
    rest = await table.say("rest", {"days": 7})
    # Alice's character can now heal, and she is called; Brann's session can only hurt (Cp+Rs −20):
    # said plainly, and Bob is not pinged for it.
    assert pinged(rest) == [ALICE], rest.text
    assert rest.callback_type == 5  # deferred, then the follow-up
    has(
        rest,
        "Rest: 7 days",
        "Can roll healing now",
        "• Aria — First roll",
        "• Gobelin",
        "Rest over, but healing can kill or cannot succeed now (not pinged)",
        "• Brann — First roll (light wound): **success impossible**",
    )

    # Alice heals with her own dice: 9-1 succeeds (8 + 20 - 15 = +13), 1-10 fails by 3.
    healed = await table.say("heal roll", {"dice": "9-1 1-10"}, user=ALICE)
    pings_nobody(healed)
    has(
        healed,
        "Healing session — Aria",
        "margin +13",
        "failure margin 3",
        "Result: 1/2 successful rolls; 2 wounds not rolled.",
    )
    has(healed, "light 3/4")
    # Bob fails by 30 (-9 - 20 - 1): his light wound worsens to serious.
    worse = await table.say("heal roll", {"dice": "1-10"}, user=BOB)
    has(worse, "failed by 30 (10 or more), the session ends: **worsened to serious wound**")
    has(worse, "Physical 🟧 — serious 1/2")
    # Healing again needs a new rest: refused, privately.
    again = await table.say("heal roll", {"dice": "9-1"}, user=ALICE, public=False)
    assert "rest" in again.text.lower(), again.text

    # Bob's mind gives way: the mental track to incoherence.
    shown = await table.say("mental", {"severity": "shock", "target": player(BOB), "count": 7})
    pings_only(shown, BOB)
    has(shown, "Mental 🟡🟡🟡🟡🟠🟠🔴 — shock 4/4 · trauma 2/2 · psychosis 1/1")
    shown = await table.say("mental", {"severity": "trauma", "target": player(BOB)})
    pings_only(shown, BOB)
    has(shown, "INCOHERENT")
    assert "Brann is INCOHERENT" in shown.embeds[0]["description"]

    # Anyone can read the history, newest first.
    history = await table.say("history", user=ALICE)
    pings_nobody(history)
    has(history, "History", "INCOHERENT", "healing session", "undid change #")
    text = history.text
    assert text.index("INCOHERENT") < text.index("healing session") < text.index("undid change #"), text
    mine = await table.say("history", {"character": "Aria"}, user=ALICE)
    pings_nobody(mine)
    has(mine, "History — Aria", "(undone)", "FATAL", "arrow in the shoulder")

    listing = await table.say("character list", user=BOB)
    has(listing, "Aria", "Brann", "Gobelin")
    assert "Élise" not in listing.text  # the other server's character


async def french_session(table: Table) -> None:
    """The French server, at the same time: every public message in French."""
    setup = await table.setup_gm_role()
    has(setup, "Réglages modifiés", "Rôle MJ\u202f: aucun")
    created = await table.say("character create", {"name": "Élise", "player": player(ALICE), "corps": 2})
    pings_only(created, ALICE)
    has(created, "Personnage de", "Blessures physiques")
    refused = await table.say("wound", {"severity": "light", "character": "Élise"}, user=BOB, public=False)
    has(refused, "MJ")
    for _ in range(2):
        wounded = await table.say("wound", {"severity": "serious", "target": player(ALICE)})
        pings_only(wounded, ALICE)
    has(wounded, "Blessures — Élise", "blessure grave", "à tous les jets")
    assert "Wounds" not in wounded.text and "Serious" not in wounded.text, wounded.text
    rest = await table.say("rest", {"days": 2})
    has(rest, "Repos\u202f: 2 jours")
    history = await table.say("history", user=BOB)
    has(history, "Historique", "personnage **Élise** créé")
    listing = await table.say("character list")
    has(listing, "Élise")
    assert "Aria" not in listing.text, listing.text


def localised(item: dict[str, Any], path: str) -> Iterator[str]:
    """Paths of commands/options lacking a French name (recursively)."""
    if "fr" not in (item.get("name_localizations") or {}):
        yield path
    for option in item.get("options") or []:
        yield from localised(option, f"{path} {option['name']}")


async def test_a_whole_session_in_two_servers(tmp_path: Path, database_url: str) -> None:
    db_path = database_url
    guilds = [server_payload(GUILD), server_payload(OTHER_GUILD, gm_role=OTHER_GM_ROLE, locale="fr")]
    began = time.monotonic()
    async with DiscordStandin(guilds=guilds) as standin:
        english = Table.over(standin, GUILD)
        french = Table.over(standin, OTHER_GUILD, gm_role=OTHER_GM_ROLE, locale="fr", guild_locale="fr")
        async with running_bot(standin, db_path, tmp_path / "bot.log") as bot:
            # The two servers play at the same time.
            await asyncio.gather(english_session(english), french_session(french))
            assert await bot.stop(grace=8, sig=signal.SIGTERM) == 0, bot.output()
            assert bot.stop_seconds is not None and bot.stop_seconds < 5
        # Nothing the bot sent could ping anyone but the players a message is about (named in it).
        bodies = sent_messages(standin)
        assert len(bodies) >= len(standin.interactions)
        for body in bodies:
            allowed = body.get("allowed_mentions")
            assert allowed is not None and allowed.get("parse") == [] and not allowed.get("roles"), body
            mentioned = " ".join(f"<@{u}>" for u in allowed.get("users") or [])
            assert mentioned in ("", body.get("content")), body
        # Commands: synced once, globally, each command and option named in French too.
        syncs = standin.command_syncs
        assert [(r.route, r.status) for r in syncs] == [(ROUTE_GLOBAL_COMMANDS, 200)], syncs
        commands = standin.last_synced
        names = {c["name"] for c in commands}
        assert {"character", "wound", "mental", "heal", "rest", "roll", "history", "undo", "config"} <= names
        missing = [p for c in commands for p in localised(c, c["name"])]
        assert missing == [], f"no French name for: {missing}"
        french_names = {c["name"]: c["name_localizations"]["fr"] for c in commands}
        assert french_names["wound"] == "blessure" and french_names["character"] == "personnage"
        assert all(c.get("contexts") == [0] for c in commands), "every command is guild-only"
        # Nothing the bot sent was refused, unknown to the stand-in, or invalid for Discord.
        failed = [r for r in standin.requests if r.status is None or r.status >= 400]
        assert failed == [], failed
        assert standin.unhandled == []
        standin.validate_requests(strict=True)
    assert "Traceback" not in bot.output(), bot.output()

    with read_db(db_path) as conn:
        check_database(conn)
    print(f"session: {len(standin.interactions)} interactions in {time.monotonic() - began:.1f}s")


def fatal_tracks(conn: DbView, character_id: int) -> list[str]:
    """The tracks of the character's fatal wounds: it is dead (incoherent) while it holds one."""
    found = rows(conn, "SELECT track FROM wounds WHERE character_id = ? AND fatal = 1", character_id)
    return [str(track) for (track,) in found]


def check_database(conn: DbView) -> None:
    """The file holds what the messages said."""
    assert conn.integrity() == "ok"
    assert meta(conn, COMMANDS_HASH_KEY) is not None

    aria = character_row(conn, GUILD, "Aria")
    assert (aria["owner_id"], aria["corps"], aria["resistance"]) == (ALICE, 10, 10)
    assert aria["rest_days"] == 0  # rest consumed
    assert wound_counts(conn, aria["id"], "physical") == (3, 2, 1)
    # Revived: the fatal wound went with its undone event; the note is stored as typed (escaped only on
    # display).
    assert fatal_tracks(conn, aria["id"]) == []
    noted = rows(
        conn, "SELECT note, inflicted_by FROM wounds WHERE note <> '' AND character_id = ?", aria["id"]
    )
    assert noted == [("arrow in the shoulder @everyone", GM)]

    brann = character_row(conn, GUILD, "Brann")
    assert fatal_tracks(conn, brann["id"]) == ["mental"]  # incoherent, not dead
    assert wound_counts(conn, brann["id"], "physical") == (0, 1, 0)
    assert wound_counts(conn, brann["id"], "mental") == (4, 2, 1)
    gobelin = character_row(conn, GUILD, "Gobelin")
    assert gobelin["owner_id"] is None and gobelin["rest_days"] == 7
    assert wound_counts(conn, gobelin["id"], "physical") == (0, 1, 0)
    elise = character_row(conn, OTHER_GUILD, "Élise")
    assert elise["owner_id"] == ALICE and elise["rest_days"] == 2
    assert wound_counts(conn, elise["id"], "physical") == (0, 2, 0)

    active = rows(conn, "SELECT user_id, character_id FROM active_characters WHERE guild_id = ?", GUILD)
    assert dict(active) == {ALICE: aria["id"], BOB: brann["id"]}
    rulesets = dict(rows(conn, "SELECT guild_id, ruleset FROM guild_settings"))
    assert json.loads(rulesets[GUILD])["gm_role_id"] == GM_ROLE
    assert json.loads(rulesets[OTHER_GUILD])["gm_role_id"] == OTHER_GM_ROLE

    events = rows(conn, "SELECT id, kind, undone, undoes FROM events WHERE guild_id = ? ORDER BY id", GUILD)
    assert [(kind, undone) for _, kind, undone, _ in events] == [
        ("config", 0),
        *[("character_create", 0)] * 3,
        *[("wound", 0)] * 6,
        ("wound", 1),  # the fatal one
        ("undo", 0),
        ("rest", 0),
        ("heal_roll", 0),
        ("heal_roll", 0),
        ("mental", 0),
        ("mental", 0),
    ], events
    fatal_event = next(e for e in events if e[2] == 1)
    assert [e[3] for e in events if e[1] == "undo"] == [fatal_event[0]]
    french = rows(conn, "SELECT kind FROM events WHERE guild_id = ? ORDER BY id", OTHER_GUILD)
    assert [kind for (kind,) in french] == ["config", "character_create", "wound", "wound", "rest"]
