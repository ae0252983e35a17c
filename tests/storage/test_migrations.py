from __future__ import annotations

import json
import re
import shutil
import sqlite3
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from bot.actions.undoing import revert
from bot.history import (
    Blow,
    Configured,
    Created,
    DamageRolled,
    Deleted,
    Edited,
    EventKind,
    HealRolled,
    HealRollStep,
    Imported,
    LinkGiven,
    Lowered,
    Record,
    Rested,
    Selected,
    Undid,
    Wounded,
    record_of,
)
from bot.rules import Severity, Track
from bot.rules.damage import Harm
from bot.storage import StorageError, Store, open_database
from bot.storage.migrations import MIGRATIONS_DIR, migrate, split_statements
from bot.storage.store import Board
from tests.databases import (
    boards_of,
    character_of,
    characters_of,
    connect,
    dump,
    export_of,
    history_of,
    is_postgres,
    latest_version,
    ruleset_of,
    tables,
)
from tests.storage.conftest import ALICE, GUILD

LATEST = latest_version(MIGRATIONS_DIR / "sqlite")

# Data written with the schema of each version, as the bot of that version would have. When you add
# migration N, add SEEDS[N] (the same facts, in the new schema): the test below then upgrades a
# database filled at every earlier version and checks that nothing was lost.
SEEDS: dict[int, str] = {
    1: """
        INSERT INTO guild_settings (guild_id, ruleset, updated_at)
            VALUES (111111111111, '{"gm_role_id": 4242, "open_rolls": true}',
                    '2024-01-01T00:00:00.000+00:00');
        INSERT INTO characters (id, guild_id, owner_id, name, name_key, corps, resistance, intuition, preset,
            physical_max_low, physical_max_mid, physical_max_high, mental_max_low, mental_max_mid,
            mental_max_high, rest_days, dead, incoherent, created_at, deleted_at)
            VALUES (1, 111111111111, 1001, 'Aria', 'aria', 2, -1, 3, 'humanoid', 4, 2, 1, 4, 2, 1, 5, 0, 0,
                    '2024-01-01T00:00:00.000+00:00', NULL);
        INSERT INTO characters (id, guild_id, owner_id, name, name_key, corps, resistance, intuition, preset,
            physical_max_low, physical_max_mid, physical_max_high, mental_max_low, mental_max_mid,
            mental_max_high, rest_days, dead, incoherent, created_at, deleted_at)
            VALUES (2, 111111111111, NULL, 'Gone', 'gone', 0, 0, 0, 'humanoid', 4, 2, 1, 4, 2, 1, 0, 0, 0,
                    '2024-01-01T00:00:00.000+00:00', '2024-01-02T00:00:00.000+00:00');
        INSERT INTO wounds (id, character_id, track, inflicted_severity, current_severity, fatal, note,
            inflicted_by, inflicted_at)
            VALUES (1, 1, 'physical', 0, 1, 0, 'sword; then worse', 900, '2024-01-01T01:00:00.000+00:00');
        INSERT INTO wounds (id, character_id, track, inflicted_severity, current_severity, fatal, note,
            inflicted_by, inflicted_at)
            VALUES (2, 1, 'mental', 1, NULL, 0, '', NULL, '2024-01-01T02:00:00.000+00:00');
        INSERT INTO active_characters (guild_id, user_id, character_id) VALUES (111111111111, 1001, 1);
        INSERT INTO events (id, guild_id, kind, actor_id, occurred_at, character_id, character_name, details,
            touches_ruleset, undone, undoes, snapshot)
            VALUES (1, 111111111111, 'character_create', 900, '2024-01-01T00:00:00.000+00:00', 1, 'Aria',
                    '{"note": "x"}', 0, 0, NULL, '{"characters": {"1": null}}');
        INSERT INTO event_characters (event_id, character_id) VALUES (1, 1);
        INSERT INTO meta (meta_key, meta_value) VALUES ('commands_hash', 'abc123');
    """,
}
SEEDS[2] = (
    SEEDS[1]
    + """
        INSERT INTO boards (channel_id, guild_id, message_id, created_at)
            VALUES (5005, 111111111111, 6006, '2024-01-03T00:00:00.000+00:00');
        INSERT INTO board_npcs (channel_id, character_id) VALUES (5005, 1);
    """
)
# 3: the interactions whose change is committed (a new table; the rest as in 2).
SEEDS[3] = SEEDS[2] + "INSERT INTO handled_interactions (interaction_id) VALUES (1577332705824079897);"
# 4: dead and incoherent follow from the wounds (no columns; the rest as in 3).
SEEDS[4] = (
    SEEDS[3]
    .replace("rest_days, dead, incoherent, created_at", "rest_days, created_at")
    .replace("1, 5, 0, 0,\n", "1, 5,\n")
    .replace("1, 0, 0, 0,\n", "1, 0,\n")
)
assert SEEDS[4].count("dead") == 0 and SEEDS[4].count("1, 5,\n") == 1 and SEEDS[4].count("1, 0,\n") == 1
# 5: the player views' links (a new table; the rest as in 4).
SEEDS[5] = (
    SEEDS[4] + "\nINSERT INTO player_views (token_sha256, guild_id, language, created_at) VALUES "
    "('9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08', 111111111111, 'fr', "
    "'2024-01-04T00:00:00.000+00:00');"
)
# 6: the history's rows rewritten (no schema change; the rest as in 5).
SEEDS[6] = SEEDS[5]


