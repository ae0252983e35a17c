"""A roll written out in full: ``luck 7 − unluck 3 = +4, Cp+Rs +2, difficulty +0, penalty −4 → margin +2``."""

from __future__ import annotations

from bot.rules.dice import Dice, Roll
from bot.ui.i18n import Lang, t
from bot.ui.text import MINUS, signed

MAX_THROWS_SHOWN = 6
"""An open die with more throws than this is shown as ``10×7+3`` (every throw but the last is a 10)."""


def throws(values: tuple[int, ...]) -> str:
    """One die: ``7``, or with open rolls ``10+4`` (each throw shown)."""
    if len(values) > MAX_THROWS_SHOWN and all(v == 10 for v in values[:-1]):
        return f"10×{len(values) - 1}+{values[-1]}"
    return "+".join(str(v) for v in values)


def dice_text(dice: Dice, lang: Lang) -> str:
    """``luck 7 − unluck 3 = +4``, marked when the player typed the dice."""
    text = (
        f"{t(lang, 'roll_luck')} {throws(dice.luck)} {MINUS} {t(lang, 'roll_unluck')} {throws(dice.unluck)}"
        f" = {signed(dice.value)}"
    )
    return f"{text} ({t(lang, 'roll_manual')})" if dice.manual else text


def roll_terms(roll: Roll, lang: Lang, label: str) -> str:
    """Every term of ``roll``; ``label`` names the attributes term (``Cp+Rs``, ``modifier``…)."""
    terms = [
        dice_text(roll.dice, lang),
        f"{label} {signed(roll.attributes)}",
        f"{t(lang, 'roll_difficulty')} {signed(roll.difficulty)}",
        f"{t(lang, 'roll_penalty')} {signed(roll.penalty)}",
    ]
    return ", ".join(terms) + f" → {t(lang, 'roll_margin')} {signed(roll.margin)}"
