"""Damage rolls (rules.md §8) in words: each blow's roll in full, the effective damage and what it
became; the GM's private preview of the odds; the damage table."""

from __future__ import annotations

from fractions import Fraction

import discord

from bot.errors import N_
from bot.rules.character import Character
from bot.rules.damage import Blow, DamageInfliction, Harm, HarmOdds, resistance
from bot.rules.dice import Dice
from bot.rules.ruleset import Ruleset
from bot.rules.severity import Severity, Track
from bot.rules.wounds import total_penalty
from bot.ui.i18n import Lang, t
from bot.ui.results import (
    NOTICE_COLOUR,
    RESULT_BUDGET,
    attributes_label,
    damage_table_text,
    dice_text,
    roll_terms,
    wound_result,
)
from bot.ui.text import TITLE, fit_total, join_lines, number, severity_label, signed, t_name


def outcome_text(track: Track, harm: Harm, became: Severity | None, lang: Lang) -> str:
    """What a blow gives by the table (``harm``) and what it became through escalation."""
    beyond = N_("☠️ **FATAL**") if track is Track.PHYSICAL else N_("🌀 **INCOHERENT**")
    severity = harm.severity
    if harm is Harm.NONE:
        return t(lang, "no wound")
    if severity is None:  # the table's last band
        return t(lang, beyond)
    inflicted = severity_label(lang, track, severity)
    if became is None:
        return t(
            lang,
            N_("{inflicted} → ☠️ **FATAL**")
            if track is Track.PHYSICAL
            else N_("{inflicted} → 🌀 **INCOHERENT**"),
            inflicted=inflicted,
        )
    if became != severity:
        return t(
            lang,
            "{inflicted} → **{became}** (escalated)",
            inflicted=inflicted,
            became=severity_label(lang, track, became),
        )
    return t(lang, "**{severity}**", severity=inflicted)


def blow_line(index: int, blow: Blow, track: Track, lang: Lang) -> str:
    if blow.roll.success:
        effective = t(
            lang,
            "success: effective damage {damage} − {margin} = **{effective}**",
            damage=blow.damage,
            margin=blow.roll.margin,
            effective=number(blow.effective),
        )
    else:
        effective = t(lang, "failure: effective damage **{damage}**", damage=blow.damage)
    became = blow.result.became if blow.result is not None else None
    outcome = outcome_text(track, blow.harm, became, lang)
    terms = roll_terms(blow.roll, lang, attributes_label(track), difficulty=False)
    return t(
        lang,
        "**Roll {index}**: {terms}; {effective} ⇒ {outcome}",
        index=index,
        terms=terms,
        effective=effective,
        outcome=outcome,
    )


def damage_embed(
    infliction: DamageInfliction,
    ruleset: Ruleset,
    lang: Lang,
    *,
    note: str = "",
) -> discord.Embed:
    """What ``/wound damage:`` or ``/mental damage:`` did: every roll in full, the effective damage and
    what each blow became, death or incoherence called out, the blows not rolled after a fatal one."""
    track, character = infliction.track, infliction.character
    lines = [
        t(
            lang,
            "Damage **{damage}**; resistance roll with {label} and the penalty:",
            damage=infliction.damage,
            label=attributes_label(track),
        )
    ]
    blows = [blow_line(index, blow, track, lang) for index, blow in enumerate(infliction.blows, 1)]
    lines.append(join_lines(lang, blows, 3000))
    if not infliction.results:
        lines.append(
            t(
                lang,
                "No wound: the effective damage stayed under {light}.",
                light=ruleset.damage.thresholds[0],
            )
        )
    return fit_total(wound_result(character, lines, infliction, lang, note=note), RESULT_BUDGET)


def percent(chance: Fraction, lang: Lang) -> str:
    """``23.5%`` (``23,5 %`` in French); never a misleading ``0.0 %`` or ``100.0 %``."""
    if 0 < chance < Fraction(1, 1000):
        key, value = N_("< {value}%"), "0.1"
    elif Fraction(999, 1000) < chance < 1:
        key, value = N_("> {value}%"), "99.9"
    else:
        key, value = N_("{value}%"), f"{float(chance * 100):.1f}".removesuffix(".0")
    return t(lang, key, value=value.replace(".", ",") if lang == "fr" else value)


def preview_embed(
    character: Character,
    ruleset: Ruleset,
    track: Track,
    damage: int,
    odds: list[HarmOdds],
    lang: Lang,
    *,
    count: int = 1,
    dice: Dice | None = None,
    confirmed: bool = False,
) -> discord.Embed:
    """The odds of each outcome of the next blow, for the GM alone, before they confirm; once they
    did (``confirmed``), it says so instead of waiting for them."""
    attributes, penalty = resistance(character, track), total_penalty(character, ruleset)
    lines = [
        t(
            lang,
            "The roll: ±d10, {label} {attributes}, penalty {penalty}.",
            label=attributes_label(track),
            attributes=signed(attributes),
            penalty=signed(penalty),
        )
    ]
    if dice is not None:
        lines.append(t(lang, "The dice given decide the first roll: {dice}.", dice=dice_text(dice, lang)))
    lines += [
        t(
            lang,
            "• {outcome}: **{chance}**",
            outcome=outcome_text(track, o.harm, o.becomes, lang),
            chance=percent(o.chance, lang),
        )
        for o in odds
    ]
    if count > 1:
        lines.append(
            t(
                lang,
                "These are the odds of the first of {count} blows; each next one rolls "
                "with the penalty of the wounds held then.",
                count=count,
            )
        )
    if confirmed:
        lines.append(t(lang, "Confirmed: rolled, the result is in the channel. Only you can see this."))
    else:
        lines.append(t(lang, "Nothing is rolled until you confirm. Only you can see this."))
    embed = discord.Embed(
        title=t_name(lang, "Damage {damage} on {name}: the odds", character.name, TITLE, damage=damage),
        description="\n".join(lines),
        colour=discord.Colour(NOTICE_COLOUR),
    )
    table = damage_table_text(ruleset.damage, lang, track)
    embed.set_footer(text=t(lang, "Damage table: {table}", table=table))
    return fit_total(embed)
