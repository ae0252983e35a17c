"""Damage results, previews and the table in words: both languages, escaped, within Discord's limits."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.rules import Dice, Ruleset, Track
from bot.rules.damage import damage_odds, inflict_damage
from bot.rules.ruleset import DamageTable
from bot.ui.card import character_card
from bot.ui.damage import damage_embed, percent, preview_embed
from bot.ui.i18n import LANGS, Lang
from bot.ui.results import damage_table_text
from tests.ui.builders import PING, character, nasty
from tests.ui.limits import message_within_limits


def open_dice() -> Dice:
    return Dice((10,) * 40 + (3,), (1,))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("track", list(Track))
def test_the_longest_result_holds_with_its_card(lang: Lang, track: Track) -> None:
    ruleset = Ruleset(open_rolls=True, damage=DamageTable(thresholds=(1, 2, 3, 999)))
    aria = character(name=nasty(64), physical_max=(20, 20, 20), mental_max=(20, 20, 20))
    outcome = inflict_damage(aria, ruleset, track, 998, open_dice, count=7, note=nasty(200))
    embed = damage_embed(outcome, ruleset, lang, note=nasty(200))
    card = character_card(outcome.character, ruleset, lang, can_heal=False)
    assert message_within_limits(None, [embed, card]) == []
    assert not PING.search(embed.title or "") and not PING.search(embed.description or "")
    assert len(outcome.blows) == 7


@pytest.mark.parametrize("lang", LANGS)
def test_the_preview_holds_and_escapes_the_name(lang: Lang) -> None:
    aria = character(name=nasty(64))
    odds = damage_odds(aria, Ruleset(open_rolls=True), Track.PHYSICAL, 25)
    embed = preview_embed(aria, Ruleset(), Track.PHYSICAL, 25, odds, lang, count=7, dice=open_dice())
    assert message_within_limits(None, [embed]) == []
    assert not PING.search(embed.title or "")


@pytest.mark.parametrize(
    ("chance", "en", "fr"),
    [
        (Fraction(0), "0%", "0\u202f%"),
        (Fraction(1, 100000), "< 0.1%", "< 0,1\u202f%"),
        (Fraction(15, 100), "15%", "15\u202f%"),
        (Fraction(1, 3), "33.3%", "33,3\u202f%"),
        (Fraction(99999, 100000), "> 99.9%", "> 99,9\u202f%"),
        (Fraction(1), "100%", "100\u202f%"),
    ],
)
def test_percentages_never_round_to_a_lie(chance: Fraction, en: str, fr: str) -> None:
    assert (percent(chance, "en"), percent(chance, "fr")) == (en, fr)


def test_the_table_reads_as_bands_of_effective_damage() -> None:
    assert damage_table_text(DamageTable(), "en") == (
        "none ≤ 10 · light 11–20 · serious 21–30 · critical 31–40 · fatal ≥ 41"
    )
    assert damage_table_text(DamageTable(thresholds=(1, 2, 3, 4)), "fr") == (
        "aucune ≤ 0 · légère 1 · grave 2 · critique 3 · mortelle ≥ 4"
    )
