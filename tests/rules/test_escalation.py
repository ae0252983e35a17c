"""Rules §2, §3 and §5: inflicting wounds, escalation, death and incoherence, warnings, penalties,
and the GM lowering a wound."""

from __future__ import annotations

import pytest

from bot.errors import UserError
from bot.rules import (
    Character,
    Ruleset,
    Severity,
    Track,
    TrackNumbers,
    Wound,
    escalate,
    gm_lower,
    inflict,
    total_penalty,
    warnings,
)
from bot.rules.ruleset import Maxima
from tests.rules.support import character

LOW, MID, HIGH = Severity.LOW, Severity.MID, Severity.HIGH
PHYSICAL, MENTAL = Track.PHYSICAL, Track.MENTAL
Counts = tuple[int, int, int]


# --- §2 escalation -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("held", "maxima", "new", "became"),
    [
        pytest.param((0, 0, 0), (4, 2, 1), LOW, LOW, id="unhurt-light-stays-light"),
        pytest.param((3, 0, 0), (4, 2, 1), LOW, LOW, id="3-light-room-for-a-4th"),
        pytest.param((4, 0, 0), (4, 2, 1), LOW, MID, id="4-light-light-becomes-serious"),
        pytest.param((4, 1, 0), (4, 2, 1), LOW, MID, id="seed-4/1-light-becomes-serious"),
        pytest.param((4, 2, 0), (4, 2, 1), LOW, HIGH, id="seed-4/2/0-light-becomes-critical"),
        pytest.param((4, 2, 1), (4, 2, 1), LOW, None, id="seed-4/2/1-light-is-fatal"),
        pytest.param((4, 2, 1), (4, 2, 1), MID, None, id="seed-4/2/1-serious-is-fatal"),
        pytest.param((4, 2, 1), (4, 2, 1), HIGH, None, id="seed-4/2/1-critical-is-fatal"),
        pytest.param((0, 2, 0), (4, 2, 1), MID, HIGH, id="2-serious-serious-becomes-critical"),
        pytest.param((0, 2, 0), (4, 2, 1), LOW, LOW, id="full-serious-does-not-touch-light"),
        pytest.param((0, 0, 1), (4, 2, 1), HIGH, None, id="critical-beyond-max-is-fatal"),
        pytest.param((0, 0, 1), (4, 2, 1), MID, MID, id="full-critical-serious-stays"),
        pytest.param((0, 0, 0), (0, 2, 1), LOW, MID, id="max-0-light-jumps-to-serious"),
        pytest.param((0, 0, 0), (0, 0, 1), LOW, HIGH, id="max-0/0-light-jumps-to-critical"),
        pytest.param((0, 0, 0), (0, 0, 0), LOW, None, id="max-0/0/0-any-wound-kills"),
        pytest.param((2, 1, 0), (2, 1, 3), LOW, HIGH, id="other-race-2/1/3"),
    ],
)
def test_escalate(held: Counts, maxima: Maxima, new: Severity, became: Severity | None) -> None:
    assert escalate(held, maxima, new) == became


@pytest.mark.parametrize(
    ("held", "new", "became", "after"),
    [
        pytest.param((4, 1, 0), LOW, MID, (4, 2, 0), id="4/1-light-serious"),
        pytest.param((4, 2, 0), LOW, HIGH, (4, 2, 1), id="4/2/0-light-critical"),
        pytest.param((0, 0, 0), MID, MID, (0, 1, 0), id="unhurt-serious"),
        pytest.param((4, 2, 0), MID, HIGH, (4, 2, 1), id="4/2/0-serious-critical"),
        pytest.param((1, 0, 0), HIGH, HIGH, (1, 0, 1), id="critical-stays"),
    ],
)
def test_inflict_one_wound_escalates(held: Counts, new: Severity, became: Severity, after: Counts) -> None:
    before = character(held, rest_days=5)
    result = inflict(before, PHYSICAL, new, note="arrow in the shoulder", by=42, at="2024-01-01T10:00")
    assert [(r.inflicted, r.became) for r in result.results] == [(new, became)]
    assert result.results[0].escalated is (became != new)
    assert result.not_applied == 0
    assert not result.beyond
    assert result.character.counts(PHYSICAL) == after
    assert not result.character.dead
    # the history keeps what it was inflicted as and what it became
    wound = result.character.wounds[-1]
    assert wound == Wound(PHYSICAL, new, became, "arrow in the shoulder", 42, "2024-01-01T10:00")
    assert result.character.wounds[:-1] == before.wounds
    # §4.8: a new wound restarts the rest period
    assert result.character.rest_days == 0