def dialect(url: str) -> str:
    return "postgres" if is_postgres(url) else "sqlite"


def migrations_up_to(version: int, folder: Path, url: str) -> Path:
    folder.mkdir()
    for path in sorted((MIGRATIONS_DIR / dialect(url)).glob("*.sql"))[:version]:
        shutil.copy(path, folder / path.name)
    return folder


def version_of(url: str) -> int:
    conn = connect(url)
    try:
        if isinstance(conn, sqlite3.Connection):
            return int(conn.execute("PRAGMA user_version").fetchone()[0])
        if "schema_version" not in tables(url):
            return 0
        found = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
        return int(found[0]) if found and found[0] is not None else 0
    finally:
        conn.close()


def seed(url: str, script: str) -> None:
    """Write a seed as the bot of that version would have. PostgreSQL hands out the ids of identity
    columns itself: a seed with explicit ids overrides them, then moves the sequences past them."""
    conn = connect(url)
    try:
        for statement in split_statements(script):
            if is_postgres(url):
                statement = re.sub(r"\)\s*VALUES", ") OVERRIDING SYSTEM VALUE VALUES", statement, count=1)
            conn.execute(statement)
        if not isinstance(conn, sqlite3.Connection):
            for table in ("characters", "wounds", "events"):
                conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), MAX(id)) FROM {table} "
                    "HAVING MAX(id) IS NOT NULL"
                )
        else:
            conn.commit()
    finally:
        conn.close()


def test_every_version_has_a_seed() -> None:
    assert sorted(SEEDS) == list(range(1, LATEST + 1)), "add SEEDS[N] for every migration N"
    assert latest_version(MIGRATIONS_DIR / "postgres") == LATEST, "every migration exists for both dialects"


async def test_an_empty_database_is_migrated_to_the_latest_version(empty_database_url: str) -> None:
    url = empty_database_url
    store = await Store.open(url)
    await store.close()
    assert version_of(url) == LATEST
    assert {"characters", "wounds", "events", "event_characters", "active_characters", "meta"} <= set(
        tables(url)
    )
    if not is_postgres(url):
        conn = sqlite3.connect(url.removeprefix("sqlite:///"))
        try:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        finally:
            conn.close()


async def test_opening_an_up_to_date_database_changes_nothing(empty_database_url: str) -> None:
    store = await Store.open(empty_database_url)
    await store.close()
    before = dump(empty_database_url)
    store = await Store.open(empty_database_url)
    await store.close()
    assert dump(empty_database_url) == before


