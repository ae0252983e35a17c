"""The live party board: one line per character (name, player, both tracks as marks, penalty, state,
whether healing is available), secret NPCs as a word."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import discord

from bot.rules.character import Character
from bot.rules.healing import can_roll_healing
from bot.rules.ruleset import Ruleset
from bot.rules.severity import Track
from bot.rules.wounds import total_penalty
from bot.ui import limits
from bot.ui.card import state_colour, state_of, state_text
from bot.ui.glyphs import held_marks
from bot.ui.i18n import Lang, t
from bot.ui.status import secret_word
from bot.ui.text import clip, escape, join_lines, mention, signed

NAME_ON_BOARD = 60
BOARD_COLOUR = 0x5865F2


def board_line(character: Character, ruleset: Ruleset, lang: Lang) -> str:
    """``**Aria** · @Alice · 🟨🟨🟧 · 🟡 · −5 · serious wound · shock · 🩹``."""
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
    if any(can_roll_healing(character, ruleset, track) for track in Track):
        parts.append(t(lang, "board_can_heal"))
    return " · ".join(parts)


def board_embed(
    characters: Sequence[Character], ruleset: Ruleset, lang: Lang, *, updated: datetime | None = None
) -> discord.Embed:
    """The board of ``characters`` (the server's player characters and the NPCs added to it)."""
    more = lambda n: t(lang, "more_lines", count=n)  # noqa: E731
    lines = [board_line(c, ruleset, lang) for c in characters]
    worst = max((state_of(c) for c in characters if not ruleset.is_secret(c.owner_id, c.id)), default=None)
    embed = discord.Embed(
        title=t(lang, "board_title"),
        description=join_lines(lines, limits.DESCRIPTION, more) if lines else t(lang, "board_empty"),
        colour=discord.Colour(BOARD_COLOUR) if worst is None else state_colour(worst),
        timestamp=updated,
    )
    embed.set_footer(text=t(lang, "board_footer"))
    return embed
