"""The player view served by the real bot process (``python -m bot`` with ``WEB_PORT``), against the
Discord stand-in: the link a GM is given opens the page, which follows a wound; the process stops
cleanly with a stream open. A bad ``WEB_BASE_URL`` stops the start in one line."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest

from tests.e2e.process import REPO
from tests.e2e.test_shards import GUILD_0, PLAYER, bot_process, free_port, two_shard_standin
from tests.table import Table, player

pytestmark = pytest.mark.slow


async def test_the_bot_process_serves_the_link_it_gives(tmp_path: Path) -> None:
    port = free_port()
    async with two_shard_standin(max_concurrency=2) as standin:
        env = {
            "DATABASE_URL": f"sqlite:///{tmp_path / 'harmonies.db'}",
            "WEB_PORT": str(port),
            "WEB_BASE_URL": f"http://127.0.0.1:{port}",
        }
        async with bot_process(standin, tmp_path / "bot.log", **env) as bot:
            await standin.wait_shards(since=bot.started_at)
            table = Table.over(standin, GUILD_0)
            await table.setup_gm_role()
            await table.say("character create", {"name": "Aria", "player": player(PLAYER)})
            answer = await table.say("board", {"link": True}, public=False)
            found = re.search(r"http://127\.0\.0\.1:\d+/[A-Za-z0-9_-]+", answer.text)
            assert found is not None, answer.text
            link = found.group(0)
            async with aiohttp.ClientSession() as http:
                async with http.get(link) as page:
                    assert page.status == 200 and "Aria" in await page.text()
                async with http.get(link + "/events") as stream:
                    assert stream.status == 200
                    await table.say("wound", {"severity": "light", "target": player(PLAYER)})
                    async for raw in stream.content:
                        if b"light 1/4" in raw:
                            break
                    await bot.stop()  # with the stream still open
        assert bot.returncode == 0, bot.output()


def test_a_bad_base_url_stops_the_start_in_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=REPO,
        env={"DISCORD_TOKEN": "x", "WEB_PORT": "8088", "WEB_BASE_URL": "harmonies.example.org", "PATH": ""},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert done.stderr.strip().splitlines() == [
        "error: bad setting web_base_url: Value error, WEB_BASE_URL must look like "
        "https://harmonies.example.org (got 'harmonies.example.org')"
    ]
