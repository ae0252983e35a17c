"""Autocomplete choices that inform: "Aélis (Léa) — −3", "Goblin (NPC) — badly wounded"."""

from __future__ import annotations

from bot.rules.character import Character
from bot.rules.ruleset import Ruleset
from bot.rules.wounds import total_penalty
from bot.ui import limits
from bot.ui.i18n import Lang, t
from bot.ui.status import secret_word
from bot.ui.text import clip, signed

OWNER_IN_CHOICE = 24


def choice_state(character: Character, ruleset: Ruleset, lang: Lang, *, reveal: bool) -> str:
    """The penalty (``−3``), or a word: unhurt, dead, incoherent; a secret NPC's word unless ``reveal``."""
    if ruleset.is_secret(character.owner_id, character.id) and not reveal:
        return secret_word(character, lang)
    if character.dead:
        return t(lang, "state_dead")
    if character.incoherent:
        return t(lang, "state_incoherent")
    penalty = total_penalty(character, ruleset)
    return signed(penalty) if penalty else t(lang, "state_unhurt")


def choice_label(
    character: Character, ruleset: Ruleset, lang: Lang, *, owner: str | None, reveal: bool
) -> str:
    """``Aélis (Léa) — −3`` within Discord's 100 characters (the name is cut first). Choice names are
    plain text: nothing to escape."""
    if character.owner_id is None:
        who = t(lang, "npc")
    else:
        who = clip(" ".join((owner or t(lang, "choice_player")).split()), OWNER_IN_CHOICE)
    tail = f" ({who}) — {choice_state(character, ruleset, lang, reveal=reveal)}"
    return clip(character.name, limits.CHOICE_NAME - len(tail)) + tail
