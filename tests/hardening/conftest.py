from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests import fakediscord as harness
from tests.hardening.support import Hardened
from tests.table import GUILD, OTHER_GUILD, OWNER, open_table


@pytest.fixture
async def hard(sqlite_url: str) -> AsyncIterator[Hardened]:
    """The real bot on a fresh SQLite database, every interaction checked (support.Hardened). The
    backend plays no part in what these tests attack: isolation between servers is also a storage test
    on both backends (tests/storage)."""
    async with open_table(sqlite_url) as table:
        # The fuzz rolls healing with the bot's dice at any odds: both servers turn off the private
        # question before a risky session (tests/bot/test_heal_confirmation.py covers the question).
        for guild in (GUILD, OTHER_GUILD):
            await table.run("config dice", {"ask-before-healing": "never"}, user=OWNER, guild=guild)
        hardened = Hardened(table)
        yield hardened
        hardened.looker.close()
        # Every request the bot made, whatever the test did, must be valid for Discord.
        harness.assert_valid(table.fake.requests, strict=True)