@pytest.mark.parametrize("new", [LOW, MID, HIGH], ids=["light", "serious", "critical"])
def test_any_wound_on_4_2_1_kills(new: Severity) -> None:
    result = inflict(character((4, 2, 1)), PHYSICAL, new)
    assert result.character.dead
    assert not result.character.incoherent
    assert result.beyond
    assert result.results[0].became is None
    assert result.character.counts(PHYSICAL) == (4, 2, 1)
    fatal = result.character.wounds[-1]
    assert fatal.fatal and fatal.current is None and fatal.inflicted is new


@pytest.mark.parametrize(
    ("held", "new", "count", "became", "not_applied", "after"),
    [
        pytest.param((0, 0, 0), LOW, 5, [LOW] * 4 + [MID], 0, (4, 1, 0), id="5-light-on-unhurt"),
        pytest.param((0, 0, 0), LOW, 7, [LOW] * 4 + [MID] * 2 + [HIGH], 0, (4, 2, 1), id="7-light-on-unhurt"),
        pytest.param((4, 2, 0), LOW, 3, [HIGH, None], 1, (4, 2, 1), id="3-light-on-4/2/0-2nd-kills"),
        pytest.param((4, 2, 1), HIGH, 7, [None], 6, (4, 2, 1), id="7-critical-on-4/2/1-first-kills"),
        pytest.param((3, 2, 1), LOW, 3, [LOW, None], 1, (4, 2, 1), id="3-light-on-3/2/1"),
        pytest.param((0, 0, 0), HIGH, 3, [HIGH, None], 1, (0, 0, 1), id="3-critical-on-unhurt"),
        pytest.param((0, 0, 0), HIGH, 2, [HIGH, None], 0, (0, 0, 1), id="kill-on-the-last-wound"),
    ],
)
def test_batches(
    held: Counts, new: Severity, count: int, became: list[Severity | None], not_applied: int, after: Counts
) -> None:
    before = character(held)
    result = inflict(before, PHYSICAL, new, count)
    assert [r.became for r in result.results] == became
    assert all(r.inflicted is new for r in result.results)
    assert result.not_applied == not_applied
    assert len(result.results) + result.not_applied == count
    assert result.character.counts(PHYSICAL) == after
    assert result.character.dead is (None in became)
    # exactly the wounds applied are recorded, the fatal one included
    assert len(result.character.wounds) == len(before.wounds) + len(became)


@pytest.mark.parametrize("count", [0, -1, 8], ids=["zero", "negative", "eight"])
def test_count_out_of_range_is_refused(count: int) -> None:
    with pytest.raises(UserError) as error:
        inflict(character(), PHYSICAL, LOW, count)
    assert error.value.message == (
        "The number of wounds must be between 1 and {max}. For more, run the command again."
    )


def test_note_length() -> None:
    assert inflict(character(), PHYSICAL, LOW, note="x" * 200).character.wounds[-1].note == "x" * 200
    with pytest.raises(UserError) as error:
        inflict(character(), PHYSICAL, LOW, note="x" * 201)
    assert error.value.message == (
        "The note is too long: {max} characters at most. Shorten it and try again."
    )


def test_a_note_with_a_nul_character_is_refused() -> None:
    with pytest.raises(UserError) as error:
        inflict(character(), PHYSICAL, LOW, note="a\x00b")
    assert error.value.message == (
        "The note contains a NUL character (U+0000), which cannot be stored. Remove it and try again."
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
@pytest.mark.parametrize("track", [PHYSICAL, MENTAL], ids=["physical", "mental"])
def test_out_of_play_receives_no_wound(who: Character, key: str, track: Track) -> None:
    with pytest.raises(UserError) as error:
        inflict(who, track, LOW)
    assert error.value.message == key


# --- §5 mental track -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("held", "new", "became"),
    [
        pytest.param((4, 1, 0), LOW, MID, id="4-shock-1-trauma-shock-becomes-trauma"),
        pytest.param((4, 2, 0), LOW, HIGH, id="4/2/0-shock-becomes-psychosis"),
        pytest.param((4, 2, 1), LOW, None, id="4/2/1-shock-incoherent"),
        pytest.param((0, 0, 1), HIGH, None, id="2nd-psychosis-incoherent"),
    ],
)
def test_mental_escalation(held: Counts, new: Severity, became: Severity | None) -> None:
    before = character((1, 0, 0), held)
    result = inflict(before, MENTAL, new)
    assert result.results[0].became == became
    assert result.character.incoherent is (became is None)
    assert not result.character.dead
    assert result.character.out_of_play is (became is None)
    # the physical track is not touched
    assert result.character.held(PHYSICAL) == before.held(PHYSICAL)


