"""The command tree with the bot's one error funnel."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.replies import answer_error

if TYPE_CHECKING:
    from bot.client import HarmoniesBot


class HarmoniesTree(app_commands.CommandTree["HarmoniesBot"]):
    """Every error of every command ends here: user errors are answered privately in the caller's
    language; anything else is logged with a short id that the user is shown."""

    async def on_error(
        self, interaction: discord.Interaction[HarmoniesBot], error: app_commands.AppCommandError, /
    ) -> None:
        await answer_error(interaction, error)
