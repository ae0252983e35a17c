"""The export file of a server (``/config export``, ``/config import``): its versioned pydantic schema,
built from rules objects, and read back into new ones. Reading validates the whole file before anything
is written (each field, then names, active characters, reachable states) and reports every problem at
once (:func:`bot.errors.cannot_import`), never echoing the file's text back.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Annotated, Any, Final, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, model_validator

from bot.errors import N_, ImportProblem, UserError, cannot_import, import_too_large
from bot.rules import Character, Wound
from bot.rules.character import ATTRIBUTE_MAX, ATTRIBUTE_MIN, NAME_MAX, NOTE_MAX, clean_name, name_key
from bot.rules.ruleset import HUMANOID, PRESET_NAME, Maxima, Ruleset
from bot.rules.severity import SEVERITIES, Severity, Track

FORMAT: Final = "harmonies-wounds"
VERSION: Final = 1
MAX_BYTES = 8 * 1024 * 1024
"""The largest file read (an attachment larger is refused before it is downloaded)."""
MAX_CHARACTERS = 10_000
MAX_WOUNDS = 2_000


def _timestamp(value: str) -> str:
    if value:
        datetime.fromisoformat(value)  # a ValueError when not ISO-8601
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


def build(
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
    """The file's record of ``c``: its attributes named like the file's fields."""
    wounds = [ExportWound.model_construct(**_same_fields(ExportWound, w)) for w in c.wounds]
    return ExportCharacter.model_construct(**{**_same_fields(ExportCharacter, c), "wounds": wounds})


def _same_fields(model: type[BaseModel], source: object) -> dict[str, Any]:
    return {name: getattr(source, name) for name in model.model_fields}


# ---- import ----------------------------------------------------------------------------------------


# pydantic's kinds of problem as ours (any other: "invalid_value"); pydantic's own wording, and so the
# validators' messages, are dropped: a ValueError is "invalid value".
_NOT_JSON: Final = N_("this is not a JSON file")
_KINDS: Final = {
    "missing": N_("missing"),
    "extra_forbidden": N_("unknown field"),
    "json_invalid": _NOT_JSON,
    "json_type": _NOT_JSON,
}
_INVALID: Final = N_("invalid value")


def parse(data: bytes, guild_id: int) -> GuildExport:
    """The validated export in ``data`` for server ``guild_id``, or ``UserError("import_invalid")``."""
    if len(data) > MAX_BYTES:
        raise import_too_large(MAX_BYTES)
    try:
        document = GuildExport.model_validate_json(data)
    except ValidationError as exc:
        errors = exc.errors(include_url=False, include_input=False, include_context=False)
        kinds = [ImportProblem(tuple(e["loc"]), _KINDS.get(e["type"], _INVALID)) for e in errors]
        raise cannot_import(*kinds) from None
    problems: list[ImportProblem] = []
    if document.guild_id != guild_id:
        problems.append(ImportProblem(("guild_id",), "this file was exported from another server"))
    first_of: dict[str, int] = {}
    for index, character in enumerate(document.characters):
        first = first_of.setdefault(name_key(character.name), index)
        if first != index:
            where = ("characters", index, "name")
            problems.append(ImportProblem(where, "same name as character {first}", (("first", first),)))
    first_choice: dict[int, int] = {}
    for index, choice in enumerate(document.active):
        if first_choice.setdefault(choice.user_id, index) != index:
            problems.append(ImportProblem(("active", index, "user_id"), "this player appears twice"))
        found = first_of.get(name_key(choice.character))
        where = ("active", index, "character")
        if found is None:
            problems.append(ImportProblem(where, "no character of that name in the file"))
        elif document.characters[found].owner_id != choice.user_id:
            problems.append(ImportProblem(where, "that character is not this player's"))
    for index, state in enumerate(characters_of(document, guild_id, "")):
        problems += _unreachable(("characters", index), state, document.characters[index])
    if problems:
        raise cannot_import(*problems)
    return document


_LIFE: Final = {  # a life state said without its fatal wound, or a fatal wound without its state
    (Track.PHYSICAL, True): N_("dead, but no fatal physical wound"),
    (Track.PHYSICAL, False): N_("a fatal physical wound, but not dead"),
    (Track.MENTAL, True): N_("incoherent, but no fatal mental wound"),
    (Track.MENTAL, False): N_("a fatal mental wound, but not incoherent"),
}


def _unreachable(where: tuple[str, int], state: Character, c: ExportCharacter) -> list[ImportProblem]:
    """How the file's character ``c`` (as ``state``) is one the rules never make: more wounds held than
    a maximum, more than one fatal wound (after one, nothing happens to a character), or a ``dead``
    (``incoherent``) that its fatal wound does not bear out. (Whether the track was full when the fatal
    wound came is not checked: a GM may give a dead character a preset with more room afterwards.)"""
    found: list[ImportProblem] = []
    fatal = [w.track for w in state.wounds if w.fatal]
    if len(fatal) > 1:
        found.append(
            ImportProblem(where, "{held} fatal wounds, at most one is possible", (("held", len(fatal)),))
        )
    for track, said in ((Track.PHYSICAL, c.dead), (Track.MENTAL, c.incoherent)):
        counts, maxima = state.counts(track), state.maxima(track)
        for severity in SEVERITIES:
            if counts[severity] > maxima[severity]:
                values = (("held", counts[severity]), ("maximum", maxima[severity]), ("track", track))
                found.append(
                    ImportProblem(
                        where,
                        "{held} {severity_plural} held, more than the maximum of {maximum}",
                        (*values, ("severity", severity)),
                    )
                )
        if (track in fatal) != said:
            found.append(ImportProblem(where, _LIFE[track, said]))
    return found


def characters_of(document: GuildExport, guild_id: int, now: str) -> list[Character]:
    """The file's characters as new rules objects (no ids yet) of server ``guild_id``."""
    return [
        Character(
            **c.model_dump(exclude={"wounds", "created_at", "dead", "incoherent"}),
            wounds=tuple(Wound(**w.model_dump()) for w in c.wounds),
            guild_id=guild_id,
            created_at=c.created_at or now,
        )
        for c in document.characters
    ]
