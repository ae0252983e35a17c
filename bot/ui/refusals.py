"""A refusal (:class:`~bot.errors.UserError`) in the reader's language: its parameters shown by their
type, the problems of a settings change or an import file one a line, never more than a message holds."""

from __future__ import annotations

import logging
import re
from typing import Final

from bot.errors import N_, Change, EventKind, ImportProblem, Mention, Possessive, RestDays, UserError
from bot.rules.severity import Severity, Track
from bot.ui.i18n import KNOWN, Lang, MissingParameter, t, tn
from bot.ui.text import (
    CONTENT,
    EVENT_KINDS,
    SERVER_SETTINGS,
    SETTING_LABELS,
    TRACKS,
    clip,
    days_text,
    escape,
    mention,
    number,
    preset_label,
    severity_label,
    severity_short,
    track_label,
)

log = logging.getLogger(__name__)

PARAM_LIMIT = 200
LONG_PARAM_LIMIT = 1200


_SETTING_PARTS: Final = {
    "physical": TRACKS[Track.PHYSICAL],
    "mental": TRACKS[Track.MENTAL],
    **SETTING_LABELS,
    "language": N_("Language"),
}


def _setting_path(lang: Lang, where: tuple[object, ...]) -> str:
    """``("physical", "penalties", 0)`` → "Physical, Penalty per wound, light"."""
    parts: list[str] = []
    track = Track.PHYSICAL
    for part in where:
        if part in (Track.PHYSICAL.value, Track.MENTAL.value):
            track = Track(str(part))
        if isinstance(part, int) and 0 <= part <= 2 and parts:
            parts.append(severity_short(lang, track, Severity(part)))
        elif isinstance(part, str) and part in _SETTING_PARTS:
            parts.append(t(lang, _SETTING_PARTS[part]))
        else:
            parts.append(escape(str(part))[:40])
    return ", ".join(parts) or t(lang, SERVER_SETTINGS)


INVALID: Final = {  # what is wrong with a setting, by the kind ``validation_issues`` names
    "less_than_equal": N_("at most {limit}"),
    "greater_than_equal": N_("at least {limit}"),
    "humanoid_required": N_("the humanoid preset must stay"),
    "too_many_presets": N_("at most {limit} presets"),
    "preset_name": N_("{limit}: 1 to 32 lowercase letters, digits, - or _"),
    "value": N_("this value is not allowed"),
}


def _issues(lang: Lang, issues: tuple[object, ...]) -> str:
    """The problems of a settings change (``bot.actions.admin.validation_issues``), one a line."""
    lines = []
    for issue in issues:
        if not (isinstance(issue, tuple) and len(issue) == 3):
            continue
        where, kind, limit = issue
        problem = INVALID.get(str(kind), INVALID["value"])
        shown = (
            number(limit)
            if isinstance(limit, int) and not isinstance(limit, bool)
            else escape(str(limit))[:40]
        )
        path = _setting_path(lang, where if isinstance(where, tuple) else ())
        lines.append(t(lang, "• {where}: {problem}", where=path, problem=t(lang, problem, limit=shown)))
    return clip("\n".join(lines), LONG_PARAM_LIMIT)


def _import_line(lang: Lang, problem: ImportProblem) -> str:
    """``characters.3.name: …``; a part of the place that is not a plain field name (an unknown key of
    the file) is shown as ``?``, so that the file's text is never echoed."""
    plain = (
        str(p) if isinstance(p, int) or re.fullmatch(r"[a-z_]{1,30}", str(p)) else "?" for p in problem.where
    )
    where = ".".join(plain) or t(lang, "file")
    values = error_params(lang, dict(problem.values))
    return t(lang, "{where}: {problem}", where=where, problem=t(lang, problem.what, **values))


def import_problems(lang: Lang, problems: tuple[object, ...]) -> str:
    """The problems of a refused import, one a line in ``lang``, as many as fit in
    ``LONG_PARAM_LIMIT`` characters, then "… and N more"."""
    lines = [_import_line(lang, p) for p in problems if isinstance(p, ImportProblem)]
    text, shown = "", 0
    for line in lines:
        if len(text) + len(line) + 1 > LONG_PARAM_LIMIT - 40:
            break
        text += ("\n" if text else "") + line
        shown += 1
    if shown < len(lines):
        text += "\n" + t(lang, "… and {count} more", count=number(len(lines) - shown))
    return text


