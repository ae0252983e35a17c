"""What the event log holds: the kinds of change, and one typed record per kind (what the UI shows).

Storage keeps a record as JSON in the event's ``details`` column; each record is a pydantic dataclass
that writes and reads that JSON itself (rows of older versions were rewritten once by migration 0006).
A row that does not fit its kind reads as :class:`Unreadable`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import IntEnum, StrEnum
from typing import Annotated, Any, ClassVar

from pydantic import (
    Field,
    PlainSerializer,
    PlainValidator,
    SerializationInfo,
    StrictBool,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
)
from pydantic.dataclasses import dataclass as pydantic_dataclass

from bot.rules.damage import Harm
from bot.rules.severity import SEVERITY_NAMES, Severity, Track


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
    BLOW = "blow"
    """One blow on several characters at once (the /fight panel)."""


# ---- how a record's fields are written: a severity by its name on the record's track, keys left out


def _names(info: ValidationInfo | SerializationInfo, harm: bool) -> tuple[str, ...]:
    names = SEVERITY_NAMES[Track((info.context or {}).get("track", Track.PHYSICAL))]
    return ("none", *names, "fatal") if harm else names


def _by_name(enum: type[IntEnum], harm: bool) -> tuple[PlainValidator, PlainSerializer]:
    """A severity (or a blow's :class:`Harm`) written by its name on the record's track (the context):
    ``light``, ``psychosis``, ``fatal``. The track is the event's kind, or a heal roll's ``track``."""

    def read(value: object, info: ValidationInfo) -> IntEnum:
        return value if isinstance(value, enum) else enum(_names(info, harm).index(value))

    def write(value: IntEnum, info: SerializationInfo) -> str:
        return _names(info, harm)[value]

    return PlainValidator(read), PlainSerializer(write, return_type=str)


Named = Annotated[Severity, *_by_name(Severity, harm=False)]
NamedHarm = Annotated[Harm, *_by_name(Harm, harm=True)]
GIVEN = Field(default=None, exclude_if=lambda v: v is None)
"""Not written when ``None``."""
Maxima = tuple[StrictInt, StrictInt, StrictInt] | None
"""A track's maxima when the change was made (older events have none)."""


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


@pydantic_dataclass(frozen=True)
class _OnTrack:
    track: Annotated[Track, Field(exclude=True)]
    """Not written: the event's kind says it."""
    _kinds: ClassVar[tuple[EventKind, EventKind]] = (EventKind.WOUND, EventKind.MENTAL)

    @property
    def kind(self) -> EventKind:
        return self._kinds[self.track is Track.MENTAL]


@pydantic_dataclass(frozen=True)
class Created:
    owner_id: StrictInt | None = None
    """``None``: an NPC."""
    band: Annotated[tuple[StrictStr, ...], Field(exclude_if=lambda v: not v)] = ()
    """A band of NPCs created at once (``/character create count:``): their names, in order."""
    kind = EventKind.CHARACTER_CREATE


@pydantic_dataclass(frozen=True)
class Edited:
    """The values a ``/character edit`` gave (the others are ``None``)."""

    name: StrictStr | None = GIVEN
    corps: StrictInt | None = GIVEN
    resistance: StrictInt | None = GIVEN
    intuition: StrictInt | None = GIVEN
    preset: StrictStr | None = GIVEN
    kind = EventKind.CHARACTER_EDIT

    def changes(self) -> dict[str, str | int]:
        """The fields given, in order."""
        found = {f.name: getattr(self, f.name) for f in fields(self)}
        return {key: value for key, value in found.items() if value is not None}


@pydantic_dataclass(frozen=True)
class Deleted:
    kind = EventKind.CHARACTER_DELETE


@pydantic_dataclass(frozen=True)
class Selected:
    kind = EventKind.CHARACTER_SELECT


@pydantic_dataclass(frozen=True)
class Wounded(_OnTrack):
    severity: Named
    count: StrictInt = 1
    note: StrictStr = ""
    became: tuple[Named | None, ...] = ()
    """What each wound became after escalation; ``None``: beyond the track (fatal, incoherent)."""
    not_applied: StrictInt = 0
    maxima: Maxima = GIVEN


@pydantic_dataclass(frozen=True)
class Blow:
    """One damage roll of a :class:`DamageRolled`: the roll's margin, the effective damage and what the
    table made of it (what the wound then became is in :attr:`DamageRolled.became`)."""

    harm: NamedHarm
    effective: StrictInt = 0
    margin: StrictInt = 0
    success: StrictBool = False


@pydantic_dataclass(frozen=True)
class DamageRolled(_OnTrack):
    """A GM stated a damage level and the target rolled against each blow (rules.md §8)."""

    damage: StrictInt
    count: StrictInt = 1
    note: StrictStr = ""
    rolls: tuple[Blow, ...] = ()
    became: tuple[Named | None, ...] = ()
    """What each wound inflicted became, in order (blows that left none have no entry); ``None``:
    beyond the track."""
    not_applied: StrictInt = 0


@pydantic_dataclass(frozen=True)
class Hit:
    """One target of a :class:`Struck` blow: what its wound became (``None``: beyond the track; no
    entry: the damage left no wound), and with damage, what the table made of its roll."""

    character_id: StrictInt
    name: StrictStr
    became: tuple[Named | None, ...] = ()
    harm: NamedHarm | None = GIVEN
    margin: StrictInt | None = GIVEN


@pydantic_dataclass(frozen=True)
class Struck:
    """One blow on several characters at once (the /fight panel): a wound of ``severity`` each, or a
    ``damage`` level each target rolls against; the targets dead or incoherent were ``skipped``."""

    track: Track
    severity: Named | None = GIVEN
    damage: StrictInt | None = GIVEN
    hits: tuple[Hit, ...] = ()
    skipped: tuple[StrictStr, ...] = ()
    kind = EventKind.BLOW


@pydantic_dataclass(frozen=True)
class HealRollStep:
    success: StrictBool = False
    worsened: StrictBool = False
    became: Named | None = None
    """What the wound became; ``None``: healed, or (when ``worsened``) beyond the track."""
    margin: StrictInt | None = None


@pydantic_dataclass(frozen=True)
class HealRolled:
    track: Track
    severity: Named
    rolls: tuple[HealRollStep, ...] = ()
    maxima: Maxima = GIVEN
    """The track's maxima then, which say why a worsened wound went further up."""
    kind = EventKind.HEAL_ROLL

    @property
    def healed(self) -> int:
        return sum(1 for step in self.rolls if step.success)


@pydantic_dataclass(frozen=True)
class Lowered(_OnTrack):
    """A GM lowered one wound one rank, without a roll."""

    severity: Named
    became: Named | None = None
    """``None``: healed."""
    _kinds = (EventKind.HEAL_WOUND, EventKind.HEAL_MENTAL)


@pydantic_dataclass(frozen=True)
class Rested:
    days: StrictInt = 0
    characters: StrictInt = 0
    kind = EventKind.REST


@pydantic_dataclass(frozen=True)
class Configured:
    setting: StrictStr
    changes: dict[str, Any] = field(default_factory=dict)
    """The settings changed, as JSON values."""
    before: Annotated[dict[str, Any] | None, Field(exclude=True)] = None
    after: dict[str, Any] | None = GIVEN
    """The whole settings before and after, as JSON (older events have neither). ``before`` is not
    written here: the event's undo snapshot holds it, and storage reads it back from there."""
    kind = EventKind.CONFIG


@pydantic_dataclass(frozen=True)
class Imported:
    counts: dict[str, StrictInt] = field(default_factory=dict)
    kind = EventKind.IMPORT


@pydantic_dataclass(frozen=True)
class LinkGiven:
    """A GM was given a player-view link; ``revoked``: every link given before stopped working."""

    revoked: StrictBool = False
    kind = EventKind.VIEW_LINK


@dataclass(frozen=True)
class Undid:
    """Written by storage when it reverts a change (``Transaction.record_undo``), read here."""

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
    | Struck
)
"""What an action records (an undo is recorded by storage, which reverts it)."""
Record = Recordable | Undid | Unreadable
_ONE_KIND = (Created, Edited, Deleted, Selected, HealRolled, Rested, Configured, Imported, LinkGiven, Struck)
_RECORD_OF: dict[str, type[Recordable]] = {record.kind: record for record in _ONE_KIND}
_RECORD_OF |= dict.fromkeys(Lowered._kinds, Lowered)
_TRACK_OF_KIND: dict[str, Track] = {
    on._kinds[i]: track for on in (Wounded, Lowered) for i, track in enumerate(Track)
}
_ADAPTERS: dict[type, TypeAdapter[Any]] = {
    record: TypeAdapter(record) for record in (*_ONE_KIND, Wounded, DamageRolled, Lowered)
}


