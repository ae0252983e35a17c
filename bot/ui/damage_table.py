"""The damage table of rules.md §8 in words, for /config show and the damage results."""

from __future__ import annotations

from bot.rules.ruleset import DamageTable
from bot.ui.i18n import Lang, t


def _band(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}–{high}"


def damage_table_text(table: DamageTable, lang: Lang) -> str:
    """``none ≤ 10 · light 11–20 · serious 21–30 · critical 31–40 · fatal ≥ 41``."""
    light, serious, critical, fatal = table.thresholds
    return t(
        lang,
        "damage_table",
        none=light - 1,
        light=_band(light, serious - 1),
        serious=_band(serious, critical - 1),
        critical=_band(critical, fatal - 1),
        fatal=fatal,
    )
