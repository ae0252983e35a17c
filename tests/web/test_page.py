"""The player view over HTTP (issue 29): the page shows the party as the board does, in the server's
language, characters only; it follows every change through its update stream; a revoked link ends its
open pages and answers 404 like an unknown one."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import aiohttp
import pytest

from tests import fakediscord as harness
from tests.table import ALICE, BOB, GM, GUILD, OTHER_GUILD, OWNER, public, risky_sessions
from tests.web.conftest import Served

DISCORD_IDS = [str(i) for i in (ALICE, BOB, GM, OWNER, GUILD, OTHER_GUILD)]


class Stream:
    """An open update stream, read event by event."""

    def __init__(self, response: aiohttp.ClientResponse) -> None:
        self.response = response

    async def next(self) -> tuple[str, str]:
        """The next event (its name and data); comments, ``retry`` and the ``alive`` heartbeats are passed
        by."""
        name, data = "message", list[str]()
        while True:
            raw = await self.response.content.readline()
            assert raw, "the stream ended"
            line = raw.decode().rstrip("\n")
            if line == "":
                if name == "alive":
                    name, data = "message", []
                elif data or name != "message":
                    return name, "\n".join(data)
                continue
            field, _, value = line.partition(": ")
            if field == "event":
                name = value
            elif field == "data":
                data.append(value)

    async def party(self) -> str:
        name, data = await self.next()
        assert name == "party", (name, data)
        return data


@asynccontextmanager
async def stream(served: Served, link: str) -> AsyncIterator[Stream]:
    async with served.http.get(link + "/events") as response:
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/event-stream")
        yield Stream(response)


async def party_table(served: Served) -> None:
    table = served.table
    await table.create("Aria", ALICE)
    await table.create("Bruno", BOB)
    await table.create("Goblin")
    await table.create("Hidden Ogre")
    public(await table.run("board"))
    await table.run("board", {"add": "Goblin"})
    public(await table.run("wound", {"severity": "serious", "character": "Aria", "count": 2}))


async def test_the_page_shows_the_party_as_the_board_does_without_any_discord_id(served: Served) -> None:
    await party_table(served)
    link = await served.link()
    status, page, headers = await served.get(link)
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    for name in ("Aria", "Bruno", "Goblin"):
        assert name in page
    assert "Hidden Ogre" not in page  # an NPC not put on a board
    assert "serious 2/2" in page and "Physical" in page and "penalty" in page
    assert page.count('class="mark square s1"') == 2
    assert "NPC" in page
    for discord_id in DISCORD_IDS:
        assert discord_id not in page
    assert "<@" not in page and "MJ" not in page  # no mention, no role


async def test_the_page_follows_every_change_through_its_stream(served: Served) -> None:
    await party_table(served)
    link = await served.link()
    async with stream(served, link) as updates:
        first = await updates.party()
        assert "serious 2/2" in first and "Hidden Ogre" not in first
        public(await served.table.run("wound", {"severity": "light", "character": "Bruno"}))
        assert "light 1/4" in await updates.party()
        await served.table.run("board", {"add": "Hidden Ogre"})  # an NPC put on the board
        assert "Hidden Ogre" in await updates.party()


async def test_a_secret_npc_shows_only_its_word(served: Served) -> None:
    await party_table(served)
    public(await served.table.run("config secret-npcs", {"secret": True, "character": "Goblin"}))
    await served.table.run("wound", {"severity": "serious", "character": "Goblin", "count": 2})
    _, page, _ = await served.get(await served.link())
    goblin = page[page.index("Goblin") :]
    goblin = goblin[: goblin.index("</li>")]
    assert "badly wounded" in goblin and "kept secret by the GMs" in goblin
    for figure in ("serious", "2/2", "penalty", "mark", "Physical"):
        assert figure not in goblin, figure


async def test_the_page_speaks_the_servers_language(served: Served) -> None:
    public(await served.table.run("config language", {"language": "fr"}))
    await served.table.create("Aria", ALICE)
    _, page, _ = await served.get(await served.link())
    assert '<html lang="fr" class="screen">' in page and "Le groupe" in page and "indemne" in page


async def test_each_link_shows_its_own_server_only(served: Served) -> None:
    await party_table(served)
    here = await served.link()
    there = await served.link(guild=OTHER_GUILD)
    _, page, _ = await served.get(there)
    assert "Aria" not in page and "Goblin" not in page and "Aucun personnage" in page  # a French server
    async with stream(served, there) as updates:
        assert "Aria" not in await updates.party()
        public(await served.table.run("wound", {"severity": "light", "character": "Aria"}))
        options = {"name": "Zoé", "player": harness.user(ALICE)}  # a player character: on the page
        public(await served.table.run("character create", options, guild=OTHER_GUILD, user=OWNER))
        while "Zoé" not in (shown := await updates.party()):
            assert "Aria" not in shown
        assert "Aria" not in shown
    _, page, _ = await served.get(here)
    assert "Aria" in page and "Zoé" not in page


async def test_a_revoked_link_ends_its_open_pages_and_answers_404(served: Served) -> None:
    await party_table(served)
    old = await served.link()
    async with stream(served, old) as updates:
        await updates.party()
        new = await served.link(revoke=True)
        assert await updates.next() == ("gone", "")
    status, page, _ = await served.get(old)
    assert status == 404
    unknown_status, unknown_page, _ = await served.get(served.base + "/" + "A" * 32)
    assert (unknown_status, unknown_page) == (status, page)  # revoked and unknown: the same answer
    assert (await served.get(old + "/events"))[0] == 404
    assert (await served.get(new))[0] == 200


async def test_a_burst_of_changes_costs_one_update_and_the_last_state_is_sent(served: Served) -> None:
    gate = asyncio.Event()  # the pause between two updates lasts until the test opens it

    async def pause(_: float) -> None:
        await gate.wait()

    served.view.feeds.sleep = pause
    await served.table.create("Aria", ALICE)
    link = await served.link()
    async with stream(served, link) as updates:
        assert "unhurt" in await updates.party()
        renders = served.view.feeds.renders
        for _ in range(5):
            public(await served.table.run("wound", {"severity": "light", "character": "Aria"}))
        assert served.view.feeds.renders == renders  # nothing during the pause
        gate.set()
        _, page, _ = await served.get(link)
        now = page[page.index("<h1>") : page.index("</main>")]
        sent = [await updates.party()]
        while sent[-1] != now:  # on PostgreSQL, a notification may come after the first render
            sent.append(await updates.party())
        assert len(sent) <= 2


async def test_a_change_that_does_not_show_on_the_page_sends_nothing(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    await party_table(served)
    link = await served.link()
    rendered = asyncio.Event()
    render = served.view.feeds.render

    async def render_and_tell(digest: str) -> str | None:
        try:
            return await render(digest)
        finally:
            rendered.set()

    monkeypatch.setattr(served.view.feeds, "render", render_and_tell)
    async with stream(served, link) as updates:
        first = await updates.party()
        rendered.clear()
        await served.table.run("wound", {"severity": "light", "character": "Hidden Ogre"})  # not on a board
        await asyncio.wait_for(rendered.wait(), 15)  # read and rendered again: the same page
        public(await served.table.run("wound", {"severity": "light", "character": "Bruno"}))
        after = await updates.party()  # the next update sent is Bruno's wound, not the same page again
        assert after != first and "light 1/4" in after


async def test_only_a_session_worth_offering_is_shown_as_good_news(served: Served) -> None:
    table = served.table
    await risky_sessions(table)
    public(await table.run("board"))
    _, page, _ = await served.get(await served.link())

    def item(name: str) -> str:
        start = page.rindex("<li", 0, page.index(f'<span class="name">{name}</span>'))
        return page[start : page.index("</li>", start)]

    cara, bastien, dora = item("Cara"), item("Bastien"), item("Dora")
    assert '<div class="heal risky">☠️ healing can kill — ' in cara and "can heal" not in cara
    assert '<div class="heal risky">⛔ healing can hardly succeed — ' in bastien and "can heal" not in bastien
    assert '<div class="heal">🩹 can heal — ' in dora
    # Read aloud, the same words.
    assert "healing can kill" in cara[: cara.index(">")] and "can heal" in dora[: dora.index(">")]
