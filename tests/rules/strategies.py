"""Hypothesis strategies for the rules: rulesets, characters within their maxima, actions."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st

from bot.rules import SEVERITIES, Character, Ruleset, Severity, Track, TrackNumbers, Wound
from bot.rules.ruleset import Maxima
from tests.rules.support import fatal_wounds

tracks = st.sampled_from(list(Track))
severities = st.sampled_from(SEVERITIES)
maxima: st.SearchStrategy[Maxima] = st.tuples(st.integers(0, 6), st.integers(0, 6), st.integers(0, 6))
penalties = st.lists(st.integers(-10, 0), min_size=3, max_size=3)  # any non-positive values
triple_rest = st.tuples(st.integers(0, 40), st.integers(0, 40), st.integers(0, 40))
triple_difficulty = st.tuples(st.integers(-5, 5), st.integers(-5, 5), st.integers(-5, 5))


@st.composite
def track_numbers(draw: st.DrawFn) -> TrackNumbers:
    low, mid, high = draw(penalties)
    return TrackNumbers(
        penalties=(low, mid, high), rest_days=draw(triple_rest), difficulty=draw(triple_difficulty)
    )


rulesets = st.builds(
    Ruleset,
    physical=track_numbers(),
    mental=track_numbers(),
    open_rolls=st.booleans(),
    tie_succeeds=st.booleans(),
    mental_healing_rolls=st.booleans(),
)


@st.composite
def characters(draw: st.DrawFn, *, dead: bool = False, incoherent: bool = False) -> Character:
    """A character holding random wounds within random maxima, with some healed ones in its history.

    Sometimes the very same ``Wound`` object stands for several wounds, as ``(wound,) * 3`` would.
    """
    physical_max, mental_max = draw(maxima), draw(maxima)
    wounds: list[Wound] = []
    for track, top in ((Track.PHYSICAL, physical_max), (Track.MENTAL, mental_max)):
        for severity in SEVERITIES:
            count = draw(st.integers(0, top[severity]))
            inflicted = draw(st.sampled_from([s for s in SEVERITIES if s <= severity]))
            if draw(st.booleans()):
                wounds += [Wound(track, inflicted, severity)] * count
            else:
                wounds += [Wound(track, inflicted, severity, note=f"#{n}") for n in range(count)]
    healed = draw(st.lists(st.builds(Wound, tracks, severities, st.none()), max_size=2))
    order = draw(st.permutations(wounds + healed))
    return Character(
        "Aria",
        corps=draw(st.integers(-5, 5)),
        resistance=draw(st.integers(-5, 5)),
        intuition=draw(st.integers(-5, 5)),
        physical_max=physical_max,
        mental_max=mental_max,
        wounds=(*order, *fatal_wounds(dead=dead, incoherent=incoherent)),
        rest_days=draw(st.integers(0, 60)),
    )


@dataclass(frozen=True)
class Inflict:
    track: Track
    severity: Severity
    count: int


@dataclass(frozen=True)
class Heal:
    track: Track


@dataclass(frozen=True)
class Lower:
    track: Track
    severity: Severity


@dataclass(frozen=True)
class Rest:
    days: int


Action = Inflict | Heal | Lower | Rest

actions: st.SearchStrategy[Action] = st.one_of(
    st.builds(Inflict, tracks, severities, st.integers(1, 3)),
    st.builds(Heal, tracks),
    st.builds(Lower, tracks, severities),
    st.builds(Rest, st.integers(1, 40)),
)
