"""Rules §1: ±d10 rolls, open rolls, the player's own dice, margins."""

from __future__ import annotations

import random

import pytest

from bot.errors import UserError
from bot.rules import Dice, DiceFeed, Roll, parse_dice, roll_dice
from bot.rules.dice import MAX_MANUAL_PAIRS, MAX_OPEN_REROLLS
from tests.rules.support import ScriptedSource


@pytest.mark.parametrize(
    ("text", "pairs"),
    [
        pytest.param("7-3 10-2", [(7, 3), (10, 2)], id="spec-example"),
        pytest.param("7-3", [(7, 3)], id="one-pair"),
        pytest.param("1-10", [(1, 10)], id="extremes"),
        pytest.param("7/3 4:4", [(7, 3), (4, 4)], id="slash-and-colon"),
        pytest.param("7-3,10-2;1-1", [(7, 3), (10, 2), (1, 1)], id="commas-semicolons"),
        pytest.param("  7-3   10-2 ", [(7, 3), (10, 2)], id="extra-spaces"),
        pytest.param("7 - 3  10 -2", [(7, 3), (10, 2)], id="spaces-around-the-dash"),
        pytest.param("07-03", [(7, 3)], id="leading-zero"),
        pytest.param(" ".join(["5-5"] * MAX_MANUAL_PAIRS), [(5, 5)] * MAX_MANUAL_PAIRS, id="max-pairs"),
    ],
)
def test_parse_dice_accepts(text: str, pairs: list[tuple[int, int]]) -> None:
    dice = parse_dice(text)
    assert [(d.luck, d.unluck) for d in dice] == [((a,), (b,)) for a, b in pairs]
    assert all(d.manual for d in dice)
    assert [d.value for d in dice] == [a - b for a, b in pairs]


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("", id="empty"),
        pytest.param("   ", id="blank"),
        pytest.param("abc", id="letters"),
        pytest.param("7", id="one-number"),
        pytest.param("7-", id="no-unluck"),
        pytest.param("-3", id="no-luck"),
        pytest.param("0-3", id="zero-luck"),
        pytest.param("3-0", id="zero-unluck"),
        pytest.param("7-3-2", id="three-numbers"),
        pytest.param("7+3", id="plus"),
        pytest.param("7-3 x", id="trailing-garbage"),
        pytest.param("1000-1", id="four-digits"),
        pytest.param("7.5-3", id="decimal"),
        pytest.param("7 3", id="no-separator"),
        pytest.param(" ".join(["5-5"] * (MAX_MANUAL_PAIRS + 1)), id="too-many-pairs"),
    ],
)
def test_parse_dice_rejects(text: str) -> None:
    with pytest.raises(UserError) as error:
        parse_dice(text)
    assert error.value.message == (
        "I cannot read these dice: {text}. Give luck-unluck pairs in order, each "
        "die from 1 to 10 (more only with open rolls), e.g. 7-3 10-2; or leave "
        "the option empty and the bot rolls."
    )
    assert error.value.params == {"text": text}


@pytest.mark.parametrize("text", ["11-2", "7-11", "5-5 23-4"])
def test_a_die_above_10_without_open_rolls_says_open_rolls_are_off(text: str) -> None:
    with pytest.raises(UserError) as error:
        parse_dice(text)
    assert error.value.message == (
        "A die above 10 in {text}: open rolls are off on this server, so each "
        "die shows 1 to 10. A GM can turn them on with /config dice open-rolls."
    ) and error.value.params == {"text": text}


def test_open_rolls_accept_totals_above_10() -> None:
    assert [(d.luck, d.unluck) for d in parse_dice("23-4 10-999", open_rolls=True)] == [
        ((23,), (4,)),
        ((10,), (999,)),
    ]
    for text in ("0-4", "1000-2", "abc"):
        with pytest.raises(UserError):
            parse_dice(text, open_rolls=True)


