"""The real bot process on a damaged database file: found by the integrity check every start-up runs
(in the background), the bot stops with one line on the console and a non-zero exit."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.storage.store import Store
from tests.e2e.game import GUILD, server_payload
from tests.e2e.test_failures import one_line_error, start_and_wait
from tests.fakediscord import DiscordStandin

pytestmark = pytest.mark.slow


def damage(path: Path) -> None:
    """Fill a table of its own (nothing of the bot's reads it), then rot bits in its pages."""
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA journal_mode = DELETE")
        conn.execute("CREATE TABLE filler (text TEXT)")
        conn.executemany("INSERT INTO filler VALUES (?)", [("f" * 300,) for _ in range(2000)])
        conn.commit()
    finally:
        conn.close()
    data = bytearray(path.read_bytes())
    page = 4096
    for offset in range(len(data) - 40 * page, len(data) - page, 5 * page):
        data[offset + 100 : offset + 300] = b"\xa5" * 200
    path.write_bytes(bytes(data))


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
