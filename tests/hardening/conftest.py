from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests import fakediscord as harness
from tests.bot.table import open_table
from tests.hardening.support import Hardened


@pytest.fixture
async def hard(database_url: str) -> AsyncIterator[Hardened]:
    """The real bot on a fresh database of each backend, every interaction checked (support.Hardened)."""
    async with open_table(database_url) as table:
        hardened = Hardened(table)
        yield hardened
        hardened.looker.close()
        # Every request the bot made, whatever the test did, must be valid for Discord.
        harness.assert_valid(table.fake.requests, strict=True)
