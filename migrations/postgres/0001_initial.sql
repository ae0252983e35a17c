-- 0001: the initial schema (PostgreSQL), the same tables as sqlite/0001_initial.sql.
-- Ids come from identity columns; Discord ids are BIGINT (INTEGER is 32-bit here); name keys sort and
-- prefix-match bytewise as in SQLite (COLLATE "C"); timestamps are ISO-8601 UTC text, booleans 0/1
-- integers, as in SQLite, so both backends store the same values.
-- Applied by bot/storage/migrations.py inside one transaction with the version, under an advisory lock.

CREATE TABLE guild_settings (
    guild_id BIGINT NOT NULL PRIMARY KEY,
    ruleset TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

CREATE TABLE characters (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    guild_id BIGINT NOT NULL,
    owner_id BIGINT,
    name TEXT NOT NULL,
    name_key TEXT COLLATE "C" NOT NULL,
    corps INTEGER NOT NULL DEFAULT 0,
    resistance INTEGER NOT NULL DEFAULT 0,
    intuition INTEGER NOT NULL DEFAULT 0,
    preset TEXT NOT NULL,
    physical_max_low INTEGER NOT NULL,
    physical_max_mid INTEGER NOT NULL,
    physical_max_high INTEGER NOT NULL,
    mental_max_low INTEGER NOT NULL,
    mental_max_mid INTEGER NOT NULL,
    mental_max_high INTEGER NOT NULL,
    rest_days INTEGER NOT NULL DEFAULT 0 CHECK (rest_days >= 0),
    dead INTEGER NOT NULL DEFAULT 0 CHECK (dead IN (0, 1)),
    incoherent INTEGER NOT NULL DEFAULT 0 CHECK (incoherent IN (0, 1)),
    created_at TEXT NOT NULL,
    deleted_at TEXT
);

CREATE UNIQUE INDEX characters_name ON characters (guild_id, name_key) WHERE deleted_at IS NULL;
CREATE INDEX characters_owner ON characters (guild_id, owner_id, created_at) WHERE deleted_at IS NULL;

CREATE TABLE wounds (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    character_id BIGINT NOT NULL REFERENCES characters (id) ON DELETE CASCADE,
    track VARCHAR(16) NOT NULL CHECK (track IN ('physical', 'mental')),
    inflicted_severity INTEGER NOT NULL CHECK (inflicted_severity BETWEEN 0 AND 2),
    current_severity INTEGER CHECK (current_severity BETWEEN 0 AND 2),
    fatal INTEGER NOT NULL DEFAULT 0 CHECK (fatal IN (0, 1)),
    note TEXT NOT NULL DEFAULT '',
    inflicted_by BIGINT,
    inflicted_at TEXT NOT NULL
);

CREATE INDEX wounds_character ON wounds (character_id, id);

CREATE TABLE active_characters (
    guild_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    character_id BIGINT NOT NULL REFERENCES characters (id) ON DELETE CASCADE,
    PRIMARY KEY (guild_id, user_id)
);

CREATE INDEX active_characters_character ON active_characters (character_id);

CREATE TABLE events (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    guild_id BIGINT NOT NULL,
    kind VARCHAR(32) NOT NULL,
    actor_id BIGINT,
    occurred_at TEXT NOT NULL,
    character_id BIGINT REFERENCES characters (id),
    character_name TEXT,
    details TEXT NOT NULL DEFAULT '{}',
    touches_ruleset INTEGER NOT NULL DEFAULT 0 CHECK (touches_ruleset IN (0, 1)),
    undone INTEGER NOT NULL DEFAULT 0 CHECK (undone IN (0, 1)),
    undoes BIGINT REFERENCES events (id),
    snapshot TEXT
);

CREATE INDEX events_guild ON events (guild_id, id);
CREATE INDEX events_undoable ON events (guild_id, id) WHERE undone = 0 AND kind <> 'undo';
CREATE INDEX events_ruleset ON events (guild_id, id) WHERE touches_ruleset = 1;

CREATE TABLE event_characters (
    event_id BIGINT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    character_id BIGINT NOT NULL REFERENCES characters (id) ON DELETE CASCADE,
    PRIMARY KEY (character_id, event_id)
);

CREATE INDEX event_characters_event ON event_characters (event_id);

CREATE TABLE meta (
    meta_key VARCHAR(64) NOT NULL PRIMARY KEY,
    meta_value TEXT NOT NULL
);
