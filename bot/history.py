"""What the event log holds: the kinds of change, and a typed record per kind (what the UI shows).

Storage keeps an event's record as JSON in its ``details`` column; :func:`details_of` (written by the
actions) and :func:`record_of` (read by the UI) are the one boundary between the two. The JSON is the
one older versions wrote, so their rows still read; a row that does not fit its kind reads as
:class:`Unreadable`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import TypeVar

from bot.rules.damage import Harm
from bot.rules.severity import Severity, Track, parse_severity, severity_name

T = TypeVar("T")


class EventKind(StrEnum):
    CHARACTER_CREATE = "character_create"
    CHARACTER_EDIT = "character_edit"
    CHARACTER_DELETE = "character_delete"
    CHARACTER_SELECT = "character_select"
    WOUND = "wound"
    MENTAL = "mental"
    HEAL_ROLL = "heal_roll"
    HEAL_WOUND = "heal_wound"
    HEAL_MENTAL = "heal_mental"
    REST = "rest"
    CONFIG = "config"
    IMPORT = "import"
    UNDO = "undo"
    VIEW_LINK = "view_link"
    """A player-view link was given (``/board link:True``); not undone by /undo (revoke it instead)."""


@dataclass(frozen=True)
class Event:
    """One recorded change (or an undo) in a server, as storage keeps it: ``details`` is the JSON of
    its record (read it with :func:`record_of`)."""

    id: int
    guild_id: int
    kind: str
    actor_id: int | None
    at: str
    character_id: int | None = None
    character_name: str | None = None
    details: dict[str, object] = field(default_factory=dict)
    undone: bool = False
    undoes: int | None = None
    """For an ``undo`` event: the id of the event it reverted."""


# ---- one record per kind ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Created:
    owner_id: int | None = None
    """``None``: an NPC."""
    kind = EventKind.CHARACTER_CREATE


@dataclass(frozen=True)
class Edited:
    """The values a ``/character edit`` gave (the others are ``None``)."""

    name: str | None = None
    corps: int | None = None
    resistance: int | None = None
    intuition: int | None = None
    preset: str | None = None
    kind = EventKind.CHARACTER_EDIT

    def changes(self) -> dict[str, str | int]:
        """The fields given, in order."""
        found = {f.name: getattr(self, f.name) for f in fields(self)}
        return {key: value for key, value in found.items() if value is not None}


@dataclass(frozen=True)
class Deleted:
    kind = EventKind.CHARACTER_DELETE


@dataclass(frozen=True)
class Selected:
    kind = EventKind.CHARACTER_SELECT


@dataclass(frozen=True)
class Wounded:
    track: Track
    severity: Severity
    count: int = 1
    note: str = ""
    became: tuple[Severity | None, ...] = ()
    """What each wound became after escalation; ``None``: beyond the track (fatal, incoherent)."""
    not_applied: int = 0
    maxima: tuple[int, int, int] | None = None
    """The track's maxima then, which say why a wound escalated (older events have none)."""

    @property
    def kind(self) -> EventKind:
        return EventKind.WOUND if self.track is Track.PHYSICAL else EventKind.MENTAL


@dataclass(frozen=True)
class Blow:
    """One damage roll of a :class:`DamageRolled`: the roll's margin, the effective damage and what the
    table made of it (what the wound then became is in :attr:`DamageRolled.became`)."""

    harm: Harm
    effective: int
    margin: int
    success: bool


@dataclass(frozen=True)
class DamageRolled:
    """A GM stated a damage level and the target rolled against each blow (rules.md §8)."""

    track: Track
    damage: int
    count: int = 1
    note: str = ""
    rolls: tuple[Blow, ...] = ()
    became: tuple[Severity | None, ...] = ()
    """What each wound inflicted became, in order (blows that left none have no entry); ``None``:
    beyond the track."""
    not_applied: int = 0

    @property
    def kind(self) -> EventKind:
        return EventKind.WOUND if self.track is Track.PHYSICAL else EventKind.MENTAL


@dataclass(frozen=True)
class HealRollStep:
    success: bool
    worsened: bool = False
    became: Severity | None = None
    """What the wound became; ``None``: healed, or (when ``worsened``) beyond the track."""
    margin: int | None = None


@dataclass(frozen=True)
class HealRolled:
    track: Track
    severity: Severity
    rolls: tuple[HealRollStep, ...] = ()
    maxima: tuple[int, int, int] | None = None
    """The track's maxima then, which say why a worsened wound went further up."""
    kind = EventKind.HEAL_ROLL

    @property
    def healed(self) -> int:
        return sum(1 for step in self.rolls if step.success)


@dataclass(frozen=True)
class Lowered:
    """A GM lowered one wound one rank, without a roll."""

    track: Track
    severity: Severity
    became: Severity | None = None
    """``None``: healed."""

    @property
    def kind(self) -> EventKind:
        return EventKind.HEAL_WOUND if self.track is Track.PHYSICAL else EventKind.HEAL_MENTAL


@dataclass(frozen=True)
class Rested:
    days: int
    characters: int = 0
    kind = EventKind.REST