@pytest.mark.parametrize("version", range(1, LATEST + 1))
async def test_data_of_every_version_survives_the_upgrade(
    version: int, tmp_path: Path, empty_database_url: str
) -> None:
    url = empty_database_url
    db = await open_database(url)
    try:
        assert await migrate(db, migrations_up_to(version, tmp_path / "old", url)) == version
    finally:
        await db.close()
    seed(url, SEEDS[version])

    store = await Store.open(url)
    try:
        aria = await character_of(store, GUILD, 1)
        assert (aria.name, aria.owner_id, aria.corps, aria.resistance, aria.intuition, aria.rest_days) == (
            "Aria",
            ALICE,
            2,
            -1,
            3,
            5,
        )
        assert [(w.track, w.inflicted, w.current, w.note, w.inflicted_by) for w in aria.wounds] == [
            (Track.PHYSICAL, Severity.LOW, Severity.MID, "sword; then worse", 900),
        ]
        # The healed wound is kept, though a loaded character holds only the wounds that count.
        exported = json.loads(await export_of(store, GUILD))["characters"][0]["wounds"]
        assert [(w["track"], w["current"] is None, w["fatal"]) for w in exported] == [
            ("physical", False, False),
            ("mental", True, False),
        ]
        assert [c.name for c in await characters_of(store, GUILD)] == ["Aria"]
        assert (await store.read(GUILD, lambda r: r.active_character(ALICE))) == aria
        ruleset = await ruleset_of(store, GUILD)
        assert ruleset.gm_role_id == 4242 and ruleset.open_rolls
        events, total = await history_of(store, GUILD)
        assert total == 1 and events[0].kind == "character_create" and events[0].details == {"note": "x"}
        assert await store.meta("commands_hash") == "abc123"
        if version >= 2:
            assert await boards_of(store, GUILD) == [Board(GUILD, 5005, 6006, (1,))]
        if version >= 5:
            token = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
            view = await store.party(token)
            assert view is not None and view.language == "fr"
            assert [c.name for c in view.characters] == ["Aria"]
        # New rows get new ids from the database, after the old ones.
        created = await store.run(
            GUILD, lambda tx: tx.save_character(replace(aria, id=None, name="New", wounds=()))
        )
        assert created.id is not None and created.id > 2
    finally:
        await store.close()
    assert version_of(url) == LATEST


def _old_character(cid: int, name: str, *, dead: int = 0, incoherent: int = 0) -> str:
    """A character row of versions 1 to 3, with its stored life flags."""
    return f"""
        INSERT INTO characters (id, guild_id, owner_id, name, name_key, corps, resistance, intuition, preset,
            physical_max_low, physical_max_mid, physical_max_high, mental_max_low, mental_max_mid,
            mental_max_high, rest_days, dead, incoherent, created_at, deleted_at)
            VALUES ({cid}, 111111111111, NULL, '{name}', '{name.lower()}', 0, 0, 0, 'humanoid', 4, 2, 1,
                    4, 2, 1, 0, {dead}, {incoherent}, '2024-01-0{cid}T00:00:00.000+00:00', NULL);"""


def _old_wound(wid: int, cid: int, track: str, current: int | None, fatal: int) -> str:
    inflicted, held = 2 if current is None else current, "NULL" if current is None else current
    return f"""
        INSERT INTO wounds (id, character_id, track, inflicted_severity, current_severity, fatal, note,
            inflicted_by, inflicted_at)
            VALUES ({wid}, {cid}, '{track}', {inflicted}, {held}, {fatal}, 'w{wid}', 900,
                    '2024-02-01T00:00:00.000+00:00');"""


# The life states a database of version 3 holds: the flags as the rules set them (with the fatal wound
# on their track), and as an import made before /config import checked them (55ecb69) could store
# them: a flag without its fatal wound, a fatal wound without its flag, both flags.
LIFE_STATES_AT_3 = "".join(
    [
        _old_character(1, "Slain", dead=1) + _old_wound(1, 1, "physical", 0, 0),
        _old_wound(2, 1, "physical", None, 1),
        _old_character(2, "Mad", incoherent=1) + _old_wound(3, 2, "mental", None, 1),
        _old_character(3, "Ghost", dead=1),
        _old_character(4, "Undead")
        + _old_wound(4, 4, "physical", 0, 0)
        + _old_wound(5, 4, "physical", None, 1),
        _old_character(5, "Both", dead=1, incoherent=1) + _old_wound(6, 5, "physical", None, 1),
        _old_character(6, "Lost", incoherent=1) + _old_wound(7, 6, "physical", None, 1),
    ]
)


