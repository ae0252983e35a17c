"""French as a French GM writes it: no English word left in any French message of the catalogue."""

from __future__ import annotations

import re

from bot.ui.i18n import CATALOGUE

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
    found = {key: words for key, entry in CATALOGUE.items() if (words := english_words(entry["fr"]))}
    assert found == {}


def test_the_check_finds_english_words() -> None:
    assert english_words("Repos : 3 days") == {"days"}
    assert english_words("Relancez /soin jet piste:mentale {name}") == set()


def test_no_english_word_in_the_french_command_names_and_descriptions() -> None:
    from bot.ui import translator

    texts = [
        *translator.COMMAND_NAMES.values(),
        *translator.PARAMETER_NAMES.values(),
        *translator.CHOICE_NAMES.values(),
        *translator.DESCRIPTIONS.values(),
    ]
    assert {text: words for text in texts if (words := english_words(text.replace("-", " ")))} == {}


def test_french_plurals_and_the_built_in_preset() -> None:
    from bot.rules import Ruleset
    from bot.ui.card import character_card
    from bot.ui.i18n import days_text
    from tests.ui.builders import character, embed_text

    assert [days_text("fr", r, n) for r, n in ((0, 1), (1, 7), (3, 7))] == [
        "0 jour sur 1",
        "1 jour sur 7",
        "3 jours sur 7",
    ]
    card = embed_text(character_card(character((1, 0, 0)), Ruleset(), "fr"))
    assert "gabarit humanoïde" in card and "0 jour sur 1 de repos" in card
    assert "preset humanoid" in embed_text(character_card(character(), Ruleset(), "en"))
