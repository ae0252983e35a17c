"""SQL of finding characters by what is typed: living ones by a name or its start, prefix matches first
(what autocomplete offers), and deleted ones by id or name (their history stays readable, and undo can
bring them back)."""

from __future__ import annotations

from bot.storage.characters import name_key
from bot.storage.sql import Sql


def _like_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def search(
    sql: Sql,
    guild_id: int,
    text: str,
    *,
    owner_id: int | None,
    limit: int,
    npcs: bool = False,
) -> list[int]:
    """The ids of living characters (of ``owner_id``; NPCs only with ``npcs``) whose name contains
    ``text``; prefix matches first."""
    if "\x00" in text:  # no stored name holds NUL
        return []
    key = name_key(text)
    base = "SELECT c.id FROM characters c WHERE c.guild_id = ? AND c.deleted_at IS NULL "
    params: list[object] = [guild_id]
    if npcs:
        base += "AND c.owner_id IS NULL "
    elif owner_id is not None:
        base += "AND c.owner_id = ? "
        params.append(owner_id)
    if not key:
        return [r[0] for r in sql.rows(base + "ORDER BY c.name_key LIMIT ?", (*params, limit))]
    # Prefix: a range on the (guild_id, name_key) index. U+10FFFF sorts after every other character
    # (bytewise: name_key is COLLATE "C" on PostgreSQL).
    prefix = "AND c.name_key >= ? AND c.name_key < ? "
    bounds = (key, key + "\U0010ffff")
    found = [r[0] for r in sql.rows(base + prefix + "ORDER BY c.name_key LIMIT ?", (*params, *bounds, limit))]
    if len(found) < limit:
        rows = sql.rows(
            base + "AND c.name_key LIKE ? ESCAPE '\\' AND NOT (c.name_key >= ? AND c.name_key < ?) "
            "ORDER BY c.name_key LIMIT ?",
            (*params, f"%{_like_escape(key)}%", *bounds, limit - len(found)),
        )
        found.extend(r[0] for r in rows)
    return found


def deleted(sql: Sql, guild_id: int, ref: str, *, limit: int = 1) -> list[tuple[int, str]]:
    """(id, name) of deleted characters of the server named by ``ref`` (an id, or a name or the start
    of one), most recently deleted first: their history stays readable and undo can bring them back."""
    if "\x00" in ref or not ref.strip():  # no stored name holds NUL, or is blank
        return []
    key = name_key(ref)
    by_id = int(ref) if ref.isascii() and ref.isdigit() and len(ref) <= 18 else -1
    rows = sql.rows(
        "SELECT id, name FROM characters WHERE guild_id = ? AND deleted_at IS NOT NULL "
        "AND (id = ? OR (name_key >= ? AND name_key < ?)) "
        "ORDER BY id = ? DESC, name_key = ? DESC, deleted_at DESC, id DESC LIMIT ?",
        (guild_id, by_id, key, key + "\U0010ffff", by_id, key, limit),
    )
    return [(r[0], r[1]) for r in rows]
