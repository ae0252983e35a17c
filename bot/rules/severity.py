"""Tracks and severities: the two wound tracks and their three ranks."""

from __future__ import annotations

from enum import IntEnum, StrEnum


class Track(StrEnum):
    PHYSICAL = "physical"
    MENTAL = "mental"


class Severity(IntEnum):
    """The rank of a wound on its track: light/shock < serious/trauma < critical/psychosis."""

    LOW = 0
    MID = 1
    HIGH = 2

    def lower(self) -> Severity | None:
        """One rank down; ``None`` means healed."""
        return None if self is Severity.LOW else Severity(self - 1)

    def higher(self) -> Severity | None:
        """One rank up; ``None`` means beyond the track (fatal or incoherent)."""
        return None if self is Severity.HIGH else Severity(self + 1)


SEVERITIES: tuple[Severity, ...] = (Severity.LOW, Severity.MID, Severity.HIGH)

SEVERITY_NAMES: dict[Track, tuple[str, str, str]] = {
    Track.PHYSICAL: ("light", "serious", "critical"),
    Track.MENTAL: ("shock", "trauma", "psychosis"),
}


def severity_name(track: Track, severity: Severity) -> str:
    """The English choice value of a severity, e.g. ``light`` or ``psychosis``."""
    return SEVERITY_NAMES[track][severity]


def parse_severity(track: Track, name: str) -> Severity:
    """The severity named by an English choice value on ``track``; ``ValueError`` otherwise."""
    try:
        return Severity(SEVERITY_NAMES[track].index(name))
    except ValueError:
        raise ValueError(f"{name!r} is not a {track.value} severity") from None
