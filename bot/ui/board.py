"""The live party board: one line per character (name, player, both tracks as marks, penalty, state,
whether healing is available), secret NPCs as a word."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import discord

from bot.rules.character import Character
from bot.rules.odds import healing_odds
from bot.rules.ruleset import Ruleset
from bot.rules.severity import Track
from bot.rules.wounds import total_penalty, warnings
from bot.ui import limits
from bot.ui.card import State, state_colour, state_of, state_text
from bot.ui.glyphs import held_marks
from bot.ui.i18n import Lang, t
from bot.ui.odds import stakes
from bot.ui.status import secret_word
from bot.ui.text import clip, escape, join_lines, mention, signed

NAME_ON_BOARD = 60
BOARD_COLOUR = 0x5865F2


def board_line(character: Character, ruleset: Ruleset, lang: Lang) -> str:
    """``**Aria** · ⚠️ · @Alice · 🟨🟨🟧 · −5 · serious wound · 🩹 can heal: success 36%``: ⚠️ when one
    wound from death (or incoherence), ☠️ when a healing session can kill."""
    name = f"**{clip(escape(character.name), NAME_ON_BOARD)}**"
    owner = t(lang, "npc") if character.owner_id is None else mention(character.owner_id)
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
    sessions = [odds for track in Track if (odds := healing_odds(character, ruleset, track)) is not None]
    deadly = [odds.track for odds in sessions if odds.death > 0]
    if deadly:  # a heal can kill (or make incoherent): said before anything else
        parts.insert(1, "☠️" if Track.PHYSICAL in deadly else "🌀")
    elif one_wound_from_out(character):
        parts.insert(1, "⚠️")
    for odds in sessions:  # a session offered, with what is at stake: never good news when it is not
        key = "board_can_heal"
        if odds.death > 0:
            key = "board_heal_deadly" if odds.track is Track.PHYSICAL else "board_heal_deadly_mental"
        parts.append(t(lang, key, stakes=stakes(odds, lang)))
    return " · ".join(parts)


def one_wound_from_out(character: Character) -> bool:
    """Whether some next wound would kill (or make incoherent): as every result warns."""
    return any(w.becomes is None for track in Track for w in warnings(character, track))


def worst_player_state(characters: Sequence[Character]) -> State | None:
    """The state the board's colour shows: the worst of the player characters still in play (NPCs
    never: a dead goblin must not turn the board grey while a player character is critical); when
    none is in play, the worst of all player characters; ``None`` without any."""
    players = [c for c in characters if c.owner_id is not None]
    living = [c for c in players if not c.out_of_play] or players
    return max((state_of(c) for c in living), default=None)


def board_embed(
    characters: Sequence[Character], ruleset: Ruleset, lang: Lang, *, updated: datetime | None = None
) -> discord.Embed:
    """The board of ``characters`` (the server's player characters and the NPCs added to it)."""
    more = lambda n: t(lang, "more_lines", count=n)  # noqa: E731
    lines = [board_line(c, ruleset, lang) for c in characters]
    worst = worst_player_state(characters)
    embed = discord.Embed(
        title=t(lang, "board_title"),
        description=join_lines(lines, limits.DESCRIPTION, more) if lines else t(lang, "board_empty"),
        colour=discord.Colour(BOARD_COLOUR) if worst is None else state_colour(worst),
        timestamp=updated,
    )
    embed.set_footer(text=t(lang, "board_footer"))
    return embed
