from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from bot.rules import Severity, Track
from bot.storage import Database, StorageError, Store
from bot.storage.migrations import MIGRATIONS_DIR, latest_version, migrate, split_statements
from tests.storage.conftest import ALICE, GUILD, dump

LATEST = latest_version()

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
# 2: the interactions whose change is committed (a new table; the rest as in 1).
SEEDS[2] = SEEDS[1] + "INSERT INTO handled_interactions (interaction_id) VALUES (1577332705824079897);"


def migrations_up_to(version: int, folder: Path) -> Path:
    folder.mkdir()
    for path in sorted(MIGRATIONS_DIR.glob("*.sql"))[:version]:
        shutil.copy(path, folder / path.name)
    return folder


def test_every_version_has_a_seed() -> None:
    assert sorted(SEEDS) == list(range(1, LATEST + 1)), "add SEEDS[N] for every migration N"


async def test_an_empty_database_is_migrated_to_the_latest_version(db_path: Path) -> None:
    store = await Store.open(str(db_path))
    await store.close()
    conn = sqlite3.connect(db_path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == LATEST
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert {"characters", "wounds", "events", "event_characters", "active_characters", "meta"} <= tables
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    finally:
        conn.close()


async def test_opening_an_up_to_date_database_changes_nothing(db_path: Path) -> None:
    store = await Store.open(str(db_path))
    await store.close()
    before = dump(db_path)
    store = await Store.open(str(db_path))
    await store.close()
    assert dump(db_path) == before


@pytest.mark.parametrize("version", range(1, LATEST + 1))
async def test_data_of_every_version_survives_the_upgrade(
    version: int, tmp_path: Path, db_path: Path
) -> None:
    db = await Database.open(str(db_path))
    try:
        assert await migrate(db.writer, migrations_up_to(version, tmp_path / "old")) == version
    finally:
        await db.close()
    conn = sqlite3.connect(db_path)
    try:
        with conn:
            for statement in split_statements(SEEDS[version]):
                conn.execute(statement)
    finally:
        conn.close()

    store = await Store.open(str(db_path))
    try:
        aria = await store.character(GUILD, 1)
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
            (Track.MENTAL, Severity.MID, None, "", None),
        ]
        assert [c.name for c in await store.characters(GUILD)] == ["Aria"]
        assert (await store.active_character(GUILD, ALICE)) == aria
        ruleset = await store.ruleset(GUILD)
        assert ruleset.gm_role_id == 4242 and ruleset.open_rolls
        events, total = await store.history(GUILD)
        assert total == 1 and events[0].kind == "character_create" and events[0].details == {"note": "x"}
        assert await store.get_meta("commands_hash") == "abc123"
    finally:
        await store.close()
    conn = sqlite3.connect(db_path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == LATEST
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    finally:
        conn.close()


async def test_a_broken_migration_leaves_schema_and_version_untouched(tmp_path: Path, db_path: Path) -> None:
    folder = migrations_up_to(LATEST, tmp_path / "migrations")
    store = await Store.open(str(db_path), migrations=folder)
    await store.close()
    before = dump(db_path)
    (folder / f"{LATEST + 1:04d}_broken.sql").write_text(
        "CREATE TABLE extra (x INTEGER);\nALTER TABLE characters ADD COLUMN colour TEXT;\n"
        "INSERT INTO no_such_table VALUES (1);\n"
    )
    with pytest.raises(StorageError) as refused:
        await Store.open(str(db_path), migrations=folder)
    assert f"{LATEST + 1:04d}_broken.sql" in str(refused.value)
    assert "\n" not in str(refused.value)
    assert dump(db_path) == before
    conn = sqlite3.connect(db_path)
    try:
        columns = [r[1] for r in conn.execute("PRAGMA table_info(characters)")]
        assert "colour" not in columns
    finally:
        conn.close()


async def test_a_broken_first_migration_leaves_an_empty_database(tmp_path: Path, db_path: Path) -> None:
    folder = tmp_path / "migrations"
    folder.mkdir()
    (folder / "0001_initial.sql").write_text("CREATE TABLE a (x INTEGER);\nCREATE TABLE a (y INTEGER);\n")
    with pytest.raises(StorageError):
        await Store.open(str(db_path), migrations=folder)
    conn = sqlite3.connect(db_path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 0
        assert conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0] == 0
    finally:
        conn.close()


async def test_migrations_apply_in_order_each_recording_its_version(tmp_path: Path, db_path: Path) -> None:
    folder = migrations_up_to(LATEST, tmp_path / "migrations")
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


async def test_a_newer_database_is_refused(db_path: Path) -> None:
    store = await Store.open(str(db_path))
    await store.close()
    conn = sqlite3.connect(db_path)
    conn.execute(f"PRAGMA user_version = {LATEST + 1}")
    conn.close()
    with pytest.raises(StorageError) as refused:
        await Store.open(str(db_path))
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
