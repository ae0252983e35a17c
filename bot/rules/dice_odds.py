"""Exact odds of a ±d10 roll (luck d10 − unluck d10), plain or open, as fractions.

Plain: the value v is −9..+9, with (10 − |v|) chances in 100.

Open (a 10 is rolled again and added): a die shows 10·k + r with r in 1..9, with chance 10^−(k+1).
The value is then 10·c + d with d = r_luck − r_unluck (−8..8, in 9 − |d| ways) and c the difference of
the two dice's counts of tens; summing the geometric series over those counts gives each (d, c) the
weight 10^−(|c|+2) · 100/99. So every figure here is exact, tails included (the bot stops after 50
rerolls, a difference far below 10^−50).
"""

from __future__ import annotations

from fractions import Fraction

_TENTH = Fraction(1, 10)
_OPEN_WEIGHT = Fraction(100, 99)


def _tens_at_most(n: int) -> Fraction:
    """The sum over every tens difference c ≤ n of 10^−(|c|+2)."""
    if n < 0:
        return _TENTH ** (2 - n) * Fraction(10, 9)
    below_zero = _TENTH**3 * Fraction(10, 9)
    return below_zero + _TENTH**2 * (1 - _TENTH ** (n + 1)) * Fraction(10, 9)


def at_most(value: int, open_rolls: bool = False) -> Fraction:
    """The chance that the roll's value (luck − unluck) is ``value`` or less."""
    if not open_rolls:
        return Fraction(sum(10 - abs(v) for v in range(-9, min(value, 9) + 1)), 100)
    # The 17 last-face differences d fall on two or three counts of tens: add their ways first.
    ways: dict[int, int] = {}
    for d in range(-8, 9):
        tens = (value - d) // 10
        ways[tens] = ways.get(tens, 0) + 9 - abs(d)
    return sum((count * _tens_at_most(tens) for tens, count in ways.items()), Fraction(0)) * _OPEN_WEIGHT


def between(low: int | None, high: int | None, open_rolls: bool = False) -> Fraction:
    """The chance that the value lies in ``low..high`` (both included; ``None``: unbounded)."""
    if low is not None and high is not None and low > high:
        return Fraction(0)
    top = Fraction(1) if high is None else at_most(high, open_rolls)
    bottom = Fraction(0) if low is None else at_most(low - 1, open_rolls)
    return top - bottom


def exactly(value: int, open_rolls: bool = False) -> Fraction:
    """The chance that the value is exactly ``value``."""
    return between(value, value, open_rolls)