@dataclass(frozen=True)
class Configured:
    setting: str
    changes: dict[str, object] = field(default_factory=dict)
    """The settings changed, as JSON values."""
    before: dict[str, object] | None = None
    after: dict[str, object] | None = None
    """The whole settings before and after, as JSON (older events have neither)."""
    kind = EventKind.CONFIG


@dataclass(frozen=True)
class Imported:
    counts: dict[str, int] = field(default_factory=dict)
    kind = EventKind.IMPORT


@dataclass(frozen=True)
class LinkGiven:
    """A GM was given a player-view link; ``revoked``: every link given before stopped working."""

    revoked: bool = False
    kind = EventKind.VIEW_LINK


@dataclass(frozen=True)
class Undid:
    event_id: int
    reverted: Record | None = None
    """What the reverted change was, when known."""
    character_name: str | None = None
    """The reverted change's character."""
    restored: tuple[int, ...] = ()
    """The characters the undo set back (ids)."""
    kind = EventKind.UNDO


@dataclass(frozen=True)
class Unreadable:
    """A row whose details do not fit its kind (or of a kind this version does not know)."""

    raw_kind: str


Record = (
    Created
    | Edited
    | Deleted
    | Selected
    | Wounded
    | DamageRolled
    | HealRolled
    | Lowered
    | Rested
    | Configured
    | Imported
    | LinkGiven
    | Undid
    | Unreadable
)


Recordable = (
    Created
    | Edited
    | Deleted
    | Selected
    | Wounded
    | DamageRolled
    | HealRolled
    | Lowered
    | Rested
    | Configured
    | Imported
    | LinkGiven
)
"""What an action records (an undo is recorded by storage, which reverts it)."""


# ---- record -> JSON (the actions) ------------------------------------------------------------------


def details_of(record: Record) -> dict[str, object]:
    """The JSON that storage keeps in the event's ``details`` column."""
    match record:
        case Created(owner_id=owner):
            return {"owner_id": owner}
        case Edited():
            return dict(record.changes())
        case Wounded(track=track):
            return {
                "severity": severity_name(track, record.severity),
                "count": record.count,
                "note": record.note,
                "became": [_name(track, b) for b in record.became],
                "not_applied": record.not_applied,
                **_maxima_json(record.maxima),
            }
        case DamageRolled(track=track):
            return {
                "damage": record.damage,
                "count": record.count,
                "note": record.note,
                "rolls": [
                    {
                        "margin": blow.margin,
                        "success": blow.success,
                        "effective": blow.effective,
                        "harm": _harm_name(track, blow.harm),
                    }
                    for blow in record.rolls
                ],
                "became": [_name(track, b) for b in record.became],
                "not_applied": record.not_applied,
            }
        case HealRolled(track=track):
            rolls = [
                {
                    "margin": step.margin,
                    "success": step.success,
                    "became": _name(track, step.became),
                    "worsened": step.worsened,
                }
                for step in record.rolls
            ]
            severity = severity_name(track, record.severity)
            return {"track": track.value, "severity": severity, "rolls": rolls, **_maxima_json(record.maxima)}
        case Lowered(track=track):
            return {"severity": severity_name(track, record.severity), "became": _name(track, record.became)}
        case Rested():
            return {"days": record.days, "characters": record.characters}
        case Configured():
            whole = {} if record.before is None else {"before": record.before, "after": record.after}
            return {"setting": record.setting, **record.changes, **whole}
        case Imported():
            return dict(record.counts)
        case LinkGiven():
            return {"revoked": record.revoked}
        case Deleted() | Selected() | Undid() | Unreadable():
            return {}


def _maxima_json(maxima: tuple[int, int, int] | None) -> dict[str, object]:
    return {} if maxima is None else {"maxima": list(maxima)}


def _name(track: Track, severity: Severity | None) -> str | None:
    return None if severity is None else severity_name(track, severity)


_HARM_WORDS = {Harm.NONE: "none", Harm.FATAL: "fatal"}
"""How a blow that left no wound, or killed by the table, is written; the others by their severity."""


def _harm_name(track: Track, harm: Harm) -> str:
    severity = harm.severity
    return _HARM_WORDS[harm] if severity is None else severity_name(track, severity)


# ---- JSON -> record (the UI) -----------------------------------------------------------------------


class _Misfit(ValueError):
    """The details do not fit the kind."""


def record_of(event: Event) -> Record:
    """The typed record of ``event``; :class:`Unreadable` when its details do not fit its kind."""
    try:
        return _read(event.kind, event.details, undoes=event.undoes)
    except _Misfit:
        return Unreadable(event.kind)


