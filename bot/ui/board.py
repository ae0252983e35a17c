"""The party at a glance: the live board's lines, the player view's lines as data, and the autocomplete
choices that inform ("Aélis (Léa) — −3")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import discord

from bot.errors import N_
from bot.rules.character import Character
from bot.rules.odds import HealingOdds
from bot.rules.ruleset import Ruleset
from bot.rules.severity import Track
from bot.rules.wounds import total_penalty, warnings
from bot.ui.i18n import Lang, t
from bot.ui.results import (
    NOTICE_COLOUR,
    counts_text,
    odds_line,
    offer_sign,
    secret_word,
    sessions,
    stakes,
    state_colour,
    state_of,
    state_text,
    warning_lines,
)
from bot.ui.text import (
    CHOICE_NAME,
    DESCRIPTION,
    MAX_MARKS,
    clip,
    escape,
    held_marks,
    join_lines,
    mention,
    signed,
    track_label,
)

# ---- The live party board: one line per character, secret NPCs as a word

NAME_ON_BOARD = 60


def board_line(character: Character, ruleset: Ruleset, lang: Lang) -> str:
    """``**Aria** · ⚠️ · @Alice · 🟨🟨🟧 · −5 · serious wound · 🩹 can heal: success 36%``: ⚠️ when one
    wound from death (or incoherence), ☠️ when a healing session can kill."""
    name = f"**{clip(escape(character.name), NAME_ON_BOARD)}**"
    owner = t(lang, "NPC") if character.owner_id is None else mention(character.owner_id)
    if ruleset.is_secret(character.owner_id, character.id):
        return f"{name} · {owner} · {secret_word(character, lang)}"
    if character.out_of_play:
        return f"{name} · {owner} · {'†' if character.dead else '🌀'} {state_text(character, lang)}"
    parts = [name, owner]
    tracks = [m for track in Track if (m := held_marks(track, character.counts(track)))]
    if tracks:
        parts.extend(tracks)
        parts.append(signed(total_penalty(character, ruleset)))
    parts.append(state_text(character, lang))
    offered = sessions(character, ruleset)
    deadly = [odds.track for odds in offered if odds.deadly]
    if deadly:  # a heal can kill (or make incoherent): said before anything else
        parts.insert(1, "☠️" if Track.PHYSICAL in deadly else "🌀")
    elif one_wound_from_out(character):
        parts.insert(1, "⚠️")
    for odds in offered:  # a session offered, with what is at stake: never good news when it is not
        parts.append(t(lang, OFFERS[_offer(odds)][0], stakes=stakes(odds, lang)))
    return " · ".join(parts)


OFFERS = {  # a session on the board, and on the player view after its mark (offer_sign), by _offer
    (Track.PHYSICAL, "good"): (N_("🩹 can heal: {stakes}"), N_("can heal")),
    (Track.MENTAL, "good"): (N_("🩹 can heal: {stakes}"), N_("can heal")),
    (Track.PHYSICAL, "deadly"): (N_("☠️ healing can kill: {stakes}"), N_("healing can kill")),
    (Track.MENTAL, "deadly"): (
        N_("🌀 mental healing can make incoherent: {stakes}"),
        N_("mental healing can make incoherent"),
    ),
    (Track.PHYSICAL, "hopeless"): (
        N_("⛔ healing can hardly succeed: {stakes}"),
        N_("healing can hardly succeed"),
    ),
    (Track.MENTAL, "hopeless"): (
        N_("⛔ mental healing can hardly succeed: {stakes}"),
        N_("mental healing can hardly succeed"),
    ),
}


def _offer(odds: HealingOdds) -> tuple[Track, str]:
    """How the board and the page name the session: only one worth offering is good news."""
    return odds.track, "deadly" if odds.deadly else "hopeless" if odds.hopeless else "good"


def one_wound_from_out(character: Character) -> bool:
    """Whether some next wound would kill (or make incoherent): as every result warns."""
    return any(w.becomes is None for track in Track for w in warnings(character, track))


def board_embed(
    characters: Sequence[Character], ruleset: Ruleset, lang: Lang, *, updated: datetime | None = None
) -> discord.Embed:
    """The board of ``characters`` (the server's player characters and the NPCs added to it)."""
    lines = [board_line(c, ruleset, lang) for c in characters]
    # the colour: the worst player character in play (never an NPC: a dead goblin must not turn the
    # board grey while a player character is critical), else the worst of all player characters
    players = [c for c in characters if c.owner_id is not None]
    living = [c for c in players if not c.out_of_play] or players
    worst = max((state_of(c) for c in living), default=None)
    embed = discord.Embed(
        title=t(lang, "Party board"),
        description=join_lines(lang, lines, DESCRIPTION)
        if lines
        else t(lang, "No player characters yet (/character create). A GM adds NPCs with /board add:"),
        colour=discord.Colour(NOTICE_COLOUR) if worst is None else state_colour(worst),
        timestamp=updated,
    )
    embed.set_footer(text=t(lang, "Kept up to date after every change · /board again moves it here"))
    return embed


# ---- The party as the player view shows it (issue 29): the board's lines as data, for a web page.


@dataclass(frozen=True)
class TrackLine:
    track: Track
    label: str
    marks: tuple[int, ...]
    """How many marks of each severity to draw (the wounds held, at most ten per severity)."""
    counts: str
    """``light 2/4 · serious 1/2``: the same in words (screen readers)."""


@dataclass(frozen=True)
class HealOffer:
    """A healing session the character may start now, as the page shows it."""

    sign: str
    """🩹, ☠️, 🌀 or ⛔ (:func:`offer_sign`)."""
    label: str
    """``can heal``, ``healing can kill``, ``healing can hardly succeed``…"""
    odds: str
    """The odds of its first roll (may hold ``**bold**``)."""
    good: bool
    """Worth offering (:attr:`HealingOdds.worth_offering`): the only kind shown as good news."""


@dataclass(frozen=True)
class PartyLine:
    """One character of the page. A secret NPC has its ``word`` and nothing else."""

    name: str
    """As written (the page escapes it)."""
    npc: bool
    state: str
    """"unhurt", "dead", or the worst wound of each track; a secret NPC's: its one word."""
    level: str
    """Its :class:`State` in lower case, for the colours (``secret`` for a secret NPC)."""
    tracks: tuple[TrackLine, ...] = ()
    penalty: str | None = None
    warning: str | None = None
    """The loudest warning of rules §3 (may hold ``**bold**``)."""
    near_death: bool = False
    """One wound (of some severity) from death or incoherence: ⚠️."""
    heals: tuple[HealOffer, ...] = ()
    """Each healing session the character may start now."""


def party_line(character: Character, ruleset: Ruleset, lang: Lang) -> PartyLine:
    npc = character.owner_id is None
    if ruleset.is_secret(character.owner_id, character.id):
        return PartyLine(character.name, npc, secret_word(character, lang), "secret")
    level = state_of(character).name.lower()  # for the page's style sheet
    if character.out_of_play:
        return PartyLine(character.name, npc, state_text(character, lang), level)
    tracks = tuple(
        TrackLine(
            track,
            track_label(lang, track),
            tuple(min(n, MAX_MARKS) for n in counts),
            counts_text(character, track, lang),
        )
        for track in Track
        if any(counts := character.counts(track))
    )
    found = warning_lines(character, lang)
    odds = sessions(character, ruleset)
    return PartyLine(
        character.name,
        npc,
        state_text(character, lang),
        level,
        tracks,
        signed(total_penalty(character, ruleset)) if tracks else None,
        found[0] if found else None,
        one_wound_from_out(character),
        tuple(
            HealOffer(offer_sign(o), t(lang, OFFERS[_offer(o)][1]), odds_line(o, lang), o.worth_offering)
            for o in odds
        ),
    )


# ---- Autocomplete choices that inform: "Aélis (Léa) — −3", "Goblin (NPC) — badly wounded".

OWNER_IN_CHOICE = 24


def choice_state(character: Character, ruleset: Ruleset, lang: Lang, *, reveal: bool) -> str:
    """The penalty (``−3``), or a word: unhurt, dead, incoherent; a secret NPC's word unless ``reveal``."""
    if ruleset.is_secret(character.owner_id, character.id) and not reveal:
        return secret_word(character, lang)
    if character.out_of_play:
        return state_text(character, lang)
    penalty = total_penalty(character, ruleset)
    return signed(penalty) if penalty else t(lang, "unhurt")


def choice_label(
    character: Character, ruleset: Ruleset, lang: Lang, *, owner: str | None, reveal: bool
) -> str:
    """``Aélis (Léa) — −3`` within Discord's 100 characters (the name is cut first). Choice names are
    plain text: nothing to escape."""
    if character.owner_id is None:
        who = t(lang, "NPC")
    else:
        who = clip(" ".join((owner or t(lang, "player")).split()), OWNER_IN_CHOICE)
    tail = f" ({who}) — {choice_state(character, ruleset, lang, reveal=reveal)}"
    return clip(character.name, CHOICE_NAME - len(tail)) + tail
