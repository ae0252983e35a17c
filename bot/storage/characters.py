"""SQL of characters and their wounds. Every statement is scoped by ``guild_id``.

A character and its wounds load in one query (a LEFT JOIN), so a read is one consistent snapshot even
on the reader connection, and costs one round trip.
"""

from __future__ import annotations

import itertools
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import TypeVar

import aiosqlite

from bot.errors import UserError
from bot.rules.character import Character, Wound
from bot.storage.codec import (
    CHARACTER_COLUMNS,
    WOUND_COLUMNS,
    CharacterSnapshot,
    character_params,
    characters_from_rows,
    name_key,
)
from bot.storage.database import Queryable
from bot.storage.errors import StorageError

_SELECT = (
    f"SELECT {CHARACTER_COLUMNS}, {WOUND_COLUMNS} FROM characters c "
    "LEFT JOIN wounds w ON w.character_id = c.id "
)
_SET_COLUMNS = (
    "owner_id = ?, name = ?, name_key = ?, corps = ?, resistance = ?, intuition = ?, preset = ?, "
    "physical_max_low = ?, physical_max_mid = ?, physical_max_high = ?, "
    "mental_max_low = ?, mental_max_mid = ?, mental_max_high = ?, rest_days = ?, dead = ?, incoherent = ?"
)
_INSERT = (
    "INSERT INTO characters (id, guild_id, owner_id, name, name_key, corps, resistance, intuition, preset, "
    "physical_max_low, physical_max_mid, physical_max_high, mental_max_low, mental_max_mid, "
    "mental_max_high, rest_days, dead, incoherent, created_at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_WOUND_VALUES = "(?, ?, ?, ?, ?, ?, ?, ?)"
_WOUND_INSERT = (
    "INSERT INTO wounds (character_id, track, inflicted_severity, current_severity, fatal, note, "
    "inflicted_by, inflicted_at) VALUES "
)
_WOUND_INSERT_WITH_ID = (
    "INSERT INTO wounds (id, character_id, track, inflicted_severity, current_severity, fatal, note, "
    "inflicted_by, inflicted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_CHUNK = 500  # rows per statement, far below SQLite's limit on bound parameters

T = TypeVar("T")


def not_found(**params: object) -> UserError:
    return UserError("character_not_found", **params)


def _is_unique_violation(exc: sqlite3.IntegrityError) -> bool:
    return getattr(exc, "sqlite_errorname", "") == "SQLITE_CONSTRAINT_UNIQUE" or "UNIQUE" in str(exc)


def _chunks(items: Sequence[T], size: int = _CHUNK) -> Iterable[Sequence[T]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


# ---- reads -----------------------------------------------------------------------------------------


def _storable(character_id: int) -> bool:
    """Whether ``character_id`` can be an id at all (SQLite's INTEGER is 64-bit signed): a larger
    number, e.g. from a forged button or a typed option, is simply not found."""
    return 0 < character_id < 2**63


async def load(conn: Queryable, guild_id: int, character_id: int) -> Character:
    if not _storable(character_id):
        raise not_found(id=character_id)
    rows = await conn.execute_fetchall(
        _SELECT + "WHERE c.id = ? AND c.guild_id = ? AND c.deleted_at IS NULL ORDER BY w.id",
        (character_id, guild_id),
    )
    found = characters_from_rows(rows)
    if not found:
        raise not_found(id=character_id)
    return found[0]


async def load_by_name(conn: Queryable, guild_id: int, name: str) -> Character:
    rows = await conn.execute_fetchall(
        _SELECT + "WHERE c.guild_id = ? AND c.name_key = ? AND c.deleted_at IS NULL ORDER BY w.id",
        (guild_id, name_key(name)),
    )
    found = characters_from_rows(rows)
    if not found:
        raise not_found(name=name)
    return found[0]


async def load_active(conn: Queryable, guild_id: int, user_id: int) -> Character | None:
    rows = await conn.execute_fetchall(
        f"SELECT {CHARACTER_COLUMNS}, {WOUND_COLUMNS} FROM active_characters a "
        "JOIN characters c ON c.id = a.character_id "
        "LEFT JOIN wounds w ON w.character_id = c.id "
        "WHERE a.guild_id = ? AND a.user_id = ? AND c.guild_id = ? AND c.deleted_at IS NULL ORDER BY w.id",
        (guild_id, user_id, guild_id),
    )
    found = characters_from_rows(rows)
    return found[0] if found else None


async def load_all(conn: Queryable, guild_id: int, owner_id: int | None = None) -> list[Character]:
    """The living characters of a server (of one owner), ordered by name."""
    owner_clause, params = (
        ("AND c.owner_id = ? ", (guild_id, owner_id)) if owner_id is not None else ("", (guild_id,))
    )
    rows = await conn.execute_fetchall(
        _SELECT
        + f"WHERE c.guild_id = ? AND c.deleted_at IS NULL {owner_clause}ORDER BY c.name_key, c.id, w.id",
        params,
    )
    return characters_from_rows(rows)


async def exists(conn: Queryable, guild_id: int, character_id: int, *, deleted_too: bool) -> bool:
    if not _storable(character_id):
        return False
    live = "" if deleted_too else " AND deleted_at IS NULL"
    rows = await conn.execute_fetchall(
        f"SELECT 1 FROM characters WHERE id = ? AND guild_id = ?{live}", (character_id, guild_id)
    )
    return bool(list(rows))


def _like_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


async def search(
    conn: aiosqlite.Connection, guild_id: int, text: str, *, owner_id: int | None, limit: int
) -> list[tuple[int, str]]:
    """(id, name) of living characters whose name contains ``text``; prefix matches first."""
    if limit <= 0:
        return []
    key = name_key(text)
    base = "SELECT c.id, c.name FROM characters c WHERE c.guild_id = ? AND c.deleted_at IS NULL "
    params: list[object] = [guild_id]
    if owner_id is not None:
        base += "AND c.owner_id = ? "
        params.append(owner_id)
    if not key:
        rows = await conn.execute_fetchall(base + "ORDER BY c.name_key LIMIT ?", (*params, limit))
        return [(r[0], r[1]) for r in rows]
    # Prefix: a range on the (guild_id, name_key) index. U+10FFFF sorts after every other character.
    prefix = "AND c.name_key >= ? AND c.name_key < ? "
    bounds = (key, key + "\U0010ffff")
    rows = await conn.execute_fetchall(
        base + prefix + "ORDER BY c.name_key LIMIT ?", (*params, *bounds, limit)
    )
    found = [(r[0], r[1]) for r in rows]
    if len(found) < limit:
        rows = await conn.execute_fetchall(
            base + "AND c.name_key LIKE ? ESCAPE '\\' AND NOT (c.name_key >= ? AND c.name_key < ?) "
            "ORDER BY c.name_key LIMIT ?",
            (*params, f"%{_like_escape(key)}%", *bounds, limit - len(found)),
        )
        found.extend((r[0], r[1]) for r in rows)
    return found


async def deleted(conn: Queryable, guild_id: int, ref: str, *, limit: int = 1) -> list[tuple[int, str]]:
    """(id, name) of deleted characters of the server named by ``ref`` (an id, or a name or the start
    of one), most recently deleted first: their history stays readable and undo can bring them back."""
    if limit <= 0:
        return []
    key = name_key(ref)
    by_id = int(ref) if ref.isascii() and ref.isdigit() and len(ref) <= 18 else -1
    rows = await conn.execute_fetchall(
        "SELECT id, name FROM characters WHERE guild_id = ? AND deleted_at IS NOT NULL "
        "AND (id = ? OR (name_key >= ? AND name_key < ?)) "
        "ORDER BY id = ? DESC, name_key = ? DESC, deleted_at DESC, id DESC LIMIT ?",
        (guild_id, by_id, key, key + "\U0010ffff", by_id, key, limit),
    )
    return [(r[0], r[1]) for r in rows]


# ---- writes ----------------------------------------------------------------------------------------


async def _name_conflict(conn: aiosqlite.Connection, guild_id: int, characters: Iterable[Character]) -> str:
    """The first of ``characters`` whose name another living character of the server has."""
    for character in characters:
        rows = await conn.execute_fetchall(
            "SELECT name FROM characters WHERE guild_id = ? AND name_key = ? AND deleted_at IS NULL "
            "AND id <> ?",
            (guild_id, name_key(character.name), character.id if character.id is not None else -1),
        )
        if list(rows):
            return character.name
    return ""


async def next_id(conn: aiosqlite.Connection) -> int:
    rows = list(await conn.execute_fetchall("SELECT COALESCE(MAX(id), 0) + 1 FROM characters"))
    return int(rows[0][0])


def _insert_params(character_id: int | None, c: Character) -> tuple[object, ...]:
    return (character_id, c.guild_id, *character_params(c, name_key(c.name)), c.created_at)


async def insert_many(conn: aiosqlite.Connection, characters: Sequence[Character]) -> None:
    """Insert characters that already carry their ids and guild (an import), with their wounds."""
    try:
        await conn.executemany(_INSERT, [_insert_params(c.id, c) for c in characters])
    except sqlite3.IntegrityError as exc:
        if _is_unique_violation(exc):
            conflict = await _name_conflict(conn, characters[0].guild_id, characters)
            raise UserError("name_taken", name=conflict) from None
        raise
    rows = [_wound_params(c.id, w) for c in characters if c.id is not None for w in c.wounds]
    for chunk in _chunks(rows):
        await conn.execute(_WOUND_INSERT + ", ".join([_WOUND_VALUES] * len(chunk)), _flat(chunk))


def _wound_params(character_id: int, w: Wound) -> tuple[object, ...]:
    current = None if w.current is None else int(w.current)
    return (
        character_id,
        w.track.value,
        int(w.inflicted),
        current,
        int(w.fatal),
        w.note,
        w.inflicted_by,
        w.at,
    )


def _flat(rows: Iterable[tuple[object, ...]]) -> list[object]:
    return [value for row in rows for value in row]


def fresh_wounds(character: Character) -> int:
    """How many of the character's wounds are new (no id yet)."""
    return sum(1 for w in character.wounds if w.id is None)


def with_wound_ids(character: Character, first_id: int) -> Character:
    """The new wounds numbered from ``first_id``, in order."""
    ids = itertools.count(first_id)
    return replace(
        character, wounds=tuple(w if w.id is not None else replace(w, id=next(ids)) for w in character.wounds)
    )


def prepare_insert(
    guild_id: int, character: Character, now: str, character_id: int, first_wound_id: int
) -> Character:
    """A new character as :func:`write_insert` stores it: its id, guild, creation time, wound ids."""
    created = replace(character, id=character_id, guild_id=guild_id, created_at=character.created_at or now)
    return with_wound_ids(created, first_wound_id)


def write_insert(conn: sqlite3.Connection, character: Character) -> None:
    """On the writer's thread: insert a prepared character and its wounds."""
    assert character.id is not None
    try:
        conn.execute(_INSERT, _insert_params(character.id, character))
    except sqlite3.IntegrityError as exc:
        if _is_unique_violation(exc):
            raise UserError("name_taken", name=character.name) from None
        raise
    _write_wounds(conn, character.id, character.wounds)


def _write_wounds(conn: sqlite3.Connection, character_id: int, wounds: Iterable[Wound]) -> None:
    rows = [(w.id, *_wound_params(character_id, w)) for w in wounds]
    if rows:
        conn.executemany(_WOUND_INSERT_WITH_ID, rows)


def prepare_update(guild_id: int, character: Character, known: Character) -> Character:
    """``character`` as :func:`write_update` writes it over ``known`` (its state in this transaction):
    its guild and creation time; its wounds must be its own (new ones have no id yet)."""
    assert character.id is not None
    saved = replace(character, guild_id=guild_id, created_at=known.created_at)
    present = {w.id for w in saved.wounds if w.id is not None}
    foreign = present - {w.id for w in known.wounds}
    if foreign:
        raise ValueError(f"character {saved.id}: wounds {sorted(foreign)} are not its own")
    return saved


def write_update(conn: sqlite3.Connection, guild_id: int, saved: Character, known: Character) -> None:
    """On the writer's thread: write ``saved`` (every wound numbered; those ``known`` lacks are new)
    over ``known``, only what changed."""
    assert saved.id is not None
    key = name_key(saved.name)
    if character_params(saved, key) != character_params(known, name_key(known.name)):
        try:
            changed = conn.execute(
                f"UPDATE characters SET {_SET_COLUMNS} WHERE id = ? AND guild_id = ? AND deleted_at IS NULL",
                (*character_params(saved, key), saved.id, guild_id),
            ).rowcount
        except sqlite3.IntegrityError as exc:
            if _is_unique_violation(exc):
                raise UserError("name_taken", name=saved.name) from None
            raise
        if changed != 1:
            raise not_found(id=saved.id)
    before = {w.id: w for w in known.wounds}
    # Only current/fatal of a wound change after it is inflicted (the rules never touch the rest).
    changed_wounds = [
        (None if w.current is None else int(w.current), int(w.fatal), w.id, saved.id)
        for w in saved.wounds
        if w.id in before and (w.current, w.fatal) != (before[w.id].current, before[w.id].fatal)
    ]
    if changed_wounds:
        conn.executemany(
            "UPDATE wounds SET current_severity = ?, fatal = ? WHERE id = ? AND character_id = ?",
            changed_wounds,
        )
    present = {w.id for w in saved.wounds}
    removed = [(wid, saved.id) for wid in before.keys() - present]
    if removed:
        conn.executemany("DELETE FROM wounds WHERE id = ? AND character_id = ?", removed)
    _write_wounds(conn, saved.id, [w for w in saved.wounds if w.id not in before])


async def insert_wounds(
    conn: aiosqlite.Connection, character_id: int, wounds: Sequence[Wound]
) -> tuple[Wound, ...]:
    """Insert the wounds whose id is None (one statement per 500); return all with their ids."""
    fresh = [w for w in wounds if w.id is None]
    ids: list[int] = []
    for chunk in _chunks(fresh):
        rows = await conn.execute_fetchall(
            _WOUND_INSERT + ", ".join([_WOUND_VALUES] * len(chunk)) + " RETURNING id",
            _flat(_wound_params(character_id, w) for w in chunk),
        )
        # New rowids grow with insertion order; RETURNING's own order is unspecified.
        ids.extend(sorted(int(r[0]) for r in rows))
    given = iter(ids)
    return tuple(w if w.id is not None else replace(w, id=next(given)) for w in wounds)


async def update(
    conn: aiosqlite.Connection, guild_id: int, character: Character, known: Character
) -> Character:
    """Write ``character`` over ``known`` (its state in this transaction): only what changed."""
    assert character.id is not None
    saved = replace(character, guild_id=guild_id, created_at=known.created_at)
    key = name_key(saved.name)
    if character_params(saved, key) != character_params(known, name_key(known.name)):
        try:
            async with conn.execute(
                f"UPDATE characters SET {_SET_COLUMNS} WHERE id = ? AND guild_id = ? AND deleted_at IS NULL",
                (*character_params(saved, key), saved.id, guild_id),
            ) as cursor:
                changed = cursor.rowcount
        except sqlite3.IntegrityError as exc:
            if _is_unique_violation(exc):
                raise UserError("name_taken", name=character.name) from None
            raise
        if changed != 1:
            raise not_found(id=character.id)
    before = {w.id: w for w in known.wounds}
    present = {w.id for w in saved.wounds if w.id is not None}
    if present - before.keys():
        raise ValueError(f"character {saved.id}: wounds {sorted(present - before.keys())} are not its own")
    # Only current/fatal of a wound change after it is inflicted (the rules never touch the rest).
    changed_wounds = [
        (None if w.current is None else int(w.current), int(w.fatal), w.id, saved.id)
        for w in saved.wounds
        if w.id is not None and (w.current, w.fatal) != (before[w.id].current, before[w.id].fatal)
    ]
    if changed_wounds:
        await conn.executemany(
            "UPDATE wounds SET current_severity = ?, fatal = ? WHERE id = ? AND character_id = ?",
            changed_wounds,
        )
    removed = [(wid, saved.id) for wid in before.keys() - present]
    if removed:
        await conn.executemany("DELETE FROM wounds WHERE id = ? AND character_id = ?", removed)
    wounds = await insert_wounds(conn, character.id, saved.wounds)
    return replace(saved, wounds=wounds)


async def soft_delete(conn: aiosqlite.Connection, guild_id: int, ids: Sequence[int], now: str) -> None:
    await conn.executemany(
        "UPDATE characters SET deleted_at = ? WHERE id = ? AND guild_id = ? AND deleted_at IS NULL",
        [(now, cid, guild_id) for cid in ids],
    )


async def restore(conn: aiosqlite.Connection, guild_id: int, snapshots: Sequence[CharacterSnapshot]) -> None:
    """Put characters back exactly as snapshotted: columns, alive again, wounds' state; the wounds
    added since are removed."""
    if not snapshots:
        return
    characters = [s.character for s in snapshots]
    try:
        await conn.executemany(
            f"UPDATE characters SET {_SET_COLUMNS}, deleted_at = NULL WHERE id = ? AND guild_id = ?",
            [(*character_params(c, name_key(c.name)), c.id, guild_id) for c in characters],
        )
    except sqlite3.IntegrityError as exc:
        if _is_unique_violation(exc):
            raise UserError("name_taken", name=await _name_conflict(conn, guild_id, characters)) from None
        raise
    wanted = {s.character.id: {w.id for w in s.wounds} for s in snapshots}
    existing: dict[int, set[int]] = {cid: set() for cid in wanted if cid is not None}
    for chunk in _chunks(list(existing)):
        marks = ", ".join("?" * len(chunk))
        rows = await conn.execute_fetchall(
            f"SELECT id, character_id FROM wounds WHERE character_id IN ({marks})", tuple(chunk)
        )
        for wid, cid in rows:
            existing[cid].add(wid)
    extra = [(wid, cid) for cid, ids in existing.items() for wid in ids - wanted[cid]]
    missing = [wid for cid, ids in existing.items() for wid in wanted[cid] - ids]
    if missing:
        raise StorageError(f"cannot restore: wounds {sorted(missing)[:10]} no longer exist")
    if extra:
        await conn.executemany("DELETE FROM wounds WHERE id = ? AND character_id = ?", extra)
    states = [
        (None if w.current is None else int(w.current), int(w.fatal), w.id, s.character.id)
        for s in snapshots
        for w in s.wounds
    ]
    if states:
        await conn.executemany(
            "UPDATE wounds SET current_severity = ?, fatal = ? WHERE id = ? AND character_id = ?", states
        )
