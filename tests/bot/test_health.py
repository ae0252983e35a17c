"""The health endpoints of one bot process, served for real on 127.0.0.1 (the shards themselves are
tried over the gateway in tests/e2e/test_shards.py)."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import aiohttp
from pydantic import SecretStr

from bot.config import Settings
from bot.interface.client import HarmoniesBot
from bot.interface.run import Health, readiness
from bot.storage.store import Store


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def get(port: int, path: str) -> tuple[int, Any]:
    async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}{path}") as response:
        return response.status, await response.json()


async def test_alive_at_once_and_ready_only_with_shards_and_a_database(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'harmonies.db'}"
    settings = Settings(discord_token=SecretStr("token"), database_url=url, shard_count=2)
    store = await Store.open(url)
    bot = HarmoniesBot(settings, store)
    port = free_port()
    health = Health(bot, "127.0.0.1", port)
    await health.start()
    try:
        assert await get(port, "/healthz") == (200, {"alive": True})
        # Not connected yet: both shards are down, the database answers.
        assert await get(port, "/readyz") == (
            503,
            {"ready": False, "shards": {"0": "disconnected", "1": "disconnected"}, "database": "ok"},
        )
        async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}/nothing") as response:
            assert response.status == 404
    finally:
        await health.close()
        await store.close()
    # A database that no longer answers is said in one line.
    ready, body = await readiness(bot)
    assert not ready
    assert isinstance(body["database"], str) and body["database"] != "ok" and "\n" not in body["database"]
