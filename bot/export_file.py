"""The export file of a server (``/config export``, ``/config import``): its versioned pydantic schema.

What a file may hold, field by field; :mod:`bot.storage.export` builds it from the database and checks
the rest of an import (names, active characters, reachable states) before anything is written.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Final, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from bot.errors import UserError
from bot.rules.character import ATTRIBUTE_MAX, ATTRIBUTE_MIN, NAME_MAX, NOTE_MAX, clean_name
from bot.rules.ruleset import HUMANOID, PRESET_NAME, Maxima, Ruleset
from bot.rules.severity import Severity, Track

FORMAT: Final = "harmonies-wounds"
VERSION: Final = 1
MAX_CHARACTERS = 10_000
MAX_WOUNDS = 2_000


def _timestamp(value: str) -> str:
    if value:
        try:
            datetime.fromisoformat(value)
        except ValueError:
            raise ValueError("not an ISO-8601 date and time") from None
    return value


def _clean_name(value: str) -> str:
    # The same cleaning as a name typed in /character create: what the bot would store as is.
    try:
        cleaned = clean_name(value)
    except UserError:
        raise ValueError(f"a name holds 1 to {NAME_MAX} characters, one of them visible") from None
    if cleaned != value:
        raise ValueError(
            "no line breaks, control or invisible characters, or leading, trailing or double spaces"
        )
    return value


def _no_nul(value: str) -> str:
    if "\x00" in value:
        raise ValueError("a NUL character (U+0000) is not allowed")
    return value


Snowflake = Annotated[int, Field(gt=0, lt=2**63)]
Timestamp = Annotated[str, Field(max_length=40), AfterValidator(_no_nul), AfterValidator(_timestamp)]
Attribute = Annotated[int, Field(ge=ATTRIBUTE_MIN, le=ATTRIBUTE_MAX)]
Name = Annotated[str, Field(min_length=1, max_length=NAME_MAX), AfterValidator(_clean_name)]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ExportWound(_Model):
    track: Track
    inflicted: Severity
    current: Severity | None
    fatal: bool = False
    note: Annotated[str, Field(max_length=NOTE_MAX), AfterValidator(_no_nul)] = ""
    inflicted_by: Snowflake | None = None
    at: Timestamp = ""

    @model_validator(mode="after")
    def _fatal_is_not_held(self) -> ExportWound:
        if self.fatal and self.current is not None:
            raise ValueError("a fatal wound has no current severity")
        return self


class ExportCharacter(_Model):
    name: Name
    owner_id: Snowflake | None = None
    corps: Attribute = 0
    resistance: Attribute = 0
    intuition: Attribute = 0
    preset: Annotated[str, Field(pattern=PRESET_NAME.pattern)] = HUMANOID
    physical_max: Maxima = (4, 2, 1)
    mental_max: Maxima = (4, 2, 1)
    rest_days: Annotated[int, Field(ge=0, le=100_000)] = 0
    dead: bool = False
    incoherent: bool = False
    created_at: Timestamp = ""
    wounds: Annotated[list[ExportWound], Field(max_length=MAX_WOUNDS)] = []


class ExportActive(_Model):
    user_id: Snowflake
    character: Name
    """The name of the player's active character, one of the file's characters owned by that player."""


class GuildExport(_Model):
    format: Literal["harmonies-wounds"]
    version: Literal[1]
    guild_id: Snowflake
    exported_at: Timestamp = ""
    ruleset: Ruleset
    characters: Annotated[list[ExportCharacter], Field(max_length=MAX_CHARACTERS)] = []
    active: Annotated[list[ExportActive], Field(max_length=MAX_CHARACTERS)] = []
