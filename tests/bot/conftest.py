from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.bot.table import Table, check_requests, open_table


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    async with open_table(tmp_path / "harmonies.db") as table:
        yield table
        # Every request the bot made, whatever the test did, must be valid for Discord and ping no one
        # it should not.
        check_requests(table.fake.requests)
