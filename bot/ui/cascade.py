"""Why a wound became worse than asked: the full ranks it went through ("light full 4/4")."""

from __future__ import annotations

from bot.rules.ruleset import Maxima
from bot.rules.severity import SEVERITIES, Severity, Track, severity_name
from bot.ui.i18n import Lang, t


def skipped(start: Severity | None, became: Severity | None) -> list[Severity]:
    """The ranks from ``start`` up to (not including) ``became`` (``None``: beyond the track): each
    was full when the wound arrived, which is why it went on up."""
    if start is None:
        return []
    return [s for s in SEVERITIES if s >= start and (became is None or s < became)]


def cascade_reason(
    lang: Lang, track: Track, start: Severity | None, became: Severity | None, maxima: Maxima
) -> str:
    """`` (light full 4/4, serious full 2/2)``, or nothing when the wound stayed at ``start``."""
    full = [t(lang, f"full_{severity_name(track, s)}", max=maxima[s]) for s in skipped(start, became)]
    return f" ({', '.join(full)})" if full else ""
