-- 0001: the initial schema.
-- Plain SQL: explicit types, timestamps as ISO-8601 UTC text, booleans as 0/1 integers, Discord ids
-- as BIGINT. Applied by bot/storage/migrations.py inside one transaction with PRAGMA user_version.

-- One row per server that changed its settings; no row means the default ruleset.
CREATE TABLE guild_settings (
    guild_id BIGINT NOT NULL PRIMARY KEY,
    ruleset TEXT NOT NULL,                     -- Ruleset as JSON, validated on every load
    updated_at TEXT NOT NULL
);

-- Characters are never removed: a delete sets deleted_at, so that undo brings the character back
-- with its id, its wounds and its history.
CREATE TABLE characters (
    id INTEGER NOT NULL PRIMARY KEY,
    guild_id BIGINT NOT NULL,
    owner_id BIGINT,                           -- NULL: an NPC kept by the GMs
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,                    -- NFKC + casefold of name: unique per server
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
    deleted_at TEXT                            -- NULL: alive
);

CREATE UNIQUE INDEX characters_name ON characters (guild_id, name_key) WHERE deleted_at IS NULL;
CREATE INDEX characters_owner ON characters (guild_id, owner_id, created_at) WHERE deleted_at IS NULL;

-- One row per wound, kept after healing (current_severity NULL) for history.
CREATE TABLE wounds (
    id INTEGER NOT NULL PRIMARY KEY,
    character_id INTEGER NOT NULL REFERENCES characters (id) ON DELETE CASCADE,
    track VARCHAR(16) NOT NULL CHECK (track IN ('physical', 'mental')),
    inflicted_severity INTEGER NOT NULL CHECK (inflicted_severity BETWEEN 0 AND 2),
    current_severity INTEGER CHECK (current_severity BETWEEN 0 AND 2),  -- NULL: healed, or fatal
    fatal INTEGER NOT NULL DEFAULT 0 CHECK (fatal IN (0, 1)),
    note TEXT NOT NULL DEFAULT '',
    inflicted_by BIGINT,
    inflicted_at TEXT NOT NULL
);

CREATE INDEX wounds_character ON wounds (character_id, id);

-- The character each player currently plays, per server.
CREATE TABLE active_characters (
    guild_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    character_id INTEGER NOT NULL REFERENCES characters (id) ON DELETE CASCADE,
    PRIMARY KEY (guild_id, user_id)
);

CREATE INDEX active_characters_character ON active_characters (character_id);

-- The history: one row per change (or undo). snapshot holds, as JSON, the state before the change
-- of everything it touched (characters, ruleset, active characters), for undo. It is the last
-- column so that history pages never read it.
CREATE TABLE events (
    id INTEGER NOT NULL PRIMARY KEY,
    guild_id BIGINT NOT NULL,
    kind VARCHAR(32) NOT NULL,
    actor_id BIGINT,
    occurred_at TEXT NOT NULL,
    character_id INTEGER REFERENCES characters (id),
    character_name TEXT,                       -- the name at the time of the event
    details TEXT NOT NULL DEFAULT '{}',
    touches_ruleset INTEGER NOT NULL DEFAULT 0 CHECK (touches_ruleset IN (0, 1)),
    undone INTEGER NOT NULL DEFAULT 0 CHECK (undone IN (0, 1)),
    undoes INTEGER REFERENCES events (id),
    snapshot TEXT
);

CREATE INDEX events_guild ON events (guild_id, id);
CREATE INDEX events_undoable ON events (guild_id, id) WHERE undone = 0 AND kind <> 'undo';
CREATE INDEX events_ruleset ON events (guild_id, id) WHERE touches_ruleset = 1;

-- Which characters each event touched: per-character history, undo and its conflicts.
CREATE TABLE event_characters (
    event_id INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    character_id INTEGER NOT NULL REFERENCES characters (id) ON DELETE CASCADE,
    PRIMARY KEY (character_id, event_id)
);

CREATE INDEX event_characters_event ON event_characters (event_id);

-- Small facts about the installation, e.g. the hash of the last synced command definitions.
CREATE TABLE meta (
    meta_key VARCHAR(64) NOT NULL PRIMARY KEY,
    meta_value TEXT NOT NULL
);
