"""Rules §4 and §6: rest, the healing session, mental healing rolls."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.errors import RestDays, UserError
from bot.rules import (
    Character,
    Dice,
    DiceFeed,
    Ruleset,
    Severity,
    Track,
    TrackNumbers,
    Wound,
    can_roll_healing,
    grant_rest,
    heal_session,
    rest_status,
)
from bot.rules.healing import MAX_REST_GRANT
from tests.rules.support import ScriptedSource, character, scripted

LOW, MID, HIGH = Severity.LOW, Severity.MID, Severity.HIGH
PHYSICAL, MENTAL = Track.PHYSICAL, Track.MENTAL
Counts = tuple[int, int, int]
MENTAL_ON = Ruleset(mental_healing_rolls=True, mental=TrackNumbers(rest_days=(2, 7, 30)))


def no_dice() -> DiceFeed:
    """A feed that fails the test if anything is rolled."""
    return DiceFeed(ScriptedSource([]))


# --- rest ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("held", "rested", "needed", "severity"),
    [
        pytest.param((1, 0, 0), 0, 1, LOW, id="light-needs-1-day"),
        pytest.param((0, 1, 0), 6, 7, MID, id="serious-needs-7-days"),
        pytest.param((0, 0, 1), 29, 30, HIGH, id="critical-needs-30-days"),
        pytest.param((1, 2, 1), 0, 1, LOW, id="least-severe-sets-the-rest"),
        pytest.param((0, 1, 1), 6, 7, MID, id="serious-and-critical-need-7"),
    ],
)
def test_rest_not_over(held: Counts, rested: int, needed: int, severity: Severity) -> None:
    who = character(held, rest_days=rested)
    status = rest_status(who, Ruleset())
    assert (status.severity, status.needed, status.rested, status.ready) == (severity, needed, rested, False)
    assert status.remaining == needed - rested
    assert not can_roll_healing(who, Ruleset())
    with pytest.raises(UserError) as error:
        heal_session(who, Ruleset(), no_dice())
    assert error.value.message == (
        "No healing roll yet for {name}: {days} of rest for the least severe "
        "wound ({severity}), {remaining} to go. A GM grants in-game rest with "
        "/rest."
    )
    assert error.value.params["days"] == RestDays(rested, needed)
    assert error.value.params["remaining"] == needed - rested
    assert error.value.params["severity"] is severity


@pytest.mark.parametrize(
    ("held", "rested"),
    [
        pytest.param((1, 0, 0), 1, id="light-1-day"),
        pytest.param((0, 1, 0), 7, id="serious-7-days"),
        pytest.param((0, 0, 1), 30, id="critical-30-days"),
        pytest.param((0, 0, 1), 100, id="more-than-enough"),
    ],
)
def test_rest_over(held: Counts, rested: int) -> None:
    who = character(held, rest_days=rested)
    assert rest_status(who, Ruleset()).ready
    assert rest_status(who, Ruleset()).remaining == 0
    assert can_roll_healing(who, Ruleset())


def test_rest_periods_are_settings() -> None:
    ruleset = Ruleset(physical=TrackNumbers(rest_days=(3, 10, 60)))
    assert rest_status(character((0, 1, 0), rest_days=7), ruleset).needed == 10
    assert not can_roll_healing(character((0, 1, 0), rest_days=7), ruleset)


def test_nothing_to_heal() -> None:
    who = character(mental=(1, 0, 0), rest_days=50)
    assert rest_status(who, Ruleset()).severity is None
    assert not rest_status(who, Ruleset()).ready
    assert not can_roll_healing(who, Ruleset())
    with pytest.raises(UserError) as error:
        heal_session(who, Ruleset(), no_dice())
    assert error.value.message == "{name} has no wound to heal: nothing to roll."


@pytest.mark.parametrize("days", [1, 3, MAX_REST_GRANT])
def test_grant_rest_adds_days(days: int) -> None:
    who = character((0, 1, 0), rest_days=2)
    assert grant_rest(who, days).rest_days == 2 + days
    assert grant_rest(grant_rest(who, days), 1).rest_days == 3 + days
    assert grant_rest(who, days).wounds == who.wounds


@pytest.mark.parametrize("days", [0, -1, MAX_REST_GRANT + 1], ids=["zero", "negative", "too-many"])
def test_grant_rest_range(days: int) -> None:
    with pytest.raises(UserError) as error:
        grant_rest(character((1, 0, 0)), days)
    assert error.value.message == (
        "Rest must be between 1 and {max} days. For more, grant it in several steps."
    )


@pytest.mark.parametrize(
    ("who", "key"),
    [
        pytest.param(
            character((4, 2, 1), dead=True),
            ("{name} is dead: no more wounds, rest or rolls. Only a GM can bring them back, with /undo."),
            id="dead",
        ),
        pytest.param(
            character(mental=(4, 2, 1), incoherent=True),
            (
                "{name} is incoherent (unplayable): no more wounds, rest or rolls. Only "
                "a GM can bring them back, with /undo."
            ),
            id="incoherent",
        ),
    ],
)
def test_out_of_play_neither_rests_nor_heals(who: Character, key: str) -> None:
    with pytest.raises(UserError) as error:
        grant_rest(who, 3)
    assert error.value.message == key
    rested = replace(who, rest_days=100)
    assert not can_roll_healing(rested, MENTAL_ON)
    assert not can_roll_healing(rested, MENTAL_ON, MENTAL)
    for track in (PHYSICAL, MENTAL):
        with pytest.raises(UserError) as error:
            heal_session(rested, MENTAL_ON, no_dice(), track)
        assert error.value.message == key


# --- the healing session -------------------------------------------------------------------------

Step = tuple[bool, Severity | None]


@pytest.mark.parametrize(
    ("held", "attributes", "rested", "dice", "steps", "after", "dead"),
    [
        pytest.param((1, 0, 0), 0, 1, [(6, 1)], [(True, None)], (0, 0, 0), False, id="light-healed"),
        pytest.param(
            (2, 1, 0),
            0,
            1,
            [(10, 1), (10, 1)],
            [(True, None)] * 2,
            (0, 1, 0),
            False,
            id="only-the-lights-are-eligible",
        ),
        pytest.param(
            (3, 0, 0),
            0,
            1,
            [(10, 1), (1, 5), (10, 1)],
            [(True, None), (False, LOW)],
            (2, 0, 0),
            False,
            id="the-first-failure-ends-the-session",
        ),
        pytest.param(
            (1, 0, 0), 0, 1, [(2, 10)], [(False, MID)], (0, 1, 0), False, id="failure-margin-10-worsens"
        ),
        pytest.param(
            (1, 0, 0),
            0,
            1,
            [(3, 10)],
            [(False, LOW)],
            (1, 0, 0),
            False,
            id="failure-margin-9-changes-nothing",
        ),
        pytest.param(
            (1, 2, 0),
            0,
            1,
            [(1, 4)],
            [(False, HIGH)],
            (0, 2, 1),
            False,
            id="worsening-escalates-light-to-critical",
        ),
        pytest.param(
            (1, 2, 1), 0, 1, [(1, 1)], [(False, None)], (0, 2, 1), True, id="worsening-cascade-is-fatal"
        ),
        pytest.param(
            (0, 0, 1), 0, 30, [(1, 6)], [(False, None)], (0, 0, 0), True, id="worse-critical-is-fatal"
        ),
        pytest.param(
            (0, 1, 1),
            0,
            7,
            [(1, 3)],
            [(False, None)],
            (0, 0, 1),
            True,
            id="worse-serious-critical-full-fatal",
        ),
        pytest.param((0, 0, 1), 10, 30, [(6, 1)], [(True, MID)], (0, 1, 0), False, id="critical-to-serious"),
        pytest.param(
            (0, 2, 0),
            6,
            7,
            [(10, 1), (10, 1)],
            [(True, LOW)] * 2,
            (2, 0, 0),
            False,
            id="serious-healed-to-light-is-not-rolled-again",
        ),
        pytest.param(
            (0, 2, 1),
            6,
            7,
            [(10, 1), (1, 10)],
            [(True, LOW), (False, HIGH)],
            (1, 0, 2),
            False,
            id="second-serious-worsens-to-critical-when-room",
        ),
    ],
)
def test_session(
    held: Counts,
    attributes: int,
    rested: int,
    dice: list[tuple[int, int]],
    steps: list[Step],
    after: Counts,
    dead: bool,
) -> None:
    maxima = (4, 2, 2) if held == (0, 2, 1) else (4, 2, 1)
    before = character(held, (1, 0, 0), physical_max=maxima, rest_days=rested, corps=attributes, resistance=0)
    feed = scripted(*dice)
    session = heal_session(before, Ruleset(), feed)
    assert [(s.roll.success, s.became) for s in session.steps] == steps
    assert feed.used == len(steps)
    assert session.severity == min(s for s in Severity if held[s])
    assert session.eligible == held[session.severity]
    assert all(s.severity is session.severity for s in session.steps)
    assert session.healed == sum(1 for ok, _ in steps if ok)
    assert session.character.counts(PHYSICAL) == after
    assert session.character.dead is dead
    assert session.character.held(MENTAL) == before.held(MENTAL)
    # §4.6: the session consumes the rest, whatever happened
    assert session.character.rest_days == 0
    last = session.steps[-1]
    assert last.worsened is (not last.roll.success and last.roll.failure_margin >= 10)
    assert last.beyond is dead


@pytest.mark.parametrize(
    ("dice", "failure_margin", "after"),
    [
        pytest.param((1, 10), 11, (0, 1, 0), id="11-worsens"),
        pytest.param((2, 10), 10, (0, 1, 0), id="10-worsens"),
        pytest.param((3, 10), 9, (1, 0, 0), id="9-changes-nothing"),
        pytest.param((10, 10), 2, (1, 0, 0), id="2-changes-nothing"),
    ],
)
def test_failure_margin_boundary(dice: tuple[int, int], failure_margin: int, after: Counts) -> None:
    before = character((1, 0, 0), (1, 0, 0), rest_days=4)
    session = heal_session(before, Ruleset(), scripted(dice))
    (step,) = session.steps
    assert step.roll.failure_margin == failure_margin
    assert step.worsened is (failure_margin >= 10)
    assert session.character.counts(PHYSICAL) == after
    if failure_margin < 10:
        assert session.character.wounds == before.wounds
    assert session.character.rest_days == 0


def test_healing_goes_in_order_oldest_first() -> None:
    oldest, newest = Wound(PHYSICAL, MID, LOW, note="oldest"), Wound(PHYSICAL, LOW, LOW, note="newest")
    serious = Wound(PHYSICAL, MID, MID, note="serious")
    who = Character("Aria", wounds=(serious, oldest, newest), rest_days=1)
    session = heal_session(who, Ruleset(), scripted((10, 1), (1, 5)))
    assert session.character.wounds == (serious, Wound(PHYSICAL, MID, None, note="oldest"), newest)


@pytest.mark.parametrize(
    ("held", "attributes", "dice", "penalties"),
    [
        pytest.param((2, 1, 0), 0, [(10, 1), (10, 1)], [-5, -4], id="light-healed-lowers-the-penalty"),
        pytest.param((0, 2, 0), 6, [(10, 1), (10, 1)], [-6, -4], id="serious-to-light-lowers-the-penalty"),
        pytest.param((3, 0, 0), 0, [(10, 1), (10, 1), (10, 1)], [-3, -2, -1], id="three-lights"),
    ],
)
def test_penalty_is_recomputed_before_each_roll(
    held: Counts, attributes: int, dice: list[tuple[int, int]], penalties: list[int]
) -> None:
    who = character(held, rest_days=7, corps=attributes)
    session = heal_session(who, Ruleset(), scripted(*dice))
    assert [s.roll.penalty for s in session.steps] == penalties


def test_the_roll_uses_every_term() -> None:
    ruleset = Ruleset(physical=TrackNumbers(difficulty=(0, 4, 0)))
    who = character((0, 1, 0), (1, 0, 0), rest_days=7, corps=2, resistance=3, intuition=-4)
    roll = heal_session(who, ruleset, scripted((3, 8))).steps[0].roll
    assert (roll.dice.value, roll.attributes, roll.difficulty, roll.penalty) == (-5, 5, 4, -4)
    assert roll.margin == 0 and roll.success


@pytest.mark.parametrize(("tie_succeeds", "healed"), [(True, 1), (False, 0)])
def test_a_tie(tie_succeeds: bool, healed: int) -> None:
    who = character((1, 0, 0), rest_days=1)
    session = heal_session(who, Ruleset(tie_succeeds=tie_succeeds), scripted((2, 1)))
    assert session.steps[0].roll.margin == 0
    assert session.healed == healed
    assert session.character.counts(PHYSICAL) == (1 - healed, 0, 0)


def test_the_same_wound_object_held_twice_is_two_wounds() -> None:
    wound = Wound(PHYSICAL, LOW, LOW)
    who = Character("Aria", wounds=(wound, wound), rest_days=1)
    session = heal_session(who, Ruleset(), scripted((10, 1), (1, 5)))
    assert [s.roll.success for s in session.steps] == [True, False]
    assert session.character.counts(PHYSICAL) == (1, 0, 0)


def test_healing_jumps_over_a_rank_of_maximum_0() -> None:
    who = character((0, 1, 0), physical_max=(0, 2, 1), rest_days=7)
    session = heal_session(who, Ruleset(), scripted((10, 1)))
    assert session.steps[0].became is None
    assert session.character.counts(PHYSICAL) == (0, 0, 0)


def test_a_dead_character_makes_no_more_rolls() -> None:
    who = character((1, 2, 1), rest_days=1)
    session = heal_session(who, Ruleset(), scripted((1, 1)))
    assert session.character.dead
    with pytest.raises(UserError) as error:
        heal_session(replace(session.character, rest_days=30), Ruleset(), no_dice())
    assert error.value.message == (
        "{name} is dead: no more wounds, rest or rolls. Only a GM can bring them back, with /undo."
    )


def test_new_rest_is_measured_from_the_least_severe_wound_then_held() -> None:
    who = character((1, 1, 0), rest_days=1)
    session = heal_session(who, Ruleset(), scripted((10, 1)))
    assert session.character.counts(PHYSICAL) == (0, 1, 0)
    status = rest_status(session.character, Ruleset())
    assert (status.severity, status.needed, status.rested) == (MID, 7, 0)


# --- mental healing ------------------------------------------------------------------------------


def test_mental_healing_rolls_are_off_by_default() -> None:
    who = character(mental=(1, 0, 0), rest_days=50)
    assert not can_roll_healing(who, Ruleset(), MENTAL)
    with pytest.raises(UserError) as error:
        heal_session(who, Ruleset(), no_dice(), MENTAL)
    assert error.value.message == (
        "On this server a GM heals mental wounds (/heal mental): players do not "
        "roll for them. A GM can allow it with /config rest mental-healing-rolls."
    )


def test_mental_healing_uses_intuition_resistance_and_mental_rest() -> None:
    who = character((1, 0, 0), (1, 0, 0), rest_days=1, corps=-5, resistance=2, intuition=3)
    assert can_roll_healing(who, MENTAL_ON, PHYSICAL)
    assert not can_roll_healing(who, MENTAL_ON, MENTAL)
    with pytest.raises(UserError) as error:
        heal_session(who, MENTAL_ON, no_dice(), MENTAL)
    assert error.value.message == (
        "No healing roll yet for {name}: {days} of rest for the least severe "
        "wound ({severity}), {remaining} to go. A GM grants in-game rest with "
        "/rest."
    ) and error.value.params["days"] == RestDays(1, 2)

    rested = grant_rest(who, 1)
    session = heal_session(rested, MENTAL_ON, scripted((5, 5)), MENTAL)
    roll = session.steps[0].roll
    assert (roll.attributes, roll.penalty, roll.margin) == (5, -2, 3)
    assert session.character.counts(MENTAL) == (0, 0, 0)
    assert session.character.held(PHYSICAL) == rested.held(PHYSICAL)
    assert session.character.rest_days == 0  # one counter for both tracks


def test_a_physical_session_leaves_the_mental_track_alone() -> None:
    who = character((1, 0, 0), (2, 1, 0), rest_days=1)
    session = heal_session(who, MENTAL_ON, scripted((10, 1)))
    assert session.steps[0].roll.penalty == -6
    assert session.character.held(MENTAL) == who.held(MENTAL)


def test_mental_worsening_beyond_psychosis_is_incoherence() -> None:
    who = character(mental=(0, 0, 1), rest_days=30)
    session = heal_session(who, MENTAL_ON, scripted((1, 10)), MENTAL)
    assert session.steps[0].beyond
    assert session.character.incoherent and not session.character.dead


def test_the_player_s_own_dice_come_first() -> None:
    feed = DiceFeed(ScriptedSource([10, 1]), manual=[Dice((10,), (1,), manual=True)])
    session = heal_session(character((2, 0, 0), rest_days=1), Ruleset(), feed)
    assert [s.roll.dice.manual for s in session.steps] == [True, False]
    assert feed.unused_manual == 0
