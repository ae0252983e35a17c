"""The character card: contents in both languages, warnings, states, colours and limits."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.rules import Ruleset, Severity, Track
from bot.ui.card import CARD_BUDGET, character_card
from bot.ui.i18n import LANGS, Lang
from bot.ui.results import COLOURS, State, state_of, warning_lines
from bot.ui.text import EMPTY, MAX_MARKS, glyph, marks
from tests.ui.builders import PING, character, embed_text, nasty
from tests.ui.limits import embed_within_limits

RULES = Ruleset()


def field(embed: object, name: str) -> str:
    import discord

    assert isinstance(embed, discord.Embed)
    values = [f.value or "" for f in embed.fields if f.name == name]
    assert values, f"no field {name!r}"
    return values[0]


def test_unhurt_card_in_english() -> None:
    card = character_card(character(), RULES, "en")
    assert card.title == "Aria"
    assert "Played by <@1234>" in (card.description or "")
    assert field(card, "Physical wounds") == "Light ▫️▫️▫️▫️ 0/4\nSerious ▫️▫️ 0/2\nCritical ▫️ 0/1"
    assert field(card, "Mental wounds") == "Shock ▫️▫️▫️▫️ 0/4\nTrauma ▫️▫️ 0/2\nPsychosis ▫️ 0/1"
    assert field(card, "Penalty") == "0 (no penalty)"
    assert field(card, "Rest and healing") == "Unhurt: no rest needed."
    assert "Warnings" not in [f.name for f in card.fields]
    assert card.colour is not None and card.colour.value == COLOURS[State.UNHURT]


def test_unhurt_npc_card_in_french() -> None:
    card = character_card(character(owner_id=None), RULES, "fr")
    assert "PNJ" in (card.description or "")
    assert field(card, "Blessures physiques") == "Légère ▫️▫️▫️▫️ 0/4\nGrave ▫️▫️ 0/2\nCritique ▫️ 0/1"
    assert field(card, "Blessures mentales") == "Choc ▫️▫️▫️▫️ 0/4\nTraumatisme ▫️▫️ 0/2\nPsychose ▫️ 0/1"
    assert field(card, "Pénalité") == "0 (aucune pénalité)"
    assert field(card, "Repos et guérison") == "Indemne\u202f: aucun repos nécessaire."


def test_wounded_card() -> None:
    hurt = character((2, 1, 0), (1, 0, 0), rest_days=3)
    en, fr = character_card(hurt, RULES, "en"), character_card(hurt, RULES, "fr")
    assert "Light 🟨🟨▫️▫️ 2/4" in field(en, "Physical wounds")
    assert "Serious 🟧▫️ 1/2" in field(en, "Physical wounds")
    assert "Shock 🟡▫️▫️▫️ 1/4" in field(en, "Mental wounds")
    assert field(en, "Penalty") == "\u22126 on all rolls"
    assert field(fr, "Pénalité") == "\u22126 à tous les jets"
    rest = field(en, "Rest and healing")
    assert "rested 1/1 day (least severe: light wound)" in rest  # never "3/1": the need is met
    assert "/heal roll is available now." in rest
    assert "healed by a GM" in rest
    assert "/soin jet est disponible." in field(fr, "Repos et guérison")
    assert en.colour is not None and en.colour.value == COLOURS[State.SERIOUS]


def test_rest_still_needed_and_the_can_heal_override() -> None:
    hurt = character((0, 1, 0), rest_days=2)
    rest = field(character_card(hurt, RULES, "en"), "Rest and healing")
    assert "rested 2/7 days" in rest and "after 5 more days of rest" in rest
    one_day = field(character_card(replace(hurt, rest_days=6), RULES, "fr"), "Repos et guérison")
    assert "après encore 1 jour de repos" in one_day
    ready = character((1, 0, 0), rest_days=1)
    assert "not available" in field(character_card(ready, RULES, "en", can_heal=False), "Rest and healing")


def test_mental_healing_rolls_show_the_mental_rest() -> None:
    rules = Ruleset(mental_healing_rolls=True)
    rest = field(character_card(character(mental=(1, 0, 0), rest_days=1), rules, "en"), "Rest and healing")
    assert "Mental: rested 1/1 day (least severe: shock)" in rest
    assert "/heal roll (mental) is available now." in rest


@pytest.mark.parametrize(
    ("physical", "mental", "lang", "expected"),
    [
        ((4, 1, 0), (0, 0, 0), "en", ["next light wound → serious"]),
        ((4, 1, 0), (0, 0, 0), "fr", ["prochaine blessure légère → grave"]),
        ((4, 2, 0), (0, 0, 0), "en", ["next light wound → critical", "next serious wound → critical"]),
        ((0, 0, 1), (0, 0, 0), "en", ["**next critical wound → FATAL**"]),
        ((0, 0, 1), (0, 0, 0), "fr", ["**prochaine blessure critique → MORTELLE**"]),
        ((0, 0, 0), (0, 0, 1), "en", ["**next psychosis → INCOHERENT**"]),
        ((0, 0, 0), (0, 0, 1), "fr", ["**prochaine psychose → INCOHÉRENCE**"]),
        ((0, 0, 0), (4, 0, 0), "fr", ["prochain choc → traumatisme"]),
        (
            (0, 2, 1),
            (4, 0, 0),
            "en",
            ["**next serious wound → FATAL**", "**next critical wound → FATAL**", "next shock → trauma"],
        ),
    ],
)
def test_warnings_most_severe_first(
    physical: tuple[int, int, int], mental: tuple[int, int, int], lang: Lang, expected: list[str]
) -> None:
    assert warning_lines(character(physical, mental), lang) == expected


def test_a_fatal_light_wound_is_said_first_and_loudest() -> None:
    doomed = character((4, 2, 1), (4, 1, 0))
    en, fr = warning_lines(doomed, "en"), warning_lines(doomed, "fr")
    assert en[0] == "⚠️ **Any new wound is FATAL, even a light one**"
    assert fr[0] == "⚠️ **La moindre blessure est MORTELLE, même légère**"
    assert en[1:] == ["next shock → trauma"]
    card = character_card(doomed, RULES, "en")
    assert field(card, "Warnings").startswith("⚠️ **Any new wound is FATAL")
    mad = warning_lines(character(mental=(4, 2, 1)), "fr")
    assert mad == ["⚠️ **Le moindre choc rend le personnage INCOHÉRENT**"]


@pytest.mark.parametrize("lang", LANGS)
def test_dead_card(lang: Lang) -> None:
    card = character_card(character((4, 2, 1), dead=True), RULES, lang)
    assert card.title == ("† Aria — dead" if lang == "en" else "† Aria — a succombé")
    assert card.colour is not None and card.colour.value == COLOURS[State.OUT]
    rest = card.fields[-1].value or ""
    assert rest.startswith("Dead:" if lang == "en" else "Décès\u202f:")
    assert all(f.name not in ("Warnings", "Alertes") for f in card.fields)


@pytest.mark.parametrize("lang", LANGS)
def test_incoherent_card(lang: Lang) -> None:
    card = character_card(character(mental=(4, 2, 1), incoherent=True), RULES, lang)
    assert card.title == ("🌀 Aria — incoherent" if lang == "en" else "🌀 Aria — a sombré dans l'incohérence")
    assert card.colour is not None and card.colour.value == COLOURS[State.OUT]


def test_five_distinct_colours_by_worst_state_across_both_tracks() -> None:
    assert len(set(COLOURS.values())) == 5
    assert state_of(character()) is State.UNHURT
    assert state_of(character((1, 0, 0))) is State.LIGHT
    assert state_of(character((1, 0, 0), (0, 1, 0))) is State.SERIOUS
    assert state_of(character(mental=(0, 0, 1))) is State.CRITICAL
    assert state_of(character(dead=True)) is State.OUT
    assert state_of(character(incoherent=True)) is State.OUT


@pytest.mark.parametrize(("count", "maximum"), [(c, m) for m in range(21) for c in range(m + 1)])
@pytest.mark.parametrize(("track", "severity"), [(tr, s) for tr in Track for s in Severity])
def test_glyph_rows_stay_short(count: int, maximum: int, track: Track, severity: Severity) -> None:
    row = marks(track, severity, count, maximum)
    if maximum == 0:
        assert row == "—"
    else:
        assert row.count(glyph(track, severity)) + row.count(EMPTY) <= MAX_MARKS
        assert (glyph(track, severity) in row) == (count > 0)
        assert (EMPTY in row) == (count < maximum)


def test_each_severity_has_its_own_mark() -> None:
    every = [glyph(track, s) for track in Track for s in Severity]
    assert len(set(every)) == 6 and EMPTY not in every


def test_big_maxima_still_show_counts_in_text() -> None:
    big = character((13, 0, 20), physical_max=(20, 0, 20))
    rows = field(character_card(big, RULES, "en"), "Physical wounds")
    assert "13/20" in rows and "Serious — 0/0" in rows and "Critical 🟥🟥🟥🟥🟥🟥🟥🟥🟥🟥 20/20" in rows


def test_notes_are_escaped() -> None:
    card = character_card(character((1, 0, 0), note="@everyone **arrow** <@&1>"), RULES, "en")
    notes = field(card, "Notes")
    assert "\\*\\*arrow\\*\\*" in notes
    assert not PING.search(notes)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("length", [1, 64, 300, 10_000])
def test_any_name_fits_and_never_pings(lang: Lang, length: int) -> None:
    for dead in (False, True):
        hurt = character(
            (20, 20, 19),
            (20, 20, 20),
            name=nasty(length),
            note=nasty(200),
            physical_max=(20, 20, 20),
            mental_max=(20, 20, 20),
            dead=dead,
        )
        card = character_card(hurt, RULES, lang)
        assert embed_within_limits(card) == []
        assert len(card) <= CARD_BUDGET
        assert not PING.search(embed_text(card).replace("<@1234>", ""))


def test_worst_case_warnings_fit() -> None:
    hurt = character((20, 20, 0), (20, 20, 0), physical_max=(20, 20, 20), mental_max=(20, 20, 20))
    card = character_card(hurt, Ruleset(mental_healing_rolls=True), "fr")
    assert embed_within_limits(card) == []


@pytest.mark.parametrize("lang", LANGS)
def test_the_dead_and_the_incoherent_show_their_state_not_figures(lang: Lang) -> None:
    from bot.ui.settings import character_line

    for out in (character((4, 2, 1), dead=True), character(mental=(4, 2, 1), incoherent=True)):
        card = character_card(out, RULES, lang)
        names = [f.name for f in card.fields]
        assert ("Penalty" if lang == "en" else "Pénalité") not in names
        rest = card.fields[-1].value or ""
        assert "/" not in rest.split(".")[0] and "−" not in embed_text(card)
        line = character_line(out, RULES, lang)
        assert "−" not in line and not line.endswith(" 0")


def test_a_note_shared_by_a_batch_is_told_once_with_how_many() -> None:
    card = character_card(character((3, 0, 0), note="axe"), RULES, "fr")
    assert field(card, "Notes") == "3 × blessure légère\u202f: axe"
