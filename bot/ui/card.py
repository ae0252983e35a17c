"""The character card (commands.md) and a character's state in a few lines: tracks as glyph boxes,
penalty, warnings, rest, colour by state; the one word players see of a secret NPC."""

from __future__ import annotations

from enum import IntEnum

import discord

from bot.errors import N_
from bot.rules.character import Character
from bot.rules.healing import can_roll_healing, rest_status
from bot.rules.odds import HealingOdds, healing_odds
from bot.rules.ruleset import Ruleset
from bot.rules.severity import SEVERITIES, Severity, Track
from bot.rules.wounds import EscalationWarning, total_penalty, warnings
from bot.ui.i18n import (
    Lang,
    days_text,
    join_lines,
    preset_label,
    severity_label,
    severity_next,
    severity_short,
    t,
    t_name,
    tn,
    track_label,
)
from bot.ui.rolls import odds_line, offer_sign
from bot.ui.text import FIELD_VALUE, TITLE, clip, escape, fit_total, held_marks, marks, mention, signed

# ---- The character card (commands.md): tracks as glyph boxes, penalty, warnings, rest, colour by state.

NOTE_LIMIT = 120
NOTES_FIELD = 400
CARD_BUDGET = 1800
"""A card leaves room for a result embed in the same message (6000 characters across embeds)."""


class State(IntEnum):
    """The worst state of a character across both tracks, for colours and lists."""

    UNHURT = 0
    LIGHT = 1
    SERIOUS = 2
    CRITICAL = 3
    OUT = 4
    """Dead or incoherent."""


COLOURS: dict[State, int] = {
    State.UNHURT: 0x2ECC71,
    State.LIGHT: 0xF1C40F,
    State.SERIOUS: 0xE67E22,
    State.CRITICAL: 0xE74C3C,
    State.OUT: 0x4F545C,
}
NOTICE_COLOUR = 0x5865F2
"""Discord's blurple, for what shows no character's state: settings, lists, history, notices, previews."""


def state_of(character: Character) -> State:
    if character.out_of_play:
        return State.OUT
    worst = [s for track in Track if (s := character.worst(track)) is not None]
    return State.UNHURT if not worst else State(max(worst) + 1)


def state_colour(state: State) -> discord.Colour:
    return discord.Colour(COLOURS[state])


def state_text(character: Character, lang: Lang) -> str:
    """ "dead", "incoherent", "unhurt", or the worst wound of each track ("serious wound · trauma")."""
    if character.dead:
        return t(lang, "dead")
    if character.incoherent:
        return t(lang, "incoherent")
    worst = [severity_label(lang, track, s) for track in Track if (s := character.worst(track)) is not None]
    return " · ".join(worst) if worst else t(lang, "unhurt")


def track_rows(character: Character, track: Track, lang: Lang) -> str:
    """One row per severity, the counts in text too: ``Light 🟨🟨▫️▫️ 2/4``."""
    counts, maxima = character.counts(track), character.maxima(track)
    rows = []
    for s in SEVERITIES:
        label = severity_short(lang, track, s).capitalize()
        rows.append(f"{label} {marks(track, s, counts[s], maxima[s])} {counts[s]}/{maxima[s]}")
    return "\n".join(rows)


def _warning_line(warning: EscalationWarning, lang: Lang) -> str:
    track, next_ = warning.track, severity_next(lang, warning.track, warning.severity)
    if warning.becomes is None:
        return t(
            lang,
            N_("**{next} → FATAL**") if track is Track.PHYSICAL else N_("**{next} → INCOHERENT**"),
            next=next_,
        )
    return t(lang, "{next} → {becomes}", next=next_, becomes=severity_short(lang, track, warning.becomes))


def warning_lines(character: Character, lang: Lang) -> list[str]:
    """Rules §3 for both tracks, most severe first. When even the lightest wound of a track would be
    beyond it, one loud line says so first, instead of one line per severity."""
    loud: list[str] = []
    found: list[EscalationWarning] = []
    for track in Track:
        track_warnings = warnings(character, track)
        if any(w.beyond and w.severity is Severity.LOW for w in track_warnings):
            loud.append(
                t(
                    lang,
                    N_("⚠️ **Any new wound is FATAL, even a light one**")
                    if track is Track.PHYSICAL
                    else N_("⚠️ **Any new mental wound makes them INCOHERENT, even a shock**"),
                )
            )
            track_warnings = [w for w in track_warnings if not w.beyond]
        found.extend(track_warnings)
    order = list(Track)
    found.sort(key=lambda w: (w.becomes is not None, -(w.becomes or 0), w.severity, order.index(w.track)))
    return loud + [_warning_line(w, lang) for w in found]


