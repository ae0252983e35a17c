"""A character's state in a few lines: glyphs per severity, the tracks that hold wounds, the penalty,
the loudest warning; and the one word players see of a secret NPC."""

from __future__ import annotations

import discord

from bot.rules.character import Character
from bot.rules.odds import healing_odds
from bot.rules.ruleset import Ruleset
from bot.rules.severity import SEVERITIES, Severity, Track
from bot.rules.wounds import total_penalty
from bot.ui import limits
from bot.ui.card import card_title, warning_lines
from bot.ui.glyphs import held_marks
from bot.ui.i18n import Lang, severity_short, t, t_name, track_label
from bot.ui.odds import odds_line
from bot.ui.text import signed

SECRET_COLOUR = 0x99AAB5
"""One colour for every secret NPC: the colour of the card would tell its state."""
SECRET_WORDS: dict[tuple[Track, Severity], str] = {
    (Track.PHYSICAL, Severity.LOW): "secret_wounded",
    (Track.PHYSICAL, Severity.MID): "secret_badly_wounded",
    (Track.PHYSICAL, Severity.HIGH): "secret_deaths_door",
    (Track.MENTAL, Severity.LOW): "secret_shaken",
    (Track.MENTAL, Severity.MID): "secret_shaken",
    (Track.MENTAL, Severity.HIGH): "secret_madness_edge",
}
"""A secret NPC's state by its worst wound and the track it is on (words with no grammatical gender in
French: "mal en point", "aux portes de la mort", "au bord de la folie")."""


def track_line(character: Character, track: Track, lang: Lang) -> str | None:
    """``Physical 🟨🟨🟧 — light 2/4 · serious 1/2``: one line for a track that holds wounds (``None``
    for an empty track)."""
    counts, maxima = character.counts(track), character.maxima(track)
    if not any(counts):
        return None
    text = " · ".join(
        f"{severity_short(lang, track, s)} {counts[s]}/{maxima[s]}" for s in SEVERITIES if counts[s]
    )
    return f"{track_label(lang, track)} {held_marks(track, counts)} — {text}"


def status_lines(character: Character, ruleset: Ruleset, lang: Lang) -> list[str]:
    """What a short result says of the character after the change: the tracks that hold wounds, the
    total penalty and the loudest warning. Dead and incoherent characters say so elsewhere, loudly:
    nothing here (no numbers for them)."""
    if character.out_of_play:
        return []
    lines = [line for track in Track if (line := track_line(character, track, lang)) is not None]
    if not lines:
        return [t(lang, "short_unhurt")]
    lines.append(t(lang, "short_penalty", penalty=signed(total_penalty(character, ruleset))))
    if found := warning_lines(character, lang):
        loudest = found[0]
        lines.append(loudest if loudest.startswith("⚠️") else f"⚠️ {loudest}")
    for track in Track:  # a healing session is offered (the Heal button): its odds, as on the card
        if (odds := healing_odds(character, ruleset, track)) is not None:
            lines.append(f"🩹 {odds_line(odds, lang)}")
    return lines


def secret_word(character: Character, lang: Lang) -> str:
    """All players learn of a secret NPC: unhurt; wounded, badly wounded, at death's door (physical);
    shaken, on the edge of madness (mental); dead or incoherent. The worst wound of both tracks
    decides, on the track it is on."""
    if character.dead:
        return t(lang, "state_dead")
    if character.incoherent:
        return t(lang, "state_incoherent")
    held = [(severity, track) for track in Track if (severity := character.worst(track)) is not None]
    if not held:
        return t(lang, "secret_unhurt")
    severity, track = max(held, key=lambda h: (h[0], h[1] is Track.PHYSICAL))  # a tie: the body first
    return t(lang, SECRET_WORDS[track, severity])


def with_status(embed: discord.Embed, character: Character, ruleset: Ruleset, lang: Lang) -> discord.Embed:
    """``embed`` (a short result) with the character's state after the change as its last field."""
    if lines := status_lines(character, ruleset, lang):
        embed.add_field(name=t(lang, "short_now"), value="\n".join(lines), inline=False)
    return embed


def secret_card(character: Character, lang: Lang) -> discord.Embed:
    """What players see of a secret NPC's card: its name, that it is an NPC, and one word."""
    embed = discord.Embed(
        title=card_title(character, lang),
        description="\n".join(
            [
                t(lang, "card_npc"),
                t(lang, "secret_state", word=secret_word(character, lang)),
                t(lang, "secret_card_note"),
            ]
        ),
        colour=discord.Colour(SECRET_COLOUR),
    )
    return embed


def secret_result(character: Character, lang: Lang, title_key: str) -> discord.Embed:
    """A public result about a secret NPC: what kind of change, and its state as a word."""
    return discord.Embed(
        title=t_name(lang, title_key, character.name, limits.TITLE),
        description=t(lang, "secret_state", word=secret_word(character, lang)),
        colour=discord.Colour(SECRET_COLOUR),
    )