def details_json(record: Recordable) -> str:
    """The JSON that storage keeps in the event's ``details`` column."""
    context = {"track": getattr(record, "track", Track.PHYSICAL)}
    return _ADAPTERS[type(record)].dump_json(record, context=context).decode()


def record_of(event: Event) -> Record:
    """The typed record of ``event``; :class:`Unreadable` when its details do not fit its kind."""
    if event.kind != EventKind.UNDO:
        return _read(event.kind, event.details)
    data = event.details  # as Transaction.record_undo writes it
    kind, inner, name = data.get("kind"), data.get("event_details", {}), data.get("character_name")
    restored = data.get("restored", [])
    if not (isinstance(kind, str | None) and isinstance(name, str | None) and isinstance(inner, dict)):
        return Unreadable(event.kind)
    if not isinstance(restored, list):
        return Unreadable(event.kind)
    reverted = None if kind is None or kind == EventKind.UNDO else _read(kind, inner)
    return Undid(event.undoes or 0, reverted, name, tuple(i for i in restored if type(i) is int))


def _read(kind: str, details: dict[str, Any]) -> Recordable | Unreadable:
    if kind in (EventKind.WOUND, EventKind.MENTAL):
        record: type[Recordable] | None = DamageRolled if "damage" in details else Wounded
    else:
        record = _RECORD_OF.get(kind)
    try:
        track = _TRACK_OF_KIND.get(kind) or Track(details.get("track") or Track.PHYSICAL)
        if record is not None:  # a record without a track ignores it, as any key it does not have
            found: Recordable = _ADAPTERS[record].validate_python(
                {**details, "track": track}, context={"track": track}
            )
            return found
    except (ValidationError, ValueError):
        pass
    return Unreadable(kind)
