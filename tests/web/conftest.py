"""A game table (the fake Discord, the real bot and database) with its player view served on a free
port of this machine."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from dataclasses import dataclass

import aiohttp
import pytest
from playwright.async_api import Browser, async_playwright

from bot.web.limits import AddressLimits, Budget
from bot.web.server import PlayerView
from tests.bot.conftest import table
from tests.table import GM, GUILD, OWNER, Table, refused

__all__ = ["Served", "browser", "served", "table"]

CHROMIUM = "/usr/bin/chromium"
"""Debian's Chromium (Playwright's own downloads are not used)."""
PATIENCE_MS = 15_000
"""How long to wait for what must come (not a speed requirement: that is measured in bench/)."""


@dataclass
class Served:
    table: Table
    view: PlayerView
    base: str
    http: aiohttp.ClientSession

    async def link(self, *, guild: int = GUILD, revoke: bool = False, locale: str = "en-US") -> str:
        """What /board link:True answers a GM (the address of the page); in the other server (a French
        one), its owner."""
        options = {"link": True, "revoke": True} if revoke else {"link": True}
        user, guild_locale = (GM, "en-US") if guild == GUILD else (OWNER, "fr")  # as in guild_payloads()
        text = refused(
            await self.table.run(
                "board", options, guild=guild, user=user, locale=locale, guild_locale=guild_locale
            )
        )
        found = re.search(re.escape(self.base) + r"/[A-Za-z0-9_-]+", text)
        assert found is not None, text
        return found.group(0)

    async def get(self, url: str, **headers: str) -> tuple[int, str, dict[str, str]]:
        async with self.http.get(url, headers=headers) as response:
            return response.status, await response.text(), dict(response.headers)


async def serve(
    table: Table, limits: AddressLimits | None = None, budget: Budget | None = None
) -> PlayerView:
    view = PlayerView(table.store, "127.0.0.1", 0, limits=limits, budget=budget)
    await view.start()
    if view.changes is not None:  # PostgreSQL: listening before the test changes anything
        await view.changes.listening.wait()
    return view


@pytest.fixture
async def served(table: Table) -> AsyncIterator[Served]:
    view = await serve(table)
    base = f"http://127.0.0.1:{view.port}"
    table.bot.settings = table.bot.settings.model_copy(update={"web_base_url": base})
    try:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(sock_read=60)) as http:
            yield Served(table, view, base, http)
    finally:
        await view.close()


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=CHROMIUM)
        try:
            yield launched
        finally:
            await launched.close()
