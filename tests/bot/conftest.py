from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.fakediscord import check_requests
from tests.table import Table, open_table


@pytest.fixture
async def table(sqlite_url: str) -> AsyncIterator[Table]:
    """The real bot on SQLite: the backend plays no part in dispatch (test_every_command.py runs every
    command on each backend; the storage and end-to-end tests run on both)."""
    async with open_table(sqlite_url) as table:
        yield table
        # Every request the bot made, whatever the test did, must be valid for Discord and ping no one
        # it should not.
        check_requests(table.fake.requests)