def test_incoherent_batch_stops_like_death() -> None:
    result = inflict(character(mental=(4, 2, 0)), MENTAL, LOW, 4)
    assert [r.became for r in result.results] == [HIGH, None]
    assert result.not_applied == 2
    assert result.character.incoherent and not result.character.dead


def test_mental_maxima_are_their_own() -> None:
    who = character(physical_max=(4, 2, 1), mental_max=(1, 1, 1), mental=(1, 0, 0))
    assert inflict(who, MENTAL, LOW).results[0].became is MID
    assert inflict(who, PHYSICAL, LOW).results[0].became is LOW


# --- §3 warnings ---------------------------------------------------------------------------------

Warned = list[tuple[Severity, Severity | None]]


@pytest.mark.parametrize(
    ("held", "maxima", "expected"),
    [
        pytest.param((0, 0, 0), (4, 2, 1), [], id="unhurt-no-warning"),
        pytest.param((3, 1, 0), (4, 2, 1), [], id="room-everywhere"),
        pytest.param((4, 1, 0), (4, 2, 1), [(LOW, MID)], id="next-light-serious"),
        pytest.param((0, 2, 0), (4, 2, 1), [(MID, HIGH)], id="next-serious-critical"),
        pytest.param((0, 0, 1), (4, 2, 1), [(HIGH, None)], id="next-critical-fatal"),
        pytest.param((4, 2, 0), (4, 2, 1), [(LOW, HIGH), (MID, HIGH)], id="light-and-serious-critical"),
        pytest.param((4, 1, 1), (4, 2, 1), [(HIGH, None), (LOW, MID)], id="fatal-before-milder"),
        pytest.param((3, 2, 1), (4, 2, 1), [(MID, None), (HIGH, None)], id="serious-and-critical-fatal"),
        pytest.param(
            (4, 2, 1), (4, 2, 1), [(LOW, None), (MID, None), (HIGH, None)], id="light-fatal-listed-first"
        ),
        pytest.param((0, 0, 0), (0, 2, 1), [(LOW, MID)], id="max-0-light"),
        pytest.param((0, 0, 0), (4, 2, 0), [(HIGH, None)], id="max-0-critical-fatal"),
    ],
)
def test_warnings(held: Counts, maxima: Maxima, expected: Warned) -> None:
    found = warnings(character(held, physical_max=maxima), PHYSICAL)
    assert [(w.severity, w.becomes) for w in found] == expected
    assert all(w.track is PHYSICAL for w in found)
    assert [w.beyond for w in found] == [b is None for _, b in expected]


def test_mental_warnings_say_incoherent() -> None:
    found = warnings(character((4, 2, 1), (0, 0, 1)), MENTAL)
    assert [(w.track, w.severity, w.becomes) for w in found] == [(MENTAL, HIGH, None)]


def test_out_of_play_has_no_warnings() -> None:
    assert warnings(character((4, 2, 1), dead=True), PHYSICAL) == []
    assert warnings(character(mental=(4, 2, 1), incoherent=True), MENTAL) == []


def test_a_warning_tells_what_inflict_does() -> None:
    who = character((4, 2, 0))
    for warning in warnings(who, PHYSICAL):
        assert inflict(who, PHYSICAL, warning.severity).results[0].became == warning.becomes


# --- penalties -----------------------------------------------------------------------------------

CUSTOM = Ruleset(
    physical=TrackNumbers(penalties=(-2, -4, -6)),
    mental=TrackNumbers(penalties=(0, -1, -2)),
)


@pytest.mark.parametrize(
    ("physical", "mental", "ruleset", "expected"),
    [
        pytest.param((0, 0, 0), (0, 0, 0), Ruleset(), 0, id="unhurt"),
        pytest.param((1, 0, 0), (0, 0, 0), Ruleset(), -1, id="light"),
        pytest.param((0, 1, 0), (0, 0, 0), Ruleset(), -3, id="serious"),
        pytest.param((0, 0, 1), (0, 0, 0), Ruleset(), -5, id="critical"),
        pytest.param((4, 2, 1), (0, 0, 0), Ruleset(), -15, id="4/2/1"),
        pytest.param((0, 0, 0), (1, 1, 1), Ruleset(), -9, id="mental-only"),
        pytest.param((1, 0, 0), (0, 1, 0), Ruleset(), -4, id="light-plus-trauma"),
        pytest.param((2, 1, 0), (1, 0, 1), CUSTOM, -8 + -2, id="custom-per-track"),
    ],
)
def test_total_penalty(physical: Counts, mental: Counts, ruleset: Ruleset, expected: int) -> None:
    assert total_penalty(character(physical, mental), ruleset) == expected


