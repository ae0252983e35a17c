"""Start the bot: open the database (on SQLite, first its lock file: one process per file), serve the
health checks (``HEALTH_PORT``, with aiohttp) and the player view (``WEB_PORT``), log in, run until
SIGINT or SIGTERM; then leave the gateway, answer the interactions in flight, close, and exit 0."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import AsyncIterator, Callable, Iterable

import aiohttp
import discord
from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST

from bot.config import Settings, describe_shard_ids
from bot.interface.client import HarmoniesBot
from bot.logs import set_process_shards, setup_logging
from bot.shards.lockfile import AlreadyRunning, only_process
from bot.shards.locks import locks_for
from bot.storage.errors import StorageError
from bot.storage.sqlite import database_path, is_postgres
from bot.storage.store import Store
from bot.web.limits import raise_open_files_limit
from bot.web.server import PlayerView

log = logging.getLogger("bot")


DRAIN_S = 9.0  # a stop waits this long for the interactions in flight: the process exits within 10 s
CHECKPOINT_EVERY = 60.0  # seconds between two WAL checkpoints (SQLite): what a lost -wal file costs


async def watch_database(store: Store) -> str:
    """Beside the bot: ``PRAGMA quick_check`` once (seconds on a large database: nothing waits for it),
    then a checkpoint every :data:`CHECKPOINT_EVERY` seconds, dropping the ids of handled interactions
    older than a day. Returns only when the file is damaged, with the first finding."""
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
    raise_open_files_limit()  # to the hard limit: the player view's budget is taken from it
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
        try:
            if not is_postgres(settings.database_url):
                stack.enter_context(only_process(database_path(settings.database_url)))
            discord.http.Route.BASE = settings.discord_api_base.rstrip("/")
            store = await Store.open(settings.database_url)
        except AlreadyRunning as error:
            raise SystemExit(f"error: {error}") from None
        except StorageError as error:
            raise SystemExit(f"error: cannot open the database: {error}") from None
        await run_on(settings, store)


async def run_on(settings: Settings, store: Store) -> None:
    try:
        locks = locks_for(settings.database_url)
        bot = HarmoniesBot(settings, store, locks=locks, announce_shards=set_process_shards, freeze_gc=True)
        view = None if settings.web_port is None else PlayerView(store, settings.web_host, settings.web_port)
        health = None
        if settings.health_port is not None:
            health = Health(bot, settings.health_host, settings.health_port, player_view=view)
        async with bot, serving(health, "health checks"), serving(view, "the player view"):
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
    """``server`` (none: its port is not set) listening while inside."""
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


DATABASE_TIMEOUT_S = 2.0
META_PROBE = "health_probe"  # a meta key read (never written): does the database answer?


async def readiness(bot: HarmoniesBot) -> tuple[bool, dict[str, object]]:
    """Whether every shard this process should run is connected (none before Discord says how many)
    and the database answers a read within the timeout; what is not, said in one line each."""
    ids: Iterable[int] = ()
    if bot.shard_count is not None:
        ids = bot.shard_ids if bot.shard_ids is not None else range(bot.shard_count)
    shards = {i: (shard := bot.get_shard(i)) is not None and not shard.is_closed() for i in ids}
    database = "ok"
    try:
        await asyncio.wait_for(bot.store.meta(META_PROBE), DATABASE_TIMEOUT_S)
    except TimeoutError:
        why = bot.store.trouble  # PostgreSQL: why the last connection attempt failed
        database = f"no answer within {DATABASE_TIMEOUT_S:g} s" + (f" ({why})" if why else "")
    except Exception as exc:  # any failure of the database is "not ready"
        database = " ".join(f"{type(exc).__name__}: {exc}".split())
    ready = bot.is_ready() and bool(shards) and all(shards.values()) and database == "ok"
    body: dict[str, object] = {
        "ready": ready,
        "shards": {str(k): "connected" if up else "disconnected" for k, up in shards.items()},
        "database": database,
    }
    return ready, body


class Health:
    """The health checks (``HEALTH_PORT``): ``/healthz``, 200 while the event loop runs; ``/readyz``,
    200 when :func:`readiness` says so, else 503, with the player view's budget and load (``web``);
    ``/metrics`` (:mod:`bot.interface.metrics`)."""

    def __init__(
        self, bot: HarmoniesBot, host: str, port: int, *, player_view: PlayerView | None = None
    ) -> None:
        self.bot = bot
        self.player_view = player_view
        self.host = host
        self.port = port
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/healthz", self._alive)
        app.router.add_get("/readyz", self._ready)
        app.router.add_get("/metrics", self._metrics)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, self.host, self.port).start()
        where = f"http://{self.host}:{self.port}"
        log.info("Health checks on %s/healthz and /readyz, metrics on %s/metrics", where, where)

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _alive(self, request: web.Request) -> web.Response:
        return web.json_response({"alive": True})

    async def _ready(self, request: web.Request) -> web.Response:
        ready, body = await readiness(self.bot)
        if self.player_view is not None:
            body["web"] = self.player_view.status()
        return web.json_response(body, status=200 if ready else 503)

    async def _metrics(self, request: web.Request) -> web.Response:
        return web.Response(body=self.bot.metrics.text(), headers={"Content-Type": CONTENT_TYPE_LATEST})
