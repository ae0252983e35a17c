"""The character list (paged), and the embeds of a created or deleted character."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.rules.character import Character
from bot.rules.ruleset import Ruleset
from bot.rules.wounds import total_penalty
from bot.ui import limits
from bot.ui.card import State, character_card, state_colour, state_text
from bot.ui.i18n import Lang, t, t_name
from bot.ui.text import clip, escape, mention, signed

LINES_PER_PAGE = 20
PAGE_BUDGET = 3900
NAME_IN_LIST = 100
LIST_COLOUR = 0x5865F2


def character_line(character: Character, ruleset: Ruleset, lang: Lang) -> str:
    """``**Aria** — @player — serious wound · shock — −4``; ``**Aria** — @player — dead`` without figures."""
    owner = t(lang, "npc") if character.owner_id is None else mention(character.owner_id)
    name = clip(escape(character.name), NAME_IN_LIST)
    if character.out_of_play:  # dead or incoherent: the state, no figures
        return f"**{name}** — {owner} — {state_text(character, lang)}"
    penalty = total_penalty(character, ruleset)
    shown = signed(penalty) if penalty else "0"
    return f"**{name}** — {owner} — {state_text(character, lang)} — {shown}"


def _pages(lines: Sequence[str]) -> list[list[str]]:
    pages: list[list[str]] = [[]]
    size = 0
    for line in lines:
        page = pages[-1]
        if page and (len(page) >= LINES_PER_PAGE or size + 1 + len(line) > PAGE_BUDGET):
            pages.append([])
            page, size = pages[-1], 0
        page.append(line)
        size += len(line) + (1 if len(page) > 1 else 0)
    return pages


def character_list_embeds(
    characters: Sequence[Character], ruleset: Ruleset, lang: Lang
) -> list[discord.Embed]:
    """Every character, one line each (name, owner, worst state, total penalty), 20 lines a page at
    most, each page within Discord's limits, with a "page 1/3" footer. Never an empty list."""
    colour = discord.Colour(LIST_COLOUR)
    if not characters:
        return [discord.Embed(title=t(lang, "list_title"), description=t(lang, "list_empty"), colour=colour)]
    pages = _pages([character_line(c, ruleset, lang) for c in characters])
    embeds = []
    for number, page in enumerate(pages, 1):
        embed = discord.Embed(title=t(lang, "list_title"), description="\n".join(page), colour=colour)
        embed.set_footer(text=t(lang, "page_footer", page=number, pages=len(pages)))
        embeds.append(embed)
    return embeds


def character_created_embed(
    character: Character, ruleset: Ruleset, lang: Lang, *, active: bool = False
) -> discord.Embed:
    """The new character's card, saying it was created (and whose active character it now is)."""
    embed = character_card(character, ruleset, lang)
    lines = [t(lang, "created")]
    if active and character.owner_id is not None:
        lines.append(t(lang, "created_active", player=mention(character.owner_id)))
    embed.description = clip("\n".join([*lines, embed.description or ""]), limits.DESCRIPTION)
    return embed


def character_deleted_embed(character: Character, lang: Lang) -> discord.Embed:
    return discord.Embed(
        title=t_name(lang, "deleted_title", character.name, limits.TITLE),
        description=t(lang, "deleted_body"),
        colour=state_colour(State.OUT),
    )
