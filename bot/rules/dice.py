"""±d10 rolls: a luck die minus an unluck die, optionally open, and the margin of a roll.

The random source is passed in (``random.SystemRandom()`` in the bot, a seeded or scripted source in
tests); a player may also type the values of their own dice.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from bot.errors import UserError

MAX_MANUAL_TOTAL = 999
MAX_MANUAL_PAIRS = 20
MAX_OPEN_REROLLS = 50
_PAIR = re.compile(r"^([0-9]{1,3})[-/:]([0-9]{1,3})$")
_SEPARATOR = re.compile(r"\s*([-/:])\s*")


class RandomSource(Protocol):
    """Anything with ``randint`` (``random.SystemRandom`` and ``random.Random`` qualify)."""

    def randint(self, a: int, b: int) -> int: ...


@dataclass(frozen=True)
class Dice:
    """The dice of one ±d10 roll. With open rolls a die may hold several throws (10, 10, 4)."""

    luck: tuple[int, ...]
    unluck: tuple[int, ...]
    manual: bool = False

    @property
    def luck_total(self) -> int:
        return sum(self.luck)

    @property
    def unluck_total(self) -> int:
        return sum(self.unluck)

    @property
    def value(self) -> int:
        return self.luck_total - self.unluck_total


def _throw(source: RandomSource, open_rolls: bool) -> tuple[int, ...]:
    throws = [source.randint(1, 10)]
    while open_rolls and throws[-1] == 10 and len(throws) <= MAX_OPEN_REROLLS:
        throws.append(source.randint(1, 10))
    return tuple(throws)


def roll_dice(source: RandomSource, open_rolls: bool = False) -> Dice:
    """Throw the luck die then the unluck die."""
    luck = _throw(source, open_rolls)
    unluck = _throw(source, open_rolls)
    return Dice(luck, unluck)


def unreadable(text: str) -> UserError:
    """The refusal of dice typed in no form the bot reads."""
    return UserError(
        "I cannot read these dice: {text}. Give luck-unluck pairs in order, each "
        "die from 1 to 10 (more only with open rolls), e.g. 7-3 10-2; or leave "
        "the option empty and the bot rolls.",
        text=text,
    )


def parse_dice(text: str, open_rolls: bool = False) -> list[Dice]:
    """Parse a player's own dice, ``"7-3 10-2"``: luck-unluck pairs in order.

    Each value is 1..10; with open rolls a value above 10 is accepted as the total of an open die.
    Raises :class:`UserError` ``dice_invalid`` when the text is not of that form.
    """
    # "7 - 3" is one pair: glue the separators to their numbers before splitting on spaces.
    glued = _SEPARATOR.sub(r"\1", text.replace(",", " ").replace(";", " "))
    pairs = glued.split()
    if not pairs or len(pairs) > MAX_MANUAL_PAIRS:
        raise unreadable(text)
    result: list[Dice] = []
    top = MAX_MANUAL_TOTAL if open_rolls else 10
    for pair in pairs:
        match = _PAIR.match(pair)
        if match is None:
            raise unreadable(text)
        luck, unluck = int(match.group(1)), int(match.group(2))
        if not open_rolls and 10 < max(luck, unluck) <= MAX_MANUAL_TOTAL and min(luck, unluck) >= 1:
            raise UserError(
                "A die above 10 in {text}: open rolls are off on this server, so each "
                "die shows 1 to 10. A GM can turn them on with /config dice open-rolls.",
                text=text,
            )  # the total of an open die: not here
        if not (1 <= luck <= top and 1 <= unluck <= top):
            raise unreadable(text)
        result.append(Dice((luck,), (unluck,), manual=True))
    return result


@dataclass
class DiceFeed:
    """Hands out the player's own dice first, then rolls the rest."""

    source: RandomSource
    open_rolls: bool = False
    manual: Sequence[Dice] = ()
    used: int = field(default=0, init=False)

    def __call__(self) -> Dice:
        if self.used < len(self.manual):
            dice = self.manual[self.used]
        else:
            dice = roll_dice(self.source, self.open_rolls)
        self.used += 1
        return dice

    @property
    def unused_manual(self) -> int:
        return max(0, len(self.manual) - self.used)


@dataclass(frozen=True)
class Roll:
    """One resolved roll with every term kept for display.

    margin = dice + attributes + difficulty + penalty. A positive difficulty makes the roll easier,
    as in Harmonies; the penalty is zero or negative.
    """

    dice: Dice
    attributes: int
    difficulty: int
    penalty: int
    tie_succeeds: bool = True

    @property
    def margin(self) -> int:
        return self.dice.value + self.attributes + self.difficulty + self.penalty

    @property
    def success(self) -> bool:
        return self.margin >= 0 if self.tie_succeeds else self.margin > 0

    @property
    def failure_margin(self) -> int:
        """``-margin`` on a failure, 0 on a success."""
        return 0 if self.success else -self.margin
