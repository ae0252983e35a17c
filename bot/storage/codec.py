"""Turning rows into rules objects and back: names, timestamps, characters and their snapshots."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.rules.character import Character, Wound
from bot.rules.severity import Severity, Track

Row = Sequence[Any]

CHARACTER_COLUMNS = (
    "c.id, c.guild_id, c.owner_id, c.name, c.corps, c.resistance, c.intuition, c.preset, "
    "c.physical_max_low, c.physical_max_mid, c.physical_max_high, "
    "c.mental_max_low, c.mental_max_mid, c.mental_max_high, "
    "c.rest_days, c.created_at"
)
WOUND_COLUMNS = (
    "w.id, w.track, w.inflicted_severity, w.current_severity, w.fatal, w.note, w.inflicted_by, w.inflicted_at"
)
_N_CHARACTER = 16


def name_key(name: str) -> str:
    """The key names are unique by, per server: blanks collapsed, NFKC, case-folded."""
    return unicodedata.normalize("NFKC", " ".join(name.split())).casefold()


def dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


# Every load decodes these for each wound row: a dict lookup instead of an enum call (a fifth of
# the time); an unknown value still raises ValueError, as the enum would.
_TRACKS: dict[object, Track] = {t.value: t for t in Track}
_SEVERITIES: dict[object, Severity] = {s.value: s for s in Severity}


def _enum(table: dict[object, Any], value: object, kind: type) -> Any:
    found = table.get(value)
    return found if found is not None else kind(value)


def _severity(value: int | None) -> Severity | None:
    return None if value is None else _enum(_SEVERITIES, value, Severity)


def wound_from_row(row: Row, offset: int = 0) -> Wound:
    wid, track, inflicted, current, fatal, note, by, at = row[offset : offset + 8]
    return Wound(
        track=_enum(_TRACKS, track, Track),
        inflicted=_enum(_SEVERITIES, inflicted, Severity),
        current=_severity(current),
        note=note,
        inflicted_by=by,
        at=at,
        fatal=bool(fatal),
        id=wid,
    )


def _character_from_row(row: Row, wounds: tuple[Wound, ...]) -> Character:
    (cid, guild_id, owner_id, name, corps, resistance, intuition, preset) = row[:8]
    p_low, p_mid, p_high, m_low, m_mid, m_high, rest_days, created_at = row[8:16]
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


def characters_from_rows(rows: Iterable[Row]) -> list[Character]:
    """Characters from ``CHARACTER_COLUMNS, WOUND_COLUMNS`` rows (a LEFT JOIN, grouped by character
    in row order, wounds in row order)."""
    heads: dict[int, Row] = {}
    wounds: dict[int, list[Wound]] = {}
    for row in rows:
        cid = row[0]
        if cid not in heads:
            heads[cid] = row
            wounds[cid] = []
        if row[_N_CHARACTER] is not None:
            wounds[cid].append(wound_from_row(row, _N_CHARACTER))
    return [_character_from_row(head, tuple(wounds[cid])) for cid, head in heads.items()]


def character_params(character: Character, key: str) -> tuple[object, ...]:
    """The values of the mutable character columns, in ``UPDATE``/``INSERT`` order (see characters.py)."""
    return (
        character.owner_id,
        character.name,
        key,
        character.corps,
        character.resistance,
        character.intuition,
        character.preset,
        *character.physical_max,
        *character.mental_max,
        character.rest_days,
    )


@dataclass(frozen=True)
class WoundState:
    """What of a wound can change after it was inflicted."""

    id: int
    current: Severity | None
    fatal: bool


@dataclass(frozen=True)
class CharacterSnapshot:
    """A character as it was before a change: every column, and the changeable state of its wounds.

    Wound rows are never removed except by undo (healed wounds stay), so a wound's track, severity
    inflicted, note and author need not be copied: restoring means deleting the wounds added since,
    and resetting ``current``/``fatal`` of the others.
    """

    character: Character
    wounds: tuple[WoundState, ...]
    out: frozenset[Track] | None = None
    """Of a snapshot written before migration 0004: the tracks its stored flags said the character was
    dead or incoherent on. Those flags, not the ``fatal`` marks, said it then (0004 made them agree)."""

    @classmethod
    def of(cls, character: Character) -> CharacterSnapshot:
        states = tuple(WoundState(w.id, w.current, w.fatal) for w in character.wounds if w.id is not None)
        return cls(character, states)

    def to_json(self) -> dict[str, object]:
        c = self.character
        return {
            "id": c.id,
            "owner_id": c.owner_id,
            "name": c.name,
            "corps": c.corps,
            "resistance": c.resistance,
            "intuition": c.intuition,
            "preset": c.preset,
            "physical_max": list(c.physical_max),
            "mental_max": list(c.mental_max),
            "rest_days": c.rest_days,
            "created_at": c.created_at,
            "wounds": [[w.id, None if w.current is None else int(w.current), w.fatal] for w in self.wounds],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], guild_id: int) -> CharacterSnapshot:
        p_max, m_max = data["physical_max"], data["mental_max"]
        character = Character(
            name=data["name"],
            corps=data["corps"],
            resistance=data["resistance"],
            intuition=data["intuition"],
            preset=data["preset"],
            physical_max=(p_max[0], p_max[1], p_max[2]),
            mental_max=(m_max[0], m_max[1], m_max[2]),
            rest_days=data["rest_days"],
            owner_id=data["owner_id"],
            id=data["id"],
            guild_id=guild_id,
            created_at=data["created_at"],
        )
        states = tuple(WoundState(wid, _severity(cur), bool(fatal)) for wid, cur, fatal in data["wounds"])
        if "dead" not in data:
            return cls(character, states)
        flags = ((Track.PHYSICAL, data["dead"]), (Track.MENTAL, data["incoherent"]))
        return cls(character, states, frozenset(track for track, flag in flags if flag))
