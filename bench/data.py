"""Benchmark data sets, written by the bot's own storage code: each server's settings, characters,
wounds and history go through :class:`~bot.storage.transaction.Transaction` and the pure rules, as the
commands write them (the snapshots for undo included), one unit of work per server through the store:
the same builder fills SQLite and PostgreSQL.

Every server has the same shape, so a database with more servers only adds unrelated rows:

* server ``g`` has ``per_server`` characters, the first ``players`` of them owned by one player each
  (their active character), the rest NPCs; its ruleset names a GM role and needs no rest before
  healing a light wound, so a ``/wound`` followed by ``/heal roll`` always has something to heal;
* its history: each character created, then wounded and healed in turn until the server holds
  ``events / servers`` events, and at last wounded once more: everyone holds one light wound.
"""

from __future__ import annotations

import asyncio
import hashlib
import shutil
from dataclasses import dataclass
from pathlib import Path

from bot import history
from bot.rules import Character, Ruleset, Severity, Track, TrackNumbers, gm_lower, inflict, new_character
from bot.storage.migrations import MIGRATIONS_DIR, find_migrations
from bot.storage.store import Store, Transaction

GUILD_BASE = 800_000_000_000_000_000
ROLE_BASE = 810_000_000_000_000_000
PLAYER_BASE = 900_000_000_000_000_000
GM = 100_000_000_000_000_002
OWNER = 100_000_000_000_000_001
_SOME = ("Aria", "Brann", "Cælia", "Dorian", "Élodie", "Fenris", "Gwen", "Hakon", "Isolde", "Jorund")
FIRST: tuple[str, ...] = (*_SOME, "Kael", "Léandre", "Maëlys", "Nuno", "Orla", "Perrine", "Quill", "Thaïs")
LAST = ("d'Arcy", "Brisevent", "Cendrefeu", "Duval", "Estrelle", "Fauconnier", "Grisemont", "Hautval")


@dataclass(frozen=True)
class Shape:
    """How big a data set is: ``servers`` × ``per_server`` characters, about ``events`` in all."""

    servers: int
    per_server: int = 10
    players: int = 8
    events: int = 0

    @property
    def characters(self) -> int:
        return self.servers * self.per_server

    def key(self) -> str:
        """A name for the cache: the shape and the schema and builder it was written with."""
        digest = hashlib.sha256(Path(__file__).read_bytes())
        for migration in find_migrations(MIGRATIONS_DIR / "sqlite"):
            digest.update(migration.path.read_bytes())
        return f"{self.servers}x{self.per_server}p{self.players}e{self.events}-{digest.hexdigest()[:12]}"


def guild_id(g: int) -> int:
    return GUILD_BASE + g


def gm_role_id(g: int) -> int:
    return ROLE_BASE + g


def character_id(shape: Shape, g: int, k: int) -> int:
    """The id the database gives character ``k`` of server ``g`` (checked while building)."""
    return g * shape.per_server + k + 1


def player_id(shape: Shape, g: int, k: int) -> int:
    """The player who owns character ``k`` of server ``g`` (only for ``k < shape.players``)."""
    return PLAYER_BASE + g * shape.per_server + k


def character_name(g: int, k: int) -> str:
    # k < len(FIRST): the first names of one server's characters all differ, so names are unique.
    return f"{FIRST[(g * 7 + k) % len(FIRST)]} {LAST[(g * 3 + k) % len(LAST)]}"


def _record(tx: Transaction, change: history.Recordable, character: Character) -> None:
    tx.record(change.kind, GM, character=character, details=change)


def _wound(tx: Transaction, character: Character) -> Character:
    outcome = inflict(character, Track.PHYSICAL, Severity.LOW, note="an arrow", by=GM, at=tx.now)
    saved = tx.save_character(outcome.character)
    became = tuple(r.became for r in outcome.results)
    _record(tx, history.Wounded(Track.PHYSICAL, Severity.LOW, 1, "an arrow", became), saved)
    return saved


def fill_server(tx: Transaction, shape: Shape, g: int) -> None:
    """Server ``g``'s settings, characters and history, through ``tx`` (see the module's text)."""
    ruleset = Ruleset(gm_role_id=gm_role_id(g), physical=TrackNumbers(rest_days=(0, 7, 30)))
    tx.save_ruleset(ruleset)
    people: list[Character] = []
    for k in range(shape.per_server):
        owner = player_id(shape, g, k) if k < shape.players else None
        fresh = new_character(character_name(g, k), ruleset=ruleset, corps=1, resistance=2, owner_id=owner)
        saved = tx.save_character(fresh)
        if saved.id != character_id(shape, g, k):
            raise RuntimeError(f"character {k} of server {g} got id {saved.id}: build on a new database")
        if owner is not None:
            tx.set_active(owner, saved.id)
        _record(tx, history.Created(owner), saved)
        people.append(saved)
    pairs = max(0, shape.events // max(shape.servers, 1) - 2 * shape.per_server) // 2
    for i in range(pairs):
        k = i % shape.per_server
        wounded = _wound(tx, people[k])
        lowered = gm_lower(wounded, Track.PHYSICAL, Severity.LOW)
        people[k] = tx.save_character(lowered.character)
        _record(tx, history.Lowered(Track.PHYSICAL, Severity.LOW, lowered.after.current), people[k])
    for k, character in enumerate(people):
        people[k] = _wound(tx, character)


def fill_servers(tx: Transaction, shape: Shape, servers: range) -> None:
    """Several servers in one unit of work (each through a transaction of its own on its connection)."""
    for g in servers:
        server = Transaction(tx.sql, guild_id(g), tx.now)
        try:
            fill_server(server, shape, g)
        finally:
            server.end()


async def build(url: str, shape: Shape, per_unit: int = 100) -> None:
    """A new database at ``url`` (an SQLite file that does not exist yet, or an empty PostgreSQL
    database): the schema of the migrations, then ``per_unit`` servers in each unit of work."""
    store = await Store.open(url)
    try:
        for first in range(0, shape.servers, per_unit):
            servers = range(first, min(first + per_unit, shape.servers))
            await store.run(guild_id(first), lambda tx, s=servers: fill_servers(tx, shape, s))  # type: ignore[misc]
    finally:
        await store.close()


def dataset(shape: Shape, workdir: Path, cache: Path | None = None) -> Path:
    """A fresh SQLite copy of the data set ``shape`` in ``workdir``; built once into ``cache`` if given."""
    target = workdir / f"bench-{shape.key()}.db"
    if cache is None:
        asyncio.run(build(f"sqlite:///{target}", shape))
        return target
    cache.mkdir(parents=True, exist_ok=True)
    cached = cache / target.name
    if not cached.is_file():
        partial = cache / f"partial-{target.name}"
        for leftover in cache.glob(f"{partial.name}*"):
            leftover.unlink()
        asyncio.run(build(f"sqlite:///{partial}", shape))
        partial.replace(cached)
    shutil.copyfile(cached, target)
    return target