def _old_edit(eid: int, cid: int, name: str, wounds: str, *, dead: bool = False) -> str:
    """A /character edit of versions 1 to 3 (corps 2 -> 0), its snapshot with the stored flags."""
    character = (
        f'{{"id": {cid}, "owner_id": null, "name": "{name}", "corps": 2, "resistance": 0, "intuition": 0, '
        '"preset": "humanoid", "physical_max": [4, 2, 1], "mental_max": [4, 2, 1], "rest_days": 0, '
        f'"dead": {str(dead).lower()}, "incoherent": false, '
        f'"created_at": "2024-01-0{cid}T00:00:00.000+00:00", "wounds": {wounds}}}'
    )
    return f"""
        INSERT INTO events (id, guild_id, kind, actor_id, occurred_at, character_id, character_name, details,
            touches_ruleset, undone, undoes, snapshot)
            VALUES ({eid}, 111111111111, 'character_edit', 900, '2024-03-01T00:00:00.000+00:00', {cid},
                    '{name}', '{{"corps": 0}}', 0, 0, NULL, '{{"characters": {{"{cid}": {character}}}}}');
        INSERT INTO event_characters (event_id, character_id) VALUES ({eid}, {cid});"""


# Edits of three of them, each undoable: the snapshots say what the flags said.
OLD_EDITS = (
    _old_edit(1, 1, "Slain", "[[1, 0, false], [2, null, true]]", dead=True)
    + _old_edit(2, 3, "Ghost", "[]", dead=True)
    + _old_edit(3, 4, "Undead", "[[4, 0, false], [5, null, true]]")
)


async def test_the_stored_life_flags_become_fatal_wounds_and_keep_their_meaning(
    tmp_path: Path, empty_database_url: str
) -> None:
    """Dead and incoherent follow from a fatal wound on their track since 0004: whatever a flag said
    of a character, it still says after the upgrade, and nothing else changes."""
    url = empty_database_url
    db = await open_database(url)
    try:
        assert await migrate(db, migrations_up_to(3, tmp_path / "old", url)) == 3
    finally:
        await db.close()
    seed(url, LIFE_STATES_AT_3 + OLD_EDITS)
    store = await Store.open(url)
    try:
        loaded = {c.name: c for c in await characters_of(store, GUILD)}
        exported = json.loads(await export_of(store, GUILD))["characters"]
        # Undoing a change recorded before the upgrade puts back what its snapshot said, flags included.
        for cid in (1, 3, 4):
            await store.run(GUILD, partial(revert, actor_id=900, ref=str(cid)))
        undone = {c.name: c for c in await characters_of(store, GUILD)}
    finally:
        await store.close()
    assert {name: c.corps for name, c in undone.items() if c.corps} == {"Slain": 2, "Ghost": 2, "Undead": 2}
    assert undone == {
        name: replace(c, corps=2) if name in ("Slain", "Ghost", "Undead") else c for name, c in loaded.items()
    }
    states = {name: (c.dead, c.incoherent) for name, c in loaded.items()}
    assert states == {
        "Slain": (True, False),
        "Mad": (False, True),
        "Ghost": (True, False),
        "Undead": (False, False),
        "Both": (True, True),
        "Lost": (False, True),
    }
    held = {name: (c.counts(Track.PHYSICAL), c.counts(Track.MENTAL)) for name, c in loaded.items()}
    assert held["Slain"] == held["Undead"] == ((1, 0, 0), (0, 0, 0))
    fatal = {f["name"]: [(w["track"], w["note"]) for w in f["wounds"] if w["fatal"]] for f in exported}
    assert fatal == {
        "Slain": [("physical", "w2")],
        "Mad": [("mental", "w3")],
        "Ghost": [("physical", "")],
        "Undead": [],  # the fatal wound its flag denied: kept, as a wound that no longer counts
        "Both": [("physical", "w6"), ("mental", "")],
        "Lost": [("mental", "")],
    }
    ghost = loaded["Ghost"].wounds
    assert [(w.track, w.inflicted, w.current, w.fatal, w.inflicted_by, w.at) for w in ghost] == [
        (Track.PHYSICAL, Severity.HIGH, None, True, None, "2024-01-03T00:00:00.000+00:00")
    ]
    undead = next(f for f in exported if f["name"] == "Undead")["wounds"]
    assert [(w["current"], w["fatal"], w["note"]) for w in undead] == [(0, False, "w4"), (None, False, "w5")]


