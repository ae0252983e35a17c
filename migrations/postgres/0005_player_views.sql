-- 0004: the player view's links (issue 29). A server's links to its live web page, of which only the SHA-256
-- of each token is kept (hex): the database alone gives no working link. /board link:True adds
-- one, with revoke:True every link of the server is deleted first. ``language`` is the server's
-- language when the link was given, for the page when the server's setting is "auto" (the process
-- serving the page may not know the server's locale).
CREATE TABLE player_views (
    token_sha256 TEXT NOT NULL PRIMARY KEY,
    guild_id BIGINT NOT NULL,
    language TEXT NOT NULL,
    created_at TEXT NOT NULL
);

CREATE INDEX player_views_guild ON player_views (guild_id);
