"""The public page cannot take the bot down (issue 36). The real bot process (``python -m bot``) under
``prlimit --nofile=1024:1024`` (the open-files limit a service commonly runs with), serving the player
view, over the Discord stand-in; the page attacked from 60 loopback addresses (two processes of
``tests/web/attack.py``) while a GM keeps playing ``/wound`` through Discord:

* a flood of update streams (30 per address, reopened as an impatient EventSource would);
* slow requests (30 per address, their headers sent a byte every 3 s);
* bogus links (30 clients per address asking one after the other, a database lookup each).

Each asserts: every interaction answered in time (the stand-in holds Discord's 3-second deadline),
nothing committed without an answer, the bot alive, and a viewer served once the attack stops.
The figures of each run are printed (docs/player-view.md, "What it withstands")."""

from __future__ import annotations

import asyncio
import json
import re
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.e2e.process import BotProcess
from tests.e2e.running import bot_env, read_db, rows, server_payload, wait_ready_after
from tests.e2e.test_shards import free_port
from tests.fakediscord import DiscordStandin
from tests.table import ALICE, GUILD, Table, answered, player
from tests.web.test_page import Stream

pytestmark = pytest.mark.slow

OPEN_FILES = 1024
ADDRESSES = (2, 61)  # 127.0.0.2 … 127.0.0.61, split over two attacking processes
PER_ADDRESS = 30
ATTACK_S = 16.0
CHARACTERS = ("Aria", "Brann", "Cael", "Dara", "Eli", "Fara", "Gus", "Hale")
BURSTS = 4  # a light wound on each character at once, from the attack's 4th second: none escalates
WOUNDS = BURSTS * len(CHARACTERS)


async def attackers(kind: str, url: str) -> list[asyncio.subprocess.Process]:
    low, high = ADDRESSES
    middle = (low + high) // 2
    return [
        await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.web.attack",
            kind,
            url,
            str(first),
            str(last),
            str(PER_ADDRESS),
            str(ATTACK_S),
            stdout=asyncio.subprocess.PIPE,
        )
        for first, last in ((low, middle), (middle + 1, high))
    ]


async def results(processes: list[asyncio.subprocess.Process]) -> dict[str, int]:
    """What the attackers got, added up (each stops at its deadline)."""
    total: dict[str, int] = {}
    for process in processes:
        out, _ = await asyncio.wait_for(process.communicate(), ATTACK_S + 30)
        for key, count in json.loads(out.decode().strip().splitlines()[-1]).items():
            total[key] = total.get(key, 0) + count
    return total


async def readyz(port: int) -> dict[str, Any]:
    """The body of ``/readyz`` (empty when it could not be had)."""
    try:
        async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}/readyz") as answer:
            body: dict[str, Any] = await answer.json()
            return body
    except aiohttp.ClientError as error:
        return {"error": repr(error)}


@pytest.mark.parametrize("kind", ["streams", "slow", "links"])
async def test_an_attack_on_the_page_leaves_discord_answered(kind: str, tmp_path: Path) -> None:
    web_port, health_port = free_port(), free_port()
    database = f"sqlite:///{tmp_path / 'harmonies.db'}"
    async with DiscordStandin(guilds=[server_payload(GUILD)]) as standin:
        standin.callback_deadline = 3.0
        env = bot_env(
            standin,
            database,
            WEB_PORT=str(web_port),
            WEB_BASE_URL=f"http://127.0.0.1:{web_port}",
            HEALTH_PORT=str(health_port),
        )
        argv = ["prlimit", f"--nofile={OPEN_FILES}:{OPEN_FILES}", sys.executable, "-m", "bot"]
        bot = await BotProcess.start(argv, env=env, log_path=tmp_path / "bot.log")
        standin.watch(bot.unexpected_exit)
        try:
            await wait_ready_after(standin, bot)
            table = Table.over(standin, GUILD)
            await table.setup_gm_role()
            for name in CHARACTERS:
                await table.say("character create", {"name": name, "player": player(ALICE)})
            answer = await table.say("board", {"link": True}, public=False)
            found = re.search(r"http://127\.0\.0\.1:\d+/[A-Za-z0-9_-]+", answer.text)
            assert found is not None, answer.text
            link = found.group(0)
            before = await readyz(health_port)

            attack = await attackers(kind, link)
            began = time.monotonic()
            await asyncio.sleep(4)  # the attack at its height
            during = await readyz(health_port)
            sent = []
            for _ in range(BURSTS):  # several tables at once: the bot needs new connections to Discord
                sent += await asyncio.gather(
                    *(
                        table.send("wound", {"severity": "light", "character": c}, wait=False)
                        for c in CHARACTERS
                    )
                )
                await asyncio.sleep(1.5)
            replies = [await answered(interaction, within=15) for interaction in sent]
            late = [
                r.at - i.sent_at
                for i in sent
                for r in i.callbacks[:1]
                if r.at - i.sent_at > standin.callback_deadline
            ]
            seen = await results(attack)
            after = await readyz(health_port)
            attack_s = time.monotonic() - began
            print(f"{kind}: {attack_s:.0f} s of attack: {seen}; /readyz during it: {during.get('web')}")
            times = [round(r.at - i.sent_at, 2) for i in sent for r in i.callbacks[:1]]
            print(f"{kind}: the wounds answered in {times} s")

            # Every interaction answered, in time; the bot alive, and a viewer served after.
            assert [("light" in r.text and not r.ephemeral) for r in replies] == [True] * WOUNDS, [
                r.text for r in replies
            ]
            assert late == []
            assert bot.returncode is None, bot.output()[-3000:]
            async with aiohttp.ClientSession() as http:
                async with http.get(link) as page:
                    assert page.status == 200 and "Aria" in await page.text()
                async with http.get(link + "/events") as events:
                    assert events.status == 200
                    updates = Stream(events)
                    assert "light 4/4" in await updates.party()
                    await table.say("wound", {"severity": "serious", "character": "Aria"})
                    assert "serious 1/2" in await updates.party()
            # The budget, from the limit, with its reserve; never exceeded.
            budget = before["web"]
            assert budget["open_files_limit"] == OPEN_FILES and budget["streams"] == 0
            assert budget["budget"] + budget["reserve"] < OPEN_FILES and budget["reserve"] >= 256
            assert 0 < during.get("web", {})["connections"] <= budget["budget"]
            if kind == "streams":  # held streams: those over their cap are answered 503 (connections
                # over the budget are refused too when enough arrive at once, which depends on timing)
                assert seen.get("503", 0) > 0 and during["web"]["streams"] > 0
            elif kind == "slow":  # held connections: over the budget, some are refused at once; bogus
                # links are answered and closed at once, so whether any is refused depends on timing
                assert after["web"]["refused"] > 0
        finally:
            await bot.stop()
            print(f"---- bot output (exit {bot.returncode}) ----\n{bot.output()[-6000:]}")
    output = bot.output()
    assert "Malformed interaction" not in output and "Task exception was never retrieved" not in output
    assert "could not reach Discord" not in output
    with read_db(database) as conn:  # nothing committed without an answer: every wound is one answered
        assert rows(conn, "SELECT COUNT(*) FROM events WHERE kind = 'wound'") == [(WOUNDS + 1,)]
