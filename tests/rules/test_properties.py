"""Properties of the rules engine that must hold for any character, ruleset and dice."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from bot import export_file
from bot.errors import UserError
from bot.rules import (
    SEVERITIES,
    Character,
    Dice,
    DiceFeed,
    Ruleset,
    Severity,
    Track,
    gm_lower,
    grant_rest,
    heal_session,
    inflict,
    total_penalty,
)
from bot.rules.healing import WORSEN_AT, healing_attributes, rest_status
from tests.rules.strategies import (
    Action,
    Heal,
    Inflict,
    Lower,
    actions,
    characters,
    rulesets,
    severities,
    tracks,
)


def apply(character: Character, action: Action, ruleset: Ruleset, rng: random.Random) -> Character:
    """The character after ``action``; unchanged when the action is refused."""
    try:
        if isinstance(action, Inflict):
            return inflict(character, action.track, action.severity, action.count).character
        if isinstance(action, Heal):
            return heal_session(character, ruleset, DiceFeed(rng, ruleset.open_rolls), action.track).character
        if isinstance(action, Lower):
            return gm_lower(character, action.track, action.severity).character
        return grant_rest(character, action.days)
    except UserError:
        return character


def assert_within_maxima(character: Character) -> None:
    for track in Track:
        counts, top = character.counts(track), character.maxima(track)
        assert all(counts[s] <= top[s] for s in SEVERITIES), (track, counts, top)


def expected_penalty(character: Character, ruleset: Ruleset) -> int:
    return sum(
        count * ruleset.penalty(track, severity)
        for track in Track
        for severity, count in zip(SEVERITIES, character.counts(track), strict=True)
    )


@given(characters(), rulesets, st.lists(actions, max_size=12), st.integers(0, 2**32))
def test_counts_never_exceed_maxima(
    character: Character, ruleset: Ruleset, sequence: list[Action], seed: int
) -> None:
    rng = random.Random(seed)
    assert_within_maxima(character)
    for action in sequence:
        character = apply(character, action, ruleset, rng)
        assert_within_maxima(character)
        assert total_penalty(character, ruleset) == expected_penalty(character, ruleset)


@given(characters(), rulesets)
def test_total_penalty_is_the_weighted_sum_of_the_wounds_held(character: Character, ruleset: Ruleset) -> None:
    assert total_penalty(character, ruleset) == expected_penalty(character, ruleset)
    assert total_penalty(character, ruleset) <= 0


@pytest.mark.parametrize(("dead", "incoherent"), [(True, False), (False, True), (True, True)])
@given(data=st.data(), ruleset=rulesets, track=tracks, severity=severities)
def test_out_of_play_is_refused_and_unchanged(
    dead: bool, incoherent: bool, data: st.DataObject, ruleset: Ruleset, track: Track, severity: Severity
) -> None:
    character = data.draw(characters(dead=dead, incoherent=incoherent))
    snapshot = replace(character)
    refusals: list[Callable[[], object]] = [
        lambda: inflict(character, track, severity),
        lambda: heal_session(character, ruleset, DiceFeed(random.Random(0)), track),
        lambda: grant_rest(character, 1),
        lambda: gm_lower(character, track, severity),
    ]
    for attempt in refusals:
        with pytest.raises(UserError) as error:
            attempt()
        assert error.value.message == (
            ("{name} is dead: no more wounds, rest or rolls. Only a GM can bring them back, with /undo.")
            if dead
            else (
                "{name} is incoherent (unplayable): no more wounds, rest or rolls. Only "
                "a GM can bring them back, with /undo."
            )
        )
        assert character == snapshot


@given(characters(), rulesets, tracks, st.integers(0, 2**32))
def test_a_session_rolls_at_most_once_per_eligible_wound_and_touches_nothing_else(
    character: Character, ruleset: Ruleset, track: Track, seed: int
) -> None:
    character = replace(character, rest_days=60)
    ruleset = ruleset.model_copy(update={"mental_healing_rolls": True})
    status = rest_status(character, ruleset, track)
    feed = DiceFeed(random.Random(seed), ruleset.open_rolls)
    if status.severity is None:
        with pytest.raises(UserError):
            heal_session(character, ruleset, feed, track)
        return
    eligible = [
        i for i, w in enumerate(character.wounds) if w.track is track and w.current == status.severity
    ]
    session = heal_session(character, ruleset, feed, track)
    after = session.character

    assert session.severity == status.severity
    assert session.eligible == len(eligible)
    assert 1 <= len(session.steps) <= len(eligible)
    assert feed.used == len(session.steps)
    assert all(s.roll.success for s in session.steps[:-1])
    assert after.rest_days == 0
    assert len(after.wounds) == len(character.wounds)
    changed = [i for i, (a, b) in enumerate(zip(character.wounds, after.wounds, strict=True)) if a != b]
    # only the eligible wounds that were rolled may change, oldest first
    assert changed == [i for i in eligible[: len(session.steps)] if i in changed]
    for before_wound, after_wound in zip(character.wounds, after.wounds, strict=True):
        if before_wound.track is not track or before_wound.current != status.severity:
            assert after_wound == before_wound  # other track, more severe ranks, healed wounds
    for step, index in zip(session.steps, eligible, strict=False):
        assert step.roll.attributes == healing_attributes(character, track)
        assert step.roll.difficulty == ruleset.numbers(track).difficulty[status.severity]
        assert after.wounds[index].current == step.became
        if step.roll.success:
            assert step.became is None or step.became < status.severity
        elif step.roll.failure_margin >= WORSEN_AT:
            assert step.worsened and (step.became is None or step.became > status.severity)
        else:
            assert step.became == status.severity and not step.worsened
    assert after.dead is (character.dead or (track is Track.PHYSICAL and session.steps[-1].beyond))
    assert after.incoherent is (character.incoherent or (track is Track.MENTAL and session.steps[-1].beyond))


@st.composite
def dice_worth(draw: st.DrawFn, value: int) -> Dice:
    """Dice (possibly open totals) whose value is exactly ``value``."""
    floor = draw(st.integers(1, 10))
    return Dice((floor + max(value, 0),), (floor - min(value, 0),))


@given(data=st.data(), ruleset=rulesets, track=tracks, failure_margin=st.integers(0, WORSEN_AT - 1))
def test_a_failure_below_10_changes_nothing_but_the_rest(
    data: st.DataObject, ruleset: Ruleset, track: Track, failure_margin: int
) -> None:
    ruleset = ruleset.model_copy(update={"mental_healing_rolls": True})
    if failure_margin == 0:
        ruleset = ruleset.model_copy(update={"tie_succeeds": False})
    character = replace(data.draw(characters()), rest_days=60)
    status = rest_status(character, ruleset, track)
    assume(status.severity is not None)
    assert status.severity is not None
    fixed = (
        healing_attributes(character, track)
        + ruleset.numbers(track).difficulty[status.severity]
        + total_penalty(character, ruleset)
    )
    dice = data.draw(dice_worth(-failure_margin - fixed))
    session = heal_session(character, ruleset, DiceFeed(random.Random(0), manual=[dice]), track)
    (step,) = session.steps
    assert not step.roll.success
    assert step.roll.failure_margin == failure_margin
    assert session.character == replace(character, rest_days=0)


# Any note but one with a NUL character, which is refused (tests/rules/test_escalation.py).
@given(
    characters(),
    tracks,
    severities,
    st.text(st.characters(exclude_characters="\x00"), max_size=20),
    st.integers(0, 10**6),
)
def test_a_wound_that_fits_adds_exactly_that_wound(
    character: Character, track: Track, severity: Severity, note: str, by: int
) -> None:
    counts, top = character.counts(track), character.maxima(track)
    assume(counts[severity] < top[severity])
    result = inflict(character, track, severity, note=note, by=by, at="t")
    after = result.character
    expected = list(counts)
    expected[severity] += 1
    assert after.counts(track) == tuple(expected)
    other = Track.MENTAL if track is Track.PHYSICAL else Track.PHYSICAL
    assert after.counts(other) == character.counts(other)
    assert after.wounds[: len(character.wounds)] == character.wounds
    (new,) = after.wounds[len(character.wounds) :]
    assert (new.track, new.inflicted, new.current, new.note, new.inflicted_by, new.fatal) == (
        track,
        severity,
        severity,
        note,
        by,
        False,
    )
    assert [(r.inflicted, r.became, r.escalated) for r in result.results] == [(severity, severity, False)]
    assert result.not_applied == 0
    assert after == replace(character, wounds=after.wounds, rest_days=0)


@given(characters(), tracks, severities, st.integers(1, 7))
def test_every_wound_inflicted_lands_on_the_first_rank_with_room(
    character: Character, track: Track, severity: Severity, count: int
) -> None:
    result = inflict(character, track, severity, count)
    added = result.character.wounds[len(character.wounds) :]
    assert len(added) == len(result.results)
    for done, outcome in enumerate(result.results):
        counts = replace(character, wounds=character.wounds + added[:done]).counts(track)
        top = character.maxima(track)
        rooms = [s for s in SEVERITIES if s >= severity and counts[s] < top[s]]
        assert outcome.became == (rooms[0] if rooms else None)
        assert added[done].current == outcome.became
    assert result.beyond is (result.results[-1].became is None)
    assert len(result.results) + result.not_applied == count
    assert result.not_applied == 0 or result.beyond
    assert result.character.dead is (character.dead or (result.beyond and track is Track.PHYSICAL))
    assert result.character.incoherent is (character.incoherent or (result.beyond and track is Track.MENTAL))


@given(characters(), tracks, severities)
def test_gm_lower_lowers_one_wound_or_refuses(character: Character, track: Track, severity: Severity) -> None:
    try:
        result = gm_lower(character, track, severity)
    except UserError as error:
        assert error.message in {
            (
                "{name} has no {severity} to lower. Check the card with /character show "
                "and pick a severity it holds."
            ),
            (
                "This {severity} cannot be lowered: {name} already holds the maximum of "
                "{below_plural}, and healing never escalates. Heal a {below} first."
            ),
        }
        assert error.message == (
            "This {severity} cannot be lowered: {name} already holds the maximum of "
            "{below_plural}, and healing never escalates. Heal a {below} first."
        ) or severity not in {w.current for w in character.held(track)}
        return
    after = result.character
    assert result.before.current == severity
    assert result.after.current is None or result.after.current < severity
    assert after.rest_days == character.rest_days
    changed = [i for i, (a, b) in enumerate(zip(character.wounds, after.wounds, strict=True)) if a != b]
    assert len(changed) == 1
    assert sum(after.counts(track)) == sum(character.counts(track)) - (result.after.current is None)
    assert total_penalty(after, Ruleset()) > total_penalty(character, Ruleset())


@given(characters(), rulesets, st.lists(actions, max_size=12), st.integers(0, 2**32))
def test_every_state_the_rules_reach_is_reachable(
    character: Character, ruleset: Ruleset, sequence: list[Action], seed: int
) -> None:
    """/config import, which refuses the states the rules never make (more wounds held than a maximum,
    more than one fatal wound), takes back every state the rules made, exported."""
    rng = random.Random(seed)
    assume(refused_on_import(character) == ())
    for action in sequence:
        character = apply(character, action, ruleset, rng)
        assert refused_on_import(character) == (), character


def refused_on_import(character: Character) -> object:
    """The problems /config import finds in an export of ``character`` (none: ``()``)."""
    try:
        export_file.parse(export_file.build(1, Ruleset(), [character], {}, ""), 1)
    except UserError as error:
        return error.params["errors"]
    return ()