def test_healed_and_fatal_wounds_give_no_penalty() -> None:
    who = Character(
        "Aria",
        wounds=(
            Wound(PHYSICAL, HIGH, None),
            Wound(PHYSICAL, LOW, MID),
            Wound(MENTAL, HIGH, None, fatal=True),
        ),
    )
    assert total_penalty(who, Ruleset()) == -3


# --- §4 GM lowering ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("held", "maxima", "lowered", "became", "after"),
    [
        pytest.param((1, 0, 0), (4, 2, 1), LOW, None, (0, 0, 0), id="light-healed"),
        pytest.param((3, 1, 0), (4, 2, 1), MID, LOW, (4, 0, 0), id="serious-to-light"),
        pytest.param((4, 1, 1), (4, 2, 1), HIGH, MID, (4, 2, 0), id="critical-to-serious"),
        pytest.param((4, 2, 1), (4, 2, 1), LOW, None, (3, 2, 1), id="light-always-heals"),
        pytest.param((0, 1, 0), (0, 2, 1), MID, None, (0, 0, 0), id="max-0-light-serious-heals"),
        pytest.param((1, 0, 1), (4, 0, 1), HIGH, LOW, (2, 0, 0), id="max-0-serious-critical-to-light"),
    ],
)
def test_gm_lower(
    held: Counts, maxima: Maxima, lowered: Severity, became: Severity | None, after: Counts
) -> None:
    before = character(held, (1, 0, 0), physical_max=maxima, rest_days=3)
    result = gm_lower(before, PHYSICAL, lowered)
    assert result.before.current is lowered
    assert result.after.current == became
    assert result.character.counts(PHYSICAL) == after
    assert result.character.held(MENTAL) == before.held(MENTAL)
    assert result.character.rest_days == 3  # GM healing does not touch the rest counter


def test_gm_lowers_the_oldest_wound_of_that_severity() -> None:
    first, second = Wound(PHYSICAL, LOW, MID, note="first"), Wound(PHYSICAL, MID, MID, note="second")
    result = gm_lower(Character("Aria", wounds=(first, second)), PHYSICAL, MID)
    assert result.before is first
    assert result.character.wounds == (Wound(PHYSICAL, LOW, LOW, note="first"), second)


@pytest.mark.parametrize(
    ("held", "lowered"),
    [
        pytest.param((4, 1, 0), MID, id="serious-light-full"),
        pytest.param((4, 2, 1), HIGH, id="critical-serious-full"),
        pytest.param((1, 0, 1), HIGH, id="critical-blocked-by-max-0-and-full-light"),
    ],
)
def test_gm_lower_never_escalates(held: Counts, lowered: Severity) -> None:
    maxima: Maxima = (1, 0, 1) if held == (1, 0, 1) else (4, 2, 1)
    before = character(held, physical_max=maxima)
    with pytest.raises(UserError) as error:
        gm_lower(before, PHYSICAL, lowered)
    assert error.value.message == (
        "This {severity} cannot be lowered: {name} already holds the maximum of "
        "{below_plural}, and healing never escalates. Heal a {below} first."
    )
    assert error.value.params["severity"] is lowered


@pytest.mark.parametrize("lowered", [LOW, MID, HIGH], ids=["light", "serious", "critical"])
def test_gm_lower_needs_a_wound_of_that_severity(lowered: Severity) -> None:
    held = {LOW: (0, 1, 1), MID: (1, 0, 1), HIGH: (1, 1, 0)}[lowered]
    with pytest.raises(UserError) as error:
        gm_lower(character(held, (1, 1, 1)), PHYSICAL, lowered)
    assert error.value.message == (
        "{name} has no {severity} to lower. Check the card with /character show and pick a severity it holds."
    )


def test_gm_lower_mental() -> None:
    result = gm_lower(character((1, 0, 0), (4, 0, 1)), MENTAL, HIGH)
    assert result.character.counts(MENTAL) == (4, 1, 0)
    assert result.character.counts(PHYSICAL) == (1, 0, 0)


@pytest.mark.parametrize(
    ("who", "key"),
    [
        pytest.param(
            character((1, 0, 0), dead=True),
            ("{name} is dead: no more wounds, rest or rolls. Only a GM can bring them back, with /undo."),
            id="dead",
        ),
        pytest.param(
            character((1, 0, 0), (1, 0, 0), incoherent=True),
            (
                "{name} is incoherent (unplayable): no more wounds, rest or rolls. Only "
                "a GM can bring them back, with /undo."
            ),
            id="incoherent",
        ),
    ],
)
def test_gm_lower_refuses_out_of_play(who: Character, key: str) -> None:
    with pytest.raises(UserError) as error:
        gm_lower(who, PHYSICAL, LOW)
    assert error.value.message == key