def _heal_line(ready: bool, remaining: int, lang: Lang, track: Track) -> str:
    if ready:
        return t(
            lang,
            N_("/heal roll is available now.")
            if track is Track.PHYSICAL
            else N_("/heal roll (mental) is available now."),
        )
    if remaining > 0:
        return tn(
            lang,
            "/heal roll after {count} more day of rest.",
            "/heal roll after {count} more days of rest.",
            remaining,
        )
    return t(lang, "/heal roll is not available.")


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
        if odds is not None and not odds.worth_offering:  # never offered as good news
            lines.append(t(lang, _unwelcome_line(odds)))
        else:
            lines.append(_heal_line(ready, status.remaining, lang, track))
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


def _unwelcome_line(odds: HealingOdds) -> str:
    """Why a session the rules allow is not offered (:attr:`HealingOdds.worth_offering`)."""
    physical = odds.track is Track.PHYSICAL
    if odds.success == 0:
        return (
            N_("/heal roll cannot succeed now: it can only leave the wound as it is, or worsen it.")
            if physical
            else N_(
                "/heal roll (mental) cannot succeed now: it can only leave the wound as it is, or worsen it."
            )
        )
    if odds.hopeless:
        return (
            N_(
                "/heal roll can hardly succeed now: it would most likely leave the wound as it is, or "
                "worsen it."
            )
            if physical
            else N_(
                "/heal roll (mental) can hardly succeed now: it would most likely leave the wound "
                "as it is, or worsen it."
            )
        )
    return (
        N_("/heal roll is possible now, but its first roll can kill.")
        if physical
        else N_("/heal roll (mental) is possible now, but its first roll can lead to incoherence.")
    )


def note_lines(character: Character, lang: Lang) -> list[str]:
    """The notes of the wounds held, newest first; the same line for several wounds (a batch of three
    with one note) told once, with how many: ``3 × light wound: axe``."""
    lines: list[str] = []
    counts: dict[str, int] = {}
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
        if line not in counts:
            lines.append(line)
        counts[line] = counts.get(line, 0) + 1
    return [line if counts[line] == 1 else f"{counts[line]} × {line}" for line in lines]


def card_title(character: Character, lang: Lang) -> str:
    if character.dead:
        return t_name(lang, "† {name} — dead", character.name, TITLE)
    if character.incoherent:
        return t_name(lang, "🌀 {name} — incoherent", character.name, TITLE)
    return clip(escape(character.name), TITLE)


def card_description(character: Character, lang: Lang) -> str:
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
    return f"{owner}\n{attributes}"


def penalty_text(character: Character, ruleset: Ruleset, lang: Lang) -> str:
    penalty = total_penalty(character, ruleset)
    if penalty == 0:
        return t(lang, "0 (no penalty)")
    return t(lang, "{penalty} on all rolls", penalty=signed(penalty))


def character_card(
    character: Character, ruleset: Ruleset, lang: Lang, *, can_heal: bool | None = None
) -> discord.Embed:
    """The card of ``character`` (commands.md), always within Discord's limits."""
    embed = discord.Embed(
        title=card_title(character, lang),
        description=card_description(character, lang),
        colour=state_colour(state_of(character)),
    )
    embed.add_field(name=t(lang, "Physical wounds"), value=track_rows(character, Track.PHYSICAL, lang))
    embed.add_field(name=t(lang, "Mental wounds"), value=track_rows(character, Track.MENTAL, lang))
    if not character.out_of_play:  # the dead and the incoherent show their state, not figures
        embed.add_field(name=t(lang, "Penalty"), value=penalty_text(character, ruleset, lang), inline=False)
    if found := warning_lines(character, lang):
        embed.add_field(name=t(lang, "Warnings"), value=join_lines(lang, found, FIELD_VALUE), inline=False)
    rest = rest_lines(character, ruleset, lang, can_heal)
    embed.add_field(name=t(lang, "Rest and healing"), value=join_lines(lang, rest, FIELD_VALUE), inline=False)
    if notes := note_lines(character, lang):
        embed.add_field(name=t(lang, "Notes"), value=join_lines(lang, notes, NOTES_FIELD), inline=False)
    return fit_total(embed, CARD_BUDGET)


# ---- A character's state in a few lines; the one word players see of a secret NPC

