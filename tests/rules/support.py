"""Helpers shared by the rules tests: a scripted dice source and character builders."""

from __future__ import annotations

from collections.abc import Iterable

from bot.rules import Character, DiceFeed, Severity, Track, Wound
from bot.rules.ruleset import Maxima


class ScriptedSource:
    """A dice source that hands out the values it was given, in order, and fails when it runs out."""

    def __init__(self, values: Iterable[int]) -> None:
        self.values = list(values)
        self.calls = 0

    def randint(self, a: int, b: int) -> int:
        if not self.values:
            raise AssertionError("the code rolled more dice than the test scripted")
        value = self.values.pop(0)
        assert a <= value <= b, f"scripted {value} outside {a}..{b}"
        self.calls += 1
        return value


def scripted(*pairs: tuple[int, int], open_rolls: bool = False) -> DiceFeed:
    """A dice feed rolling the (luck, unluck) pairs given, in order."""
    return DiceFeed(ScriptedSource(v for pair in pairs for v in pair), open_rolls=open_rolls)


def wounds_of(track: Track, counts: tuple[int, int, int]) -> list[Wound]:
    """Distinct wounds held at the given counts (low, mid, high), least severe first."""
    return [
        Wound(track, severity, severity, note=f"{track.value} {severity.name} #{n}")
        for severity in Severity
        for n in range(counts[severity])
    ]


def fatal_wounds(*, dead: bool = False, incoherent: bool = False) -> tuple[Wound, ...]:
    """The wound that made a character dead (incoherent): one beyond the top of its track."""
    tracks = [track for track, out in ((Track.PHYSICAL, dead), (Track.MENTAL, incoherent)) if out]
    return tuple(Wound(track, Severity.HIGH, None, fatal=True) for track in tracks)


def character(
    physical: tuple[int, int, int] = (0, 0, 0),
    mental: tuple[int, int, int] = (0, 0, 0),
    *,
    physical_max: Maxima = (4, 2, 1),
    mental_max: Maxima = (4, 2, 1),
    rest_days: int = 0,
    corps: int = 0,
    resistance: int = 0,
    intuition: int = 0,
    dead: bool = False,
    incoherent: bool = False,
) -> Character:
    """A character holding ``physical`` and ``mental`` wounds (counts per severity)."""
    return Character(
        "Aria",
        corps=corps,
        resistance=resistance,
        intuition=intuition,
        physical_max=physical_max,
        mental_max=mental_max,
        wounds=(
            *wounds_of(Track.PHYSICAL, physical),
            *wounds_of(Track.MENTAL, mental),
            *fatal_wounds(dead=dead, incoherent=incoherent),
        ),
        rest_days=rest_days,
    )
