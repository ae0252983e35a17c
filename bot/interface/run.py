"""Start the bot: open the database, log in, run until SIGINT or SIGTERM, close cleanly: on a signal,
the bot leaves the gateway (no new interaction), answers those in flight, then closes Discord's
session and the database, and exits 0.

On SQLite, the process first takes the database's lock file (one process per file); with
``HEALTH_PORT``, it answers health checks from before the login until the end; with ``WEB_PORT``, it
serves the player view. Its soft open-files limit is first raised to the hard one: the player view's
budget of connections is what is left of it once Discord's and the database's reserve is set aside
(:mod:`bot.web.limits`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import AsyncIterator, Callable

import aiohttp
import discord

from bot.config import Settings, describe_shard_ids
from bot.interface.client import HarmoniesBot
from bot.interface.health import Health
from bot.logs import set_process_shards, setup_logging
from bot.shards.lockfile import AlreadyRunning, only_process
from bot.shards.locks import locks_for
from bot.storage.errors import StorageError
from bot.storage.sqlite import database_path, is_postgres
from bot.storage.store import Store
from bot.web.limits import raise_open_files_limit
from bot.web.server import PlayerView

log = logging.getLogger("bot")


DRAIN_S = 9.0
"""Seconds a stop (SIGTERM, SIGINT) waits for the interactions in flight before closing: the process
exits within 10 s (the systemd units' TimeoutStopSec leaves a margin)."""

CHECKPOINT_EVERY = 60.0
"""Seconds between two WAL checkpoints (SQLite): at most that much is lost should the -wal file be
deleted and the bot then crash."""


async def watch_database(store: Store) -> str:
    """Beside the bot, for its whole life: ``PRAGMA quick_check`` once (in the background: on a large
    database it takes seconds, and nothing needs to wait for it), then a checkpoint every
    :data:`CHECKPOINT_EVERY` seconds, with the ids of handled interactions older than a day dropped.
    Returns only when the file is damaged, with the first finding."""
    damage = await store.quick_check()
    if damage is not None:
        return damage
    log.info("Database integrity check: ok")
    while True:
        await asyncio.sleep(CHECKPOINT_EVERY)
        try:
            await store.checkpoint()
            await store.forget_old_interactions()
        except Exception as error:  # a full disk, say: commands will say so; try again later
            log.warning("Database checkpoint failed: %s", error)


def run(settings: Settings) -> None:
    setup_logging(settings.log_level)
    raise_open_files_limit()  # the player view's budget is taken from it
    if settings.shard_count is not None:  # else known once Discord says how many it recommends
        set_process_shards(describe_shard_ids(settings.shard_ids or range(settings.shard_count)))
    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        runner.run(run_bot(settings))


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop where it is installed (Linux, macOS), else asyncio's own (None)."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


async def run_bot(settings: Settings) -> None:
    with contextlib.ExitStack() as stack:
        if not is_postgres(settings.database_url):
            try:
                stack.enter_context(only_process(database_path(settings.database_url)))
            except AlreadyRunning as error:
                raise SystemExit(f"error: {error}") from None
            except StorageError as error:
                raise SystemExit(f"error: cannot open the database: {error}") from None
        await run_on_database(settings)


async def run_on_database(settings: Settings) -> None:
    discord.http.Route.BASE = settings.discord_api_base.rstrip("/")
    try:
        store = await Store.open(settings.database_url)
    except StorageError as error:
        raise SystemExit(f"error: cannot open the database: {error}") from None
    try:
        locks = locks_for(settings.database_url)
        bot = HarmoniesBot(settings, store, locks=locks, announce_shards=set_process_shards, freeze_gc=True)
        view = (
            PlayerView(store, settings.web_host, settings.web_port) if settings.web_port is not None else None
        )
        health = (
            Health(bot, settings.health_host, settings.health_port, player_view=view)
            if settings.health_port is not None
            else None
        )
        async with (
            bot,
            serving(health, "health checks"),
            serving(view, "the player view"),
        ):
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
            if waiter in done:  # asked to stop: finish what is in flight first
                await bot.drain(DRAIN_S)
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
    except StorageError as error:  # a lock shared with the other processes could not be had
        raise SystemExit(f"error: database: {error}") from None
    except (aiohttp.ClientError, OSError) as error:
        raise SystemExit(f"error: cannot reach Discord at {settings.discord_api_base}: {error}") from None
    finally:
        await store.close()


@contextlib.asynccontextmanager
async def serving(server: Health | PlayerView | None, what: str) -> AsyncIterator[None]:
    """``server`` (the health checks, the player view) listening while inside, when its port is set."""
    if server is None:
        yield
        return
    try:
        await server.start()
    except OSError as error:
        await server.close()
        raise SystemExit(
            f"error: cannot serve {what} on {server.host}:{server.port}: {error.strerror or error}"
        ) from None
    try:
        yield
    finally:
        await server.close()