SECRET_COLOUR = 0x99AAB5
"""One colour for every secret NPC: the colour of the card would tell its state."""
SECRET_WORDS: dict[tuple[Track, Severity], str] = {
    (Track.PHYSICAL, Severity.LOW): N_("wounded"),
    (Track.PHYSICAL, Severity.MID): N_("badly wounded"),
    (Track.PHYSICAL, Severity.HIGH): N_("at death's door"),
    (Track.MENTAL, Severity.LOW): N_("shaken"),
    (Track.MENTAL, Severity.MID): N_("shaken"),
    (Track.MENTAL, Severity.HIGH): N_("on the edge of madness"),
}
"""A secret NPC's state by its worst wound and the track it is on (words with no grammatical gender in
French: "mal en point", "aux portes de la mort", "au bord de la folie")."""


def counts_text(character: Character, track: Track, lang: Lang) -> str:
    """``light 2/4 · serious 1/2``: the wounds held on ``track``, of the most allowed."""
    counts, maxima = character.counts(track), character.maxima(track)
    return " · ".join(
        f"{severity_short(lang, track, s)} {counts[s]}/{maxima[s]}" for s in SEVERITIES if counts[s]
    )


def track_line(character: Character, track: Track, lang: Lang) -> str | None:
    """``Physical 🟨🟨🟧 — light 2/4 · serious 1/2``: one line for a track that holds wounds (``None``
    for an empty track)."""
    counts = character.counts(track)
    if not any(counts):
        return None
    return f"{track_label(lang, track)} {held_marks(track, counts)} — {counts_text(character, track, lang)}"


def status_lines(character: Character, ruleset: Ruleset, lang: Lang) -> list[str]:
    """What a short result says of the character after the change: the tracks that hold wounds, the
    total penalty and the loudest warning. Dead and incoherent characters say so elsewhere, loudly:
    nothing here (no numbers for them)."""
    if character.out_of_play:
        return []
    lines = [line for track in Track if (line := track_line(character, track, lang)) is not None]
    if not lines:
        return [t(lang, "Unhurt.")]
    lines.append(t(lang, "Penalty {penalty} on all rolls", penalty=signed(total_penalty(character, ruleset))))
    if found := warning_lines(character, lang):
        loudest = found[0]
        lines.append(loudest if loudest.startswith("⚠️") else f"⚠️ {loudest}")
    for track in Track:  # a healing session is offered (the Heal button): its odds, as on the card
        if (odds := healing_odds(character, ruleset, track)) is not None:
            lines.append(f"{offer_sign(odds)} {odds_line(odds, lang)}")
    return lines


def secret_word(character: Character, lang: Lang) -> str:
    """All players learn of a secret NPC: unhurt; wounded, badly wounded, at death's door (physical);
    shaken, on the edge of madness (mental); dead or incoherent. The worst wound of both tracks
    decides, on the track it is on."""
    if character.out_of_play:
        return state_text(character, lang)
    held = [(severity, track) for track in Track if (severity := character.worst(track)) is not None]
    if not held:
        return t(lang, "unhurt")
    severity, track = max(held, key=lambda h: (h[0], h[1] is Track.PHYSICAL))  # a tie: the body first
    return t(lang, SECRET_WORDS[track, severity])


def with_status(embed: discord.Embed, character: Character, ruleset: Ruleset, lang: Lang) -> discord.Embed:
    """``embed`` (a short result) with the character's state after the change as its last field."""
    if lines := status_lines(character, ruleset, lang):
        embed.add_field(name=t(lang, "State now"), value="\n".join(lines), inline=False)
    return embed


def secret_card(character: Character, lang: Lang) -> discord.Embed:
    """What players see of a secret NPC's card: its name, that it is an NPC, and one word."""
    return discord.Embed(
        title=card_title(character, lang),
        description="\n".join(
            [
                t(lang, "NPC, kept by the GMs"),
                t(lang, "State: **{word}**", word=secret_word(character, lang)),
                t(lang, "The GMs keep this character's wounds secret."),
            ]
        ),
        colour=discord.Colour(SECRET_COLOUR),
    )


def secret_result(character: Character, lang: Lang, title_key: str) -> discord.Embed:
    """A public result about a secret NPC: what kind of change, and its state as a word."""
    return discord.Embed(
        title=t_name(lang, title_key, character.name, TITLE),
        description=t(lang, "State: **{word}**", word=secret_word(character, lang)),
        colour=discord.Colour(SECRET_COLOUR),
    )