@pytest.mark.parametrize(
    ("script", "open_rolls", "luck", "unluck"),
    [
        pytest.param([7, 3], False, (7,), (3,), id="plain"),
        pytest.param([10, 10], False, (10,), (10,), id="closed-10s-are-not-rerolled"),
        pytest.param([1, 10], False, (1,), (10,), id="worst"),
        pytest.param([10, 4, 6], True, (10, 4), (6,), id="open-luck-10"),
        pytest.param([3, 10, 10, 2], True, (3,), (10, 10, 2), id="open-unluck-10-10"),
        pytest.param([10, 10, 3, 10, 2], True, (10, 10, 3), (10, 2), id="open-both"),
    ],
)
def test_roll_dice(
    script: list[int], open_rolls: bool, luck: tuple[int, ...], unluck: tuple[int, ...]
) -> None:
    source = ScriptedSource(script)
    dice = roll_dice(source, open_rolls)
    assert (dice.luck, dice.unluck, dice.manual) == (luck, unluck, False)
    assert dice.value == sum(luck) - sum(unluck)
    assert source.values == []  # every scripted throw was used, and no more


def test_open_rolls_stop_somewhere() -> None:
    class AlwaysTen:
        def randint(self, a: int, b: int) -> int:
            return 10

    dice = roll_dice(AlwaysTen(), open_rolls=True)
    assert 1 < len(dice.luck) <= MAX_OPEN_REROLLS + 1
    assert len(dice.unluck) == len(dice.luck)


def test_closed_rolls_stay_in_range() -> None:
    rng = random.Random(1234)
    values = {roll_dice(rng).value for _ in range(2000)}
    assert values == set(range(-9, 10))


def test_open_rolls_can_exceed_9() -> None:
    rng = random.Random(99)
    values = [roll_dice(rng, open_rolls=True).value for _ in range(2000)]
    assert max(values) > 9 and min(values) < -9


def test_dice_feed_hands_out_the_player_s_dice_first() -> None:
    own = parse_dice("7-3 10-2")
    feed = DiceFeed(ScriptedSource([4, 4]), manual=own)
    assert feed.unused_manual == 2
    assert feed() is own[0]
    assert feed.unused_manual == 1
    assert feed() is own[1]
    rolled = feed()
    assert (rolled.luck, rolled.unluck, rolled.manual) == ((4,), (4,), False)
    assert (feed.used, feed.unused_manual) == (3, 0)


def test_dice_feed_open_rolls() -> None:
    feed = DiceFeed(ScriptedSource([10, 2, 5]), open_rolls=True)
    assert feed().value == 7


@pytest.mark.parametrize(
    ("luck", "unluck", "attributes", "difficulty", "penalty", "tie_succeeds", "margin", "success", "fm"),
    [
        pytest.param(7, 3, 2, 0, -4, True, 2, True, 0, id="spec-display-example"),
        pytest.param(5, 5, 0, 0, 0, True, 0, True, 0, id="tie-succeeds"),
        pytest.param(5, 5, 0, 0, 0, False, 0, False, 0, id="tie-fails-when-set"),
        pytest.param(6, 5, 0, 0, 0, False, 1, True, 0, id="plus-one-without-tie"),
        pytest.param(1, 10, 0, 0, -1, True, -10, False, 10, id="failure-margin-10"),
        pytest.param(3, 5, 1, 0, 0, True, -1, False, 1, id="failure-margin-1"),
        pytest.param(3, 5, 0, 3, 0, True, 1, True, 0, id="positive-difficulty-is-easier"),
        pytest.param(5, 3, 0, -3, 0, True, -1, False, 1, id="negative-difficulty-is-harder"),
        pytest.param(10, 1, -5, 0, -15, True, -11, False, 11, id="penalty-counts"),
    ],
)
def test_roll(
    luck: int,
    unluck: int,
    attributes: int,
    difficulty: int,
    penalty: int,
    tie_succeeds: bool,
    margin: int,
    success: bool,
    fm: int,
) -> None:
    roll = Roll(Dice((luck,), (unluck,)), attributes, difficulty, penalty, tie_succeeds)
    assert roll.margin == margin
    assert roll.success is success
    assert roll.failure_margin == fm


def test_open_roll_margin_uses_every_throw() -> None:
    roll = Roll(Dice((10, 10, 1), (10, 3)), 0, 0, 0)
    assert (roll.dice.luck_total, roll.dice.unluck_total, roll.margin) == (21, 13, 8)
