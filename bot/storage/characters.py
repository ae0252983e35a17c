"""SQL of characters and their wounds. Every statement is scoped by ``guild_id``.

A character and its wounds load in one query (a LEFT JOIN): one consistent snapshot, one statement.
It loads with the wounds that still count (held, or the blow that killed): healed wounds stay in the
table, for the export, but no rule reads them, and a campaign's pile of them would otherwise be read,
copied and snapshotted by every change. Only the export loads every wound.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import TypeVar

from bot.errors import UserError
from bot.rules.character import Character, Wound
from bot.rules.severity import Track
from bot.storage.codec import (
    CHARACTER_COLUMNS,
    WOUND_COLUMNS,
    CharacterSnapshot,
    WoundState,
    character_params,
    characters_from_rows,
    name_key,
)
from bot.storage.errors import StorageError
from bot.storage.sql import Sql, UniqueViolation

_COUNTS = "(w.current_severity IS NOT NULL OR w.fatal = 1)"
_SELECT_EVERY_WOUND = (
    f"SELECT {CHARACTER_COLUMNS}, {WOUND_COLUMNS} FROM characters c "
    "LEFT JOIN wounds w ON w.character_id = c.id "
)
_SELECT = _SELECT_EVERY_WOUND + f"AND {_COUNTS} "
_SET_COLUMNS = (
    "owner_id = ?, name = ?, name_key = ?, corps = ?, resistance = ?, intuition = ?, preset = ?, "
    "physical_max_low = ?, physical_max_mid = ?, physical_max_high = ?, "
    "mental_max_low = ?, mental_max_mid = ?, mental_max_high = ?, rest_days = ?"
)
_INSERT = (
    "INSERT INTO characters (guild_id, owner_id, name, name_key, corps, resistance, intuition, preset, "
    "physical_max_low, physical_max_mid, physical_max_high, mental_max_low, mental_max_mid, "
    "mental_max_high, rest_days, created_at) VALUES "
)
_CHARACTER_VALUES = "(" + ", ".join(["?"] * 16) + ")"
_WOUND_INSERT = (
    "INSERT INTO wounds (character_id, track, inflicted_severity, current_severity, fatal, note, "
    "inflicted_by, inflicted_at) VALUES "
)
_WOUND_VALUES = "(?, ?, ?, ?, ?, ?, ?, ?)"
_CHUNK = 500  # rows per statement, far below either database's limit on bound parameters

T = TypeVar("T")


def not_found(**params: object) -> UserError:
    return UserError("character_not_found", **params)


def _chunks(items: Sequence[T], size: int = _CHUNK) -> Iterable[Sequence[T]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _flat(rows: Iterable[tuple[object, ...]]) -> list[object]:
    return [value for row in rows for value in row]


# ---- reads -----------------------------------------------------------------------------------------


def _storable(character_id: int) -> bool:
    """Whether ``character_id`` can be an id at all (64-bit signed): a larger number, e.g. from a
    forged button or a typed option, is simply not found."""
    return 0 < character_id < 2**63


def _first(sql: Sql, where: str, params: Sequence[object]) -> Character | None:
    """The living character ``where`` finds, if any."""
    rows = sql.rows(_SELECT + f"WHERE {where} AND c.deleted_at IS NULL ORDER BY w.id", params)
    found = characters_from_rows(rows)
    return found[0] if found else None


def load(sql: Sql, guild_id: int, character_id: int) -> Character:
    found = _storable(character_id) and _first(sql, "c.id = ? AND c.guild_id = ?", (character_id, guild_id))
    if not found:
        raise not_found(id=character_id)
    return found


def load_by_name(sql: Sql, guild_id: int, name: str) -> Character:
    # No stored name holds NUL (PostgreSQL would refuse the query itself).
    key = name_key(name)
    found = None if "\x00" in name else _first(sql, "c.guild_id = ? AND c.name_key = ?", (guild_id, key))
    if found is None:
        raise not_found(name=name)
    return found


def load_active(sql: Sql, guild_id: int, user_id: int) -> Character | None:
    active = "SELECT a.character_id FROM active_characters a WHERE a.guild_id = ? AND a.user_id = ?"
    return _first(sql, f"c.id = ({active}) AND c.guild_id = ?", (guild_id, user_id, guild_id))


def load_all(sql: Sql, guild_id: int, *, every_wound: bool = False) -> list[Character]:
    """The living characters of a server, ordered by name; with their healed wounds too when
    ``every_wound`` (the export)."""
    rows = sql.rows(
        (_SELECT_EVERY_WOUND if every_wound else _SELECT)
        + "WHERE c.guild_id = ? AND c.deleted_at IS NULL ORDER BY c.name_key, c.id, w.id",
        (guild_id,),
    )
    return characters_from_rows(rows)


def load_many(sql: Sql, guild_id: int, ids: Sequence[int]) -> list[Character]:
    """The living characters of the server among ``ids`` (at most a few dozen: one query)."""
    wanted = [i for i in ids if _storable(i)][:_CHUNK]
    if not wanted:
        return []
    marks = ", ".join("?" for _ in wanted)
    rows = sql.rows(
        _SELECT + f"WHERE c.guild_id = ? AND c.id IN ({marks}) AND c.deleted_at IS NULL ORDER BY c.id, w.id",
        (guild_id, *wanted),
    )
    return characters_from_rows(rows)


def exists(sql: Sql, guild_id: int, character_id: int, *, deleted_too: bool) -> bool:
    if not _storable(character_id):
        return False
    live = "" if deleted_too else " AND deleted_at IS NULL"
    return bool(
        sql.rows(f"SELECT 1 FROM characters WHERE id = ? AND guild_id = ?{live}", (character_id, guild_id))
    )


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
) -> list[tuple[int, str]]:
    """(id, name) of living characters (of ``owner_id``; NPCs only with ``npcs``) whose name contains
    ``text``; prefix matches first."""
    if limit <= 0 or "\x00" in text:  # no stored name holds NUL
        return []
    key = name_key(text)
    base = "SELECT c.id, c.name FROM characters c WHERE c.guild_id = ? AND c.deleted_at IS NULL "
    params: list[object] = [guild_id]
    if npcs:
        base += "AND c.owner_id IS NULL "
    elif owner_id is not None:
        base += "AND c.owner_id = ? "
        params.append(owner_id)
    if not key:
        rows = sql.rows(base + "ORDER BY c.name_key LIMIT ?", (*params, limit))
        return [(r[0], r[1]) for r in rows]
    # Prefix: a range on the (guild_id, name_key) index. U+10FFFF sorts after every other character
    # (bytewise: name_key is COLLATE "C" on PostgreSQL).
    prefix = "AND c.name_key >= ? AND c.name_key < ? "
    bounds = (key, key + "\U0010ffff")
    rows = sql.rows(base + prefix + "ORDER BY c.name_key LIMIT ?", (*params, *bounds, limit))
    found = [(r[0], r[1]) for r in rows]
    if len(found) < limit:
        rows = sql.rows(
            base + "AND c.name_key LIKE ? ESCAPE '\\' AND NOT (c.name_key >= ? AND c.name_key < ?) "
            "ORDER BY c.name_key LIMIT ?",
            (*params, f"%{_like_escape(key)}%", *bounds, limit - len(found)),
        )
        found.extend((r[0], r[1]) for r in rows)
    return found


def deleted(sql: Sql, guild_id: int, ref: str, *, limit: int = 1) -> list[tuple[int, str]]:
    """(id, name) of deleted characters of the server named by ``ref`` (an id, or a name or the start
    of one), most recently deleted first: their history stays readable and undo can bring them back."""
    if limit <= 0 or "\x00" in ref or not ref.strip():  # no stored name holds NUL, or is blank
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


def npc_ids(sql: Sql, guild_id: int) -> list[int]:
    """Ids of the server's NPCs, deleted ones included (a secret NPC's history stays secret)."""
    rows = sql.rows("SELECT id FROM characters WHERE guild_id = ? AND owner_id IS NULL", (guild_id,))
    return [r[0] for r in rows]


# ---- writes ----------------------------------------------------------------------------------------


def _insert_params(c: Character) -> tuple[object, ...]:
    return (c.guild_id, *character_params(c, name_key(c.name)), c.created_at)


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


def insert(sql: Sql, character: Character) -> Character:
    """Insert a new character (its guild and creation time set) and its wounds; it comes back with
    the ids the database gave."""
    try:
        found = sql.row(_INSERT + _CHARACTER_VALUES + " RETURNING id", _insert_params(character))
    except UniqueViolation:
        raise UserError("name_taken", name=character.name) from None
    assert found is not None
    saved = replace(character, id=int(found[0]))
    return replace(saved, wounds=_insert_wounds(sql, int(found[0]), saved.wounds))


def insert_many(sql: Sql, characters: Sequence[Character]) -> list[Character]:
    """Insert many new characters of one server (an import) with their wounds; their ids back."""
    ids: dict[str, int] = {}
    try:
        for chunk in _chunks(characters):
            values = ", ".join([_CHARACTER_VALUES] * len(chunk))
            rows = sql.rows(
                _INSERT + values + " RETURNING id, name_key", _flat(_insert_params(c) for c in chunk)
            )
            ids.update((key, int(cid)) for cid, key in rows)
    except UniqueViolation:
        raise UserError("name_taken", name=characters[0].name) from None
    saved = [replace(c, id=ids[name_key(c.name)]) for c in characters]
    wounds = [_wound_params(c.id, w) for c in saved if c.id is not None for w in c.wounds]
    for batch in _chunks(wounds):
        sql.run(_WOUND_INSERT + ", ".join([_WOUND_VALUES] * len(batch)), _flat(batch))
    return saved


def _insert_wounds(sql: Sql, character_id: int, wounds: Sequence[Wound]) -> tuple[Wound, ...]:
    """Insert the wounds whose id is None; return all with their ids."""
    fresh = [w for w in wounds if w.id is None]
    if not fresh:
        return tuple(wounds)
    ids: list[int] = []
    for chunk in _chunks(fresh):
        rows = sql.rows(
            _WOUND_INSERT + ", ".join([_WOUND_VALUES] * len(chunk)) + " RETURNING id",
            _flat(_wound_params(character_id, w) for w in chunk),
        )
        # Ids grow with the order of the VALUES; RETURNING's own order is unspecified.
        ids.extend(sorted(int(r[0]) for r in rows))
    given = iter(ids)
    return tuple(w if w.id is not None else replace(w, id=next(given)) for w in wounds)


def update(sql: Sql, guild_id: int, character: Character, known: Character) -> Character:
    """Write ``character`` over ``known`` (its state in this unit), only what changed; it comes back
    with the ids of its new wounds."""
    character_id = character.id
    assert character_id is not None
    before = {w.id: w for w in known.wounds}
    present = {w.id for w in character.wounds if w.id is not None}
    if present - before.keys():
        raise ValueError(
            f"character {character_id}: wounds {sorted(present - before.keys())} are not its own"
        )
    key = name_key(character.name)
    params = character_params(character, key)
    if params != character_params(known, name_key(known.name)):
        try:
            changed = sql.run(
                f"UPDATE characters SET {_SET_COLUMNS} WHERE id = ? AND guild_id = ? AND deleted_at IS NULL",
                (*params, character_id, guild_id),
            )
        except UniqueViolation:
            raise UserError("name_taken", name=character.name) from None
        if changed != 1:
            raise not_found(id=character_id)
    # Only current/fatal of a wound change after it is inflicted (the rules never touch the rest).
    sql.run_many(
        "UPDATE wounds SET current_severity = ?, fatal = ? WHERE id = ? AND character_id = ?",
        [
            (None if w.current is None else int(w.current), int(w.fatal), w.id, character_id)
            for w in character.wounds
            if w.id is not None and (w.current, w.fatal) != (before[w.id].current, before[w.id].fatal)
        ],
    )
    sql.run_many(
        "DELETE FROM wounds WHERE id = ? AND character_id = ?",
        [(wid, character_id) for wid in before.keys() - present],
    )
    wounds = _insert_wounds(sql, character_id, character.wounds)
    return replace(character, guild_id=guild_id, created_at=known.created_at, wounds=wounds)


def soft_delete(sql: Sql, guild_id: int, ids: Sequence[int], now: str) -> None:
    sql.run_many(
        "UPDATE characters SET deleted_at = ? WHERE id = ? AND guild_id = ? AND deleted_at IS NULL",
        [(now, cid, guild_id) for cid in ids],
    )


def _taken_name(sql: Sql, guild_id: int, characters: Sequence[Character]) -> str | None:
    """The first name of ``characters`` that another living character of the server has."""
    for c in characters:
        if sql.rows(
            "SELECT 1 FROM characters WHERE guild_id = ? AND name_key = ? AND deleted_at IS NULL AND id <> ?",
            (guild_id, name_key(c.name), c.id),
        ):
            return c.name
    return None


def restore(sql: Sql, guild_id: int, snapshots: Sequence[CharacterSnapshot]) -> None:
    """Put characters back exactly as snapshotted: columns, alive again, wounds' state; the wounds
    added since are removed."""
    if not snapshots:
        return
    characters = [s.character for s in snapshots]
    taken = _taken_name(sql, guild_id, characters)  # checked first: PostgreSQL aborts on a violation
    if taken is not None:
        raise UserError("name_taken", name=taken)
    sql.run_many(
        f"UPDATE characters SET {_SET_COLUMNS}, deleted_at = NULL WHERE id = ? AND guild_id = ?",
        [(*character_params(c, name_key(c.name)), c.id, guild_id) for c in characters],
    )
    wanted = {s.character.id: {w.id for w in s.wounds} for s in snapshots}
    existing: dict[int, set[int]] = {cid: set() for cid in wanted if cid is not None}
    counting: set[int] = set()
    tracks: dict[int, tuple[Track, bool]] = {}  # wound id -> its track, and whether it is fatal
    for chunk in _chunks(list(existing)):
        marks = ", ".join("?" * len(chunk))
        for wid, cid, counts, track, fatal in sql.rows(
            f"SELECT w.id, w.character_id, {_COUNTS}, w.track, w.fatal FROM wounds w "
            f"WHERE w.character_id IN ({marks})",
            chunk,
        ):
            existing[cid].add(wid)
            tracks[wid] = (Track(track), bool(fatal))
            if counts:
                counting.add(wid)
    # An older snapshot's flags say what the character was (CharacterSnapshot.out): the fatal wound
    # migration 0004 gave a flag stays, a fatal mark the flags denied is not put back.
    kept = {
        wid
        for s in snapshots
        if s.out and s.character.id is not None
        for wid in existing[s.character.id]
        if tracks[wid][1] and tracks[wid][0] in s.out
    }
    # Added since: the wounds that count now and not then. A wound healed before the snapshot is not
    # in it (see the module's docstring) and stays as it is.
    extra = [(wid, cid) for cid, ids in existing.items() for wid in (ids & counting) - wanted[cid] - kept]
    missing = [wid for cid, ids in existing.items() for wid in wanted[cid] - ids]
    if missing:
        raise StorageError(f"cannot restore: wounds {sorted(missing)[:10]} no longer exist")
    sql.run_many("DELETE FROM wounds WHERE id = ? AND character_id = ?", extra)
    sql.run_many(
        "UPDATE wounds SET current_severity = ?, fatal = ? WHERE id = ? AND character_id = ?",
        [
            (None if w.current is None else int(w.current), int(_fatal(s, w, tracks)), w.id, s.character.id)
            for s in snapshots
            for w in s.wounds
        ],
    )


def _fatal(snapshot: CharacterSnapshot, wound: WoundState, tracks: dict[int, tuple[Track, bool]]) -> bool:
    """The fatal mark to put back on ``wound``: the snapshot's, unless its flags denied it."""
    out = snapshot.out
    return wound.fatal if out is None else wound.fatal and tracks[wound.id][0] in out
