"""The character card (commands.md): tracks as glyph boxes, penalty, warnings, rest, notes, colour by
state; what players see of a secret NPC's card or result."""

from __future__ import annotations

from collections import Counter

import discord

from bot.errors import N_
from bot.rules.character import Character
from bot.rules.healing import can_roll_healing, rest_status
from bot.rules.odds import healing_odds
from bot.rules.ruleset import Ruleset
from bot.rules.severity import SEVERITIES, Track
from bot.rules.wounds import total_penalty
from bot.ui.i18n import Lang, t, tn
from bot.ui.results import (
    SECRET_COLOUR,
    odds_line,
    secret_word,
    state_colour,
    state_of,
    warning_lines,
)
from bot.ui.text import (
    FIELD_VALUE,
    TITLE,
    clip,
    days_text,
    escape,
    fit_total,
    join_lines,
    marks,
    mention,
    preset_label,
    severity_label,
    severity_short,
    signed,
    t_name,
    track_label,
)

STATE_WORD = N_("State: **{word}**")  # a secret NPC: the one word players read

# ---- The character card (commands.md): tracks as glyph boxes, penalty, warnings, rest, colour by state.

NOTE_LIMIT = 120
NOTES_FIELD = 400
CARD_BUDGET = 1800
"""A card leaves room for a result embed in the same message (6000 characters across embeds)."""


def track_rows(character: Character, track: Track, lang: Lang) -> str:
    """One row per severity, the counts in text too: ``Light 🟨🟨▫️▫️ 2/4``."""
    counts, maxima = character.counts(track), character.maxima(track)
    rows = []
    for s in SEVERITIES:
        label = severity_short(lang, track, s).capitalize()
        rows.append(f"{label} {marks(track, s, counts[s], maxima[s])} {counts[s]}/{maxima[s]}")
    return "\n".join(rows)


HEAL_NOW = {
    Track.PHYSICAL: N_("/heal roll is available now."),
    Track.MENTAL: N_("/heal roll (mental) is available now."),
}
HEAL_HOPELESS = {
    Track.PHYSICAL: N_("/heal roll cannot succeed now: it can only leave the wound as it is, or worsen it."),
    Track.MENTAL: N_(
        "/heal roll (mental) cannot succeed now: it can only leave the wound as it is, or worsen it."
    ),
}
HEAL_HARDLY = {
    Track.PHYSICAL: N_(
        "/heal roll can hardly succeed now: it would most likely leave the wound as it is, or worsen it."
    ),
    Track.MENTAL: N_(
        "/heal roll (mental) can hardly succeed now: it would most likely leave the wound as it is, or "
        "worsen it."
    ),
}
HEAL_DEADLY = {
    Track.PHYSICAL: N_("/heal roll is possible now, but its first roll can kill."),
    Track.MENTAL: N_("/heal roll (mental) is possible now, but its first roll can lead to incoherence."),
}


def rest_lines(character: Character, ruleset: Ruleset, lang: Lang, can_heal: bool | None = None) -> list[str]:
    """Days rested of the days needed for the least severe wound, and whether /heal roll is available.

    ``can_heal`` overrides the rules' answer for the physical track (``None``: ask the rules)."""
    if character.dead:
        return [t(lang, "Dead: no rest and no healing. (/undo, by a GM, brings them back.)")]
    if character.incoherent:
        return [t(lang, "Incoherent: no rest and no healing. (/undo, by a GM, brings them back.)")]
    if not character.is_wounded():
        return [t(lang, "Unhurt: no rest needed.")]
    lines: list[str] = []
    offered = False
    for track in Track:
        status = rest_status(character, ruleset, track)
        if status.severity is None:
            continue
        if track is Track.MENTAL and not ruleset.mental_healing_rolls:
            lines.append(t(lang, "Mental wounds: healed by a GM (/heal mental)."))
            continue
        lines.append(
            t(
                lang,
                "{track}: rested {days} (least severe: {severity})",
                track=track_label(lang, track),
                days=days_text(lang, status.rested, status.needed),
                severity=severity_label(lang, track, status.severity),
            )
        )
        ready = can_roll_healing(character, ruleset, track)
        if track is Track.PHYSICAL and can_heal is not None:
            ready = can_heal
        odds = healing_odds(character, ruleset, track) if ready else None
        if odds is not None and not odds.worth_offering:  # never offered as good news: why not
            why = HEAL_HOPELESS if odds.success == 0 else HEAL_HARDLY if odds.hopeless else HEAL_DEADLY
            lines.append(t(lang, why[track]))
        elif ready:
            lines.append(t(lang, HEAL_NOW[track]))
        elif status.remaining > 0:
            lines.append(
                tn(
                    lang,
                    "/heal roll after {count} more day of rest.",
                    "/heal roll after {count} more days of rest.",
                    status.remaining,
                )
            )
        else:
            lines.append(t(lang, "/heal roll is not available."))
        if odds is not None:
            lines.append(odds_line(odds, lang))
            offered = True
    if offered:  # the procedure, told here once (not in every result)
        lines.append(
            t(
                lang,
                "A session rolls once per wound of the least severe kind, in order, until the first "
                "failure; a failure by 10 or more worsens the wound. Whatever happens, it uses up "
                "the rest.",
            )
        )
    return lines


