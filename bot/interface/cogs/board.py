"""/board: the live party board of a channel."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserError
from bot.interface import autocomplete
from bot.interface.flows import post_board, show_on_board

if TYPE_CHECKING:
    from bot.interface.client import HarmoniesBot


class PartyBoard(commands.Cog):
    def __init__(self, bot: HarmoniesBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="board", description="Post the live party board in this channel, or move it here (GM)"
    )
    @app_commands.guild_only()
    @app_commands.describe(add="Show this NPC on the board too", drop="Take this NPC off the board")
    @app_commands.autocomplete(add=autocomplete.npcs, drop=autocomplete.npcs)
    async def board(
        self,
        interaction: discord.Interaction[HarmoniesBot],
        add: str | None = None,
        drop: str | None = None,
    ) -> None:
        if add is not None and drop is not None:
            raise UserError("board_one_at_a_time")
        if add is not None:
            await show_on_board(interaction, add, shown=True)
        elif drop is not None:
            await show_on_board(interaction, drop, shown=False)
        else:
            await post_board(interaction)


async def setup(bot: HarmoniesBot) -> None:
    await bot.add_cog(PartyBoard(bot))
