"""Marks per severity that read at a glance: squares for the body, circles for the mind, in the
colours of the card's states. Counts are always written beside them, for screen readers."""

from __future__ import annotations

from bot.rules.severity import SEVERITIES, Severity, Track

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