def note_lines(character: Character, lang: Lang) -> list[str]:
    """The notes of the wounds held, newest first; the same line for several wounds (a batch of three
    with one note) told once, with how many: ``3 × light wound: axe``."""
    lines: list[str] = []
    for wound in reversed(character.wounds):
        if wound.current is None or not wound.note.strip():
            continue
        params = {
            "severity": severity_label(lang, wound.track, wound.current),
            "note": clip(escape(wound.note), NOTE_LIMIT),
        }
        if wound.inflicted != wound.current:
            inflicted = severity_label(lang, wound.track, wound.inflicted)
            line = t(lang, "{severity} (inflicted as {inflicted}): {note}", inflicted=inflicted, **params)
        else:
            line = t(lang, "{severity}: {note}", **params)
        lines.append(line)
    return [line if n == 1 else f"{n} × {line}" for line, n in Counter(lines).items()]


def card_title(character: Character, lang: Lang) -> str:
    if character.dead:
        return t_name(lang, "† {name} — dead", character.name, TITLE)
    if character.incoherent:
        return t_name(lang, "🌀 {name} — incoherent", character.name, TITLE)
    return clip(escape(character.name), TITLE)


def character_card(
    character: Character, ruleset: Ruleset, lang: Lang, *, can_heal: bool | None = None
) -> discord.Embed:
    """The card of ``character`` (commands.md), always within Discord's limits."""
    owner = (
        t(lang, "NPC, kept by the GMs")
        if character.owner_id is None
        else t(lang, "Played by {player}", player=mention(character.owner_id))
    )
    attributes = t(
        lang,
        "Cp {corps} · Rs {resistance} · It {intuition} · preset {preset}",
        corps=signed(character.corps),
        resistance=signed(character.resistance),
        intuition=signed(character.intuition),
        preset=preset_label(lang, character.preset),
    )
    embed = discord.Embed(
        title=card_title(character, lang),
        description=f"{owner}\n{attributes}",
        colour=state_colour(state_of(character)),
    )
    embed.add_field(name=t(lang, "Physical wounds"), value=track_rows(character, Track.PHYSICAL, lang))
    embed.add_field(name=t(lang, "Mental wounds"), value=track_rows(character, Track.MENTAL, lang))
    if not character.out_of_play:  # the dead and the incoherent show their state, not figures
        penalty = total_penalty(character, ruleset)
        shown = (
            t(lang, "{penalty} on all rolls", penalty=signed(penalty))
            if penalty
            else t(lang, "0 (no penalty)")
        )
        embed.add_field(name=t(lang, "Penalty"), value=shown, inline=False)
    if found := warning_lines(character, lang):
        embed.add_field(name=t(lang, "Warnings"), value=join_lines(lang, found, FIELD_VALUE), inline=False)
    rest = rest_lines(character, ruleset, lang, can_heal)
    embed.add_field(name=t(lang, "Rest and healing"), value=join_lines(lang, rest, FIELD_VALUE), inline=False)
    if notes := note_lines(character, lang):
        embed.add_field(name=t(lang, "Notes"), value=join_lines(lang, notes, NOTES_FIELD), inline=False)
    return fit_total(embed, CARD_BUDGET)


def secret_card(character: Character, lang: Lang) -> discord.Embed:
    """What players see of a secret NPC's card: its name, that it is an NPC, and one word."""
    return discord.Embed(
        title=card_title(character, lang),
        description="\n".join(
            [
                t(lang, "NPC, kept by the GMs"),
                t(lang, STATE_WORD, word=secret_word(character, lang)),
                t(lang, "The GMs keep this character's wounds secret."),
            ]
        ),
        colour=discord.Colour(SECRET_COLOUR),
    )


def secret_result(character: Character, lang: Lang, title_key: str) -> discord.Embed:
    """A public result about a secret NPC: what kind of change, and its state as a word."""
    return discord.Embed(
        title=t_name(lang, title_key, character.name, TITLE),
        description=t(lang, STATE_WORD, word=secret_word(character, lang)),
        colour=discord.Colour(SECRET_COLOUR),
    )
