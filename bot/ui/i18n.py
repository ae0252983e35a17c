"""Languages, the rendering of messages and refusals (:class:`UserError`), and the translator of the
slash commands (:class:`HarmoniesTranslator`).

Every text is written in English where it is used: ``t(lang, "No character named {name}.", name=...)``,
``tn`` with a plural form, ``tp`` with a context where one English text needs two translations. The
English is the gettext message id; its translations are the ``.po`` catalogues of ``bot/locale``
(``bot/locale/fr/LC_MESSAGES/harmonies.po``), read with Babel when this module is imported: the
languages are English and every language found there (``scripts/messages.py`` extracts the messages and
updates the catalogues: docs/translating.md).
"""

from __future__ import annotations

import gettext
import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import discord
from babel.messages.pofile import read_po
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.errors import N_, Change, EventKind, ImportProblem, Mention, Possessive, RestDays, UserError
from bot.rules.ruleset import HUMANOID
from bot.rules.severity import Severity, Track, severity_name
from bot.ui.text import CONTENT, MINUS, clip, escape, mention

log = logging.getLogger(__name__)

Lang = str
"""A language: ``"en"`` (the messages as written) or one of ``bot/locale`` (``"fr"``)."""
MISSING = "?"
STRICT = False
"""Set by the tests: a message parameter missing at a call site, or a message that no catalogue holds,
raises :class:`MissingParameter` instead of showing ``?`` (in production a user sees ``?`` or the English,
and the omission is logged)."""

LOCALE_DIR: Final = Path(__file__).resolve().parent.parent / "locale"
DOMAIN: Final = "harmonies"


class MissingParameter(KeyError):
    """A message was rendered without one of its parameters, or is in no catalogue (a bug at the call
    site, or a catalogue not updated)."""


@dataclass(frozen=True)
class Catalogue:
    """One language's translations: ``(context, English)`` → the text, or its plural forms."""

    messages: dict[tuple[str | None, str], str | tuple[str, ...]]
    plural: Callable[[int], int]


def read_catalogue(path: Path) -> Catalogue:
    """The translated messages of the ``.po`` file at ``path`` (fuzzy or empty ones are left out)."""
    with path.open("rb") as file:
        po = read_po(file, locale=path.parent.parent.name)
    messages: dict[tuple[str | None, str], str | tuple[str, ...]] = {}
    for message in po:
        if not message.id or message.fuzzy:
            continue
        if isinstance(message.id, tuple | list) and isinstance(message.string, tuple | list):
            forms = tuple(message.string)
            if all(forms):
                messages[message.context, str(message.id[0])] = forms
        elif isinstance(message.string, str) and message.string:
            messages[message.context, str(message.id)] = message.string
    return Catalogue(messages, gettext.c2py(po.plural_expr))


