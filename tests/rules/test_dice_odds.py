"""The exact distribution of a ±d10 roll's value, plain and open (bot.rules.dice_odds)."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from bot.rules.dice_odds import at_most, between, exactly

values = st.integers(-60, 60)


def test_plain_odds_are_the_hundred_throws() -> None:
    throws = [luck - unluck for luck in range(1, 11) for unluck in range(1, 11)]
    for value in range(-12, 13):
        assert exactly(value) == Fraction(throws.count(value), 100)
        assert at_most(value) == Fraction(sum(1 for v in throws if v <= value), 100)


def test_open_odds_against_the_throws_with_up_to_three_tens() -> None:
    # A die shows 10·k + r (r in 1..9) with chance 10^-(k+1); enumerating k ≤ 3 leaves out less
    # than 2/10^4 of the throws, so the exact figure lies between the enumeration and that much more.
    faces = [(10 * k + r, Fraction(1, 10 ** (k + 1))) for k in range(4) for r in range(1, 10)]
    unknown = 1 - (1 - Fraction(1, 10**4)) ** 2
    for value in range(-45, 46):
        counted = sum((p * q for a, p in faces for b, q in faces if a - b == value), Fraction(0))
        assert counted <= exactly(value, open_rolls=True) <= counted + unknown


@given(st.booleans(), values, values)
def test_the_distribution_is_a_symmetric_distribution(open_rolls: bool, a: int, b: int) -> None:
    assert at_most(a, open_rolls) + at_most(-a - 1, open_rolls) == 1  # luck and unluck are alike
    assert exactly(a, open_rolls) == exactly(-a, open_rolls)
    low, high = sorted((a, b))
    assert at_most(low, open_rolls) <= at_most(high, open_rolls)
    assert between(None, low, open_rolls) + between(low + 1, None, open_rolls) == 1
    assert between(high + 1, low, open_rolls) == 0


def test_open_odds_by_hand() -> None:
    # 0: both dice end on the same face r after as many tens: 9 · (1/100 + 1/10^4 + …) = 1/11.
    assert exactly(0, open_rolls=True) == Fraction(1, 11)
    # 10: luck has one ten more than unluck, same last face: 9 · (1/10^3 + 1/10^5 + …) = 1/110.
    assert exactly(10, open_rolls=True) == Fraction(1, 110)
