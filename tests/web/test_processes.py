"""Several processes on one PostgreSQL database (issue 29): a page served by one process follows the
changes made by another (NOTIFY at commit, LISTEN in the process serving the page), and a link
revoked through one process ends the pages open on another."""

from __future__ import annotations

from collections.abc import Callable

import aiohttp

from bot.storage.store import Store
from bot.web.server import PlayerView
from tests.table import ALICE, open_table, public, refused
from tests.web.test_page import Stream


async def test_a_page_served_by_another_process_follows_its_changes(
    fresh_postgres: Callable[..., str],
) -> None:
    url = fresh_postgres()
    other = await Store.open(url)  # the other process: its own connections, nothing shared in memory
    view = PlayerView(other, "127.0.0.1", 0)
    try:
        await view.start()
        assert view.changes is not None
        await view.changes.listening.wait()
        base = f"http://127.0.0.1:{view.port}"
        async with open_table(url) as table, aiohttp.ClientSession() as http:
            table.bot.settings = table.bot.settings.model_copy(update={"web_base_url": base})
            await table.create("Aria", ALICE)
            link = refused(await table.run("board", {"link": True})).split(": ", 1)[1].split()[0]
            assert link.startswith(base)
            async with http.get(link + "/events") as response:
                updates = Stream(response)
                assert "unhurt" in await updates.party()
                public(await table.run("wound", {"severity": "serious", "character": "Aria"}))
                assert "serious 1/2" in await updates.party()
                refused(await table.run("board", {"link": True, "revoke": True}))
                assert await updates.next() == ("gone", "")
            async with http.get(link) as page:
                assert page.status == 404
    finally:
        await view.close()
        await other.close()
