"""Whether a character's state is one the rules can reach (what an import must hold).

Every change the rules make keeps these true: no severity holds more wounds than its maximum; a
wound beyond the top of a track (the fatal one) exists exactly when the character is dead (physical)
or incoherent (mental); there is at most one, since nothing happens to a character after it.
(Whether the track was full when the fatal wound came is not checked: a GM may give a dead character
a preset with more room afterwards.)
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.rules.character import Character
from bot.rules.severity import SEVERITIES, Severity, Track


@dataclass(frozen=True)
class Unreachable:
    """One way a state breaks the rules. ``problem`` is one of: ``too_many`` (``severity`` holds
    ``held`` wounds, more than ``maximum``), ``beyond_not_out`` (a fatal wound on ``track`` but not
    dead/incoherent), ``out_without_beyond`` (dead/incoherent without a fatal wound on ``track``),
    ``several_beyond`` (more than one fatal wound), ``dead_and_incoherent``."""

    problem: str
    track: Track | None = None
    severity: Severity | None = None
    held: int = 0
    maximum: int = 0


def unreachable(character: Character) -> list[Unreachable]:
    """Every way ``character`` is a state the rules can never reach; empty when it can be reached."""
    found: list[Unreachable] = []
    fatal = [w for w in character.wounds if w.fatal]
    if len(fatal) > 1:
        found.append(Unreachable("several_beyond", held=len(fatal)))
    if character.dead and character.incoherent:
        found.append(Unreachable("dead_and_incoherent"))
    for track in Track:
        counts, maxima = character.counts(track), character.maxima(track)
        for severity in SEVERITIES:
            if counts[severity] > maxima[severity]:
                found.append(Unreachable("too_many", track, severity, counts[severity], maxima[severity]))
        out = character.dead if track is Track.PHYSICAL else character.incoherent
        beyond = [w for w in fatal if w.track is track]
        if beyond and not out:
            found.append(Unreachable("beyond_not_out", track))
        if out and not beyond:
            found.append(Unreachable("out_without_beyond", track))
    return found
