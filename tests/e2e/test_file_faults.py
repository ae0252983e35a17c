"""The real bot process on a damaged database file (found by the integrity check every start-up runs,
in the background) or on a full disk: the bot stops with one line on the console and a non-zero
exit."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.storage.store import Store
from tests.databases import damage
from tests.e2e.running import server_payload
from tests.e2e.test_failures import one_line_error, start_and_wait
from tests.fakediscord import DiscordStandin
from tests.table import GUILD
from tests.tmpfs import fill, small_tmpfs

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


async def test_a_full_disk_at_start_up_is_one_line(tmp_path: Path) -> None:
    with small_tmpfs(tmp_path / "small", 4) as folder:
        db_path = folder / "harmonies.db"
        store = await Store.open(f"sqlite:///{db_path}")
        await store.close()
        fill(folder)
        async with DiscordStandin(guilds=[server_payload(GUILD)]) as standin:
            env = standin.bot_env(DATABASE_URL=f"sqlite:///{db_path}", LOG_LEVEL="ERROR")
            code, output = await start_and_wait(env, tmp_path, "full")
    assert code != 0
    line = one_line_error(output)
    assert "lock file" in line and "No space left on device" in line, line
