"""Languages, the message catalogue, the rendering of refusals (:class:`UserError`), and the French of
the slash commands for Discord's localisation fields (:class:`HarmoniesTranslator`)."""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Final, Literal

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.errors import EventKind, ImportProblem, Mention, Possessive, RestDays, UserError
from bot.rules.ruleset import HUMANOID
from bot.rules.severity import Severity, Track, severity_name
from bot.ui.strings_commands import COMMANDS
from bot.ui.strings_refusals import ERRORS, IMPORT_PROBLEMS
from bot.ui.strings_results import RESULTS
from bot.ui.text import CONTENT, MINUS, clip, escape, mention

log = logging.getLogger(__name__)

Lang = Literal["en", "fr"]
LANGS: Final[tuple[Lang, ...]] = ("en", "fr")
MISSING = "?"
STRICT = False
"""Set by the tests: a message parameter missing at a call site raises :class:`MissingParameter` instead
of showing ``?`` (in production a user sees ``?``, and the omission is logged)."""


class MissingParameter(KeyError):
    """A message was rendered without one of its parameters (a bug at the call site)."""


SECTIONS: Final[tuple[dict[str, dict[str, str]], ...]] = (RESULTS, ERRORS, IMPORT_PROBLEMS)

CATALOGUE: Final[dict[str, dict[str, str]]] = {key: entry for part in SECTIONS for key, entry in part.items()}
"""Every message: ``{key: {"en": ..., "fr": ...}}`` (``str.format`` placeholders, the same in both)."""

PARAM_LIMIT = 200
LONG_PARAMS: Final = frozenset({"errors"})
LONG_PARAM_LIMIT = 1200


def lang_of(locale: discord.Locale | str | None) -> Lang:
    """``fr``, ``fr-FR``, ``fr_CA``… → ``"fr"``; anything else (or nothing) → ``"en"``."""
    if locale is None:
        return "en"
    value = str(getattr(locale, "value", locale))  # a discord.Locale, or its value
    return "fr" if value.strip().lower().replace("_", "-").split("-")[0] == "fr" else "en"


class _Params(dict[str, object]):
    def __init__(self, key: str, params: dict[str, object]) -> None:
        super().__init__(params)
        self.key = key

    def __missing__(self, name: str) -> str:
        if STRICT:
            raise MissingParameter(f"message {self.key!r} rendered without its parameter {name!r}")
        log.warning("Message %r rendered without its parameter %r", self.key, name)
        return MISSING


def t(lang: Lang, key: str, /, **params: object) -> str:
    """The message ``key`` in ``lang`` with ``params`` filled in. Parameters are inserted as given:
    escape user text before passing it (:func:`bot.ui.text.escape`). An unknown key renders as itself."""
    entry = CATALOGUE.get(key)
    if entry is None:
        if STRICT:
            raise MissingParameter(f"message {key!r} is not in the catalogue")
        log.warning("Message key %r missing from the catalogue", key)
        return key
    template = entry.get(lang) or entry["en"]
    if not params and "{" not in template:
        return template  # nothing to fill in (most labels): skip the formatting
    # A parameter missing is shown as "?" (and logged) rather than failing the answer; under the tests
    # (STRICT) it raises.
    return template.format_map(_Params(key, params))


def join_lines(lang: Lang, lines: Sequence[str], limit: int) -> str:
    """Lines joined with newlines, as many as fit in ``limit``; then one line saying how many were
    left out ("… and 3 more")."""
    text = "\n".join(lines)
    if len(text) <= limit:
        return text

    def tail(n: int) -> str:
        return t(lang, "more_lines", count=n)

    kept = 0
    size = -1
    for count, line in enumerate(lines, 1):
        size += len(line) + 1
        if size + 1 + len(tail(len(lines) - count)) > limit:
            break
        kept = count
    last = tail(len(lines) - kept)
    if kept == 0:
        room = limit - len(tail(len(lines) - 1)) - 1
        return clip(clip(lines[0], max(room, 0)) + "\n" + tail(len(lines) - 1), limit)
    return "\n".join([*lines[:kept], last])


def plural_form(lang: Lang, count: int) -> str:
    """``one`` or ``other``: French treats 0 and 1 as singular, English only 1."""
    if lang == "fr":
        return "one" if abs(count) < 2 else "other"
    return "one" if abs(count) == 1 else "other"


