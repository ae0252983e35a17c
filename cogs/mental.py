"""/mental: a GM inflicts mental wounds, through the flow of /wound (cogs/combat.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.interface import autocomplete
from bot.interface.autocomplete import MENTAL
from bot.rules import Track
from bot.rules.character import NOTE_MAX
from bot.rules.ruleset import MAX_DAMAGE
from bot.rules.wounds import MAX_COUNT

# Relative: cogs/ is the package bot.cogs once installed (pyproject's package-dir), "cogs" to mypy.
from .combat import WOUNDING, inflict, options_of

if TYPE_CHECKING:
    from bot.interface.client import HarmoniesBot


class Mental(commands.Cog):
    def __init__(self, bot: HarmoniesBot) -> None:
        self.bot = bot

    @app_commands.command(name="mental", description=locale_str("Inflict mental wounds (GM)"))
    @app_commands.guild_only()
    @app_commands.describe(**WOUNDING)
    @app_commands.choices(severity=MENTAL)
    @app_commands.autocomplete(character=autocomplete.characters)
    async def mental(
        self,
        interaction: discord.Interaction[HarmoniesBot],
        severity: str | None = None,
        damage: app_commands.Range[int, 0, MAX_DAMAGE] | None = None,
        target: discord.User | None = None,
        character: str | None = None,
        count: app_commands.Range[int, 1, MAX_COUNT] = 1,
        note: app_commands.Range[str, 1, NOTE_MAX] | None = None,
        dice: app_commands.Range[str, 1, 200] | None = None,
        preview: bool = False,
    ) -> None:
        asked = options_of(Track.MENTAL, severity, damage, target, character, count, note, dice)
        await inflict(interaction, asked, preview=preview)


async def setup(bot: HarmoniesBot) -> None:
    await bot.add_cog(Mental(bot))
