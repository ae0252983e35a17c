"""A tiny discord.py bot for proving the stand-in: ``python tests/e2e/tiny_bot.py``.

Environment: DISCORD_TOKEN, DISCORD_API_BASE (e.g. http://127.0.0.1:PORT/api/v10), TINY_GUILD_ID (the guild
its one slash command ``/ping`` is registered in), optional LOG_LEVEL. SIGTERM/SIGINT close it cleanly.
"""

from __future__ import annotations

import asyncio
import io
import logging
import os
import signal

import discord
import yarl
from discord import app_commands
from discord.ext import commands

DEFAULT_API_BASE = "https://discord.com/api/v10"
log = logging.getLogger("tiny_bot")


@app_commands.command(name="ping", description="Answer with an embed")
@app_commands.describe(text="Echoed back in the embed", deferred="Think first, then edit and follow up")
async def ping(interaction: discord.Interaction, text: str | None = None, deferred: bool = False) -> None:
    embed = discord.Embed(title="pong", description=text or "no text", colour=discord.Colour.green())
    embed.add_field(name="guild", value=str(interaction.guild_id))
    if not deferred:
        await interaction.response.send_message(embed=embed)
        return
    # The other interaction endpoints: deferred callback, follow-ups (one with a file), @original edit.
    await interaction.response.defer(thinking=True)
    await interaction.followup.send(embed=embed)  # replaces the "thinking..." message
    await interaction.edit_original_response(content="edited")
    await interaction.followup.send("done", file=discord.File(io.BytesIO(b"tiny"), filename="tiny.txt"))


class TinyBot(commands.Bot):
    def __init__(self, guild_id: int) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None)
        self.guild_id = guild_id

    async def setup_hook(self) -> None:
        if discord.http.Route.BASE != DEFAULT_API_BASE:
            # A non-sharded Client never asks GET /gateway/bot: it dials DiscordWebSocket.DEFAULT_GATEWAY.
            # Pointed at another API, take the gateway from that API, as a sharded client would.
            _, url, _ = await self.http.get_bot_gateway()
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
        guild = discord.Object(self.guild_id)
        self.tree.add_command(ping, guild=guild)
        synced = await self.tree.sync(guild=guild)
        log.info("synced %s", [c.name for c in synced])

    async def on_ready(self) -> None:
        log.info("ready as %s in %d guild(s)", self.user, len(self.guilds))

    async def on_resumed(self) -> None:
        log.info("resumed")


async def run() -> None:
    discord.http.Route.BASE = os.environ.get("DISCORD_API_BASE", DEFAULT_API_BASE).rstrip("/")
    bot = TinyBot(int(os.environ["TINY_GUILD_ID"]))
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stopping.set)
    async with bot:
        runner = asyncio.create_task(bot.start(os.environ["DISCORD_TOKEN"]))
        waiter = asyncio.create_task(stopping.wait())
        done, _ = await asyncio.wait({runner, waiter}, return_when=asyncio.FIRST_COMPLETED)
        if runner in done:
            runner.result()
        log.info("shutting down")
        await bot.close()
        waiter.cancel()
        runner.cancel()


if __name__ == "__main__":
    discord.utils.setup_logging(level=getattr(logging, os.environ.get("LOG_LEVEL", "INFO")))
    asyncio.run(run())