async def test_a_broken_migration_leaves_schema_and_version_untouched(
    tmp_path: Path, empty_database_url: str
) -> None:
    url = empty_database_url
    folder = migrations_up_to(LATEST, tmp_path / "migrations", url)
    store = await Store.open(url, migrations=folder)
    await store.close()
    before = dump(url)
    (folder / f"{LATEST + 1:04d}_broken.sql").write_text(
        "CREATE TABLE extra (x INTEGER);\nALTER TABLE characters ADD COLUMN colour TEXT;\n"
        "INSERT INTO no_such_table VALUES (1);\n"
    )
    with pytest.raises(StorageError) as refused:
        await Store.open(url, migrations=folder)
    assert f"{LATEST + 1:04d}_broken.sql" in str(refused.value)
    assert "\n" not in str(refused.value)
    assert dump(url) == before
    assert "extra" not in tables(url)
    assert version_of(url) == LATEST


async def test_a_broken_first_migration_leaves_an_empty_database(
    tmp_path: Path, empty_database_url: str
) -> None:
    folder = tmp_path / "migrations"
    folder.mkdir()
    (folder / "0001_initial.sql").write_text("CREATE TABLE a (x INTEGER);\nCREATE TABLE a (y INTEGER);\n")
    with pytest.raises(StorageError):
        await Store.open(empty_database_url, migrations=folder)
    assert version_of(empty_database_url) == 0
    assert set(tables(empty_database_url)) <= {"schema_version"}


async def test_migrations_apply_in_order_each_recording_its_version(tmp_path: Path, db_path: Path) -> None:
    folder = migrations_up_to(LATEST, tmp_path / "migrations", "sqlite:///")
    (folder / f"{LATEST + 1:04d}_colour.sql").write_text(
        "-- a comment; with a semicolon\nALTER TABLE characters ADD COLUMN colour TEXT DEFAULT 'red';\n"
        "CREATE TRIGGER t AFTER INSERT ON meta BEGIN\n  UPDATE meta SET meta_value = 'x;y' WHERE 0;\nEND;\n"
    )
    (folder / f"{LATEST + 2:04d}_index.sql").write_text(
        "CREATE INDEX characters_colour ON characters (colour)"
    )
    store = await Store.open(str(db_path), migrations=folder)
    await store.close()
    conn = sqlite3.connect(db_path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == LATEST + 2
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        assert {"t", "characters_colour"} <= names
    finally:
        conn.close()


async def test_a_newer_database_is_refused(empty_database_url: str) -> None:
    url = empty_database_url
    store = await Store.open(url)
    await store.close()
    conn = connect(url)
    try:
        if isinstance(conn, sqlite3.Connection):
            conn.execute(f"PRAGMA user_version = {LATEST + 1}")
        else:
            conn.execute("UPDATE schema_version SET version = %s", (LATEST + 1,))
    finally:
        conn.close()
    with pytest.raises(StorageError) as refused:
        await Store.open(url)
    assert "newer" in str(refused.value)
    assert "\n" not in str(refused.value)


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ({"0001_a.sql": "CREATE TABLE a (x INTEGER);", "0003_c.sql": "SELECT 1;"}, "missing"),
        ({"0001_a.sql": "BEGIN;\nCREATE TABLE a (x INTEGER);\nCOMMIT;"}, "transaction control"),
        ({"1_bad-name.sql": "SELECT 1;"}, "name"),
    ],
)
async def test_bad_migration_folders_are_refused(
    files: dict[str, str], message: str, tmp_path: Path, db_path: Path
) -> None:
    folder = tmp_path / "migrations"
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text)
    with pytest.raises(StorageError) as refused:
        await Store.open(str(db_path), migrations=folder)
    assert message in str(refused.value)


def test_split_statements_keeps_triggers_and_strings_whole() -> None:
    script = (
        "-- header; comment\n"
        "CREATE TABLE a (x TEXT DEFAULT ';');\n"
        "/* block; comment */\n"
        "CREATE TRIGGER t AFTER INSERT ON a BEGIN\n  SELECT 1;\n  SELECT 2;\nEND;\n"
        "-- trailing comment\n"
    )
    statements = split_statements(script)
    assert len(statements) == 2
    assert statements[0].endswith("DEFAULT ';');")
    assert "SELECT 2;" in statements[1] and statements[1].endswith("END;")


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "bot.db"


