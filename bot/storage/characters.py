"""A character's columns, declared once (from the fields of the rules' :class:`Character`), and its rows.

A character and its wounds load in one query (a LEFT JOIN): one consistent snapshot, one statement.
It loads with the wounds that still count (held, or the blow that killed): healed wounds stay in the
table, for the export, but no rule reads them, and a campaign's pile of them would otherwise be read,
copied and snapshotted by every change. Only the export loads every wound.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import fields
from typing import Any, TypeVar

from pydantic import TypeAdapter

from bot.errors import UserError
from bot.rules.character import Character, Wound
from bot.rules.severity import Severity, Track
from bot.storage.sql import Row

FIELDS = ("id", *(f.name for f in fields(Character) if f.name not in ("id", "wounds")))
"""The character's own columns, by the name of its field (a maxima field is three columns), its id
first."""
KEPT = tuple(name for name in FIELDS if name != "guild_id")
"""What an undo snapshot keeps of a character (with its wounds' state: ``[id, current, fatal]``)."""
CHANGEABLE = tuple(name for name in FIELDS if name not in ("id", "guild_id", "created_at"))
_RANKS = ("low", "mid", "high")


def _columns(name: str) -> list[str]:
    return [f"{name}_{rank}" for rank in _RANKS] if name.endswith("_max") else [name]


SELECT_EVERY_WOUND = (
    "SELECT "
    + ", ".join(f"c.{column}" for name in FIELDS for column in _columns(name))
    + ", w.id, w.track, w.inflicted_severity, w.current_severity, w.fatal, w.note, w.inflicted_by, "
    "w.inflicted_at FROM characters c LEFT JOIN wounds w ON w.character_id = c.id "
)
COUNTS = "(w.current_severity IS NOT NULL OR w.fatal = 1)"
"""Whether a wound still counts (held, or the blow that killed): what a load reads."""
SELECT = SELECT_EVERY_WOUND + f"AND {COUNTS} "
_WIDTH = sum(len(_columns(name)) for name in FIELDS)  # the character's columns of a row; the wound's follow
SET = ", ".join(f"{column} = ?" for name in CHANGEABLE for column in _columns(name)) + ", name_key = ?"
"""The changeable columns, for an UPDATE; their values: :func:`changeable`."""
_INSERTED = [column for name in FIELDS if name != "id" for column in _columns(name)] + ["name_key"]
INSERT = f"INSERT INTO characters ({', '.join(_INSERTED)}) VALUES "
INSERT_VALUES = "(" + ", ".join("?" for _ in _INSERTED) + ")"
WOUND_INSERT = (
    "INSERT INTO wounds (character_id, track, inflicted_severity, current_severity, fatal, note, "
    "inflicted_by, inflicted_at) VALUES "
)
WOUND_VALUES = "(?, ?, ?, ?, ?, ?, ?, ?)"
_CHUNK = 500  # rows per statement, far below either database's limit on bound parameters

T = TypeVar("T")


def name_key(name: str) -> str:
    """The key names are unique by, per server: blanks collapsed, NFKC, case-folded."""
    return unicodedata.normalize("NFKC", " ".join(name.split())).casefold()


def loose_key(name: str) -> str:
    """:func:`name_key` without accents: how a typed name is matched when no name has its exact key
    ("aelis" finds "Aélis")."""
    decomposed = unicodedata.normalize("NFKD", name_key(name))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def closest(typed: str, names: Iterable[str]) -> str | None:
    """The name a typed ``typed`` most likely meant, if any: the only one it starts (without accents or
    case), else the nearest one by spelling (a server has at most a few hundred names)."""
    by_key: dict[str, str] = {}
    for name in names:
        by_key.setdefault(loose_key(name), name)
    key = loose_key(typed)
    started = [name for k, name in by_key.items() if k.startswith(key)] if key else []
    if len(started) == 1:
        return started[0]
    near = difflib.get_close_matches(key, list(by_key), n=1, cutoff=0.6)
    return by_key[near[0]] if near else None


def not_found(name: str | None = None, close: str | None = None) -> UserError:
    """No such character in the server: named when the caller typed a name (with the ``close`` one
    it may have meant), else gone (an id)."""
    if name is not None and close is not None:
        return UserError(
            "No character called {ref} in this server. Did you mean {close}? Pick one from the "
            "suggestions, or see /character list.",
            ref=name,
            close=close,
        )
    return (
        UserError(
            "That character does not exist in this server (any more). Pick one from "
            "the suggestions, or see /character list."
        )
        if name is None
        else UserError(
            "No character called {ref} in this server. Pick one from the "
            "suggestions, or see /character list.",
            ref=name,
        )
    )


def name_taken(name: str) -> UserError:
    """Another present character of the server has that name."""
    return UserError(
        "There is already a character called {name} in this server. Choose another name.", name=name
    )


def storable(character_id: int) -> bool:
    """Whether ``character_id`` can be an id at all (64-bit signed): a larger number, e.g. from a
    forged button or a typed option, is simply not found."""
    return 0 < character_id < 2**63


def chunks(items: Sequence[T], size: int = _CHUNK) -> Iterable[Sequence[T]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def flat(rows: Iterable[Iterable[object]]) -> list[object]:
    return [value for row in rows for value in row]


def _values(character: Character, names: Iterable[str]) -> list[object]:
    found: list[object] = []
    for name in names:
        value = getattr(character, name)
        found.extend(value) if name.endswith("_max") else found.append(value)
    return found


def changeable(character: Character) -> tuple[object, ...]:
    """The values of :data:`SET`."""
    return (*_values(character, CHANGEABLE), name_key(character.name))


def insertable(character: Character) -> list[object]:
    """The values of :data:`INSERT_VALUES`."""
    return [*_values(character, (name for name in FIELDS if name != "id")), name_key(character.name)]


def wound_values(character_id: int, w: Wound) -> tuple[object, ...]:
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


# Every load decodes these for each wound row: a dict lookup instead of an enum call (a fifth of
# the time); an unknown value still raises ValueError, as the enum would.
_TRACKS: dict[object, Track] = {t.value: t for t in Track}
_SEVERITIES: dict[object, Severity] = {s.value: s for s in Severity}


def _enum(table: dict[object, Any], value: object, kind: type) -> Any:
    found = table.get(value)
    return found if found is not None else kind(value)


def _wound(row: Row) -> Wound:
    wid, track, inflicted, current, fatal, note, by, at = row[_WIDTH:]
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


_AT = [
    (name, sum(len(_columns(n)) for n in FIELDS[:i]), name.endswith("_max")) for i, name in enumerate(FIELDS)
]


def _character(row: Row, wounds: tuple[Wound, ...]) -> Character:
    values: dict[str, Any] = {
        name: tuple(row[at : at + 3]) if triple else row[at] for name, at, triple in _AT
    }
    return Character(**values, wounds=wounds)


def from_rows(rows: Iterable[Row]) -> list[Character]:
    """Characters from the rows of :data:`SELECT` (grouped by character in row order, wounds in row
    order)."""
    heads: dict[int, Row] = {}
    wounds: dict[int, list[Wound]] = {}
    for row in rows:
        cid = row[0]
        if cid not in heads:
            heads[cid] = row
            wounds[cid] = []
        if row[_WIDTH] is not None:
            wounds[cid].append(_wound(row))
    return [_character(head, tuple(wounds[cid])) for cid, head in heads.items()]


# ---- undo snapshots --------------------------------------------------------------------------------

WoundState = tuple[int, Severity | None, bool]
"""What of a wound can change after it was inflicted: ``[id, current, fatal]``. Wound rows are never
removed except by undo (healed wounds stay), so a wound's track, severity inflicted, note and author
need not be kept: restoring means deleting the wounds added since, and resetting the others'."""
_STATES: TypeAdapter[list[WoundState]] = TypeAdapter(list[WoundState])
_CHARACTER: TypeAdapter[Character] = TypeAdapter(Character)


def kept(character: Character) -> dict[str, Any]:
    """What an undo snapshot keeps of ``character``, as JSON."""
    states = [[w.id, w.current, w.fatal] for w in character.wounds if w.id is not None]
    return {**{name: getattr(character, name) for name in KEPT}, "wounds": states}


def restored(state: dict[str, Any], guild_id: int) -> tuple[Character, list[WoundState]]:
    """A character as an undo snapshot kept it (without wounds), and its wounds' state."""
    columns = {name: state[name] for name in KEPT}
    character = _CHARACTER.validate_python({**columns, "guild_id": guild_id})
    return character, _STATES.validate_python(state["wounds"])
