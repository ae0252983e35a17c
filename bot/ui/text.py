"""What every renderer shares: Discord's limits, user text made inert and clipped, numbers, line
budgets, the words of wounds and tracks in the reader's language, and the wound marks (squares for the
body, circles for the mind) that read at a glance."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Final

import discord

from bot.errors import N_
from bot.rules.ruleset import HUMANOID
from bot.rules.severity import SEVERITIES, Severity, Track, severity_name
from bot.ui.i18n import Lang, t, tn, tp

# ---- Discord's documented limits, in Unicode code points (the OpenAPI schema's ``maxLength``), like ``len``.

TITLE = 256
DESCRIPTION = 4096
FIELD_VALUE = 1024
TOTAL = 6000
"""Across all the embeds of a message."""
CONTENT = 2000
CHOICE_NAME = 100
# ---- Text helpers: escaping user text, cutting at Discord's limits, signed numbers, mentions.

ELLIPSIS = "…"
MINUS = "\u2212"
ZWSP = "\u200b"

# Control characters and bidirectional overrides: they could reorder or hide the card's own text.
_INVISIBLE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u202a-\u202e\u2066-\u2069]")
# Anything Discord would turn into a mention, a channel, an emoji, a timestamp or a command link.
_ANGLE = re.compile(r"<(?=[@#:/!&a-zA-Z])")
_AT = re.compile(r"@(?=everyone|here|[!&]?\d)")
_ORDERED_LIST = re.compile(r"^(\s*\d+)\.(?=\s)", re.MULTILINE)


def escape(text: str, *, multiline: bool = False) -> str:
    """User text (a name, a note) made inert: markdown escaped, mentions broken by a zero-width space,
    whitespace (and, unless ``multiline``, line breaks) collapsed. Escape first, then :func:`clip`.
    Short texts are cached: the same names are shown on every card, list and choice."""
    return _escape_cached(text, multiline) if len(text) <= 256 else _escape(text, multiline)


def _escape(text: str, multiline: bool) -> str:
    text = _INVISIBLE.sub("", text)
    if multiline:
        text = "\n".join(" ".join(line.split()) for line in text.splitlines())
    else:
        text = " ".join(text.split())
    text = discord.utils.escape_markdown(text, ignore_links=False)
    text = _ORDERED_LIST.sub(r"\1\\.", text)
    text = _ANGLE.sub("<" + ZWSP, text)
    return _AT.sub("@" + ZWSP, text)


_escape_cached = functools.lru_cache(maxsize=4096)(_escape)


def clip(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, ending with "…" when cut; never with a dangling
    escape backslash (it would escape the "…" and could un-escape what follows)."""
    if len(text) <= limit:
        return text
    if limit <= 0:
        return ""
    cut = text[: limit - 1]
    backslashes = len(cut) - len(cut.rstrip("\\"))
    if backslashes % 2:
        cut = cut[:-1]
    return cut + ELLIPSIS


def signed(number: int) -> str:
    """``+4``, ``+0``, ``−4`` (with a real minus sign, U+2212)."""
    return f"{MINUS}{-number}" if number < 0 else f"+{number}"


def mention(user_id: int | None) -> str:
    return "" if user_id is None else f"<@{user_id}>"


def fit_total(embed: discord.Embed, total: int = TOTAL) -> discord.Embed:
    """A last safety net: shorten the longest texts of ``embed`` until it holds ``total`` characters."""
    for _ in range(50):
        excess = len(embed) - total
        if excess <= 0:
            break
        fields = embed.fields
        sizes = [(len(embed.description or ""), -1)] + [(len(f.value or ""), i) for i, f in enumerate(fields)]
        size, index = max(sizes)
        keep = max(size - excess, 16)
        if index < 0:
            embed.description = clip(embed.description or "", keep)
        else:
            field = fields[index]
            embed.set_field_at(
                index, name=field.name or ZWSP, value=clip(field.value or "", keep), inline=bool(field.inline)
            )
        if size <= 16:
            break
    return embed


# ---- Marks per severity: squares for the body, circles for the mind (counts always beside them)

GLYPHS: dict[Track, tuple[str, str, str]] = {
    Track.PHYSICAL: ("🟨", "🟧", "🟥"),
    Track.MENTAL: ("🟡", "🟠", "🔴"),
}
"""One mark per severity, in the colours of the card's states: squares for the body, circles for the
mind. The counts are always written beside them, for screen readers."""
EMPTY = "▫️"
NO_ROOM = "—"
MAX_MARKS = 10
"""A severity never shows more marks than this; above, each mark stands for several wounds."""


def glyph(track: Track, severity: Severity) -> str:
    return GLYPHS[track][severity]


def marks(track: Track, severity: Severity, count: int, maximum: int) -> str:
    """``🟨🟨▫️▫️`` for 2 light wounds of 4; at most ten marks (proportional above ten); ``—`` when the
    creature has no room at all for that severity."""
    if maximum <= 0:
        return NO_ROOM
    shown = max(0, min(count, maximum))
    if maximum <= MAX_MARKS:
        return glyph(track, severity) * shown + EMPTY * (maximum - shown)
    filled = round(shown * MAX_MARKS / maximum)
    if shown > 0:
        filled = max(1, filled)
    if shown < maximum:
        filled = min(filled, MAX_MARKS - 1)
    return glyph(track, severity) * filled + EMPTY * (MAX_MARKS - filled)


def held_marks(track: Track, counts: tuple[int, int, int]) -> str:
    """Only the wounds held, as marks (``🟨🟨🟨🟧``); at most ten marks per severity."""
    return "".join(glyph(track, s) * min(counts[s], MAX_MARKS) for s in SEVERITIES if counts[s])


# ---- Words every renderer shares, in the reader's language


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
    if kept == 0:
        room = limit - len(tail(len(lines) - 1)) - 1
        return clip(clip(lines[0], max(room, 0)) + "\n" + tail(len(lines) - 1), limit)
    return "\n".join([*lines[:kept], tail(len(lines) - kept)])


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


@functools.cache  # a few dozen labels, asked for on every result, card and board line
def severity_label(
    lang: Lang, track: Track, severity: Severity, *, plural: bool = False, count: int = 1
) -> str:
    """ "light wound" / "blessure légère", "shock" / "choc" (plural, or agreeing with ``count``)."""
    count = 2 if plural else count
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


@functools.cache
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
        case _:  # the mind's words are short already
            return severity_label(lang, track, severity, count=count)


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


SETTING_LABELS = {  # a server setting's name: in /config show, and where a refusal points at it
    "penalties": N_("Penalty per wound"),
    "rest_days": N_("Rest before healing (days)"),
    "difficulty": N_("Healing difficulty (positive is easier)"),
    "presets": N_("Maxima presets"),
}
SERVER_SETTINGS = N_("Server settings")

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
    "blow": N_("blow"),
}
"""A kind of change in words, by its stored name (``EventKind``'s values)."""


def number(value: int) -> str:
    """An integer with a real minus sign when negative (no plus sign: see ``signed`` for that)."""
    return f"{MINUS}{-value}" if value < 0 else str(value)


def t_name(lang: Lang, message: str, raw_name: str, limit: int, /, **params: object) -> str:
    """``t(lang, message, name=...)`` with the user-given ``raw_name`` escaped, then clipped so that the
    whole text holds in ``limit`` characters (for titles, field names…)."""
    fixed = len(t(lang, message, name="", **params))
    return t(lang, message, name=clip(escape(raw_name), max(limit - fixed, 0)), **params)
