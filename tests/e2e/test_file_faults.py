"""The real bot process on a damaged database file: found by the integrity check every start-up runs
(in the background), the bot stops with one line on the console and a non-zero exit."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.storage.store import Store
from tests.databases import damage
from tests.e2e.game import GUILD, server_payload
from tests.e2e.test_failures import one_line_error, start_and_wait
from tests.fakediscord import DiscordStandin

pytestmark = pytest.mark.slow


async def test_a_damaged_database_stops_the_bot_with_one_line(tmp_path: Path) -> None:
    db_path = tmp_path / "harmonies.db"
    store = await Store.open(f"sqlite:///{db_path}")
    await store.close()
    damage(db_path)
    async with DiscordStandin(guilds=[server_payload(GUILD)]) as standin:
        env = standin.bot_env(DATABASE_URL=f"sqlite:///{db_path}", LOG_LEVEL="ERROR")
        code, output = await start_and_wait(env, tmp_path, "damaged")
    assert code != 0
    line = one_line_error(output)
    assert "damaged" in line and "backup" in line
