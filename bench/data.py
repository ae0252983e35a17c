"""Benchmark data sets: SQLite databases written with direct bulk inserts that match the schema.

The schema is created by the project's own migration files (``migrations/sqlite/*.sql``); the indexes are
dropped while the rows go in and created again afterwards (the same ``CREATE INDEX`` statements), so a
database of 100 000 characters and 1 000 000 events takes seconds. Nothing is analysed (no
``sqlite_stat1``): a real database never is either.

Every server has the same shape, so a database with more servers only adds unrelated rows:

* server ``g`` (id :func:`guild_id`) has ``per_server`` characters, the first ``players`` of them owned
  by one player each (and that player's active character), the rest NPCs;
* its ruleset names a GM role (:func:`gm_role_id`) and needs no rest before healing a light wound, so
  a wound followed by ``/heal roll`` always has something to heal;
* every character has three healed wounds (history) and holds a light one;
* events are spread over the servers in turn (ids interleave, as in a live database), each with a
  details object and an undo snapshot of the size the bot writes, and one link to its character.
"""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from bot.rules.ruleset import Ruleset, TrackNumbers
from bot.storage.codec import name_key
from bot.storage.migrations import MIGRATIONS_DIR, find_migrations

GUILD_BASE = 800_000_000_000_000_000
ROLE_BASE = 810_000_000_000_000_000
PLAYER_BASE = 900_000_000_000_000_000
GM = 100_000_000_000_000_002
OWNER = 100_000_000_000_000_001

FIRST = [
    "Aria",
    "Brann",
    "Cælia",
    "Dorian",
    "Élodie",
    "Fenris",
    "Gwen",
    "Hakon",
    "Isolde",
    "Jorund",
    "Kael",
    "Léandre",
    "Maëlys",
    "Nuno",
    "Orla",
    "Perrine",
    "Quill",
    "Rhosyn",
    "Soren",
    "Thaïs",
    "Ulric",
    "Vesna",
    "Wendel",
    "Xanthe",
    "Ysolde",
    "Zéphyr",
    "Anselme",
    "Bérénice",
    "Corentin",
    "Daphné",
    "Eamon",
    "Faustine",
    "Gauvain",
    "Hermine",
    "Ignace",
    "Jehanne",
    "Klaus",
    "Lisandre",
    "Mordred",
    "Nolwenn",
]
LAST = [
    "d'Arcy",
    "Brisevent",
    "Cendrefeu",
    "Duval",
    "Estrelle",
    "Fauconnier",
    "Grisemont",
    "Hautval",
    "Ivoire",
    "Jolicoeur",
    "Kervella",
    "Lacroix",
    "Montfaucon",
    "Noirval",
    "Orsini",
    "Pradel",
    "Quintal",
    "Rocheblanche",
    "Sauvage",
    "Tournesol",
    "Urquhart",
    "Valmont",
    "Winterbourne",
    "Ximénès",
    "Yvain",
]
_KINDS = ("wound", "heal_roll", "wound", "character_edit", "rest", "mental", "heal_wound", "wound")


@dataclass(frozen=True)
class Shape:
    """How big a data set is: ``servers`` × ``per_server`` characters, ``events`` in all."""

    servers: int
    per_server: int = 10
    players: int = 8
    events: int = 0

    @property
    def characters(self) -> int:
        return self.servers * self.per_server

    def key(self) -> str:
        """A name for the cache: the shape and the schema it was written for."""
        schema = hashlib.sha256()
        for migration in find_migrations(MIGRATIONS_DIR / "sqlite"):
            schema.update(migration.path.read_bytes())
        schema.update(Path(__file__).read_bytes())
        return f"{self.servers}x{self.per_server}p{self.players}e{self.events}-{schema.hexdigest()[:12]}"


def guild_id(g: int) -> int:
    return GUILD_BASE + g


def gm_role_id(g: int) -> int:
    return ROLE_BASE + g


def character_id(shape: Shape, g: int, k: int) -> int:
    return g * shape.per_server + k + 1


def player_id(shape: Shape, g: int, k: int) -> int:
    """The player who owns character ``k`` of server ``g`` (only for ``k < shape.players``)."""
    return PLAYER_BASE + g * shape.per_server + k


def character_name(g: int, k: int) -> str:
    # k < len(FIRST): the first names of one server's characters all differ, so names are unique.
    return f"{FIRST[(g * 7 + k) % len(FIRST)]} {LAST[(g * 3 + k) % len(LAST)]}"


def ruleset_json(g: int) -> str:
    ruleset = Ruleset(gm_role_id=gm_role_id(g), physical=TrackNumbers(rest_days=(0, 7, 30)))
    return ruleset.model_dump_json()


WOUNDS = (
    # track, inflicted, current (None: healed), note
    ("physical", 0, None, "a scratch"),
    ("physical", 1, None, "a sword cut"),
    ("mental", 0, None, ""),
    ("physical", 0, 0, "an arrow"),
)


def wound_id(cid: int, n: int) -> int:
    return len(WOUNDS) * (cid - 1) + n + 1


def _snapshot(cid: int, g: int, k: int, owner: int | None) -> str:
    name = character_name(g, k).replace('"', '\\"')
    owner_text = "null" if owner is None else str(owner)
    wounds = ",".join(
        f"[{wound_id(cid, n)},{'null' if current is None else current},false]"
        for n, (_, _, current, _) in enumerate(WOUNDS)
    )
    return (
        f'{{"characters":{{"{cid}":{{"id":{cid},"owner_id":{owner_text},"name":"{name}","corps":1,'
        '"resistance":2,"intuition":0,"preset":"humanoid","physical_max":[4,2,1],"mental_max":[4,2,1],'
        '"rest_days":0,"dead":false,"incoherent":false,"created_at":"2025-01-01T10:00:00.000+00:00",'
        f'"wounds":[{wounds}]}}}}}}'
    )


