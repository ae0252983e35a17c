"""The party as the player view shows it (issue 29): the board's lines as data, for a web page.

The same facts as the board (:mod:`bot.ui.board`): every player character and the NPCs on a board,
both tracks as marks with the counts in words, the penalty, the state, who can heal and the odds of
it, the loudest warning; a secret NPC only as its word. Nothing of the players: a link can travel, so
no Discord name or id is in here."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.rules.character import Character
from bot.rules.odds import healing_odds
from bot.rules.ruleset import Ruleset
from bot.rules.severity import SEVERITIES, Track
from bot.rules.wounds import total_penalty, warnings
from bot.ui.card import State, state_of, state_text, warning_lines
from bot.ui.glyphs import MAX_MARKS
from bot.ui.i18n import Lang, severity_short, track_label
from bot.ui.odds import odds_line
from bot.ui.status import secret_word
from bot.ui.text import signed

STATE_NAMES = {
    State.UNHURT: "unhurt",
    State.LIGHT: "light",
    State.SERIOUS: "serious",
    State.CRITICAL: "critical",
    State.OUT: "out",
}
"""A state as a word for the page's style sheet (never shown)."""


@dataclass(frozen=True)
class TrackLine:
    track: Track
    label: str
    """``Physical``."""
    marks: tuple[int, int, int]
    """How many marks of each severity to draw (the wounds held, at most ten per severity)."""
    counts: str
    """``light 2/4 · serious 1/2``: the same in words (screen readers)."""


@dataclass(frozen=True)
class PartyLine:
    """One character of the page. A secret NPC has its ``word`` and nothing else."""

    name: str
    """As written (the page escapes it)."""
    npc: bool
    state: str
    """"unhurt", "dead", or the worst wound of each track; a secret NPC's: its one word."""
    level: str
    """:data:`STATE_NAMES` of its state, for the colours (``secret`` for a secret NPC)."""
    tracks: tuple[TrackLine, ...] = ()
    penalty: str | None = None
    warning: str | None = None
    """The loudest warning of rules §3 (may hold ``**bold**``)."""
    near_death: bool = False
    """One wound (of some severity) from death or incoherence: ⚠️."""
    heals: tuple[str, ...] = ()
    """The odds of each healing session the character may start now (may hold ``**bold**``)."""
    heal_can_kill: bool = False
    """A healing session now can kill or make incoherent: ☠️."""


def party_line(character: Character, ruleset: Ruleset, lang: Lang) -> PartyLine:
    npc = character.owner_id is None
    if ruleset.is_secret(character.owner_id, character.id):
        return PartyLine(character.name, npc, secret_word(character, lang), "secret")
    level = STATE_NAMES[state_of(character)]
    if character.out_of_play:
        return PartyLine(character.name, npc, state_text(character, lang), level)
    tracks = tuple(
        TrackLine(track, track_label(lang, track), _marks(counts), _counts(character, track, lang))
        for track in Track
        if any(counts := character.counts(track))
    )
    found = warning_lines(character, lang)
    odds = [o for track in Track if (o := healing_odds(character, ruleset, track)) is not None]
    return PartyLine(
        character.name,
        npc,
        state_text(character, lang),
        level,
        tracks,
        signed(total_penalty(character, ruleset)) if tracks else None,
        found[0] if found else None,
        any(w.becomes is None for track in Track for w in warnings(character, track)),
        tuple(odds_line(o, lang) for o in odds),
        any(o.death > 0 for o in odds),
    )


def _marks(counts: tuple[int, int, int]) -> tuple[int, int, int]:
    low, mid, high = (min(n, MAX_MARKS) for n in counts)
    return low, mid, high


def _counts(character: Character, track: Track, lang: Lang) -> str:
    counts, maxima = character.counts(track), character.maxima(track)
    return " · ".join(
        f"{severity_short(lang, track, s)} {counts[s]}/{maxima[s]}" for s in SEVERITIES if counts[s]
    )


def party_lines(characters: Sequence[Character], ruleset: Ruleset, lang: Lang) -> list[PartyLine]:
    return [party_line(c, ruleset, lang) for c in characters]
