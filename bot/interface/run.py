"""Start the bot: open the database, log in, run until SIGINT or SIGTERM, close cleanly."""

from __future__ import annotations

import asyncio
import logging
import signal

import aiohttp
import discord

from bot.clock import utc_now
from bot.config import Settings
from bot.interface.client import HarmoniesBot
from bot.storage.errors import StorageError
from bot.storage.store import Store

log = logging.getLogger("bot")


def run(settings: Settings) -> None:
    discord.utils.setup_logging(level=getattr(logging, settings.log_level))
    asyncio.run(run_bot(settings))


async def run_bot(settings: Settings) -> None:
    discord.http.Route.BASE = settings.discord_api_base.rstrip("/")
    try:
        store = await Store.open(settings.database_url, clock=utc_now)
    except StorageError as error:
        raise SystemExit(f"error: cannot open the database: {error}") from None
    try:
        async with HarmoniesBot(settings, store, freeze_gc=True) as bot:
            loop = asyncio.get_running_loop()
            stopping = asyncio.Event()
            for sig in (signal.SIGINT, signal.SIGTERM):
                loop.add_signal_handler(sig, stopping.set)
            runner = asyncio.create_task(bot.start(settings.discord_token.get_secret_value()))
            waiter = asyncio.create_task(stopping.wait())
            done, _ = await asyncio.wait({runner, waiter}, return_when=asyncio.FIRST_COMPLETED)
            if runner in done:
                runner.result()  # re-raises a login failure
            log.info("Shutting down")
            await bot.close()
            waiter.cancel()
            runner.cancel()
    except discord.LoginFailure:
        raise SystemExit("error: Discord refused the token (check DISCORD_TOKEN)") from None
    except (aiohttp.ClientError, OSError) as error:
        raise SystemExit(f"error: cannot reach Discord at {settings.discord_api_base}: {error}") from None
    finally:
        await store.close()
