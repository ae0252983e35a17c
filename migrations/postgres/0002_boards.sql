-- 0002: live party boards (issue 13), the same tables as sqlite/0002_boards.sql. One board per
-- channel: the message the bot keeps edited. Discord ids and character ids are BIGINT.

CREATE TABLE boards (
    channel_id BIGINT NOT NULL PRIMARY KEY,
    guild_id BIGINT NOT NULL,
    message_id BIGINT NOT NULL,
    created_at TEXT NOT NULL
);

CREATE INDEX boards_guild ON boards (guild_id);

-- The NPCs a GM added to a board (the server's player characters are always on it).
CREATE TABLE board_npcs (
    channel_id BIGINT NOT NULL REFERENCES boards (channel_id) ON DELETE CASCADE,
    character_id BIGINT NOT NULL REFERENCES characters (id) ON DELETE CASCADE,
    PRIMARY KEY (channel_id, character_id)
);
