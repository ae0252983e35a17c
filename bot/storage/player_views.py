"""SQL of the player view (issue 29): a server's links, kept as the SHA-256 of their tokens, and what
the page of a link shows (the server's characters on its boards)."""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass

from bot.rules.character import Character
from bot.rules.ruleset import Ruleset
from bot.storage import characters, settings
from bot.storage.sql import Sql


def digest(token: str) -> str:
    """What is stored of a token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class Party:
    """What one link's page shows: the server's player characters and the NPCs on its boards."""

    guild_id: int
    language: str
    """The server's language when the link was given (for a ruleset whose language is "auto")."""
    ruleset: Ruleset
    characters: list[Character]


def add(sql: Sql, guild_id: int, token_sha256: str, language: str, now: str) -> None:
    sql.run(
        "INSERT INTO player_views (token_sha256, guild_id, language, created_at) VALUES (?, ?, ?, ?)",
        (token_sha256, guild_id, language, now),
    )


def revoke_all(sql: Sql, guild_id: int) -> int:
    """Every link of the server stops working; how many there were."""
    return sql.run("DELETE FROM player_views WHERE guild_id = ?", (guild_id,))


def find(sql: Sql, token_sha256: str) -> tuple[int, str] | None:
    """The server and language of the link whose token has this digest, or ``None`` (unknown and
    revoked alike). The lookup is by the digest (what a guesser cannot steer), then the digests are
    compared once more in constant time."""
    row = sql.row(
        "SELECT token_sha256, guild_id, language FROM player_views WHERE token_sha256 = ?", (token_sha256,)
    )
    if row is None or not hmac.compare_digest(str(row[0]), token_sha256):
        return None
    return int(row[1]), str(row[2])


def party(sql: Sql, token_sha256: str) -> Party | None:
    """The page of a link, in one read: ``None`` for an unknown or revoked link."""
    found = find(sql, token_sha256)
    if found is None:
        return None
    guild_id, language = found
    npcs = {
        int(cid)
        for (cid,) in sql.rows(
            "SELECT DISTINCT n.character_id FROM board_npcs n JOIN boards b ON b.channel_id = n.channel_id "
            "WHERE b.guild_id = ?",
            (guild_id,),
        )
    }
    shown = [c for c in characters.load_all(sql, guild_id) if c.owner_id is not None or c.id in npcs]
    stored = settings.load_ruleset(sql, guild_id)
    return Party(guild_id, language, Ruleset() if stored is None else stored, shown)


CHANGES_CHANNEL = "harmonies_changes"
"""PostgreSQL's ``NOTIFY`` channel of committed changes; the payload is the server's id. Every process
sharing the database says so of its changes, and the processes serving player views listen."""


def notify(sql: Sql, guild_id: int) -> None:
    """Inside a unit of work on PostgreSQL: tell the listening processes, at commit, that the server
    changed (nothing is sent if the unit rolls back). Nothing to do on SQLite (one process)."""
    if sql.dialect == "postgres":
        sql.row("SELECT pg_notify(?, ?)", (CHANGES_CHANNEL, str(guild_id)))
