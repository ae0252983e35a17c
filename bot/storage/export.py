"""A server's export file (its schema: :mod:`bot.export_file`) built from the database's rules
objects, and read back into new ones.

Importing validates the whole file before anything is written, and reports every problem at once
(``UserError("import_invalid", errors=(ImportProblem, ...))``, worded by the UI), never echoing the
file's text back.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from pydantic import BaseModel, ValidationError

from bot.errors import ImportProblem, UserError, import_too_large
from bot.export_file import FORMAT, VERSION, ExportActive, ExportCharacter, ExportWound, GuildExport
from bot.rules.character import Character, Wound
from bot.rules.ruleset import Ruleset
from bot.rules.severity import SEVERITIES, Track
from bot.storage.codec import name_key

MAX_IMPORT_BYTES = 16 * 1024 * 1024


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
    """The file's record of ``c``: its attributes named like the file's fields."""
    wounds = [ExportWound.model_construct(**_same_fields(ExportWound, w)) for w in c.wounds]
    return ExportCharacter.model_construct(**{**_same_fields(ExportCharacter, c), "wounds": wounds})


def _same_fields(model: type[BaseModel], source: object) -> dict[str, Any]:
    return {name: getattr(source, name) for name in model.model_fields}


# ---- import ----------------------------------------------------------------------------------------


# pydantic's kinds of problem as ours (any other: "invalid_value"); pydantic's own wording is dropped.
_KINDS: Final = {
    "missing": "missing",
    "extra_forbidden": "unknown_field",
    "json_invalid": "not_json",
    "json_type": "not_json",
}


def parse_import(data: bytes, guild_id: int) -> GuildExport:
    """The validated export in ``data`` for server ``guild_id``, or ``UserError("import_invalid")``."""
    if len(data) > MAX_IMPORT_BYTES:
        raise import_too_large(MAX_IMPORT_BYTES)
    try:
        document = GuildExport.model_validate_json(data)
    except ValidationError as exc:
        errors = exc.errors(include_url=False, include_input=False, include_context=False)
        kinds = [ImportProblem(tuple(e["loc"]), _KINDS.get(e["type"], "invalid_value")) for e in errors]
        raise UserError("import_invalid", errors=tuple(kinds)) from None
    problems: list[ImportProblem] = []
    if document.guild_id != guild_id:
        problems.append(ImportProblem(("guild_id",), "other_server"))
    first_of: dict[str, int] = {}
    for index, character in enumerate(document.characters):
        key = name_key(character.name)
        if key in first_of:
            problems.append(
                ImportProblem(("characters", index, "name"), "same_name", (("first", first_of[key]),))
            )
        else:
            first_of[key] = index
    seen_users: set[int] = set()
    for index, choice in enumerate(document.active):
        if choice.user_id in seen_users:
            problems.append(ImportProblem(("active", index, "user_id"), "player_twice"))
        seen_users.add(choice.user_id)
        found = first_of.get(name_key(choice.character))
        if found is None:
            problems.append(ImportProblem(("active", index, "character"), "no_such_character"))
        elif document.characters[found].owner_id != choice.user_id:
            problems.append(ImportProblem(("active", index, "character"), "not_this_players"))
    for index, state in enumerate(imported_characters(document, guild_id, "")):
        problems += _unreachable(("characters", index), state, document.characters[index])
    if problems:
        raise UserError("import_invalid", errors=tuple(problems))
    return document


def _unreachable(where: tuple[str, int], state: Character, c: ExportCharacter) -> list[ImportProblem]:
    """How the file's character ``c`` (as ``state``) is one the rules never make: more wounds held than
    a maximum, more than one fatal wound (after one, nothing happens to a character), or a ``dead``
    (``incoherent``) that its fatal wound does not bear out. (Whether the track was full when the fatal
    wound came is not checked: a GM may give a dead character a preset with more room afterwards.)"""
    found: list[ImportProblem] = []
    fatal = [w.track for w in state.wounds if w.fatal]
    if len(fatal) > 1:
        found.append(ImportProblem(where, "several_fatal", (("held", len(fatal)),)))
    for track, said, word in ((Track.PHYSICAL, c.dead, "dead"), (Track.MENTAL, c.incoherent, "incoherent")):
        counts, maxima = state.counts(track), state.maxima(track)
        for severity in SEVERITIES:
            if counts[severity] > maxima[severity]:
                values = (("held", counts[severity]), ("maximum", maxima[severity]), ("track", track))
                found.append(ImportProblem(where, "too_many", (*values, ("severity", severity))))
        if track in fatal and not said:
            found.append(ImportProblem(where, f"fatal_not_{word}"))
        if said and track not in fatal:
            found.append(ImportProblem(where, f"{word}_not_fatal"))
    return found


def imported_characters(document: GuildExport, guild_id: int, now: str) -> list[Character]:
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
