"""Plain text for Discord: its limits, escaping, clipping, signed numbers, line budgets, and the wound
marks (squares for the body, circles for the mind) that read at a glance."""

from __future__ import annotations

import functools
import re

import discord

from bot.rules.severity import SEVERITIES, Severity, Track

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
    """User text (a name, a note) made inert: it can never format, ping, link or break a layout.

    Markdown is escaped (links included), and every ``<@…>``, ``<@&…>``, ``<#…>``, ``@everyone`` and
    ``@here`` gets a zero-width space so Discord shows it as plain text. Whitespace (and, unless
    ``multiline``, line breaks) collapses to single spaces. Escape first, then :func:`clip`.
    Short texts are cached: the same names and notes are shown again and again (every card, list and
    autocomplete choice).
    """
    if len(text) <= CACHED_ESCAPE:
        return _escape_cached(text, multiline)
    return _escape(text, multiline)


CACHED_ESCAPE = 256


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
    """``text`` cut to at most ``limit`` characters, ending with "…" when cut.

    Never leaves a dangling escape backslash at the cut (which would escape the "…" and could
    un-escape what follows in the message).
    """
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
