"""Health checks for a service manager or a load balancer (``HEALTH_PORT``), with aiohttp:

* ``GET /healthz``: 200 while the process runs its event loop (alive);
* ``GET /readyz``: 200 when every shard of this process is connected to the gateway and the database
  answers, else 503. The body says which part is not ready, and, when the process serves the player
  view, its budget of connections and what it holds (``web``);
* ``GET /metrics``: the bot's numbers in Prometheus's text format (:mod:`bot.interface.metrics`).

They listen on 127.0.0.1 unless ``HEALTH_HOST`` says otherwise (``0.0.0.0`` in a container).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST

if TYPE_CHECKING:
    from bot.interface.client import HarmoniesBot
    from bot.web.server import PlayerView

log = logging.getLogger(__name__)

DATABASE_TIMEOUT_S = 2.0
META_PROBE = "health_probe"  # a meta key read (never written) to see that the database answers


def shard_states(bot: HarmoniesBot) -> dict[int, bool]:
    """Whether each shard this process should run is connected (false until it first connects)."""
    count = bot.shard_count
    if count is None:  # not launched yet: Discord has not said how many shards there are
        return {}
    ids = bot.shard_ids if bot.shard_ids is not None else range(count)
    states = {}
    for shard_id in ids:
        shard = bot.get_shard(shard_id)
        states[shard_id] = shard is not None and not shard.is_closed()
    return states


async def database_answers(bot: HarmoniesBot) -> str | None:
    """None when the database answers a read within the timeout, else why not (one line)."""
    try:
        probe = bot.store.meta(META_PROBE)
        await asyncio.wait_for(probe, DATABASE_TIMEOUT_S)
    except TimeoutError:
        why = bot.store.database.trouble  # PostgreSQL: why the last connection attempt failed
        return f"no answer within {DATABASE_TIMEOUT_S:g} s" + (f" ({why})" if why else "")
    except Exception as exc:  # any failure of the database is "not ready", said in one line
        return " ".join(f"{type(exc).__name__}: {exc}".split())
    return None


async def readiness(bot: HarmoniesBot) -> tuple[bool, dict[str, object]]:
    shards = shard_states(bot)
    database = await database_answers(bot)
    ready = bot.is_ready() and bool(shards) and all(shards.values()) and database is None
    body: dict[str, object] = {
        "ready": ready,
        "shards": {str(k): "connected" if up else "disconnected" for k, up in shards.items()},
        "database": "ok" if database is None else database,
    }
    return ready, body


class Health:
    """The health endpoints of one bot process: ``await start()``, ``await close()``."""

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
