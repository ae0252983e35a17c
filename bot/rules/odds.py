"""The odds of the next healing session's first roll (rules.md §1 and §4), computed exactly.

A ±d10 roll is a luck die minus an unluck die. Without open rolls there are 100 equally likely dice
pairs, and the odds are exact fractions over them. With open rolls a die that shows 10 is thrown
again and added, so a die totals ``10·n + r`` (``n`` tens, then ``r`` in 1..9) with probability
``10^-(n+1)``: the distribution is exact up to ``OPEN_TENS`` tens per die and ignores the rest. What
is left out weighs ``10^-(OPEN_TENS+1)`` per die, ``2·10^-5`` in all, so every probability below is
within 0.002 % of the true one (the 0.1 % bound asked for, with room to spare).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from bot.rules.character import Character
from bot.rules.healing import WORSEN_AT, can_roll_healing, healing_attributes, rest_status, worsened
from bot.rules.ruleset import Ruleset
from bot.rules.severity import Severity, Track
from bot.rules.wounds import total_penalty

OPEN_TENS = 4
"""With open rolls, a die counts at most this many tens (see the module docstring for the error)."""
OPEN_ERROR_BOUND = Fraction(2, 10 ** (OPEN_TENS + 1))
"""The largest error of any probability computed with open rolls (0 without)."""
HOPELESS_BELOW = Fraction(1, 20)
"""A first roll that succeeds less often than this (under 5 %, one chance in twenty) cannot reasonably
succeed: such a session only spends the rest (and may worsen the wound), so it is not offered as good
news. Dice odds come in steps of 1 % without open rolls: 1 %–4 % are hopeless, 5 % is not."""


@cache
def _die(open_rolls: bool) -> dict[int, Fraction]:
    """The total of one die and its probability."""
    if not open_rolls:
        return {face: Fraction(1, 10) for face in range(1, 11)}
    return {
        10 * tens + last: Fraction(1, 10 ** (tens + 1))
        for tens in range(OPEN_TENS + 1)
        for last in range(1, 10)
    }


@cache
def dice_distribution(open_rolls: bool) -> tuple[tuple[int, Fraction], ...]:
    """The value of a ±d10 roll (luck − unluck) and its probability, lowest value first."""
    die = _die(open_rolls)
    weights: dict[int, Fraction] = {}
    for luck, p_luck in die.items():
        for unluck, p_unluck in die.items():
            weights[luck - unluck] = weights.get(luck - unluck, Fraction(0)) + p_luck * p_unluck
    return tuple(sorted(weights.items()))


@dataclass(frozen=True)
class RollOdds:
    """The chances of one roll: success, and failure by ``WORSEN_AT`` or more."""

    success: Fraction
    worsening: Fraction


@cache
def roll_odds(bonus: int, *, tie_succeeds: bool, open_rolls: bool) -> RollOdds:
    """The odds of a roll whose margin is the dice plus ``bonus`` (attributes + difficulty + penalty)."""
    success = worsening = Fraction(0)
    for value, chance in dice_distribution(open_rolls):
        margin = value + bonus
        if margin > 0 or (tie_succeeds and margin == 0):
            success += chance
        elif -margin >= WORSEN_AT:
            worsening += chance
    return RollOdds(success, worsening)


@dataclass(frozen=True)
class HealingOdds:
    """The first roll of the next healing session on ``track``: which wound it is for, its odds, and
    whether a worsening would be beyond the track (fatal, or incoherent on the mental track)."""

    track: Track
    severity: Severity
    success: Fraction
    worsening: Fraction
    beyond: bool

    @property
    def death(self) -> Fraction:
        """The chance that the first roll kills (or makes incoherent)."""
        return self.worsening if self.beyond else Fraction(0)

    @property
    def risky(self) -> bool:
        """Whether the first roll can worsen the wound."""
        return self.worsening > 0

    @property
    def deadly(self) -> bool:
        """Whether the first roll can kill (or make incoherent)."""
        return self.death > 0

    @property
    def hopeless(self) -> bool:
        """Whether the first roll cannot reasonably succeed (:data:`HOPELESS_BELOW`)."""
        return self.success < HOPELESS_BELOW

    @property
    def worth_offering(self) -> bool:
        """The one notion of a session worth offering, used wherever a session is shown (the card, the
        Heal button, /rest and its pings, the board, the player view) and before rolling it: its first
        roll cannot kill (nor make incoherent) and can reasonably succeed. Any other session is never
        invited, pinged or shown as good news, and the bot asks before rolling it
        (:meth:`Ruleset.asks_before`)."""
        return not (self.deadly or self.hopeless)


def healing_odds(character: Character, ruleset: Ruleset, track: Track = Track.PHYSICAL) -> HealingOdds | None:
    """The odds of the first roll of the healing session the character may start now on ``track``;
    ``None`` when no session is available (rest not over, nothing to heal, out of play, mental
    healing rolls off)."""
    if not can_roll_healing(character, ruleset, track):
        return None
    severity = rest_status(character, ruleset, track).severity
    assert severity is not None  # a session is available, so a wound is held
    bonus = (
        healing_attributes(character, track)
        + ruleset.numbers(track).difficulty[severity]
        + total_penalty(character, ruleset)
    )
    odds = roll_odds(bonus, tie_succeeds=ruleset.tie_succeeds, open_rolls=ruleset.open_rolls)
    beyond = worsened(character, track, severity) is None
    return HealingOdds(track, severity, odds.success, odds.worsening, beyond)
