"""/bench-floor: the trivial command of the end-to-end benchmark, loaded only with BENCH_FLOOR=1.

It is registered, synced and dispatched like every other command (guild-only, through the bot's own
tree and its checks) and answers through the same helper as a real result, but with a fixed embed and
no database: what any command costs before it does anything (``python -m bench e2e``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.interface.replies import send_public

if TYPE_CHECKING:
    from bot.interface.client import HarmoniesBot

FLOOR_EMBED = discord.Embed(
    title="Benchmark floor", description="A fixed answer: no database, no rules.", colour=0x5865F2
)


class Floor(commands.Cog):
    @app_commands.command(name="bench-floor", description="Benchmark floor: a fixed answer, no database")
    @app_commands.guild_only()
    async def bench_floor(self, interaction: discord.Interaction[HarmoniesBot]) -> None:
        await send_public(interaction, embeds=[FLOOR_EMBED])


async def setup(bot: HarmoniesBot) -> None:
    await bot.add_cog(Floor())
