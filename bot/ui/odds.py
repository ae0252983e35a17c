"""The odds of a healing session's first roll, in words: shown wherever a session is offered."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import discord

from bot.rules.character import Character
from bot.rules.odds import HealingOdds
from bot.rules.severity import Track
from bot.ui import limits
from bot.ui.i18n import Lang, severity_label, t, t_name
from bot.ui.text import clip, escape

NAME_IN_QUESTION = 80
RISK_COLOUR = 0xE67E22
DEATH_COLOUR = 0xE74C3C


@lru_cache(maxsize=1024)  # few distinct chances exist; Fraction arithmetic is slow on every card
def percent(lang: Lang, chance: Fraction) -> str:
    """A chance as a whole percentage that never reads 0 % or 100 % unless it is exactly so."""
    value = round(chance * 100)
    if chance > 0 and value == 0:
        text = "< 1"
    elif chance < 1 and value == 100:
        text = "> 99"
    else:
        text = str(value)
    return f"{text}\u202f%" if lang == "fr" else f"{text}%"


def only_hurts(odds: HealingOdds) -> bool:
    """A session that cannot succeed: it can only leave the wound as it is, or worsen it."""
    return odds.success == 0


def success_text(odds: HealingOdds, lang: Lang) -> str:
    """ "success 36%", or "success impossible"."""
    if only_hurts(odds):
        return t(lang, "odds_success_none")
    return t(lang, "odds_success", success=percent(lang, odds.success))


def danger_text(odds: HealingOdds, lang: Lang) -> str:
    """ "☠️ 64%" (or "🌀 64%" on the mental track) when the first roll can kill; else "worsening 3%",
    or "" when it cannot worsen anything."""
    if odds.death > 0:
        mark = "☠️" if odds.track is Track.PHYSICAL else "🌀"
        return f"{mark} {percent(lang, odds.death)}"
    if odds.worsening > 0:
        return t(lang, "odds_worsening", worsening=percent(lang, odds.worsening))
    return ""


def stakes(odds: HealingOdds, lang: Lang) -> str:
    """What is at stake, in a few words: "success impossible · ☠️ 64%", "success 90% · worsening 3%"."""
    return " · ".join(part for part in (success_text(odds, lang), danger_text(odds, lang)) if part)


def odds_line(odds: HealingOdds, lang: Lang) -> str:
    """ "First roll (light wound): **success impossible** · worsening 64% · ☠️ **death 64%**"."""
    line = t(
        lang,
        "odds_line",
        severity=severity_label(lang, odds.track, odds.severity),
        success=f"**{success_text(odds, lang)}**" if only_hurts(odds) else success_text(odds, lang),
        worsening=percent(lang, odds.worsening),
    )
    if odds.death > 0:
        key = "odds_death" if odds.track is Track.PHYSICAL else "odds_incoherent"
        line += t(lang, key, death=percent(lang, odds.death))
    return line


def odds_question(character: Character, odds: HealingOdds, lang: Lang) -> str:
    """The private question before a session the bot rolls: what is at stake first, then why."""
    at_stake = stakes(odds, lang)
    if not odds.beyond:
        return t(lang, "confirm_heal", stakes=at_stake)
    key = "confirm_heal_fatal" if odds.track is Track.PHYSICAL else "confirm_heal_incoherent"
    return t(lang, key, stakes=at_stake, name=clip(escape(character.name), NAME_IN_QUESTION))


def odds_embed(character: Character, odds: HealingOdds, lang: Lang) -> discord.Embed:
    """The character's name and the odds of the first roll, for the question."""
    key = "odds_title" if odds.track is Track.PHYSICAL else "odds_title_mental"
    return discord.Embed(
        title=t_name(lang, key, character.name, limits.TITLE),
        description=odds_line(odds, lang),
        colour=discord.Colour(DEATH_COLOUR if odds.beyond else RISK_COLOUR),
    )
