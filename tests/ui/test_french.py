"""French as a French GM writes it: no English word left in any French message of the catalogue."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

PO = Path(__file__).resolve().parents[2] / "bot" / "locale" / "fr" / "LC_MESSAGES" / "harmonies.po"


def french(*, commands: bool) -> dict[str, str]:
    """The French of the catalogue by its English (with its context, and each plural form): of the
    messages the code renders, or (``commands``) of the slash commands' texts."""
    with PO.open("rb") as file:
        po = read_po(file)
    texts = {}
    for m in po:
        of_commands = any(comment.startswith("/") for comment in m.auto_comments)  # scripts/messages.py
        if not m.id or not (of_commands if commands else m.locations):
            continue
        strings = m.string if isinstance(m.string, tuple | list) else (m.string,)
        for form, text in enumerate(strings):
            texts[f"{m.context or ''}|{m.id}|{form}"] = str(text)
    assert len(texts) > (150 if commands else 400)
    return texts


ENGLISH_ONLY = frozenset(
    (
        "the",
        "and",
        "with",
        "without",
        "wound",
        "wounds",
        "healing",
        "heal",
        "healed",
        "days",
        "day",
        "light",
        "serious",
        "critical",
        "dead",
        "death",
        "incoherent",
        "roll",
        "rolls",
        "rest",
        "rested",
        "player",
        "players",
        "character",
        "characters",
        "settings",
        "setting",
        "server",
        "undo",
        "cancel",
        "cancelled",
        "confirm",
        "success",
        "failure",
        "failed",
        "worsening",
        "worsened",
        "first",
        "next",
        "full",
        "now",
        "can",
        "will",
        "you",
        "your",
        "this",
        "that",
        "is",
        "are",
        "of",
        "to",
        "for",
        "by",
        "off",
        "yes",
        "no",
        "only",
        "from",
        "has",
        "have",
        "was",
        "were",
        "been",
        "none",
        "which",
        "who",
        "what",
        "when",
        "where",
        "why",
        "how",
        "again",
        "more",
        "less",
        "any",
        "each",
        "every",
        "some",
        "there",
        "their",
        "them",
        "they",
        "escalated",
        "escalade",
        "preset",
        "shock",
        "trauma",
        "psychosis",
        "penalty",
        "penalties",
        "luck",
        "unluck",
        "margin",
    )
)
"""Words that are English and not French ("on", "page", "note", "type" are French too)."""

IGNORED = re.compile(r"\{[^}]*\}|/[\w-]+(?: [\w-]+)?(?: [\w-]+:[\w-]+)*|`[^`]*`|<[^>]*>|https?://\S+")


def english_words(text: str) -> set[str]:
    """The English-only words of ``text``, leaving out placeholders, commands and their options."""
    words = re.findall(r"[A-Za-zÀ-ÿ']+", IGNORED.sub(" ", text))
    return {w for w in words if w.lower().strip("'") in ENGLISH_ONLY}


def test_no_english_word_in_any_french_message() -> None:
    found = {key: words for key, text in french(commands=False).items() if (words := english_words(text))}
    assert found == {}


def test_the_check_finds_english_words() -> None:
    assert english_words("Repos : 3 days") == {"days"}
    assert english_words("Relancez /soin jet piste:mentale {name}") == set()


def test_no_english_word_in_the_french_command_names_and_descriptions() -> None:
    texts = list(french(commands=True).values())
    assert {text: words for text in texts if (words := english_words(text.replace("-", " ")))} == {}


def test_french_plurals_and_the_built_in_preset() -> None:
    from bot.rules import Ruleset
    from bot.ui.card import character_card
    from bot.ui.text import days_text
    from tests.ui.builders import character, embed_text

    assert [days_text("fr", r, n) for r, n in ((0, 1), (1, 7), (3, 7))] == [
        "0 jour sur 1",
        "1 jour sur 7",
        "3 jours sur 7",
    ]
    card = embed_text(character_card(character((1, 0, 0)), Ruleset(), "fr"))
    assert "gabarit humanoïde" in card and "0 jour sur 1 de repos" in card
    assert "preset humanoid" in embed_text(character_card(character(), Ruleset(), "en"))


GENDERED = re.compile(
    r"(?i)\b(blessée?s?|mourante?s?|vivante?s?|lui-même|elle-même|retirée?|vous seule?|"
    r"(?:le|du|ce|un) joueur|joueur ciblé|est joué|est jouée)\b"
)
"""Words that would give a character, or the person who plays it, a grammatical gender."""
ABOUT_THE_CHARACTER = re.compile(r"(?i)\ble personnage\b[^.:;]*\b(mort|incohérent|devenu)\b")
"""Agreeing with "le personnage" (the noun), not with the character: allowed."""


