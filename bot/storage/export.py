"""The export file of a server (``/config export``/``import``): a versioned pydantic schema.

Importing validates the whole file before anything is written, and reports every problem at once
(``UserError("import_invalid", errors=...)``), never echoing the file's text back.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Annotated, Final, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, model_validator

from bot.errors import UserError
from bot.rules.character import (
    ATTRIBUTE_MAX,
    ATTRIBUTE_MIN,
    NAME_MAX,
    NOTE_MAX,
    Character,
    Wound,
    clean_name,
)
from bot.rules.reachable import Unreachable, unreachable
from bot.rules.ruleset import HUMANOID, PRESET_NAME, Maxima, Ruleset
from bot.rules.severity import Severity, Track, severity_name
from bot.storage.codec import name_key

FORMAT: Final = "harmonies-wounds"
VERSION: Final = 1
MAX_IMPORT_BYTES = 16 * 1024 * 1024
MAX_CHARACTERS = 10_000
MAX_WOUNDS = 2_000
MAX_ERRORS_CHARS = 1500


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


# ---- export ----------------------------------------------------------------------------------------


def build_export(
    guild_id: int, ruleset: Ruleset, characters: Sequence[Character], active: dict[int, int], now: str
) -> bytes:
    """The export file. Built without validation: an export never fails on data the bot accepted."""
    names = {c.id: c.name for c in characters}
    document = GuildExport.model_construct(
        format=FORMAT,
        version=VERSION,
        guild_id=guild_id,
        exported_at=now,
        ruleset=ruleset,
        characters=[_export_character(c) for c in characters],
        active=[
            ExportActive.model_construct(user_id=user, character=names[cid])
            for user, cid in active.items()
            if cid in names
        ],
    )
    return document.model_dump_json(indent=1).encode("utf-8")


def _export_character(c: Character) -> ExportCharacter:
    return ExportCharacter.model_construct(
        name=c.name,
        owner_id=c.owner_id,
        corps=c.corps,
        resistance=c.resistance,
        intuition=c.intuition,
        preset=c.preset,
        physical_max=c.physical_max,
        mental_max=c.mental_max,
        rest_days=c.rest_days,
        dead=c.dead,
        incoherent=c.incoherent,
        created_at=c.created_at,
        wounds=[
            ExportWound.model_construct(
                track=w.track,
                inflicted=w.inflicted,
                current=w.current,
                fatal=w.fatal,
                note=w.note,
                inflicted_by=w.inflicted_by,
                at=w.at,
            )
            for w in c.wounds
        ],
    )


# ---- import ----------------------------------------------------------------------------------------


def _refuse(lines: list[str]) -> UserError:
    text, shown = "", 0
    for line in lines:
        if len(text) + len(line) + 1 > MAX_ERRORS_CHARS - 40:
            break
        text += ("\n" if text else "") + line
        shown += 1
    if shown < len(lines):
        text += f"\n… and {len(lines) - shown} more"
    return UserError("import_invalid", errors=text)


def _describe(exc: ValidationError) -> list[str]:
    lines = []
    for error in exc.errors(include_url=False, include_input=False, include_context=False):
        where = ".".join(str(part) for part in error["loc"])
        lines.append(f"{where}: {error['msg']}" if where else str(error["msg"]))
    return lines


def parse_import(data: bytes, guild_id: int) -> GuildExport:
    """The validated export in ``data`` for server ``guild_id``, or ``UserError("import_invalid")``."""
    if len(data) > MAX_IMPORT_BYTES:
        raise _refuse([f"the file is larger than {MAX_IMPORT_BYTES // (1024 * 1024)} MB"])
    try:
        document = GuildExport.model_validate_json(data)
    except ValidationError as exc:
        raise _refuse(_describe(exc)) from None
    problems: list[str] = []
    if document.guild_id != guild_id:
        problems.append("guild_id: this file was exported from another server")
    first_of: dict[str, int] = {}
    for index, character in enumerate(document.characters):
        key = name_key(character.name)
        if key in first_of:
            problems.append(f"characters.{index}.name: same name as characters.{first_of[key]}")
        else:
            first_of[key] = index
    seen_users: set[int] = set()
    for index, choice in enumerate(document.active):
        if choice.user_id in seen_users:
            problems.append(f"active.{index}.user_id: this player appears twice")
        seen_users.add(choice.user_id)
        found = first_of.get(name_key(choice.character))
        if found is None:
            problems.append(f"active.{index}.character: no character of that name in the file")
        elif document.characters[found].owner_id != choice.user_id:
            problems.append(f"active.{index}.character: that character is not this player's")
    for index, state in enumerate(imported_characters(document, guild_id, "")):
        problems += [f"characters.{index}: {_unreachable_text(u)}" for u in unreachable(state)]
    if problems:
        raise _refuse(problems)
    return document


def _unreachable_text(problem: Unreachable) -> str:
    """One problem of :func:`bot.rules.reachable.unreachable`, as a line of the refusal."""
    track = problem.track or Track.PHYSICAL
    out = "dead" if track is Track.PHYSICAL else "incoherent"
    match problem.problem:
        case "too_many":
            assert problem.severity is not None
            name = severity_name(track, problem.severity)
            return f"{problem.held} {name} wounds held, more than the maximum of {problem.maximum}"
        case "beyond_not_out":
            return f"a fatal {track.value} wound, but not {out}"
        case "out_without_beyond":
            return f"{out}, but no fatal {track.value} wound"
        case "several_beyond":
            return f"{problem.held} fatal wounds, at most one is possible"
        case _:
            return "both dead and incoherent"


def imported_characters(document: GuildExport, guild_id: int, now: str) -> list[Character]:
    """The file's characters as new rules objects (no ids yet) of server ``guild_id``."""
    return [
        Character(
            name=c.name,
            corps=c.corps,
            resistance=c.resistance,
            intuition=c.intuition,
            preset=c.preset,
            physical_max=c.physical_max,
            mental_max=c.mental_max,
            wounds=tuple(
                Wound(w.track, w.inflicted, w.current, w.note, w.inflicted_by, w.at, w.fatal)
                for w in c.wounds
            ),
            rest_days=c.rest_days,
            dead=c.dead,
            incoherent=c.incoherent,
            owner_id=c.owner_id,
            guild_id=guild_id,
            created_at=c.created_at or now,
        )
        for c in document.characters
    ]