def tn(lang: Lang, key: str, count: int, /, **params: object) -> str:
    """``key_one`` or ``key_other`` by ``count``, with ``count`` among the parameters."""
    return t(lang, f"{key}_{plural_form(lang, count)}", count=count, **params)


def days_text(lang: Lang, rested: int, needed: int) -> str:
    """Days of rest of the days needed: "1/7 days"; "0 jour sur 1", "3 jours sur 7". Rest beyond the
    need counts as the need ("1 jour sur 1", never "6 jours sur 1")."""
    rested = min(rested, needed)
    form = plural_form(lang, needed if lang == "en" else rested)
    return t(lang, f"days_of_{form}", rested=number(rested), needed=number(needed))


def preset_label(lang: Lang, name: str) -> str:
    """A preset's name as shown: the built-in one in the reader's language, the others as typed."""
    return t(lang, "preset_humanoid") if name == HUMANOID else clip(escape(name), 40)


def severity_label(lang: Lang, track: Track, severity: Severity, *, plural: bool = False) -> str:
    """ "light wound" / "blessure légère", "shock" / "choc" (plural: "light wounds"…)."""
    return t(lang, f"sev_{severity_name(track, severity)}" + ("_plural" if plural else ""))


def severity_short(lang: Lang, track: Track, severity: Severity) -> str:
    """The bare word: "light" / "légère", "trauma" / "traumatisme"."""
    return t(lang, f"sev_{severity_name(track, severity)}_short")


def severity_next(lang: Lang, track: Track, severity: Severity) -> str:
    """ "next light wound" / "prochaine blessure légère"."""
    return t(lang, f"sev_{severity_name(track, severity)}_next")


def track_label(lang: Lang, track: Track) -> str:
    return t(lang, f"track_{track.value}")


def healed_word(lang: Lang, track: Track) -> str:
    """What a wound of the lowest severity becomes when healed ("healed" / "soignée"/"soigné")."""
    return t(lang, f"healed_{track.value}")


def number(value: int) -> str:
    """An integer with a real minus sign when negative (no plus sign: see ``signed`` for that)."""
    return f"{MINUS}{-value}" if value < 0 else str(value)


