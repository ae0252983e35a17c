"""Character autocomplete: a cheap query, at most 25 choices, only this server's characters."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.ui import limits
from bot.ui.i18n import lang_of, t
from bot.ui.text import clip

if TYPE_CHECKING:
    from bot.interface.client import HarmoniesBot

CHOICE_LIMIT = 25


async def _choices(
    interaction: discord.Interaction[HarmoniesBot], current: str, owner_id: int | None
) -> list[app_commands.Choice[str]]:
    if interaction.guild_id is None:
        return []
    found = await interaction.client.store.search_characters(
        interaction.guild_id, current[:100], owner_id=owner_id, limit=CHOICE_LIMIT
    )
    return [app_commands.Choice(name=clip(name, limits.CHOICE_NAME), value=str(cid)) for cid, name in found]


async def characters(
    interaction: discord.Interaction[HarmoniesBot], current: str
) -> list[app_commands.Choice[str]]:
    """Any character of this server."""
    return await _choices(interaction, current, None)


async def own_characters(
    interaction: discord.Interaction[HarmoniesBot], current: str
) -> list[app_commands.Choice[str]]:
    """The caller's own characters in this server."""
    return await _choices(interaction, current, interaction.user.id)


async def characters_even_deleted(
    interaction: discord.Interaction[HarmoniesBot], current: str
) -> list[app_commands.Choice[str]]:
    """Any character of this server, then deleted ones, marked so (for /history and /undo)."""
    living = await _choices(interaction, current, None)
    if interaction.guild_id is None or len(living) >= CHOICE_LIMIT:
        return living
    gone = await interaction.client.store.deleted_characters(
        interaction.guild_id, current[:100], limit=CHOICE_LIMIT - len(living)
    )
    lang = lang_of(interaction.locale)
    marked = [
        app_commands.Choice(
            name=clip(t(lang, "deleted_choice", name=name), limits.CHOICE_NAME), value=str(cid)
        )
        for cid, name in gone
    ]
    return living + marked
