"""Rules §7: the per-server settings, their defaults and their validation; new characters."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from bot.errors import UserError
from bot.rules import (
    HUMANOID,
    Preset,
    Ruleset,
    Severity,
    Track,
    TrackNumbers,
    new_character,
    parse_severity,
    severity_name,
)
from bot.rules.ruleset import MAX_PRESETS


def test_defaults() -> None:
    ruleset = Ruleset()
    assert ruleset.presets == {HUMANOID: Preset(physical=(4, 2, 1), mental=(4, 2, 1))}
    for track in Track:
        numbers = ruleset.numbers(track)
        assert numbers.penalties == (-1, -3, -5)
        assert numbers.rest_days == (1, 7, 30)
        assert numbers.difficulty == (0, 0, 0)
    assert (ruleset.open_rolls, ruleset.tie_succeeds, ruleset.mental_healing_rolls) == (False, True, False)
    assert ruleset.players_create is True
    assert ruleset.language is None
    assert ruleset.gm_role_id is None


def test_accessors_pick_the_right_track() -> None:
    ruleset = Ruleset(
        physical=TrackNumbers(penalties=(-1, -2, -3)), mental=TrackNumbers(penalties=(0, -4, -8))
    )
    assert ruleset.penalty(Track.PHYSICAL, Severity.MID) == -2
    assert ruleset.penalty(Track.MENTAL, Severity.HIGH) == -8
    preset = Preset(physical=(5, 3, 1), mental=(2, 1, 0))
    assert preset.maxima(Track.PHYSICAL) == (5, 3, 1)
    assert preset.maxima(Track.MENTAL) == (2, 1, 0)


def test_a_valid_custom_ruleset() -> None:
    ruleset = Ruleset(
        presets={
            HUMANOID: Preset(),
            "troll": Preset(physical=(6, 3, 2)),
            "pixie": Preset(physical=(0, 0, 1)),
        },
        physical=TrackNumbers(penalties=(0, 0, 0), rest_days=(0, 0, 0), difficulty=(2, -2, 50)),
        language="fr",
        open_rolls=True,
    )
    assert Ruleset.model_validate_json(ruleset.model_dump_json()) == ruleset


@pytest.mark.parametrize(
    ("data", "explains"),
    [
        pytest.param({"presets": {}}, "humanoid preset must always be present", id="no-presets"),
        pytest.param({"presets": {"troll": {}}}, "humanoid preset must always be present", id="no-humanoid"),
        pytest.param(
            {"presets": {HUMANOID: {"physical": (4, -1, 1)}}},
            "greater than or equal to 0",
            id="negative-physical-maximum",
        ),
        pytest.param(
            {"presets": {HUMANOID: {}, "elf": {"mental": (-4, 2, 1)}}},
            "greater than or equal to 0",
            id="negative-mental-maximum",
        ),
        pytest.param(
            {"presets": {HUMANOID: {"physical": (21, 2, 1)}}}, "less than or equal to 20", id="huge-maximum"
        ),
        pytest.param(
            {"physical": {"penalties": (1, -3, -5)}}, "less than or equal to 0", id="positive-penalty"
        ),
        pytest.param({"mental": {"penalties": (-1, -3, 5)}}, "less than or equal to 0", id="positive-mental"),
        pytest.param(
            {"physical": {"rest_days": (1, -7, 30)}}, "greater than or equal to 0", id="negative-rest"
        ),
        pytest.param({"physical": {"penalties": (-1, -3)}}, "penalties", id="two-penalties"),
        pytest.param({"presets": {HUMANOID: {}, "Big Troll": {}}}, "lowercase letters", id="bad-preset-name"),
        pytest.param(
            {"presets": {HUMANOID: {}} | {f"p{i}": {} for i in range(MAX_PRESETS)}},
            f"at most {MAX_PRESETS} presets",
            id="too-many-presets",
        ),
        pytest.param({"language": "de"}, "language", id="unknown-language"),
        pytest.param({"tie_succeeds": True, "dice": "d20"}, "dice", id="unknown-setting"),
    ],
)
def test_invalid_rulesets_are_refused_with_a_reason(data: dict[str, Any], explains: str) -> None:
    with pytest.raises(ValidationError) as error:
        Ruleset.model_validate(data)
    assert explains in str(error.value)


def test_a_ruleset_is_frozen() -> None:
    ruleset = Ruleset()
    with pytest.raises(ValidationError):
        ruleset.open_rolls = True  # type: ignore[misc]


def test_new_character_takes_the_maxima_of_its_preset() -> None:
    ruleset = Ruleset(presets={HUMANOID: Preset(), "troll": Preset(physical=(6, 3, 2), mental=(2, 1, 1))})
    troll = new_character("  Grok   the  Big ", ruleset=ruleset, preset="troll", corps=3, resistance=-2)
    assert troll.name == "Grok the Big"
    assert (troll.physical_max, troll.mental_max, troll.preset) == ((6, 3, 2), (2, 1, 1), "troll")
    assert (troll.corps, troll.resistance, troll.intuition) == (3, -2, 0)
    assert not troll.is_wounded() and troll.rest_days == 0 and not troll.out_of_play


@pytest.mark.parametrize(
    ("kwargs", "key"),
    [
        pytest.param(
            {"name": "   "}, "A name must have 1 to {max} characters. Choose another name.", id="blank-name"
        ),
        pytest.param(
            {"name": "x" * 65}, "A name must have 1 to {max} characters. Choose another name.", id="long-name"
        ),
        pytest.param(
            {"name": "Aria", "corps": 11},
            ("Corps, Résistance and Intuition must be between {min} and {max}. Type a value in that range."),
            id="corps-11",
        ),
        pytest.param(
            {"name": "Aria", "intuition": -11},
            ("Corps, Résistance and Intuition must be between {min} and {max}. Type a value in that range."),
            id="intuition-minus-11",
        ),
        pytest.param(
            {"name": "Aria", "preset": "dragon"},
            (
                "There is no preset called {preset}. Known presets: {known}. A GM can "
                "add one with /config preset."
            ),
            id="unknown-preset",
        ),
    ],
)
def test_new_character_refusals(kwargs: dict[str, Any], key: str) -> None:
    with pytest.raises(UserError) as error:
        new_character(ruleset=Ruleset(), **kwargs)
    assert error.value.message == key


@pytest.mark.parametrize(
    ("track", "names"),
    [
        (Track.PHYSICAL, ("light", "serious", "critical")),
        (Track.MENTAL, ("shock", "trauma", "psychosis")),
    ],
)
def test_severity_names(track: Track, names: tuple[str, str, str]) -> None:
    for severity, name in zip(Severity, names, strict=True):
        assert severity_name(track, severity) == name
        assert parse_severity(track, name) is severity
    other = Track.MENTAL if track is Track.PHYSICAL else Track.PHYSICAL
    with pytest.raises(ValueError):
        parse_severity(other, names[0])


def test_severity_order() -> None:
    assert Severity.LOW < Severity.MID < Severity.HIGH
    assert (Severity.LOW.lower(), Severity.MID.lower(), Severity.HIGH.lower()) == (
        None,
        Severity.LOW,
        Severity.MID,
    )
    assert (Severity.LOW.higher(), Severity.MID.higher(), Severity.HIGH.higher()) == (
        Severity.MID,
        Severity.HIGH,
        None,
    )


def test_penalties_may_take_any_non_positive_values() -> None:
    # Not a rule of the text: a table where a light wound hurts more than a critical one is allowed.
    ruleset = Ruleset.model_validate(
        {"physical": {"penalties": (-5, -3, -1)}, "mental": {"penalties": (0, -9, 0)}}
    )
    assert ruleset.physical.penalties == (-5, -3, -1) and ruleset.mental.penalties == (0, -9, 0)