def change_text(lang: Lang, change: Change) -> str:
    """A change in words, with its reach when it went beyond one character: "rest of the whole server,
    6 characters", "import, 3 characters", "wound"."""
    kind = t(lang, EVENT_KINDS[change.kind]) if change.kind in EVENT_KINDS else escape(change.kind)[:40]
    n = change.characters
    if change.server_wide and n > 0:
        return tn(
            lang,
            "{kind} of the whole server, {count} character",
            "{kind} of the whole server, {count} characters",
            n,
            kind=kind,
        )
    if n > 1:
        return tn(lang, "{kind}, {count} character", "{kind}, {count} characters", n, kind=kind)
    return kind


def _param(lang: Lang, key: str, value: object, track: Track) -> str:
    if key == "known" and isinstance(value, tuple):  # preset names, the built-in one in words
        return ", ".join(preset_label(lang, str(name)) for name in value)
    if key == "errors" and isinstance(value, tuple) and value and isinstance(value[0], ImportProblem):
        return import_problems(lang, value)
    if key == "errors" and isinstance(value, tuple):
        return _issues(lang, value)
    if isinstance(value, EventKind) and value in EVENT_KINDS:
        return t(lang, EVENT_KINDS[value])
    if isinstance(value, Change):
        return change_text(lang, value)
    if isinstance(value, Possessive):
        return of_name(lang, clip(escape(value), PARAM_LIMIT))
    if isinstance(value, Mention):
        return mention(value)
    if isinstance(value, RestDays):
        return days_text(lang, value.rested, value.needed)
    if isinstance(value, Severity):
        return severity_label(lang, track, value)
    if isinstance(value, Track):
        return track_label(lang, value).lower()
    if isinstance(value, bool):
        return t(lang, "on") if value else t(lang, "off")
    if isinstance(value, int):
        return number(value)
    if key == "errors":  # a long list, one a line
        return clip(escape(str(value), multiline=True), LONG_PARAM_LIMIT)
    return clip(escape(str(value)), PARAM_LIMIT)


def of_name(lang: Lang, name: str) -> str:
    """ "Aélis's" / "d'Aélis", "Mira's" / "de Mira" (``name`` already escaped)."""
    if lang == "fr":
        return f"d'{name}" if name[:1].lower() in "aàâeéèêëiîïoôuùûyh" and name else f"de {name}"
    return f"{name}'s"


def error_params(lang: Lang, params: dict[str, object]) -> dict[str, object]:
    """The parameters of a refusal, each shown by its type in ``lang`` (a severity also as
    ``<name>_plural``), text escaped and clipped."""
    track = next((v for v in params.values() if isinstance(v, Track)), Track.PHYSICAL)
    out: dict[str, object] = {}
    for key, value in params.items():
        out[key] = _param(lang, key, value, track)
        if isinstance(value, Severity):
            out[f"{key}_plural"] = severity_label(lang, track, value, plural=True)
    return out


def _shown(message: object) -> str:
    """A refusal that could not be worded, as inert code text (its first words)."""
    return "`" + (re.sub(r"[^A-Za-z0-9_.-]", "", str(message))[:60] or "?") + "`"


UNKNOWN: Final = N_("That was refused ({key}). Check the command's options and try again.")


def error_text(lang: Lang, err: UserError) -> str:
    """The refusal ``err`` in ``lang``, with what to do instead; never raises, always ≤ 2000 chars."""
    try:
        if (None, err.message) not in KNOWN:  # a refusal with no message in the catalogues: a bug
            log.warning("No message for UserError %r", err.message)
            return t(lang, UNKNOWN, key=_shown(err.message))
        return clip(t(lang, err.message, **error_params(lang, err.params)), CONTENT)
    except MissingParameter:
        raise
    except Exception:  # a refusal must always be answered, even with odd parameters
        log.exception("Could not render UserError %r", err)
        return t(lang, UNKNOWN, key=_shown(err.message))
