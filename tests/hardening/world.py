"""A populated pair of servers for the hardening tests, and the resolution of ``Ref`` option values."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.rules import Character
from tests import fakediscord as harness
from tests.databases import Looker, characters_of
from tests.hardening.strategies import Ref
from tests.hardening.support import DEPARTED, HOSTILE_ROLE, STRANGER, Hardened
from tests.table import ALICE, BOB, GUILD, OTHER_GUILD, OWNER

HOSTILE_NAME = f"@everyone **{'<@&' + str(HOSTILE_ROLE) + '>'}** <@{STRANGER}>"[:64]
SECRET_NAMES = ("Zorglub-secret", "Aria")
"""Characters of OTHER_GUILD: one whose name exists only there, one named like a GUILD character."""


@dataclass
class World:
    deleted_id: int
    deleted_name: str
    departed_id: int
    other_ids: dict[str, int]


async def build_world(hard: Hardened) -> World:
    """GUILD: Aria (Alice, wounded), Brann (Bob), an NPC, a hostile name (Bob), the character of a
    player who left, and a deleted one. OTHER_GUILD: two characters of Alice, one wounded."""
    await hard.create("Aria", ALICE)
    await hard.create("Brann", BOB)
    await hard.create("Garde", None)
    await hard.create(HOSTILE_NAME, BOB)
    departed = await hard.create("Fantôme", DEPARTED)
    gone = await hard.create("Gone", ALICE)
    await hard.run("wound", {"severity": "light", "character": "Aria", "note": "arrow"}, may_ping=(ALICE,))
    # Delete "Gone" (question, then the confirmation button).
    asked = await hard.run("character delete", {"character": str(gone)})
    confirm = next(
        c["custom_id"] for row in asked.reply.components for c in row["components"] if c["style"] == 4
    )
    deleted = await hard.click(confirm, asked.reply.message)
    assert any(not m.ephemeral for m in deleted.reply.followups), deleted.text
    other = {}
    for name in SECRET_NAMES:
        other[name] = await hard.create(name, ALICE, guild=OTHER_GUILD)
    await hard.run(
        "wound",
        {"severity": "serious", "character": "Aria"},
        user=OWNER,
        guild=OTHER_GUILD,
        may_ping=(ALICE,),
    )
    return World(gone, "Gone", departed, other)


async def world_of(hard: Hardened) -> World:
    """The world of this table, built the first time (Hypothesis examples share the table)."""
    if "world" not in hard.cached:
        hard.cached["world"] = await build_world(hard)
    world: World = hard.cached["world"]
    return world


async def living(hard: Hardened, guild: int = GUILD) -> list[Character]:
    return await characters_of(hard.table.store, guild)


async def resolve(hard: Hardened, world: World, value: Ref | str, pick: int = 0) -> str:
    """The text sent for a ``character`` option drawn as ``value``."""
    if isinstance(value, str):
        return value
    kind = value.kind
    if kind in ("name", "id", "name_case"):
        here = await living(hard)
        if not here:
            return "Aria"
        chosen = here[pick % len(here)]
        if kind == "id":
            return str(chosen.id)
        return chosen.name if kind == "name" else f"  {chosen.name.upper()} "
    if kind == "other_name":
        return SECRET_NAMES[pick % 2]
    if kind == "other_id":
        return str(world.other_ids[SECRET_NAMES[pick % 2]])
    if kind == "deleted_name":
        return world.deleted_name
    if kind == "deleted_id":
        return str(world.deleted_id)
    if kind == "departed":
        return str(world.departed_id)
    raise AssertionError(kind)


def guild_rows(url: str, guild_id: int) -> dict[str, list[Any]]:
    """Everything stored about one server (its characters, their wounds, events, settings, actives)."""
    conn = Looker(url)
    try:
        ids = [r[0] for r in conn.execute("SELECT id FROM characters WHERE guild_id = ?", (guild_id,))]
        marks = ", ".join("?" * len(ids)) or "NULL"
        return {
            "characters": conn.execute(
                "SELECT * FROM characters WHERE guild_id = ? ORDER BY id", (guild_id,)
            ).fetchall(),
            "wounds": conn.execute(
                f"SELECT * FROM wounds WHERE character_id IN ({marks}) ORDER BY id", ids
            ).fetchall(),
            "events": conn.execute(
                "SELECT * FROM events WHERE guild_id = ? ORDER BY id", (guild_id,)
            ).fetchall(),
            "event_characters": conn.execute(
                f"SELECT * FROM event_characters WHERE character_id IN ({marks}) ORDER BY event_id", ids
            ).fetchall(),
            "settings": conn.execute(
                "SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,)
            ).fetchall(),
            "active": conn.execute(
                "SELECT * FROM active_characters WHERE guild_id = ? ORDER BY user_id", (guild_id,)
            ).fetchall(),
        }
    finally:
        conn.close()


def user_option(user_id: int) -> harness.UserArg:
    return harness.user(user_id)
