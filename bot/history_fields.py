"""How the fields of a history record are written in its JSON: a severity by its name on the record's
track, a track's maxima (older events have none), keys given or left out."""

from __future__ import annotations

from enum import IntEnum
from typing import Annotated

from pydantic import (
    Field,
    PlainSerializer,
    PlainValidator,
    SerializationInfo,
    StrictInt,
    ValidationInfo,
)

from bot.rules.damage import Harm
from bot.rules.severity import SEVERITY_NAMES, Severity, Track


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
Maxima = Annotated[tuple[StrictInt, StrictInt, StrictInt] | None, Field(exclude_if=lambda v: v is None)]
"""A track's maxima when the change was made (older events have none)."""
GIVEN = Field(default=None, exclude_if=lambda v: v is None)
