"""Result embeds: wounds, GM healing, healing sessions, rolls, rest, lists, settings."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot.rules import (
    Dice,
    DiceFeed,
    Preset,
    Roll,
    Ruleset,
    Severity,
    Track,
    gm_lower,
    heal_session,
    inflict,
)
from bot.rules.healing import HealingSession, HealStep
from bot.ui.card import character_card
from bot.ui.i18n import LANGS, Lang
from bot.ui.results import (
    healing_embed,
    lowering_embed,
    rest_embed,
    rest_mentions,
    roll_embed,
    wound_embed,
)
from bot.ui.settings import (
    character_deleted_embed,
    character_list_embeds,
    config_embed,
    import_embed,
)
from tests.ui.builders import PING, character, embed_text, nasty
from tests.ui.limits import embed_within_limits, message_within_limits

RULES = Ruleset()


class Script:
    """A dice source that returns the given values in order."""

    def __init__(self, *values: int) -> None:
        self.values = list(values)

    def randint(self, a: int, b: int) -> int:
        return self.values.pop(0)


def test_a_plain_wound() -> None:
    done = inflict(character(), Track.PHYSICAL, Severity.LOW)
    embed = wound_embed(done, done.character, RULES, "en", note="")
    assert embed.title == "Wounds — Aria"
    assert "• light wound" in (embed.description or "")
    assert "rest" not in (embed.description or "")  # no rest was taken: nothing lost, nothing said
    rested = inflict(replace(character(), rest_days=3), Track.PHYSICAL, Severity.LOW)
    text = wound_embed(rested, rested.character, RULES, "fr").description or ""
    assert "Les 3 jours de repos pris sont perdus\u202f: la période de repos recommence." in text
    assert embed_within_limits(embed) == []


def test_escalations_are_highlighted() -> None:
    done = inflict(character((4, 1, 0)), Track.PHYSICAL, Severity.LOW, 2)
    en = wound_embed(done, done.character, RULES, "en").description or ""
    fr = wound_embed(done, done.character, RULES, "fr").description or ""
    assert "light wound → **serious wound** (light full 4/4)" in en
    assert "light wound → **critical wound** (light full 4/4, serious full 2/2)" in en
    assert "blessure légère → **blessure grave** (légères au complet 4/4)" in fr


@pytest.mark.parametrize("lang", LANGS)
def test_death_leads_and_only_the_wounds_not_applied_come_next(lang: Lang) -> None:
    done = inflict(replace(character((4, 2, 1)), rest_days=2), Track.PHYSICAL, Severity.LOW, 4, note="boom")
    text = wound_embed(done, done.character, RULES, lang, note="boom").description or ""
    if lang == "en":
        assert text.startswith("☠️ **Aria is DEAD.**")
        assert "☠️ **FATAL**" in text
        assert text.endswith("3 wounds not applied.") and "rest" not in text  # rules §2 (issue 35)
    else:
        assert text.startswith("☠️ **Aria a succombé.**")
        assert "☠️ **MORTELLE**" in text
        assert text.endswith("3 blessures non appliquées.") and "repos" not in text


def test_incoherence_is_loud() -> None:
    done = inflict(character(mental=(4, 2, 1)), Track.MENTAL, Severity.LOW, 2)
    en = wound_embed(done, done.character, RULES, "en")
    assert en.title == "Mental wounds — Aria"
    assert "INCOHERENT" in (en.description or "")
    assert (en.description or "").startswith("🌀 **Aria is INCOHERENT**")
    assert "INCOHÉRENCE" in (wound_embed(done, done.character, RULES, "fr").description or "")


def test_notes_are_escaped_in_results() -> None:
    done = inflict(character(), Track.PHYSICAL, Severity.LOW, note="x")
    embed = wound_embed(done, done.character, RULES, "en", note="@everyone <@&1> **x**")
    assert not PING.search(embed_text(embed))
    assert "Note: @\u200beveryone" in (embed.description or "")


def test_gm_lowering() -> None:
    lowered = gm_lower(character((1, 1, 0)), Track.PHYSICAL, Severity.MID)
    assert "serious wound → **light wound**" in (lowering_embed(lowered, RULES, "en").description or "")
    healed = gm_lower(character(mental=(1, 0, 0)), Track.MENTAL, Severity.LOW)
    assert "choc → **soigné**" in (lowering_embed(healed, RULES, "fr").description or "")
    healed_light = gm_lower(character((1, 0, 0)), Track.PHYSICAL, Severity.LOW)
    assert "blessure légère → **soignée**" in (lowering_embed(healed_light, RULES, "fr").description or "")


def session(hurt: object, *values: int, rules: Ruleset = RULES) -> HealingSession:
    from bot.rules import Character

    assert isinstance(hurt, Character)
    return heal_session(hurt, rules, DiceFeed(Script(*values), rules.open_rolls))


def test_every_roll_is_shown_in_full() -> None:
    hurt = replace(character((2, 0, 0)), corps=1, resistance=1, rest_days=1)
    result = session(hurt, 7, 3, 9, 2)
    en = healing_embed(result, RULES, "en").description or ""
    fr = healing_embed(result, RULES, "fr").description or ""
    assert "luck 7 − unluck 3 = +4, Cp+Rs +2, difficulty +0, penalty −2 → margin +4" in en
    assert "luck 9 − unluck 2 = +7, Cp+Rs +2, difficulty +0, penalty −1 → margin +8" in en
    assert "chance 7 − malchance 3 = +4, Cp+Rs +2, difficulté +0, pénalité −2 → marge +4" in fr
    assert en.count("✅ healed") == 2
    # The outcome first; how a session goes (the rest used up…) is on the card, not in every result.
    assert en.startswith("Result: 2/2 successful rolls.\n") and "rest" not in en
    assert fr.startswith("Bilan") and "2/2 jets réussis.\n" in fr and "repos" not in fr


def test_open_and_manual_dice_are_shown() -> None:
    hurt = replace(character((1, 0, 0)), rest_days=1)
    rules = Ruleset(open_rolls=True)
    opened = session(hurt, 10, 4, 3, rules=rules)
    assert "luck 10+4 − unluck 3 = +11" in (healing_embed(opened, rules, "en").description or "")
    manual = heal_session(hurt, RULES, DiceFeed(Script(), manual=[Dice((7,), (3,), manual=True)]))
    assert "= +4 (player's dice)" in (healing_embed(manual, RULES, "en").description or "")
    assert "(dés donnés)" in (healing_embed(manual, RULES, "fr").description or "")


def test_session_outcomes() -> None:
    serious = replace(character((0, 1, 0)), rest_days=7)
    lowered = healing_embed(session(serious, 9, 1), RULES, "en").description or ""
    assert "✅ now light wound" in lowered
    failed = healing_embed(session(serious, 1, 5), RULES, "en").description or ""
    assert "❌ failed (failure margin 7)" in failed
    worse = healing_embed(session(serious, 1, 10), RULES, "en").description or ""
    assert "**worsened to critical wound**" in worse
    doomed = replace(character((0, 1, 1)), rest_days=7)
    fatal = healing_embed(session(doomed, 1, 10), RULES, "fr").description or ""
    assert "**blessure MORTELLE**" in fatal and "a succombé" in fatal
    assert fatal.startswith("☠️ **") and "Bilan" not in fatal  # a fatal result leads with it
    two = replace(character((2, 0, 0)), rest_days=1)
    stopped = healing_embed(session(two, 1, 9), RULES, "en").description or ""
    assert stopped.startswith("Result: 0/1 successful rolls; 1 wound not rolled.\n**Roll 1**")


def test_the_biggest_session_fits_with_the_card_in_one_message() -> None:
    rules = Ruleset(open_rolls=True, presets={"humanoid": Preset(physical=(20, 20, 20))})
    hurt = replace(
        character((20, 20, 20), name=nasty(64), note=nasty(200), physical_max=(20, 20, 20)),
        rest_days=1,
        corps=10,
        resistance=10,
    )
    steps = tuple(
        HealStep(Severity.LOW, Roll(Dice((10,) * 6 + (4,), (10, 10, 3), manual=True), 20, 50, -50), None)
        for _ in range(20)
    )
    big = HealingSession(hurt, Track.PHYSICAL, Severity.LOW, 20, steps)
    for lang in LANGS:
        embeds = [healing_embed(big, rules, lang), character_card(hurt, rules, lang, can_heal=False)]
        assert message_within_limits("<@1234>", embeds) == []


def test_roll_embed() -> None:
    roll = Roll(Dice((10, 4), (3,)), 2, 1, -4)
    en = roll_embed(roll, "en", character_name="Bob")
    assert en.title == "Roll — Bob"
    assert "luck 10+4 − unluck 3 = +11, modifier +2, difficulty +1, penalty −4 → margin +10" in (
        en.description or ""
    )
    assert (en.description or "").startswith("✅ **Success**, margin +10\nluck")  # the verdict first
    assert "positive difficulty makes a roll easier" in (en.footer.text or "")
    assert roll_embed(roll, "en", character_name="Bob", difficulty_typed=False).footer.text is None
    fr = roll_embed(Roll(Dice((1,), (9,)), 0, 0, 0), "fr", character_name="Bob")
    assert fr.title == "Jet — Bob"
    assert "modificateur +0" in (fr.description or "") and "**Échec**, marge d'échec 8" in (
        fr.description or ""
    )
    assert embed_within_limits(roll_embed(roll, "fr", character_name=nasty(10_000))) == []


def test_rest_embed_says_who_can_roll_healing_per_track_with_the_odds() -> None:
    ready = character((1, 0, 0), name="Aria", rest_days=1)
    waiting = character((0, 1, 0), name="Bob", rest_days=3)
    fine = character(name="Cid")
    minded = character(mental=(1, 0, 0), name="Dee", rest_days=1)
    entries = [ready, waiting, fine, minded]
    en = rest_embed(entries, RULES, 3, "en")
    assert en.title == "Rest: 3 days"
    assert en.fields[0].name == "Can roll healing now (/heal roll)"
    assert en.fields[0].value == "• Aria — First roll (light wound): success 45% · worsening 1%"
    assert len(en.fields) == 1  # mental healing rolls are off: Dee's shock is the GM's
    assert "Bob: 3/7 days (serious wound)" in (en.description or "")
    assert "Cid: unhurt" in (en.description or "")
    assert "Dee: mental wounds, healed by a GM (/heal mental)" in (en.description or "")
    assert rest_mentions(entries, RULES) == [1234]  # Aria's player (Dee's shock is not rollable)
    mental_on = RULES.model_copy(update={"mental_healing_rolls": True})
    both = rest_embed(entries, mental_on, 3, "fr")
    assert both.fields[1].name == "Peuvent faire un jet de guérison mentale (/soin jet piste:mentale)"
    assert (both.fields[1].value or "").startswith("• Dee — Premier jet (choc)\u202f: réussite 45\u202f%")
    fr = rest_embed(entries[1:3], RULES, 1, "fr")
    assert fr.title == "Repos\u202f: 1 jour"
    assert "Personne ne peut encore faire de jet de guérison." in (fr.description or "")


def test_rest_mentions_the_players_who_can_heal_once_each() -> None:
    ready = character((1, 0, 0), name="Aria", rest_days=1, owner_id=7)
    other = character((1, 0, 0), name="Nyx", rest_days=1, owner_id=7)
    waiting = character((0, 1, 0), name="Bob", rest_days=3, owner_id=8)
    assert rest_mentions([ready, other, waiting], RULES) == [7]


def test_a_server_wide_rest_of_many_long_names_fits() -> None:
    many = [character((1, 0, 0), name=nasty(64) + str(i), rest_days=1) for i in range(500)]
    embed = rest_embed(many, RULES, 1, "fr")
    assert embed_within_limits(embed) == []
    assert not PING.search(embed_text(embed))


def test_character_list_pages() -> None:
    characters = [character((i % 5, 0, 0), name=f"C{i}", owner_id=None if i % 2 else 7) for i in range(45)]
    pages = character_list_embeds(characters, RULES, "en")
    assert len(pages) == 3
    assert [p.footer.text for p in pages] == ["page 1/3", "page 2/3", "page 3/3"]
    lines = (pages[0].description or "").split("\n")
    assert len(lines) == 20
    assert lines[0] == "**C0** — <@7> — unhurt — 0"
    assert lines[1] == "**C1** — NPC — light wound — −1"
    fr = character_list_embeds([character(dead=True), character(mental=(0, 1, 0))], RULES, "fr")
    assert "<@1234> — a succombé\n" in (fr[0].description or "") and "traumatisme" in (
        fr[0].description or ""
    )
    assert "Aucun personnage" in (character_list_embeds([], RULES, "fr")[0].description or "")


def test_a_list_of_huge_names_stays_in_limits() -> None:
    characters = [character((1, 0, 0), (0, 0, 1), name=nasty(10_000)) for _ in range(60)]
    for lang in LANGS:
        pages = character_list_embeds(characters, RULES, lang)
        for page in pages:
            assert embed_within_limits(page) == []
            assert not PING.search(embed_text(page).replace("<@1234>", ""))


def test_config_embed() -> None:
    presets = {"humanoid": Preset()} | {f"kind-{i:02}": Preset(physical=(20, 20, 20)) for i in range(24)}
    rules = Ruleset(gm_role_id=99, presets=presets, language="fr", open_rolls=True)
    en, fr = config_embed(rules, "en"), config_embed(rules, "fr")
    text = embed_text(en)
    assert "<@&99>" in text and "humanoid: physical 4/2/1 · mental 4/2/1" in text
    assert "Physical: light −1 · serious −3 · critical −5" in text
    assert "open rolls: on" in text and "French" in text
    assert "Mental\u202f: choc −1 · traumatisme −3 · psychose −5" in embed_text(fr)
    assert embed_within_limits(en) == [] and embed_within_limits(fr) == []
    assert "the server's locale" in embed_text(config_embed(Ruleset(), "en"))


def test_small_embeds() -> None:
    deleted = character_deleted_embed(character(name="@everyone"), "fr")
    assert deleted.title == "Suppression\u202f: @\u200beveryone"
    imported = import_embed({"characters": 3, "wounds": 12, "other": "x"}, "en")
    assert "characters: 3" in (imported.description or "") and "other: x" in (imported.description or "")
    assert "personnages\u202f: 3" in (import_embed({"characters": 3}, "fr").description or "")
    for embed in (deleted, imported):
        assert embed_within_limits(embed) == []


def test_random_sessions_always_fit() -> None:
    source = random.Random(7)
    for _ in range(200):
        counts = (source.randint(0, 4), source.randint(0, 2), source.randint(0, 1))
        if counts == (0, 0, 0):
            continue
        hurt = replace(character(counts, name=nasty(source.randint(1, 64))), rest_days=30)
        result = heal_session(hurt, RULES, DiceFeed(source, True))
        for lang in LANGS:
            embeds = [healing_embed(result, RULES, lang), character_card(result.character, RULES, lang)]
            assert message_within_limits("<@1234>", embeds) == []


@pytest.mark.parametrize("lang", LANGS)
def test_a_full_session_of_twenty_rolls_shows_every_roll(lang: Lang) -> None:
    hurt = replace(character((0, 0, 20), name=nasty(64), physical_max=(20, 20, 20)), rest_days=30)
    dice = Dice((10, 10, 4), (3,), manual=True)
    steps = tuple(HealStep(Severity.HIGH, Roll(dice, 10, -50, -100), Severity.MID) for _ in range(20))
    full = HealingSession(hurt, Track.PHYSICAL, Severity.HIGH, 20, steps)
    embed = healing_embed(full, RULES, lang)
    assert sum(1 for line in (embed.description or "").split("\n") if line.startswith("**")) == 20
    assert message_within_limits("<@1234>", [embed, character_card(hurt, RULES, lang)]) == []


def test_a_fatal_cascade_and_a_worsened_heal_say_which_ranks_were_full() -> None:
    done = inflict(character((4, 2, 1)), Track.PHYSICAL, Severity.LOW)
    en = wound_embed(done, done.character, RULES, "en").description or ""
    assert "light wound → ☠️ **FATAL** (light full 4/4, serious full 2/2, critical full 1/1)" in en
    mad = inflict(character(mental=(4, 0, 0)), Track.MENTAL, Severity.LOW)
    fr = wound_embed(mad, mad.character, RULES, "fr").description or ""
    assert "choc → **traumatisme** (chocs au complet 4/4)" in fr