CATALOGUES: Final[dict[str, Catalogue]] = {
    path.parent.parent.name: read_catalogue(path)
    for path in sorted(LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
}
LANGS: Final[tuple[Lang, ...]] = ("en", *CATALOGUES)
KNOWN: Final = frozenset(key for catalogue in CATALOGUES.values() for key in catalogue.messages)
"""Every message some catalogue translates: under the tests, rendering any other one fails."""

PARAM_LIMIT = 200
LONG_PARAMS: Final = frozenset({"errors"})
LONG_PARAM_LIMIT = 1200


def lang_of(locale: discord.Locale | str | None) -> Lang:
    """``fr``, ``fr-FR``, ``fr_CA``… → ``"fr"`` (a language of ``bot/locale``); anything else → ``"en"``."""
    if locale is None:
        return "en"
    value = str(getattr(locale, "value", locale))  # a discord.Locale, or its value
    lang = value.strip().lower().replace("_", "-").split("-")[0]
    return lang if lang in CATALOGUES else "en"


class _Params(dict[str, object]):
    def __init__(self, message: str, params: dict[str, object]) -> None:
        super().__init__(params)
        self.message = message

    def __missing__(self, name: str) -> str:
        if STRICT:
            raise MissingParameter(f"message {self.message!r} rendered without its parameter {name!r}")
        log.warning("Message %r rendered without its parameter %r", self.message, name)
        return MISSING


def _translation(lang: Lang, context: str | None, message: str) -> str | tuple[str, ...] | None:
    if STRICT and (context, message) not in KNOWN:
        raise MissingParameter(f"message {message!r} (context {context!r}) is in no catalogue")
    catalogue = CATALOGUES.get(lang)
    if catalogue is None:
        return None
    found = catalogue.messages.get((context, message))
    if found is None:
        log.warning("Message %r (context %r) has no translation in %r", message, context, lang)
    return found


def _fill(message: str, template: str, params: dict[str, object]) -> str:
    if not params and "{" not in template:
        return template  # nothing to fill in (most labels): skip the formatting
    # A parameter missing is shown as "?" (and logged) rather than failing the answer; under the tests
    # (STRICT) it raises.
    return template.format_map(_Params(message, params))


def tp(lang: Lang, context: str | None, message: str, /, **params: object) -> str:
    """The English ``message`` (in ``context``) in ``lang``, with ``params`` filled in. Parameters are
    inserted as given: escape user text before passing it (:func:`bot.ui.text.escape`)."""
    found = _translation(lang, context, message)
    template = found if isinstance(found, str) else found[0] if found else message
    return _fill(message, template, params)


def t(lang: Lang, message: str, /, **params: object) -> str:
    """The English ``message`` in ``lang`` with ``params`` filled in (see :func:`tp`)."""
    return tp(lang, None, message, **params)


def plural_index(lang: Lang, count: int) -> int:
    """Which plural form ``count`` takes in ``lang``: 0 the singular (English: only 1; French: 0 and 1)."""
    catalogue = CATALOGUES.get(lang)
    if catalogue is None:
        return 0 if abs(count) == 1 else 1
    return catalogue.plural(abs(count))


def tnp(lang: Lang, context: str | None, singular: str, plural: str, count: int, /, **params: object) -> str:
    """The English ``singular`` or ``plural`` by ``count``, in ``lang`` (gettext's ``npgettext``), with
    ``count`` among the parameters."""
    index = plural_index(lang, count)
    found = _translation(lang, context, singular)
    if isinstance(found, tuple) and index < len(found):
        template = found[index]
    else:
        template = singular if plural_index("en", count) == 0 else plural
    return _fill(singular, template, {"count": count, **params})


def tn(lang: Lang, singular: str, plural: str, count: int, /, **params: object) -> str:
    """The English ``singular`` or ``plural`` by ``count`` (gettext's ``ngettext``): see :func:`tnp`."""
    return tnp(lang, None, singular, plural, count, **params)


def join_lines(lang: Lang, lines: Sequence[str], limit: int) -> str:
    """Lines joined with newlines, as many as fit in ``limit``; then one line saying how many were
    left out ("… and 3 more")."""
    text = "\n".join(lines)
    if len(text) <= limit:
        return text

    def tail(n: int) -> str:
        return t(lang, "… and {count} more", count=n)

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


def days_text(lang: Lang, rested: int, needed: int) -> str:
    """Days of rest of the days needed: "1/7 days", "0/1 day"; "0 jour sur 1", "3 jours sur 7". Rest
    beyond the need counts as the need ("1 jour sur 1", never "6 jours sur 1")."""
    rested = min(rested, needed)
    # English agrees with the days needed ("0/1 day", "2/7 days"), French with the days rested.
    return tn(
        lang,
        "{rested}/{needed} day",
        "{rested}/{needed} days",
        needed if lang == "en" else rested,
        rested=number(rested),
        needed=number(needed),
    )


def preset_label(lang: Lang, name: str) -> str:
    """A preset's name as shown: the built-in one in the reader's language, the others as typed."""
    return t(lang, "humanoid") if name == HUMANOID else clip(escape(name), 40)


def severity_label(lang: Lang, track: Track, severity: Severity, *, plural: bool = False) -> str:
    """ "light wound" / "blessure légère", "shock" / "choc" (plural: "light wounds"…)."""
    count = 2 if plural else 1
    match severity_name(track, severity):
        case "light":
            return tn(lang, "light wound", "light wounds", count)
        case "serious":
            return tn(lang, "serious wound", "serious wounds", count)
        case "critical":
            return tn(lang, "critical wound", "critical wounds", count)
        case "shock":
            return tn(lang, "shock", "shocks", count)
        case "trauma":
            return tn(lang, "trauma", "traumas", count)
        case _:
            return tn(lang, "psychosis", "psychoses", count)


def severity_short(lang: Lang, track: Track, severity: Severity, count: int = 1) -> str:
    """The bare word, agreeing with ``count``: "light" / "légère" ("2 légères"), "trauma" /
    "traumatisme" ("2 traumas")."""
    match severity_name(track, severity):
        case "light":
            return tn(lang, "light", "light", count)
        case "serious":
            return tn(lang, "serious", "serious", count)
        case "critical":
            return tn(lang, "critical", "critical", count)
        case "shock":
            return tn(lang, "shock", "shocks", count)
        case "trauma":
            return tn(lang, "trauma", "traumas", count)
        case _:
            return tn(lang, "psychosis", "psychoses", count)


_NEXT: Final = {
    "light": N_("next light wound"),
    "serious": N_("next serious wound"),
    "critical": N_("next critical wound"),
    "shock": N_("next shock"),
    "trauma": N_("next trauma"),
    "psychosis": N_("next psychosis"),
}


def severity_next(lang: Lang, track: Track, severity: Severity) -> str:
    """ "next light wound" / "prochaine blessure légère"."""
    return t(lang, _NEXT[severity_name(track, severity)])


TRACKS: Final = {Track.PHYSICAL: N_("Physical"), Track.MENTAL: N_("Mental")}


def track_label(lang: Lang, track: Track) -> str:
    return t(lang, TRACKS[track])


def healed_word(lang: Lang, track: Track) -> str:
    """What a wound of the lowest severity becomes when healed ("healed" / "soignée"/"soigné": French
    agrees with the noun, hence a context)."""
    if track is Track.PHYSICAL:
        return tp(lang, "a physical wound", "healed")
    return tp(lang, "a mental wound", "healed")


EVENT_KINDS: Final = {
    "character_create": N_("character creation"),
    "character_edit": N_("character edit"),
    "character_delete": N_("character deletion"),
    "character_select": N_("active character choice"),
    "wound": N_("wound"),
    "mental": N_("mental wound"),
    "heal_roll": N_("healing session"),
    "heal_wound": N_("GM healing"),
    "heal_mental": N_("GM mental healing"),
    "rest": N_("rest"),
    "config": N_("setting change"),
    "import": N_("import"),
    "undo": N_("undo"),
    "view_link": N_("player-view link"),
}
"""A kind of change in words, by its stored name (``EventKind``'s values)."""


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


def number(value: int) -> str:
    """An integer with a real minus sign when negative (no plus sign: see ``signed`` for that)."""
    return f"{MINUS}{-value}" if value < 0 else str(value)


_SETTING_PARTS: Final = {
    "physical": TRACKS[Track.PHYSICAL],
    "mental": TRACKS[Track.MENTAL],
    "penalties": N_("Penalty per wound"),
    "rest_days": N_("Rest before healing (days)"),
    "difficulty": N_("Healing difficulty (positive is easier)"),
    "presets": N_("Maxima presets"),
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
    return ", ".join(parts) or t(lang, "Server settings")


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


def _file_place(where: tuple[object, ...]) -> str:
    """``("characters", 3, "name")`` → ``characters.3.name``; a part that is not a plain field name
    (an unknown key of the file) is shown as ``?``, so that the file's text is never echoed."""
    parts = [
        str(part) if isinstance(part, int) or re.fullmatch(r"[a-z_]{1,30}", str(part)) else "?"
        for part in where
    ]
    return ".".join(parts)


def _import_line(lang: Lang, problem: ImportProblem) -> str:
    values = error_params(lang, dict(problem.values))
    where = _file_place(problem.where) or t(lang, "file")
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


def t_name(lang: Lang, message: str, raw_name: str, limit: int, /, **params: object) -> str:
    """``t(lang, message, name=...)`` with the user-given ``raw_name`` escaped, then clipped so that the
    whole text holds in ``limit`` characters (for titles, field names…)."""
    fixed = len(t(lang, message, name="", **params))
    return t(lang, message, name=clip(escape(raw_name), max(limit - fixed, 0)), **params)


# ---- The slash commands: discord.py's translator gets each English text (``locale_str("…")``: names,
# descriptions, choices) with where it is; a name's context says which name it is.


def command_context(context: app_commands.TranslationContextTypes) -> str | None:
    """The gettext context of a command's text: ``/heal mental`` for a command's (or group's) name, and
    ``menu`` for a context menu's; ``option`` for an option's name; ``choice`` for a choice; none for a
    description (a sentence is its own context)."""
    match context.location:
        case Where.command_name | Where.group_name:
            data = context.data
            if isinstance(data, app_commands.Command | app_commands.Group):
                return "/" + data.qualified_name
            return "menu"
        case Where.parameter_name:
            return "option"
        case Where.choice_name:
            return "choice"
        case _:
            return None


class HarmoniesTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        catalogue = CATALOGUES.get(lang_of(locale))  # none for English, and for a language we lack
        if catalogue is None:
            return None
        found = catalogue.messages.get((command_context(context), string.message))
        return found if isinstance(found, str) else None
