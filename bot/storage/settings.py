"""SQL of the per-server ruleset and of the installation's key/value facts."""

from __future__ import annotations

from functools import lru_cache

from pydantic import ValidationError

from bot.rules.ruleset import Ruleset
from bot.storage.errors import StorageError
from bot.storage.sql import Sql

PARSED_RULESETS = 4096
"""How many distinct stored rulesets stay parsed (the same text always gives the same ruleset)."""


def load_ruleset(sql: Sql, guild_id: int) -> Ruleset | None:
    """The stored ruleset of the server, validated; ``None`` when it never changed its settings."""
    found = sql.row("SELECT ruleset FROM guild_settings WHERE guild_id = ?", (guild_id,))
    if found is None:
        return None
    try:
        return parse_ruleset(found[0])
    except ValidationError as exc:
        raise StorageError(
            f"the stored ruleset of server {guild_id} is invalid ({exc.error_count()} errors)"
        ) from exc


@lru_cache(maxsize=PARSED_RULESETS)
def parse_ruleset(stored: str) -> Ruleset:
    """A stored ruleset (JSON) validated once: every unit of work reads its server's ruleset again, in
    its own transaction, and the same text always gives the same (frozen) ruleset."""
    return Ruleset.model_validate_json(stored)


def save_ruleset(sql: Sql, guild_id: int, ruleset: Ruleset | None, now: str) -> None:
    """Store the ruleset; ``None`` removes the row (back to the defaults)."""
    if ruleset is None:
        sql.run("DELETE FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return
    sql.run(
        "INSERT INTO guild_settings (guild_id, ruleset, updated_at) VALUES (?, ?, ?) "
        "ON CONFLICT (guild_id) DO UPDATE SET ruleset = excluded.ruleset, updated_at = excluded.updated_at",
        (guild_id, ruleset.model_dump_json(), now),
    )


def get_meta(sql: Sql, key: str) -> str | None:
    found = sql.row("SELECT meta_value FROM meta WHERE meta_key = ?", (key,))
    return None if found is None else str(found[0])


def set_meta(sql: Sql, key: str, value: str) -> None:
    sql.run(
        "INSERT INTO meta (meta_key, meta_value) VALUES (?, ?) "
        "ON CONFLICT (meta_key) DO UPDATE SET meta_value = excluded.meta_value",
        (key, value),
    )