LOW, MID, HIGH = Severity.LOW, Severity.MID, Severity.HIGH
RULES = {"open_rolls": False, "physical": {"penalties": [-1, -3, -5]}}
CHANGED = {"open_rolls": True, "physical": {"penalties": [-1, -3, -5]}}
KEPT_RULES = {"characters": {}, "ruleset": RULES}  # the undo snapshot of a settings change

# Stored rows of every kind as versions before 0006 wrote them (bot/actions, bot/history.py and
# bot/storage of those versions): (id, kind, details, undo snapshot, undoes) and the record the row
# reads as once migrated.
OLD_HISTORY: list[tuple[int, str, dict[str, Any], dict[str, Any] | None, int | None, Record]] = [
    (1, "character_create", {"owner_id": 42}, None, None, Created(42)),
    (2, "character_create", {"owner_id": None}, None, None, Created(None)),
    (3, "character_edit", {"name": "Arya", "resistance": 3}, None, None, Edited(name="Arya", resistance=3)),
    (4, "character_delete", {}, None, None, Deleted()),
    (5, "character_select", {}, None, None, Selected()),
    (
        6,
        "wound",
        {
            "severity": "critical",
            "count": 2,
            "note": "",
            "became": ["critical", None],
            "not_applied": 0,
            "maxima": [3, 2, 1],
        },
        None,
        None,
        Wounded(Track.PHYSICAL, HIGH, 2, "", (HIGH, None), 0, (3, 2, 1)),
    ),
    (
        7,
        "wound",
        {
            "severity": "light",
            "count": 3,
            "note": "arrow",
            "became": ["light", "serious", None],
            "not_applied": 0,
        },
        None,
        None,
        Wounded(Track.PHYSICAL, LOW, 3, "arrow", (LOW, MID, None), 0),
    ),
    # A key an older row wrote as null takes its default.
    (
        8,
        "mental",
        {
            "severity": "psychosis",
            "count": None,
            "note": None,
            "became": [None],
            "not_applied": 1,
            "maxima": None,
        },
        None,
        None,
        Wounded(Track.MENTAL, HIGH, 1, "", (None,), 1),
    ),
    (
        9,
        "mental",
        {
            "damage": 18,
            "count": 1,
            "note": "ghost",
            "rolls": [{"margin": 2, "success": True, "effective": 16, "harm": "shock"}],
            "became": ["trauma"],
            "not_applied": 0,
        },
        None,
        None,
        DamageRolled(Track.MENTAL, 18, 1, "ghost", (Blow(Harm.LOW, 16, 2, True),), (MID,), 0),
    ),
    (
        10,
        "wound",
        {
            "damage": 25,
            "count": 3,
            "note": "ogre",
            "rolls": [
                {"margin": 16, "success": True, "effective": 9, "harm": "none"},
                {"margin": 6, "success": None, "effective": None, "harm": "light"},
            ],
            "became": ["serious", None],
            "not_applied": 0,
        },
        None,
        None,
        DamageRolled(
            Track.PHYSICAL, 25, 3, "ogre", (Blow(Harm.NONE, 9, 16, True), Blow(Harm.LOW, 0, 6)), (MID, None)
        ),
    ),
    (
        11,
        "heal_roll",
        {
            "track": "mental",
            "severity": "trauma",
            "rolls": [{"margin": -3, "success": False, "became": "psychosis", "worsened": True}],
            "maxima": [3, 2, 1],
        },
        None,
        None,
        HealRolled(Track.MENTAL, MID, (HealRollStep(False, True, HIGH, -3),), (3, 2, 1)),
    ),
    (
        12,
        "heal_roll",
        {
            "severity": "serious",
            "rolls": [{"margin": None, "success": True, "became": None, "worsened": None}],
        },
        None,
        None,
        HealRolled(Track.PHYSICAL, MID, (HealRollStep(True),)),
    ),
    (
        13,
        "heal_wound",
        {"severity": "critical", "became": "serious"},
        None,
        None,
        Lowered(Track.PHYSICAL, HIGH, MID),
    ),
    (
        14,
        "heal_mental",
        {"severity": "trauma", "became": "shock"},
        None,
        None,
        Lowered(Track.MENTAL, MID, LOW),
    ),
    (15, "rest", {"days": 7, "characters": None}, None, None, Rested(7, 0)),
    # A settings change written flat; the settings before kept in the details as well as in the undo
    # snapshot, or in the snapshot only.
    (
        16,
        "config",
        {"setting": "dice", "open_rolls": True, "before": RULES, "after": CHANGED},
        KEPT_RULES,
        None,
        Configured("dice", {"open_rolls": True}, RULES, CHANGED),
    ),
    (
        17,
        "config",
        {"setting": "dice", "open_rolls": True, "after": CHANGED},
        KEPT_RULES,
        None,
        Configured("dice", {"open_rolls": True}, RULES, CHANGED),
    ),
    (
        18,
        "config",
        {"setting": "roles", "gm_role_id": None},
        KEPT_RULES,
        None,
        Configured("roles", {"gm_role_id": None}),
    ),
    (
        19,
        "config",
        {"setting": "penalties", "physical": {"penalties": [-1, -2, -5]}},
        None,
        None,
        Configured("penalties", {"physical": {"penalties": [-1, -2, -5]}}),
    ),
    (
        20,
        "import",
        {"characters": 2, "wounds": None, "replaced": 0},
        None,
        None,
        Imported({"characters": 2, "wounds": 0, "replaced": 0}),
    ),
    (21, "view_link", {"revoked": True}, None, None, LinkGiven(revoked=True)),
    (
        22,
        "undo",
        {
            "kind": "character_edit",
            "character_name": "Arya",
            "event_details": {"name": "Arya"},
            "event_id": 3,
            "event_at": "2024-05-01T10:00:00+00:00",
            "restored": [12],
        },
        None,
        3,
        Undid(3, Edited(name="Arya"), "Arya", (12,)),
    ),
    # The first undo rows kept the reverted details under "details", and may say nothing more.
    (
        23,
        "undo",
        {"kind": "rest", "details": {"days": 2, "characters": None}},
        None,
        15,
        Undid(15, Rested(2, 0)),
    ),
    (24, "undo", {}, None, 15, Undid(15)),
    (25, "undo", {"event_id": 4}, None, None, Undid(4)),
    (
        26,
        "undo",
        {"kind": "config", "event_details": {"setting": "dice", "open_rolls": True}, "event_id": 19},
        None,
        19,
        Undid(19, Configured("dice", {"open_rolls": True})),
    ),
    # An undo keeps the record of the change it reverted with the settings before and after.
    (
        27,
        "undo",
        {
            "kind": "config",
            "event_details": {"setting": "dice", "open_rolls": True, "before": RULES, "after": CHANGED},
            "event_id": 16,
        },
        None,
        16,
        Undid(16, Configured("dice", {"open_rolls": True}, RULES, CHANGED)),
    ),
]


