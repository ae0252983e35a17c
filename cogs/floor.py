"""/bench-floor and /bench-floor-write: the floors of the benchmarks (bench/), loaded only with
BENCH_FLOOR=1.

They are registered, synced and dispatched like every other command (guild-only, through the bot's own
tree and its checks) and answer through the same helper as a real result, with a fixed embed.
``/bench-floor`` touches no database: what any command costs before it does anything.
``/bench-floor-write`` first commits one unit of work that only records the interaction's id (the
replay guard every change writes): what any change costs before its rules, its history and its
answer (``python -m bench``, ``python -m bench e2e``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.interface.replies import send_public

if TYPE_CHECKING:
    from bot.interface.client import HarmoniesBot
    from bot.storage.transaction import Transaction

FLOOR_EMBED = discord.Embed(
    title="Benchmark floor", description="A fixed answer: no database, no rules.", colour=0x5865F2
)


class Floor(commands.Cog):
    @app_commands.command(name="bench-floor", description="Benchmark floor: a fixed answer, no database")
    @app_commands.guild_only()
    async def bench_floor(self, interaction: discord.Interaction[HarmoniesBot]) -> None:
        await send_public(interaction, embeds=[FLOOR_EMBED])

    @app_commands.command(
        name="bench-floor-write", description="Benchmark floor: one durable write, then a fixed answer"
    )
    @app_commands.guild_only()
    async def bench_floor_write(self, interaction: discord.Interaction[HarmoniesBot]) -> None:
        assert interaction.guild_id is not None  # guild_only
        await interaction.client.store.run(interaction.guild_id, _nothing, interaction=interaction.id)
        await send_public(interaction, embeds=[FLOOR_EMBED])


def _nothing(tx: Transaction) -> None:
    """A unit of work with no change of its own: the store records the interaction's id."""


async def setup(bot: HarmoniesBot) -> None:
    if bot.settings.bench_floor:  # only when the benchmark asks for it
        await bot.add_cog(Floor())
