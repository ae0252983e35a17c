"""The healing odds against brute force: every dice pair through the real healing session."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules import Character, Dice, Ruleset, Severity, Track, heal_session
from bot.rules.healing import WORSEN_AT, can_roll_healing
from bot.rules.odds import HOPELESS_BELOW, OPEN_ERROR_BOUND, HealingOdds, healing_odds, roll_odds
from tests.rules.strategies import characters, rulesets
from tests.rules.support import character

PAIRS = [(luck, unluck) for luck in range(1, 11) for unluck in range(1, 11)]
TOLERANCE = Fraction(1, 1000)


def open_die(depth: int) -> list[tuple[tuple[int, ...], Fraction]]:
    """Every throw sequence of an open die with at most ``depth`` tens, and its probability."""
    sequences: list[tuple[tuple[int, ...], Fraction]] = []
    for tens in range(depth + 1):
        for last in range(1, 10):
            sequences.append(((10,) * tens + (last,), Fraction(1, 10 ** (tens + 1))))
    return sequences


def first_roll(character: Character, ruleset: Ruleset, track: Track, dice: Dice) -> tuple[bool, bool, bool]:
    """Run the real healing session with ``dice`` first (and failures after): what the first roll did."""
    feed = iter([dice])
    session = heal_session(character, ruleset, lambda: next(feed, Dice((1,), (10,))), track)
    step = session.steps[0]
    return step.roll.success, step.worsened, step.beyond


def brute(character: Character, ruleset: Ruleset, track: Track) -> tuple[Fraction, Fraction, Fraction]:
    """Success, worsening and death chances by running every dice outcome through heal_session."""
    if ruleset.open_rolls:
        die = open_die(2)
        outcomes = [(Dice(luck, unluck), pl * pu) for luck, pl in die for unluck, pu in die]
    else:
        outcomes = [(Dice((luck,), (unluck,)), Fraction(1, 100)) for luck, unluck in PAIRS]
    success = worsening = death = Fraction(0)
    for dice, chance in outcomes:
        won, worse, beyond = first_roll(character, ruleset, track, dice)
        success += chance if won else 0
        worsening += chance if worse else 0
        death += chance if beyond else 0
    return success, worsening, death


def test_the_issue_example_zero_success_and_64_percent_fatal() -> None:
    # −14: 3 light, 2 serious, 1 critical; Cp+Rs +3; the first roll is for a light wound.
    aelis = character((3, 2, 1), corps=2, resistance=1, rest_days=1)
    odds = healing_odds(aelis, Ruleset())
    assert odds is not None
    assert (odds.success, odds.worsening, odds.death) == (Fraction(0), Fraction(64, 100), Fraction(64, 100))
    assert odds.beyond and odds.risky and odds.severity is Severity.LOW


def test_no_odds_when_no_session_is_available() -> None:
    assert healing_odds(character((1, 0, 0)), Ruleset()) is None  # rest not over
    assert healing_odds(character(rest_days=5), Ruleset()) is None  # nothing to heal
    assert healing_odds(character((1, 0, 0), rest_days=5, dead=True), Ruleset()) is None
    assert healing_odds(character(mental=(1, 0, 0), rest_days=5), Ruleset(), Track.MENTAL) is None


def test_a_safe_roll_is_not_risky() -> None:
    odds = healing_odds(character((1, 0, 0), corps=3, resistance=3, rest_days=1), Ruleset())
    assert odds is not None and odds.worsening == 0 and not odds.risky and odds.death == 0


def test_closed_roll_odds_are_exact_fractions_of_the_100_pairs() -> None:
    for bonus in range(-25, 25):
        for tie in (True, False):
            odds = roll_odds(bonus, tie_succeeds=tie, open_rolls=False)
            margins = [luck - unluck + bonus for luck, unluck in PAIRS]
            wins = sum(1 for m in margins if m > 0 or (tie and m == 0))
            worse = sum(1 for m in margins if -m >= WORSEN_AT)
            assert (odds.success, odds.worsening) == (Fraction(wins, 100), Fraction(worse, 100))


def test_open_roll_odds_are_within_the_stated_error() -> None:
    assert OPEN_ERROR_BOUND < TOLERANCE
    die = open_die(6)  # deeper than the module goes
    for bonus in range(-40, 40, 3):
        odds = roll_odds(bonus, tie_succeeds=True, open_rolls=True)
        success = worsening = Fraction(0)
        for luck, pl in die:
            for unluck, pu in die:
                margin = sum(luck) - sum(unluck) + bonus
                success += pl * pu if margin >= 0 else 0
                worsening += pl * pu if margin <= -WORSEN_AT else 0
        assert abs(odds.success - success) < TOLERANCE
        assert abs(odds.worsening - worsening) < TOLERANCE


@st.composite
def ready_to_heal(draw: st.DrawFn) -> tuple[Character, Ruleset, Track]:
    ruleset = draw(rulesets)
    track = draw(st.sampled_from(list(Track)))
    someone = draw(characters())
    someone = replace(someone, rest_days=someone.rest_days + 40)  # at most 40 days are ever needed
    return someone, ruleset, track


@settings(max_examples=80, deadline=None)
@given(ready_to_heal())
def test_healing_odds_match_every_outcome_of_the_real_session(case: tuple[Character, Ruleset, Track]) -> None:
    someone, ruleset, track = case
    odds = healing_odds(someone, ruleset, track)
    if not can_roll_healing(someone, ruleset, track):
        assert odds is None
        return
    assert odds is not None
    success, worsening, death = brute(someone, ruleset, track)
    # Brute force over open dice goes two tens deep: it leaves out 2·10^-3 of the mass at most.
    slack = Fraction(2, 1000) + OPEN_ERROR_BOUND if ruleset.open_rolls else Fraction(0)
    assert abs(odds.success - success) <= slack
    assert abs(odds.worsening - worsening) <= slack
    assert abs(odds.death - death) <= slack
    assert odds.risky == (worsening > 0) or ruleset.open_rolls


def test_a_session_worth_offering_can_reasonably_succeed_and_cannot_kill() -> None:
    """The one notion every place that offers a session uses (card, Heal button, /rest, board, page)."""

    def odds(success: Fraction, worsening: Fraction, beyond: bool) -> HealingOdds:
        return HealingOdds(Track.PHYSICAL, Severity.LOW, success, worsening, beyond)

    assert Fraction(5, 100) == HOPELESS_BELOW
    assert odds(Fraction(36, 100), Fraction(3, 100), False).worth_offering  # worsening alone is no bar
    assert odds(Fraction(5, 100), Fraction(15, 100), False).worth_offering  # 5 %: still worth a try
    hardly = odds(Fraction(3, 100), Fraction(36, 100), False)
    assert hardly.hopeless and not hardly.deadly and not hardly.worth_offering
    impossible = odds(Fraction(0), Fraction(55, 100), False)
    assert impossible.hopeless and not impossible.worth_offering
    deadly = odds(Fraction(60, 100), Fraction(1, 100), True)
    assert deadly.deadly and not deadly.hopeless and not deadly.worth_offering
    assert odds(Fraction(60, 100), Fraction(0), True).worth_offering  # beyond, but no roll can get there
    # The question before rolling: by default before any session not worth offering; never with "never".
    for setting, asks in (
        ("deadly", (False, True, True)),
        ("worsening", (True, True, True)),
        ("never", (False,) * 3),
    ):
        ruleset = Ruleset(ask_before_healing=setting)
        shown = tuple(
            ruleset.asks_before(worth_offering=o.worth_offering, worsening=o.risky)
            for o in (odds(Fraction(36, 100), Fraction(3, 100), False), hardly, deadly)
        )
        assert shown == asks, setting
