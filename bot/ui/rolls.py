"""How dice and chances read: a roll written out in full, why a wound went past full ranks (the cascade),
the damage table in words, and the odds of a healing session's first roll."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import discord

from bot.errors import N_
from bot.rules.character import Character
from bot.rules.dice import Dice, Roll
from bot.rules.odds import HealingOdds
from bot.rules.ruleset import DamageTable, Maxima
from bot.rules.severity import SEVERITIES, Severity, Track, severity_name
from bot.ui.i18n import Lang, severity_label, t, t_name
from bot.ui.text import MINUS, TITLE, clip, escape, signed

# ---- A roll written out in full: ``luck 7 − unluck 3 = +4, Cp+Rs +2, … → margin +2``

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
        f"{t(lang, 'luck')} {throws(dice.luck)} {MINUS} {t(lang, 'unluck')} {throws(dice.unluck)}"
        f" = {signed(dice.value)}"
    )
    return text + " (" + t(lang, "player's dice") + ")" if dice.manual else text


def roll_terms(roll: Roll, lang: Lang, label: str, *, difficulty: bool = True) -> str:
    """Every term of ``roll``; ``label`` names the attributes term (``Cp+Rs``, ``modifier``…);
    ``difficulty=False`` for a damage roll, which has none."""
    terms = [dice_text(roll.dice, lang), f"{label} {signed(roll.attributes)}"]
    if difficulty:
        terms.append(f"{t(lang, 'difficulty')} {signed(roll.difficulty)}")
    terms.append(f"{t(lang, 'penalty')} {signed(roll.penalty)}")
    return ", ".join(terms) + f" → {t(lang, 'margin')} {signed(roll.margin)}"


# ---- Why a wound became worse than asked: the full ranks it went through ("light full 4/4").


def skipped(start: Severity | None, became: Severity | None) -> list[Severity]:
    """The ranks from ``start`` up to (not including) ``became`` (``None``: beyond the track): each
    was full when the wound arrived, which is why it went on up."""
    if start is None:
        return []
    return [s for s in SEVERITIES if s >= start and (became is None or s < became)]


FULL = {  # a severity by its English choice value: "full" as the reason of an escalation
    "light": N_("light full {max}/{max}"),
    "serious": N_("serious full {max}/{max}"),
    "critical": N_("critical full {max}/{max}"),
    "shock": N_("shock full {max}/{max}"),
    "trauma": N_("trauma full {max}/{max}"),
    "psychosis": N_("psychosis full {max}/{max}"),
}


def cascade_reason(
    lang: Lang, track: Track, start: Severity | None, became: Severity | None, maxima: Maxima
) -> str:
    """`` (light full 4/4, serious full 2/2)``, or nothing when the wound stayed at ``start``."""
    full = [t(lang, FULL[severity_name(track, s)], max=maxima[s]) for s in skipped(start, became)]
    return f" ({', '.join(full)})" if full else ""


# ---- The damage table of rules.md §8 in words, for /config show and the damage results.


def _band(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}–{high}"


def damage_table_text(table: DamageTable, lang: Lang, track: Track = Track.PHYSICAL) -> str:
    """``none ≤ 10 · light 11–20 · serious 21–30 · critical 31–40 · fatal ≥ 41``, in the words of
    ``track`` (mental: shock, trauma, psychosis, incoherent)."""
    light, serious, critical, fatal = table.thresholds
    key = (
        N_("none ≤ {none} · light {light} · serious {serious} · critical {critical} · fatal ≥ {fatal}")
        if track is Track.PHYSICAL
        else N_(
            "none ≤ {none} · shock {light} · trauma {serious} · psychosis {critical} · incoherent ≥ {fatal}"
        )
    )
    return t(
        lang,
        key,
        none=light - 1,
        light=_band(light, serious - 1),
        serious=_band(serious, critical - 1),
        critical=_band(critical, fatal - 1),
        fatal=fatal,
    )


# ---- The odds of a healing session's first roll, in words: shown wherever a session is offered.

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


def success_text(odds: HealingOdds, lang: Lang) -> str:
    """ "success 36%", or "success impossible"."""
    if odds.success == 0:
        return t(lang, "success impossible")
    return t(lang, "success {success}", success=percent(lang, odds.success))


def offer_sign(odds: HealingOdds) -> str:
    """The mark before a session, wherever it is offered: 🩹 for one worth offering; ☠️ (🌀 on the
    mental track) when its first roll can kill (make incoherent); ⛔ when it cannot reasonably
    succeed."""
    if odds.deadly:
        return "☠️" if odds.track is Track.PHYSICAL else "🌀"
    return "⛔" if odds.hopeless else "🩹"


def danger_text(odds: HealingOdds, lang: Lang) -> str:
    """ "☠️ 64%" (or "🌀 64%" on the mental track) when the first roll can kill; else "worsening 3%",
    or "" when it cannot worsen anything."""
    if odds.deadly:
        return f"{offer_sign(odds)} {percent(lang, odds.death)}"
    if odds.worsening > 0:
        return t(lang, "worsening {worsening}", worsening=percent(lang, odds.worsening))
    return ""


def stakes(odds: HealingOdds, lang: Lang) -> str:
    """What is at stake, in a few words: "success impossible · ☠️ 64%", "success 90% · worsening 3%"."""
    return " · ".join(part for part in (success_text(odds, lang), danger_text(odds, lang)) if part)


def odds_line(odds: HealingOdds, lang: Lang) -> str:
    """ "First roll (light wound): **success impossible** · worsening 64% · ☠️ **death 64%**"."""
    line = t(
        lang,
        "First roll ({severity}): {success} · worsening {worsening}",
        severity=severity_label(lang, odds.track, odds.severity),
        success=f"**{success_text(odds, lang)}**" if odds.hopeless else success_text(odds, lang),
        worsening=percent(lang, odds.worsening),
    )
    if odds.death > 0:
        key = (
            N_(" · ☠️ **death {death}**")
            if odds.track is Track.PHYSICAL
            else N_(" · 🌀 **incoherence {death}**")
        )
        line += t(lang, key, death=percent(lang, odds.death))
    return line


def odds_question(character: Character, odds: HealingOdds, lang: Lang) -> str:
    """The private question before a session the bot rolls: what is at stake first, then why."""
    at_stake = stakes(odds, lang)
    if not odds.beyond and odds.hopeless:
        return t(
            lang,
            "**{stakes}**\nThis healing session can hardly succeed: it will most likely leave the "
            "wound as it is and use up the rest, and a first roll failed by 10 or more worsens "
            "the wound. Roll anyway? (Cancel changes nothing.)",
            stakes=at_stake,
        )
    if not odds.beyond:
        return t(
            lang,
            "**{stakes}**\nThis healing session may make things worse: a first roll "
            "failed by 10 or more worsens the wound. Roll anyway? (Cancel changes "
            "nothing.)",
            stakes=at_stake,
        )
    key = (
        N_(
            "⚠️ **{stakes}**\nThis healing session may **kill** {name}: a first roll "
            "failed by 10 or more worsens the wound, and that would be fatal. Roll "
            "anyway? (Cancel changes nothing.)"
        )
        if odds.track is Track.PHYSICAL
        else N_(
            "⚠️ **{stakes}**\nThis healing session may make {name} **incoherent**: a "
            "first roll failed by 10 or more worsens the wound beyond the last "
            "psychosis. Roll anyway? (Cancel changes nothing.)"
        )
    )
    return t(lang, key, stakes=at_stake, name=clip(escape(character.name), NAME_IN_QUESTION))


def odds_embed(character: Character, odds: HealingOdds, lang: Lang) -> discord.Embed:
    """The character's name and the odds of the first roll, for the question."""
    key = (
        N_("Healing session — {name}")
        if odds.track is Track.PHYSICAL
        else N_("Mental healing session — {name}")
    )
    return discord.Embed(
        title=t_name(lang, key, character.name, TITLE),
        description=odds_line(odds, lang),
        colour=discord.Colour(DEATH_COLOUR if odds.beyond else RISK_COLOUR),
    )
