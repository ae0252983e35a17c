"""Right-click a member: "Wound…" (GM) and "Card" (anyone), on that member's active character."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.actions import targets
from bot.actions.wounds import Inflict
from bot.interface.permissions import actor_of
from bot.interface.replies import caller_lang, respond
from bot.interface.results import send_card_privately
from bot.interface.views import WoundChooser
from bot.rules import Character, Track, parse_severity
from bot.storage.store import Reader
from bot.ui.i18n import t_name

# Relative: cogs/ is the package bot.cogs once installed (pyproject's package-dir), "cogs" to mypy.
from .combat import inflict

if TYPE_CHECKING:
    from bot.interface.client import HarmoniesBot

WOUND_MENU = locale_str("Wound…", key="name.menu.wound")
CARD_MENU = locale_str("Card", key="name.menu.card")


class Menus(commands.Cog):
    def __init__(self, bot: HarmoniesBot) -> None:
        self.bot = bot
        in_servers = app_commands.AppCommandContext(guild=True)
        for name, callback in ((WOUND_MENU, self.wound), (CARD_MENU, self.card)):
            menu = app_commands.ContextMenu(name=name, callback=callback, allowed_contexts=in_servers)
            menu.guild_only = True
            bot.tree.add_command(menu)

    async def wound(self, interaction: discord.Interaction[HarmoniesBot], member: discord.Member) -> None:
        actor = actor_of(interaction)
        store = self.bot.store

        def look(reader: Reader) -> Character:
            actor.require_gm(reader.ruleset())  # first: a player is told so, not whether anyone plays
            return targets.active_of(reader, member.id)

        character = await store.read(actor.guild_id, look)
        lang = caller_lang(interaction)

        async def blow(click: discord.Interaction[HarmoniesBot], track: Track, severity: str, n: int) -> None:
            chosen = parse_severity(track, severity)
            await inflict(click, Inflict(track=track, severity=chosen, ref=str(character.id), count=n))

        chooser = WoundChooser(actor.user_id, lang, blow)
        await respond(
            interaction,
            t_name(lang, "menu_wound_who", character.name, 1000),
            view=chooser,
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        chooser.menu = interaction

    async def card(self, interaction: discord.Interaction[HarmoniesBot], member: discord.Member) -> None:
        actor = actor_of(interaction)
        store = self.bot.store
        ruleset, character = await store.read(
            actor.guild_id, lambda r: (r.ruleset(), targets.active_of(r, member.id))
        )
        await send_card_privately(interaction, character, ruleset)


async def setup(bot: HarmoniesBot) -> None:
    await bot.add_cog(Menus(bot))