_SETTING_PARTS: Final = {
    "physical": "track_physical",
    "mental": "track_mental",
    "penalties": "config_penalties",
    "rest_days": "config_rest",
    "difficulty": "config_difficulty",
    "presets": "config_presets",
    "language": "config_language",
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
    return ", ".join(parts) or t(lang, "config_title")


def _issues(lang: Lang, issues: tuple[object, ...]) -> str:
    """The problems of a settings change (``bot.actions.admin.validation_issues``), one a line."""
    lines = []
    for issue in issues:
        if not (isinstance(issue, tuple) and len(issue) == 3):
            continue
        where, kind, limit = issue
        key = f"invalid_{kind}" if f"invalid_{kind}" in CATALOGUE else "invalid_value"
        shown = (
            number(limit)
            if isinstance(limit, int) and not isinstance(limit, bool)
            else escape(str(limit))[:40]
        )
        path = _setting_path(lang, where if isinstance(where, tuple) else ())
        lines.append(t(lang, "invalid_line", where=path, problem=t(lang, key, limit=shown)))
    return clip("\n".join(lines), LONG_PARAM_LIMIT)


def _file_place(where: tuple[object, ...]) -> str:
    """``("characters", 3, "name")`` → ``characters.3.name``; a part that is not a plain field name
    (an unknown key of the file) is shown as ``?``, so that the file's text is never echoed."""
    parts = [
        str(part) if isinstance(part, int) or re.fullmatch(r"[a-z_]{1,30}", str(part)) else "?"
        for part in where
    ]
    return ".".join(parts)


def _import_line(lang: Lang, problem: ImportProblem) -> str:
    key = f"import_{problem.what}"
    if key not in CATALOGUE:
        key = "import_invalid_value"
    values = error_params(lang, dict(problem.values))
    where = _file_place(problem.where) or t(lang, "import_whole_file")
    return t(lang, "import_line", where=where, problem=t(lang, key, **values))


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
        text += "\n" + t(lang, "import_more", count=number(len(lines) - shown))
    return text


def _param(lang: Lang, key: str, value: object, track: Track) -> str:
    if key == "known" and isinstance(value, tuple):  # preset names, the built-in one in words
        return ", ".join(preset_label(lang, str(name)) for name in value)
    if key == "errors" and isinstance(value, tuple) and value and isinstance(value[0], ImportProblem):
        return import_problems(lang, value)
    if key == "errors" and isinstance(value, tuple):
        return _issues(lang, value)
    if isinstance(value, EventKind) and f"kind_{value}" in CATALOGUE:
        return t(lang, f"kind_{value}")
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
        return t(lang, "on" if value else "off")
    if isinstance(value, int):
        return number(value)
    if key in LONG_PARAMS:
        return clip(escape(str(value), multiline=True), LONG_PARAM_LIMIT)
    return clip(escape(str(value)), PARAM_LIMIT)


def of_name(lang: Lang, name: str) -> str:
    """ "Aélis's" / "d'Aélis", "Mira's" / "de Mira" (``name`` already escaped)."""
    if lang == "fr":
        return f"d'{name}" if name[:1].lower() in "aàâeéèêëiîïoôuùûyh" and name else f"de {name}"
    return f"{name}'s"


def error_params(lang: Lang, params: dict[str, object]) -> dict[str, object]:
    """The parameters of a refusal, ready to insert: each shown by its type (severities and tracks named
    in ``lang``, with a ``<name>_plural`` form for each severity; :class:`~bot.errors.Mention`,
    :class:`~bot.errors.RestDays`…), text escaped and clipped. Nothing is added or renamed: the raiser
    gives exactly the message's placeholders."""
    track = next((v for v in params.values() if isinstance(v, Track)), Track.PHYSICAL)
    out: dict[str, object] = {}
    for key, value in params.items():
        out[key] = _param(lang, key, value, track)
        if isinstance(value, Severity):
            out[f"{key}_plural"] = severity_label(lang, track, value, plural=True)
    return out


def _key_shown(key: object) -> str:
    """An unknown refusal's key, as inert code text."""
    return "`" + (re.sub(r"[^A-Za-z0-9_.-]", "", str(key))[:60] or "?") + "`"


def error_text(lang: Lang, err: UserError) -> str:
    """The refusal ``err`` in ``lang``, with what to do instead; never raises, always ≤ 2000 chars."""
    try:
        if err.key not in ERRORS:
            log.warning("No message for UserError key %r", err.key)
            return t(lang, "error_unknown", key=_key_shown(err.key))
        return clip(t(lang, err.key, **error_params(lang, err.params)), CONTENT)
    except MissingParameter:
        raise
    except Exception:  # a refusal must always be answered, even with odd parameters
        log.exception("Could not render UserError %r", err)
        return t(lang, "error_unknown", key=_key_shown(err.key))


def t_name(lang: Lang, key: str, raw_name: str, limit: int, /, **params: object) -> str:
    """``t(lang, key, name=...)`` with the user-given ``raw_name`` escaped, then clipped so that the
    whole text holds in ``limit`` characters (for titles, field names…)."""
    fixed = len(t(lang, key, name="", **params))
    return t(lang, key, name=clip(escape(raw_name), max(limit - fixed, 0)), **params)


# ---- The slash commands' French (strings_commands.py): a description or a choice by the key it is
# declared with, a command's or an option's name by that name (``name.heal.roll``, ``option.severity``).

FRENCH_LOCALES = (discord.Locale.french,)


def key_of(string: app_commands.locale_str, context: app_commands.TranslationContextTypes) -> str | None:
    """The catalogue key of ``string``: the one it was declared with, else its name's."""
    if key := string.extras.get("key"):
        return str(key)
    data = context.data
    if context.location in (Where.command_name, Where.group_name) and isinstance(
        data, app_commands.Command | app_commands.Group
    ):
        return "name." + data.qualified_name.replace(" ", ".")
    if context.location is Where.parameter_name:
        return "option." + string.message
    return None


class HarmoniesTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if locale not in FRENCH_LOCALES or (key := key_of(string, context)) is None:
            return None
        entry = COMMANDS.get(key)
        return None if entry is None else entry["fr"]