def test_no_french_message_gives_a_character_or_a_person_a_gender() -> None:
    texts = french(commands=False)
    texts |= {f"command: {key}": text for key, text in french(commands=True).items()}
    found = {key: GENDERED.findall(text) for key, text in texts.items() if GENDERED.search(text)}
    assert found == {}
    # "mort", "incohérent" only where they agree with "le personnage", never with a name.
    for key, text in texts.items():
        for word in re.findall(r"(?i)\b(?:est|ni) (mort|incohérent|devenu incohérent)\b", text):
            assert ABOUT_THE_CHARACTER.search(text) or "Aucun personnage" in text, (key, word)


@pytest.mark.parametrize(
    ("physical", "mental", "en", "fr"),
    [
        ((0, 0, 0), (0, 0, 0), "unhurt", "indemne"),
        ((1, 0, 0), (0, 0, 0), "wounded", "quelques blessures"),
        ((0, 1, 0), (1, 0, 0), "badly wounded", "mal en point"),
        ((0, 0, 1), (0, 0, 1), "at death's door", "aux portes de la mort"),
        ((0, 0, 0), (1, 0, 0), "shaken", "sous le choc"),
        ((1, 0, 0), (0, 1, 0), "shaken", "sous le choc"),
        ((0, 1, 0), (0, 0, 1), "on the edge of madness", "au bord de la folie"),
    ],
)
def test_state_words_follow_the_track_and_carry_no_gender(
    physical: tuple[int, int, int], mental: tuple[int, int, int], en: str, fr: str
) -> None:
    from bot.ui.results import secret_word
    from tests.ui.builders import character

    someone = character(physical, mental)
    assert (secret_word(someone, "en"), secret_word(someone, "fr")) == (en, fr)
    assert not GENDERED.search(fr)


def test_the_state_words_of_the_dead_and_the_incoherent_are_verbs() -> None:
    from bot.ui.results import secret_word
    from tests.ui.builders import character

    assert secret_word(character(dead=True), "fr") == "a succombé"
    assert secret_word(character(incoherent=True), "fr") == "a sombré dans l'incohérence"


NNBSP = "\u202f"
"""The one no-break space of French typography here (narrow, as Discord and browsers draw it)."""
_PUNCTUATION = re.compile(r"(.?)([:;!?])(?=$|[\s*_`)»\"'…,.])")
"""A : ; ! ? used as punctuation (at the end, or before a blank or a closing mark), with what is before
it; a colon inside a word (``personnage:Aria``, ``https://``) is not punctuation."""


def typography_faults(text: str) -> list[str]:
    """Where ``text`` breaks French typography: each fault, with the character before it."""
    faults = [m.group(0) for m in _PUNCTUATION.finditer(text) if m.start(2) > 0 and m.group(1) != NNBSP]
    for fault in (r"«(?!\u202f)", r"(?<!\u202f)»", r".%", "\u00a0"):
        faults += [m.group(0) for m in re.finditer(fault, text) if m.group(0) != NNBSP + "%"]
    return faults


def test_french_typography_in_every_message_and_command_text() -> None:
    texts = french(commands=False) | {f"command: {k}": v for k, v in french(commands=True).items()}
    found = {key: faults for key, text in texts.items() if (faults := typography_faults(text))}
    assert found == {}
    assert sum(NNBSP in text for text in texts.values()) > 150  # the check reads the real catalogue


def test_the_typography_check_finds_what_it_should() -> None:
    faults = typography_faults("Repos : 3 jours ; puis ? et ! « mot » 45 %, 5%, a\u00a0: b")
    assert faults == [" :", " ;", " ?", " !", "\u00a0:", "«", "»", " %", "5%", "\u00a0"]
    right = "État\u202f: /annuler personnage:Aria https://x ?tv=1 «\u202fmot\u202f» 5\u202f%\u202f!"
    assert typography_faults(right) == []
    assert typography_faults("fin?") == ["n?"]


def test_one_word_for_death_in_french() -> None:
    """Results say "a succombé" (and "a sombré dans l'incohérence"): so do refusals, never "est mort"."""
    texts = french(commands=False) | {f"command: {k}": v for k, v in french(commands=True).items()}
    state = re.compile(
        r"(?i)\b(?:est|ni|pas|rendre|devenu)\s+(?:mort|morte|incohérente?)\b|^(?:mort|incohérent),"
    )
    assert {key: text for key, text in texts.items() if state.search(text)} == {}
    # Nor beside a name or of NPCs ("Goblin : MORT", "les PNJ morts"), nor "gardé secret" of a character.
    beside = re.compile(r"(?i)\{name\}\W*(?:mort|incohérent|gardée? secrète?)\b|PNJ morts\b")
    assert {key: text for key, text in texts.items() if beside.search(text)} == {}
    assert sum("a succombé" in text for text in texts.values()) >= 3
