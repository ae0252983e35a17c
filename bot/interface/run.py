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
from bot.logs import setup_logging
from bot.storage.errors import StorageError
from bot.storage.store import Store

log = logging.getLogger("bot")


CHECKPOINT_EVERY = 60.0
"""Seconds between two WAL checkpoints (SQLite): at most that much is lost should the -wal file be
deleted and the bot then crash."""


async def watch_database(store: Store) -> str:
    """Beside the bot, for its whole life: ``PRAGMA quick_check`` once (in the background: on a large
    database it takes seconds, and nothing needs to wait for it), then a checkpoint every
    :data:`CHECKPOINT_EVERY` seconds. Returns only when the file is damaged, with the first finding."""
    damage = await store.quick_check()
    if damage is not None:
        return damage
    log.info("Database integrity check: ok")
    while True:
        await asyncio.sleep(CHECKPOINT_EVERY)
        try:
            await store.checkpoint()
        except Exception as error:  # a full disk, say: commands will say so; try again later
            log.warning("Database checkpoint failed: %s", error)


def run(settings: Settings) -> None:
    setup_logging(settings.log_level)
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
            watcher = asyncio.create_task(watch_database(store))
            done, _ = await asyncio.wait({runner, waiter, watcher}, return_when=asyncio.FIRST_COMPLETED)
            if runner in done:
                runner.result()  # re-raises a login failure
            log.info("Shutting down")
            await bot.close()
            for task in (waiter, runner, watcher):
                task.cancel()
            if watcher in done:
                raise SystemExit(
                    f"error: the database file is damaged ({watcher.result()}): stop using it, and "
                    "restore a backup (python -m bot backup PATH makes them)"
                )
    except discord.LoginFailure:
        raise SystemExit("error: Discord refused the token (check DISCORD_TOKEN)") from None
    except (aiohttp.ClientError, OSError) as error:
        raise SystemExit(f"error: cannot reach Discord at {settings.discord_api_base}: {error}") from None
    finally:
        await store.close()