NEWER_KINDS = {EventKind.BLOW}
"""Kinds of change no version before migration 0006 wrote (a blow on many: issue 35): no old row."""


def test_the_old_rows_cover_every_kind() -> None:
    assert {kind for _, kind, *_ in OLD_HISTORY} == set(EventKind) - NEWER_KINDS


async def test_the_history_of_older_versions_is_rewritten_once_and_reads_as_it_did(
    tmp_path: Path, empty_database_url: str
) -> None:
    url = empty_database_url
    db = await open_database(url)
    try:
        assert await migrate(db, migrations_up_to(5, tmp_path / "old", url)) == 5
    finally:
        await db.close()
    seed(
        url,
        "".join(
            "INSERT INTO events (id, guild_id, kind, actor_id, occurred_at, details, touches_ruleset, "
            f"undone, undoes, snapshot) VALUES ({eid}, {GUILD}, '{kind}', 900, '2024-05-01T10:00:00+00:00', "
            f"'{json.dumps(details)}', {int(bool(kept))}, 0, {'NULL' if undoes is None else undoes}, "
            f"{'NULL' if kept is None else repr(json.dumps(kept))});\n"
            for eid, kind, details, kept, undoes, _ in OLD_HISTORY
        ),
    )
    store = await Store.open(url)
    try:
        events, total = await history_of(store, GUILD, per_page=100)
    finally:
        await store.close()
    assert total == len(OLD_HISTORY)
    assert {e.id: record_of(e) for e in events} == {eid: record for eid, *_, record in OLD_HISTORY}
