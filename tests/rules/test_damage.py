"""Rules §8: damage rolls — the table, the resistance roll, escalation, batches, and exact odds."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from bot.errors import UserError
from bot.rules import Character, Dice, Ruleset, Severity, Track, total_penalty
from bot.rules.damage import (
    Blow,
    Harm,
    damage_odds,
    effective_damage,
    harm_odds,
    harm_of,
    inflict_damage,
    resistance_roll,
)
from bot.rules.ruleset import DamageTable
from tests.rules.strategies import characters, rulesets, tracks
from tests.rules.support import character, scripted

LOW, MID, HIGH = Severity.LOW, Severity.MID, Severity.HIGH
PHYSICAL, MENTAL = Track.PHYSICAL, Track.MENTAL
DEFAULT = DamageTable()


def dice(luck: int, unluck: int) -> Dice:
    return Dice((luck,), (unluck,))


# ---- the table (rules.md §8: ≤ 10 none, 11–20 light, 21–30 serious, 31–40 critical, 41+ fatal) ----


@pytest.mark.parametrize(
    ("effective", "harm"),
    [
        (-12, Harm.NONE),
        (0, Harm.NONE),
        (10, Harm.NONE),
        (11, Harm.LOW),
        (20, Harm.LOW),
        (21, Harm.MID),
        (30, Harm.MID),
        (31, Harm.HIGH),
        (40, Harm.HIGH),
        (41, Harm.FATAL),
        (999, Harm.FATAL),
    ],
)
def test_the_default_table(effective: int, harm: Harm) -> None:
    assert harm_of(DEFAULT, effective) is harm


def test_a_server_table_moves_the_thresholds() -> None:
    table = DamageTable(thresholds=(5, 6, 50, 100))
    assert [harm_of(table, e) for e in (4, 5, 6, 49, 50, 99, 100)] == [
        Harm.NONE,
        Harm.LOW,
        Harm.MID,
        Harm.MID,
        Harm.HIGH,
        Harm.HIGH,
        Harm.FATAL,
    ]


@pytest.mark.parametrize(
    "thresholds", [(11, 11, 31, 41), (21, 11, 31, 41), (11, 21, 31, 30), (0, 21, 31, 41)]
)
def test_a_table_whose_thresholds_do_not_increase_is_refused(thresholds: tuple[int, int, int, int]) -> None:
    with pytest.raises(ValidationError):
        DamageTable(thresholds=thresholds)
    with pytest.raises(ValidationError):
        Ruleset.model_validate({"damage": {"thresholds": thresholds}})


def test_a_stored_ruleset_from_before_damage_rolls_gets_the_default_table() -> None:
    old = Ruleset().model_dump()
    del old["damage"]
    assert Ruleset.model_validate(old).damage == DEFAULT


# ---- the roll ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("damage", "luck", "unluck", "corps", "resistance", "effective", "harm"),
    [
        # success: the margin comes off the damage
        (25, 7, 3, 1, 1, 19, Harm.LOW),  # +4 +2 → margin 6 → 25 − 6 = 19
        (25, 10, 1, 2, 2, 12, Harm.LOW),  # +9 +4 → margin 13 → 12
        (25, 10, 1, 3, 3, 10, Harm.NONE),  # +9 +6 → margin 15 → 10: no wound
        (12, 5, 5, 0, 0, 12, Harm.LOW),  # margin 0 is a success (default) → 12 − 0
        # failure: the whole damage level
        (25, 1, 9, 1, 1, 25, Harm.MID),  # −8 +2 → margin −6 → 25
        (35, 2, 8, 0, 0, 35, Harm.HIGH),
        (45, 3, 4, 0, 0, 45, Harm.FATAL),
        (8, 1, 10, 0, 0, 8, Harm.NONE),  # a low damage level never wounds
        (0, 1, 10, -5, -5, 0, Harm.NONE),
    ],
)
def test_the_resistance_roll_and_the_effective_damage(
    damage: int, luck: int, unluck: int, corps: int, resistance: int, effective: int, harm: Harm
) -> None:
    aria = character(corps=corps, resistance=resistance)
    roll = resistance_roll(aria, Ruleset(), PHYSICAL, dice(luck, unluck))
    assert roll.attributes == corps + resistance and roll.difficulty == 0
    assert effective_damage(damage, roll) == effective
    assert harm_of(DEFAULT, effective) is harm


def test_the_penalty_of_every_wound_held_weighs_on_the_roll() -> None:
    aria = character((1, 1, 0), (1, 0, 0), corps=2, resistance=1)  # −1 −3 −1 = −5
    roll = resistance_roll(aria, Ruleset(), PHYSICAL, dice(7, 3))
    assert roll.penalty == -5 and roll.margin == 4 + 3 - 5


def test_a_mental_blow_is_resisted_with_willpower() -> None:
    aria = character(corps=-5, intuition=3, resistance=1)
    roll = resistance_roll(aria, Ruleset(), MENTAL, dice(5, 5))
    assert roll.attributes == 4


def test_a_margin_of_zero_fails_when_ties_do_not_succeed() -> None:
    roll = resistance_roll(character(), Ruleset(tie_succeeds=False), PHYSICAL, dice(5, 5))
    assert not roll.success and effective_damage(25, roll) == 25


# ---- inflicting ----------------------------------------------------------------------------------------


def test_a_blow_becomes_a_wound_of_the_tables_severity() -> None:
    outcome = inflict_damage(character(), Ruleset(), PHYSICAL, 25, scripted((1, 9)), note="axe", by=5, at="t")
    (blow,) = outcome.blows
    assert (blow.effective, blow.harm) == (25, Harm.MID)
    assert outcome.character.counts(PHYSICAL) == (0, 1, 0)
    wound = outcome.character.wounds[-1]
    assert (wound.inflicted, wound.current, wound.note, wound.inflicted_by, wound.at) == (
        MID,
        MID,
        "axe",
        5,
        "t",
    )


def test_the_wound_escalates_as_usual() -> None:
    aria = character((4, 1, 0))
    outcome = inflict_damage(aria, Ruleset(), PHYSICAL, 15, scripted((1, 9)))
    (blow,) = outcome.blows
    assert blow.harm is Harm.LOW and blow.result is not None and blow.result.became is MID
    assert outcome.character.counts(PHYSICAL) == (4, 2, 0)


def test_escalation_past_the_top_kills() -> None:
    outcome = inflict_damage(character((4, 2, 1)), Ruleset(), PHYSICAL, 15, scripted((1, 9)))
    assert outcome.character.dead and outcome.blows[0].beyond


def test_the_last_threshold_kills_whatever_the_wounds() -> None:
    outcome = inflict_damage(character(), Ruleset(), PHYSICAL, 50, scripted((2, 9)), note="cannon")
    (blow,) = outcome.blows
    assert blow.harm is Harm.FATAL and blow.beyond
    assert outcome.character.dead
    fatal = outcome.character.wounds[-1]
    assert fatal.fatal and fatal.current is None and fatal.note == "cannon"


def test_on_the_mental_track_the_last_threshold_makes_incoherent() -> None:
    outcome = inflict_damage(character(), Ruleset(), MENTAL, 50, scripted((2, 9)))
    assert outcome.character.incoherent and not outcome.character.dead


def test_a_blow_that_leaves_no_wound_changes_nothing() -> None:
    aria = character((1, 0, 0), rest_days=3)
    outcome = inflict_damage(aria, Ruleset(), PHYSICAL, 10, scripted((1, 9)))
    assert outcome.blows[0].harm is Harm.NONE and outcome.blows[0].result is None
    assert outcome.character == aria  # the rest goes on: no wound was received
    assert outcome.results == ()


def test_each_blow_of_a_batch_rolls_with_the_penalty_of_the_wounds_then() -> None:
    aria = character(corps=1, resistance=1)
    feed = scripted((5, 5), (5, 5), (5, 5))
    outcome = inflict_damage(aria, Ruleset(), PHYSICAL, 21, feed, count=3)
    penalties = [blow.roll.penalty for blow in outcome.blows]
    # margin +2 → 19 light (−1); margin +1 → 20 light (−2 in all); margin 0 → 21 serious
    assert penalties == [0, -1, -2]
    assert [blow.effective for blow in outcome.blows] == [19, 20, 21]
    assert [blow.harm for blow in outcome.blows] == [Harm.LOW, Harm.LOW, Harm.MID]
    assert outcome.character.counts(PHYSICAL) == (2, 1, 0)
    assert outcome.character.rest_days == 0


def test_a_killing_blow_ends_the_batch_and_the_rest_are_not_rolled() -> None:
    feed = scripted((1, 9), (1, 9))
    outcome = inflict_damage(character((4, 2, 1)), Ruleset(), PHYSICAL, 25, feed, count=4)
    assert len(outcome.blows) == 1 and outcome.not_applied == 3
    assert feed.used == 1


@pytest.mark.parametrize(
    ("kwargs", "key"),
    [
        ({"damage": -1}, "The damage level must be between 0 and {max}."),
        ({"damage": 1000}, "The damage level must be between 0 and {max}."),
        (
            {"count": 8},
            ("The number of wounds must be between 1 and {max}. For more, run the command again."),
        ),
    ],
)
def test_out_of_range_values_are_refused(kwargs: dict[str, int], key: str) -> None:
    args = {"damage": 20, "count": 1} | kwargs
    with pytest.raises(UserError) as refused:
        inflict_damage(character(), Ruleset(), PHYSICAL, args["damage"], scripted(), count=args["count"])
    assert refused.value.message == key


def test_the_dead_take_no_blows() -> None:
    with pytest.raises(UserError) as refused:
        inflict_damage(character(dead=True), Ruleset(), PHYSICAL, 20, scripted())
    assert refused.value.message == (
        "{name} is dead: no more wounds, rest or rolls. Only a GM can bring them back, with /undo."
    )


# ---- properties -----------------------------------------------------------------------------------------

die = st.integers(1, 10)
damages = st.integers(0, 80)


def rank(blow: Blow) -> int:
    """An order on what a blow did: nothing < light < serious < critical < beyond the track."""
    if blow.result is None:
        return 0
    return 4 if blow.result.became is None else blow.result.became + 1


@given(characters(), rulesets, tracks, damages, damages, die, die)
def test_higher_damage_never_gives_a_lighter_wound(
    aria: Character, ruleset: Ruleset, track: Track, d1: int, d2: int, luck: int, unluck: int
) -> None:
    low, high = sorted((d1, d2))
    outcomes = [inflict_damage(aria, ruleset, track, d, lambda: dice(luck, unluck)) for d in (low, high)]
    blows = [o.blows[0] for o in outcomes]
    assert blows[0].harm <= blows[1].harm
    assert rank(blows[0]) <= rank(blows[1])


@given(characters(), rulesets, tracks, damages, die, die, die, die)
def test_a_better_roll_never_gives_a_worse_wound(
    aria: Character, ruleset: Ruleset, track: Track, damage: int, a: int, b: int, c: int, d: int
) -> None:
    worse, better = sorted([dice(a, b), dice(c, d)], key=lambda x: x.value)
    outcomes = [inflict_damage(aria, ruleset, track, damage, lambda x=x: x) for x in (worse, better)]  # type: ignore[misc]
    blows = [o.blows[0] for o in outcomes]
    assert blows[1].harm <= blows[0].harm
    assert rank(blows[1]) <= rank(blows[0])


@given(characters(), rulesets, tracks, damages, st.integers(1, 7), st.randoms(use_true_random=False))
def test_a_batch_applies_blow_after_blow(
    aria: Character, ruleset: Ruleset, track: Track, damage: int, count: int, rng: object
) -> None:
    rolled: list[Dice] = []

    def feed() -> Dice:
        rolled.append(dice(rng.randint(1, 10), rng.randint(1, 10)))  # type: ignore[attr-defined]
        return rolled[-1]

    outcome = inflict_damage(aria, ruleset, track, damage, feed, count=count)
    assert len(outcome.blows) + outcome.not_applied == count
    assert outcome.not_applied == 0 or outcome.blows[-1].beyond
    # Replaying the blows one at a time gives the same character: the penalty is recomputed each time.
    current = aria
    for blow, roll_dice in zip(outcome.blows, rolled, strict=True):
        assert blow.roll.penalty == total_penalty(current, ruleset)
        current = inflict_damage(current, ruleset, track, damage, lambda d=roll_dice: d).character  # type: ignore[misc]
    assert current == outcome.character
    assert all(
        n <= m for n, m in zip(outcome.character.counts(track), outcome.character.maxima(track), strict=True)
    )


# ---- exact odds, against brute-force enumeration of the dice -------------------------------------------


def open_die(tens_at_most: int) -> list[tuple[tuple[int, ...], Fraction]]:
    """Every throw of an open d10 with at most ``tens_at_most`` rerolled tens, with its chance."""
    return [
        ((10,) * tens + (last,), Fraction(1, 10 ** (tens + 1)))
        for tens in range(tens_at_most + 1)
        for last in range(1, 10)
    ]


PLAIN_DIE: list[tuple[tuple[int, ...], Fraction]] = [((face,), Fraction(1, 10)) for face in range(1, 11)]


def enumerate_blow(
    aria: Character,
    ruleset: Ruleset,
    track: Track,
    damage: int,
    die_faces: list[tuple[tuple[int, ...], Fraction]],
) -> Counter[Harm]:
    """The chance of each outcome, by resolving a blow (the real code) for every pair of throws."""
    found: Counter[Harm] = Counter()
    for luck, p_luck in die_faces:
        for unluck, p_unluck in die_faces:
            outcome = inflict_damage(aria, ruleset, track, damage, lambda: Dice(luck, unluck))  # noqa: B023
            found[outcome.blows[0].harm] += p_luck * p_unluck  # type: ignore[assignment]
    return found


@settings(deadline=None)  # each example resolves 100 blows: no time limit under load
@given(characters(), rulesets, tracks, st.integers(0, 70))
def test_plain_odds_are_exactly_the_enumeration_of_the_hundred_throws(
    aria: Character, ruleset: Ruleset, track: Track, damage: int
) -> None:
    plain = ruleset.model_copy(update={"open_rolls": False})
    expected = enumerate_blow(aria, plain, track, damage, PLAIN_DIE)
    odds = damage_odds(aria, plain, track, damage)
    assert {o.harm: o.chance for o in odds} == {h: p for h, p in expected.items() if p > 0}
    assert sum(o.chance for o in odds) == 1


@settings(max_examples=25, deadline=None)  # each example resolves 729 blows
@given(characters(), rulesets, tracks, st.integers(0, 70))
def test_open_odds_lie_within_what_enumeration_leaves_unknown(
    aria: Character, ruleset: Ruleset, track: Track, damage: int
) -> None:
    opened = ruleset.model_copy(update={"open_rolls": True})
    tens = 2
    enumerated = enumerate_blow(aria, opened, track, damage, open_die(tens))
    unknown = 1 - (1 - Fraction(1, 10 ** (tens + 1))) ** 2  # throws with more tens than enumerated
    exact = {o.harm: o.chance for o in damage_odds(aria, opened, track, damage)}
    assert sum(exact.values()) == 1
    for harm in Harm:
        assert enumerated[harm] <= exact.get(harm, 0) <= enumerated[harm] + unknown


def test_open_odds_by_hand() -> None:
    # Damage 41 on an unhurt, average character: death unless the margin is 1 or more. The value is
    # 0 in 1/11 of open throws (9 equal last faces, weight 100/99 · 1/100), and below 0 in half of
    # the rest: 1/2 + 1/22 in all. Only a margin of 31 or more leaves no wound.
    odds = harm_odds(DEFAULT, 41, 0, open_rolls=True, tie_succeeds=True)
    assert odds[Harm.FATAL] == Fraction(1, 2) + Fraction(1, 22)
    assert 0 < odds[Harm.NONE] < Fraction(1, 1000)
    assert sum(odds.values()) == 1
    plain = harm_odds(DEFAULT, 41, 0, open_rolls=False, tie_succeeds=True)
    assert plain[Harm.FATAL] == Fraction(55, 100) and plain[Harm.NONE] == 0


def test_odds_show_what_the_wound_would_become() -> None:
    # A light or serious wound would be critical; the penalty (−10) is made up by Cp + Rs.
    aria = character((4, 2, 0), corps=5, resistance=5)
    odds = {o.harm: o for o in damage_odds(aria, Ruleset(), PHYSICAL, 25)}
    assert odds[Harm.LOW].becomes is HIGH and odds[Harm.MID].becomes is HIGH
    assert not odds[Harm.LOW].beyond
    assert set(odds) == {Harm.LOW, Harm.MID}  # a margin of 15 (no wound) cannot be rolled
    critical = {o.harm: o for o in damage_odds(character((4, 2, 1)), Ruleset(), PHYSICAL, 35)}
    assert critical[Harm.HIGH].beyond


def test_the_players_own_dice_make_the_outcome_certain() -> None:
    (only,) = damage_odds(character(), Ruleset(), PHYSICAL, 25, dice(1, 9))
    assert only.harm is Harm.MID and only.chance == 1 and only.becomes is MID
