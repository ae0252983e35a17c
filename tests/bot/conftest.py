from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.bot.table import Table, check_requests, open_table


@pytest.fixture
async def table(database_url: str) -> AsyncIterator[Table]:
    async with open_table(database_url) as table:
        yield table
        # Every request the bot made, whatever the test did, must be valid for Discord and ping no one
        # it should not.
        check_requests(table.fake.requests)