_DETAILS = {
    "wound": '{"severity":"light","count":1,"note":"an arrow","became":["light"],"not_applied":0}',
    "mental": '{"severity":"shock","count":1,"note":"","became":["shock"],"not_applied":0}',
    "heal_roll": '{"track":"physical","severity":"light","rolls":[{"margin":3,"success":true,'
    '"became":null,"worsened":false}]}',
    "heal_wound": '{"severity":"light","became":null}',
    "character_edit": '{"changes":{"corps":[0,1]}}',
    "rest": '{"days":3,"characters":1}',
}


def generate(path: Path, shape: Shape) -> None:
    """Write a new database at ``path`` (replaced if it exists)."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode = OFF")
        conn.execute("PRAGMA synchronous = OFF")
        conn.execute("PRAGMA cache_size = -400000")
        conn.execute("BEGIN")
        migrations = find_migrations(MIGRATIONS_DIR / "sqlite")
        for migration in migrations:
            for statement in migration.statements():
                conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {migrations[-1].version:d}")
        indexes = conn.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
        ).fetchall()
        for name, _ in indexes:
            conn.execute(f'DROP INDEX "{name}"')
        _fill(conn, shape)
        for _, sql in indexes:
            conn.execute(sql)
        conn.execute("COMMIT")
        conn.execute("PRAGMA journal_mode = WAL")
    finally:
        conn.close()


def _fill(conn: sqlite3.Connection, shape: Shape) -> None:
    per = shape.per_server
    conn.executemany(
        "INSERT INTO guild_settings (guild_id, ruleset, updated_at) VALUES (?, ?, ?)",
        ((guild_id(g), ruleset_json(g), "2025-01-01T09:00:00.000+00:00") for g in range(shape.servers)),
    )

    def owner(g: int, k: int) -> int | None:
        return player_id(shape, g, k) if k < shape.players else None

    conn.executemany(
        "INSERT INTO characters (id, guild_id, owner_id, name, name_key, corps, resistance, intuition, "
        "preset, physical_max_low, physical_max_mid, physical_max_high, mental_max_low, mental_max_mid, "
        "mental_max_high, rest_days, created_at, deleted_at) "
        "VALUES (?, ?, ?, ?, ?, 1, 2, 0, 'humanoid', 4, 2, 1, 4, 2, 1, 0, ?, NULL)",
        (
            (
                character_id(shape, g, k),
                guild_id(g),
                owner(g, k),
                character_name(g, k),
                name_key(character_name(g, k)),
                f"2025-01-01T10:{k % 60:02d}:00.000+00:00",
            )
            for g in range(shape.servers)
            for k in range(per)
        ),
    )
    conn.executemany(
        "INSERT INTO wounds (id, character_id, track, inflicted_severity, current_severity, fatal, note, "
        "inflicted_by, inflicted_at) VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?)",
        (
            (wound_id(cid, n), cid, track, inflicted, current, note, GM, "2025-01-02T10:00:00.000+00:00")
            for cid in range(1, shape.characters + 1)
            for n, (track, inflicted, current, note) in enumerate(WOUNDS)
        ),
    )
    conn.executemany(
        "INSERT INTO active_characters (guild_id, user_id, character_id) VALUES (?, ?, ?)",
        (
            (guild_id(g), player_id(shape, g, k), character_id(shape, g, k))
            for g in range(shape.servers)
            for k in range(min(shape.players, per))
        ),
    )

    def events() -> object:
        for i in range(shape.events):
            g = i % shape.servers
            n = i // shape.servers
            k = n % per
            cid = character_id(shape, g, k)
            kind = _KINDS[n % len(_KINDS)]
            snapshot = _snapshot(cid, g, k, owner(g, k))
            at = f"2025-{1 + (i * 12) // max(shape.events, 1):02d}-15T12:00:00.000+00:00"
            yield (
                i + 1,
                guild_id(g),
                kind,
                GM,
                at,
                cid,
                character_name(g, k),
                _DETAILS[kind],
                snapshot,
            )

    conn.executemany(
        "INSERT INTO events (id, guild_id, kind, actor_id, occurred_at, character_id, character_name, "
        "details, touches_ruleset, undone, undoes, snapshot) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, 0, NULL, ?)",
        events(),  # type: ignore[arg-type]
    )
    conn.executemany(
        "INSERT INTO event_characters (event_id, character_id) VALUES (?, ?)",
        (
            (i + 1, character_id(shape, i % shape.servers, (i // shape.servers) % per))
            for i in range(shape.events)
        ),
    )


def dataset(shape: Shape, workdir: Path, cache: Path | None = None) -> Path:
    """A fresh copy of the data set ``shape`` in ``workdir``; generated once into ``cache`` when given."""
    target = workdir / f"bench-{shape.key()}.db"
    if cache is None:
        generate(target, shape)
        return target
    cache.mkdir(parents=True, exist_ok=True)
    cached = cache / target.name
    if not cached.is_file():
        partial = cache / (target.name + ".partial")
        generate(partial, shape)
        partial.replace(cached)
    shutil.copyfile(cached, target)
    return target
