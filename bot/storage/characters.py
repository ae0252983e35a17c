"""SQL of characters and their wounds. Every statement is scoped by ``guild_id``.

A character and its wounds load in one query (a LEFT JOIN): one consistent snapshot, one statement.
It loads with the wounds that still count (held, or the blow that killed): healed wounds stay in the
table, for the export, but no rule reads them, and a campaign's pile of them would otherwise be read,
copied and snapshotted by every change. Only the export loads every wound.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any, TypeVar

from bot.errors import UserError
from bot.rules.character import Character, Wound
from bot.rules.severity import Severity, Track
from bot.storage.sql import Row, Sql, UniqueViolation

COUNTS = "(w.current_severity IS NOT NULL OR w.fatal = 1)"
"""Whether a wound still counts (held, or the blow that killed): what a load reads."""
_SELECT_EVERY_WOUND = (
    "SELECT c.id, c.guild_id, c.owner_id, c.name, c.corps, c.resistance, c.intuition, c.preset, "
    "c.physical_max_low, c.physical_max_mid, c.physical_max_high, "
    "c.mental_max_low, c.mental_max_mid, c.mental_max_high, c.rest_days, c.created_at, "
    "w.id, w.track, w.inflicted_severity, w.current_severity, w.fatal, w.note, w.inflicted_by, "
    "w.inflicted_at FROM characters c LEFT JOIN wounds w ON w.character_id = c.id "
)
_SELECT = _SELECT_EVERY_WOUND + f"AND {COUNTS} "
_N_CHARACTER = 16  # the character's columns of a row; the wound's follow
SET_COLUMNS = (
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


def name_key(name: str) -> str:
    """The key names are unique by, per server: blanks collapsed, NFKC, case-folded."""
    return unicodedata.normalize("NFKC", " ".join(name.split())).casefold()


def not_found(name: str | None = None) -> UserError:
    """No such character in the server: named when the caller typed a name, else gone (an id)."""
    return UserError("character_gone") if name is None else UserError("character_not_found", ref=name)


def chunks(items: Sequence[T], size: int = _CHUNK) -> Iterable[Sequence[T]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _flat(rows: Iterable[tuple[object, ...]]) -> list[object]:
    return [value for row in rows for value in row]


# ---- rows and rules objects ------------------------------------------------------------------------

# Every load decodes these for each wound row: a dict lookup instead of an enum call (a fifth of
# the time); an unknown value still raises ValueError, as the enum would.
_TRACKS: dict[object, Track] = {t.value: t for t in Track}
_SEVERITIES: dict[object, Severity] = {s.value: s for s in Severity}


def _enum(table: dict[object, Any], value: object, kind: type) -> Any:
    found = table.get(value)
    return found if found is not None else kind(value)


def _wound(row: Row) -> Wound:
    wid, track, inflicted, current, fatal, note, by, at = row[_N_CHARACTER:]
    return Wound(
        track=_enum(_TRACKS, track, Track),
        inflicted=_enum(_SEVERITIES, inflicted, Severity),
        current=None if current is None else _enum(_SEVERITIES, current, Severity),
        note=note,
        inflicted_by=by,
        at=at,
        fatal=bool(fatal),
        id=wid,
    )


def _character(row: Row, wounds: tuple[Wound, ...]) -> Character:
    (cid, guild_id, owner_id, name, corps, resistance, intuition, preset) = row[:8]
    p_low, p_mid, p_high, m_low, m_mid, m_high, rest_days, created_at = row[8:_N_CHARACTER]
    return Character(
        name=name,
        corps=corps,
        resistance=resistance,
        intuition=intuition,
        preset=preset,
        physical_max=(p_low, p_mid, p_high),
        mental_max=(m_low, m_mid, m_high),
        wounds=wounds,
        rest_days=rest_days,
        owner_id=owner_id,
        id=cid,
        guild_id=guild_id,
        created_at=created_at,
    )


def _from_rows(rows: Iterable[Row]) -> list[Character]:
    """Characters from the rows of ``_SELECT`` (grouped by character in row order, wounds in row order)."""
    heads: dict[int, Row] = {}
    wounds: dict[int, list[Wound]] = {}
    for row in rows:
        cid = row[0]
        if cid not in heads:
            heads[cid] = row
            wounds[cid] = []
        if row[_N_CHARACTER] is not None:
            wounds[cid].append(_wound(row))
    return [_character(head, tuple(wounds[cid])) for cid, head in heads.items()]


def character_params(character: Character) -> tuple[object, ...]:
    """The values of the mutable character columns, in ``SET_COLUMNS`` order."""
    return (
        character.owner_id,
        character.name,
        name_key(character.name),
        character.corps,
        character.resistance,
        character.intuition,
        character.preset,
        *character.physical_max,
        *character.mental_max,
        character.rest_days,
    )


# ---- reads -----------------------------------------------------------------------------------------


def _storable(character_id: int) -> bool:
    """Whether ``character_id`` can be an id at all (64-bit signed): a larger number, e.g. from a
    forged button or a typed option, is simply not found."""
    return 0 < character_id < 2**63


def _first(sql: Sql, where: str, params: Sequence[object]) -> Character | None:
    """The living character ``where`` finds, if any."""
    rows = sql.rows(_SELECT + f"WHERE {where} AND c.deleted_at IS NULL ORDER BY w.id", params)
    found = _from_rows(rows)
    return found[0] if found else None


def load(sql: Sql, guild_id: int, character_id: int) -> Character:
    found = _storable(character_id) and _first(sql, "c.id = ? AND c.guild_id = ?", (character_id, guild_id))
    if not found:
        raise not_found()
    return found


def load_by_name(sql: Sql, guild_id: int, name: str) -> Character:
    # No stored name holds NUL (PostgreSQL would refuse the query itself).
    key = name_key(name)
    found = None if "\x00" in name else _first(sql, "c.guild_id = ? AND c.name_key = ?", (guild_id, key))
    if found is None:
        raise not_found(name)
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
    return _from_rows(rows)


def load_many(sql: Sql, guild_id: int, ids: Sequence[int]) -> list[Character]:
    """The living characters of the server among ``ids`` (found by a search: a few dozen at most)."""
    if not ids:
        return []
    marks = ", ".join("?" for _ in ids)
    rows = sql.rows(
        _SELECT + f"WHERE c.guild_id = ? AND c.id IN ({marks}) AND c.deleted_at IS NULL ORDER BY c.id, w.id",
        (guild_id, *ids),
    )
    return _from_rows(rows)


def exists(sql: Sql, guild_id: int, character_id: int, *, deleted_too: bool) -> bool:
    if not _storable(character_id):
        return False
    live = "" if deleted_too else " AND deleted_at IS NULL"
    return bool(
        sql.rows(f"SELECT 1 FROM characters WHERE id = ? AND guild_id = ?{live}", (character_id, guild_id))
    )


def npc_ids(sql: Sql, guild_id: int) -> list[int]:
    """Ids of the server's NPCs, deleted ones included (a secret NPC's history stays secret)."""
    rows = sql.rows("SELECT id FROM characters WHERE guild_id = ? AND owner_id IS NULL", (guild_id,))
    return [r[0] for r in rows]


# ---- writes ----------------------------------------------------------------------------------------


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


def insert(sql: Sql, characters: Sequence[Character]) -> list[Character]:
    """Insert new characters of one server (their guild and creation time set) with their wounds;
    they come back with the ids the database gave."""
    ids: dict[str, int] = {}
    try:
        for chunk in chunks(characters):
            rows = sql.rows(
                _INSERT + ", ".join([_CHARACTER_VALUES] * len(chunk)) + " RETURNING id, name_key",
                _flat((c.guild_id, *character_params(c), c.created_at) for c in chunk),
            )
            ids.update((key, int(cid)) for cid, key in rows)
    except UniqueViolation:  # several at once (an import) come with names checked, all free
        raise UserError("name_taken", name=characters[0].name) from None
    return _with_new_wounds(sql, [replace(c, id=ids[name_key(c.name)]) for c in characters])


def _with_new_wounds(sql: Sql, characters: list[Character]) -> list[Character]:
    """Insert the wounds of saved ``characters`` whose id is None; the characters with their ids."""
    fresh = [(cid, w) for c in characters if (cid := c.id) is not None for w in c.wounds if w.id is None]
    if not fresh:
        return characters
    ids: list[int] = []
    for chunk in chunks(fresh):
        rows = sql.rows(
            _WOUND_INSERT + ", ".join([_WOUND_VALUES] * len(chunk)) + " RETURNING id",
            _flat(_wound_params(cid, w) for cid, w in chunk),
        )
        # Ids grow with the order of the VALUES; RETURNING's own order is unspecified.
        ids.extend(sorted(int(r[0]) for r in rows))
    given = iter(ids)
    return [
        replace(c, wounds=tuple(w if w.id is not None else replace(w, id=next(given)) for w in c.wounds))
        for c in characters
    ]


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
    params = character_params(character)
    if params != character_params(known):
        try:
            changed = sql.run(
                f"UPDATE characters SET {SET_COLUMNS} WHERE id = ? AND guild_id = ? AND deleted_at IS NULL",
                (*params, character_id, guild_id),
            )
        except UniqueViolation:
            raise UserError("name_taken", name=character.name) from None
        if changed != 1:
            raise not_found()
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
    (saved,) = _with_new_wounds(sql, [character])
    return replace(saved, guild_id=guild_id, created_at=known.created_at)


def soft_delete(sql: Sql, guild_id: int, ids: Sequence[int], now: str) -> None:
    sql.run_many(
        "UPDATE characters SET deleted_at = ? WHERE id = ? AND guild_id = ? AND deleted_at IS NULL",
        [(now, cid, guild_id) for cid in ids],
    )