def _read(kind: str, data: Mapping[str, object], *, undoes: int | None = None) -> Record:
    if kind not in EventKind.__members__.values():
        raise _Misfit(kind)
    match EventKind(kind):
        case EventKind.CHARACTER_CREATE:
            return Created(_optional(data, "owner_id", int))
        case EventKind.CHARACTER_EDIT:
            return Edited(
                name=_optional(data, "name", str),
                corps=_optional(data, "corps", int),
                resistance=_optional(data, "resistance", int),
                intuition=_optional(data, "intuition", int),
                preset=_optional(data, "preset", str),
            )
        case EventKind.CHARACTER_DELETE:
            return Deleted()
        case EventKind.CHARACTER_SELECT:
            return Selected()
        case EventKind.WOUND | EventKind.MENTAL:
            track = Track.PHYSICAL if kind == EventKind.WOUND else Track.MENTAL
            if "damage" in data:
                return _damage_rolled(track, data)
            return Wounded(
                track,
                _severity(track, data.get("severity")),
                count=_get(data, "count", int, 1),
                note=_get(data, "note", str, ""),
                became=tuple(_severity_or_none(track, b) for b in _get(data, "became", list, [])),
                not_applied=_get(data, "not_applied", int, 0),
                maxima=_maxima(data),
            )
        case EventKind.HEAL_ROLL:
            track = _track(_get(data, "track", str, Track.PHYSICAL.value))
            return HealRolled(
                track,
                _severity(track, data.get("severity")),
                tuple(_step(track, step) for step in _get(data, "rolls", list, [])),
                maxima=_maxima(data),
            )
        case EventKind.HEAL_WOUND | EventKind.HEAL_MENTAL:
            track = Track.PHYSICAL if kind == EventKind.HEAL_WOUND else Track.MENTAL
            return Lowered(
                track, _severity(track, data.get("severity")), _severity_or_none(track, data.get("became"))
            )
        case EventKind.REST:
            return Rested(_get(data, "days", int, 0), _get(data, "characters", int, 0))
        case EventKind.CONFIG:
            changes = {key: value for key, value in data.items() if key not in ("setting", "before", "after")}
            before, after = _optional(data, "before", dict), _optional(data, "after", dict)
            whole = before is not None and after is not None
            return Configured(
                _get(data, "setting", str, "?"), changes, before if whole else None, after if whole else None
            )
        case EventKind.IMPORT:
            return Imported({key: _get(data, key, int, 0) for key in data})
        case EventKind.VIEW_LINK:
            return LinkGiven(_get(data, "revoked", bool, False))
        case EventKind.UNDO:
            return _undid(data, undoes)


def _undid(data: Mapping[str, object], undoes: int | None) -> Undid:
    event_id = undoes if undoes is not None else _get(data, "event_id", int, 0)
    kind = _optional(data, "kind", str)
    if kind is None or kind == EventKind.UNDO:
        return Undid(event_id)
    inner = data.get("event_details", data.get("details", {}))  # "details": the first undo records
    if not isinstance(inner, dict):
        raise _Misfit("event_details")
    try:
        reverted: Record = _read(kind, inner)
    except _Misfit:
        reverted = Unreadable(kind)
    restored = tuple(i for i in _get(data, "restored", list, []) if type(i) is int)
    return Undid(event_id, reverted, _optional(data, "character_name", str), restored)


def _damage_rolled(track: Track, data: Mapping[str, object]) -> DamageRolled:
    return DamageRolled(
        track,
        _get(data, "damage", int, 0),
        count=_get(data, "count", int, 1),
        note=_get(data, "note", str, ""),
        rolls=tuple(_blow(track, blow) for blow in _get(data, "rolls", list, [])),
        became=tuple(_severity_or_none(track, b) for b in _get(data, "became", list, [])),
        not_applied=_get(data, "not_applied", int, 0),
    )


def _blow(track: Track, value: object) -> Blow:
    if not isinstance(value, dict):
        raise _Misfit("rolls")
    word = value.get("harm")
    if word in ("none", "fatal"):
        harm = Harm.NONE if word == "none" else Harm.FATAL
    else:
        harm = Harm(_severity(track, word) + 1)
    return Blow(
        harm,
        effective=_get(value, "effective", int, 0),
        margin=_get(value, "margin", int, 0),
        success=_get(value, "success", bool, False),
    )


def _get(data: Mapping[str, object], key: str, kind: type[T], default: T) -> T:
    value = data.get(key, default)
    if value is None:
        return default
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise _Misfit(key)
    return value


def _optional(data: Mapping[str, object], key: str, kind: type[T]) -> T | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise _Misfit(key)
    return value


def _maxima(data: Mapping[str, object]) -> tuple[int, int, int] | None:
    raw = _get(data, "maxima", list, [])
    if len(raw) != 3 or not all(type(v) is int for v in raw):
        return None
    return raw[0], raw[1], raw[2]


def _track(value: str) -> Track:
    try:
        return Track(value)
    except ValueError:
        raise _Misfit("track") from None


def _severity(track: Track, value: object) -> Severity:
    if not isinstance(value, str):
        raise _Misfit("severity")
    try:
        return parse_severity(track, value)
    except ValueError:
        raise _Misfit("severity") from None


def _severity_or_none(track: Track, value: object) -> Severity | None:
    return None if value is None else _severity(track, value)


def _step(track: Track, value: object) -> HealRollStep:
    if not isinstance(value, dict):
        raise _Misfit("rolls")
    return HealRollStep(
        success=_get(value, "success", bool, False),
        worsened=_get(value, "worsened", bool, False),
        became=_severity_or_none(track, value.get("became")),
        margin=_optional(value, "margin", int),
    )
