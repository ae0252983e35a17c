"""/board link:True (issue 29): a GM is given the server's player-view link privately; only its digest
is stored; revoke:True stops every link given before; it is in history, and /undo passes it by."""

from __future__ import annotations

import re

import pytest

from bot.rules.severity import Track
from bot.storage.store import digest
from tests.table import ALICE, GUILD, Table, public, refused

BASE = "https://harmonies.example.org/table"
LINK = re.compile(re.escape(BASE) + r"/([A-Za-z0-9_-]+)")


@pytest.fixture
def web_table(table: Table) -> Table:
    table.bot.settings = table.bot.settings.model_copy(update={"web_base_url": BASE})
    return table


def token_of(text: str) -> str:
    found = LINK.search(text)
    assert found is not None, text
    return found.group(1)


async def server_of(table: Table, token: str) -> int | None:
    found = await table.store.party(digest(token))
    return None if found is None else found.guild_id


async def test_a_gm_is_given_a_link_privately_and_only_its_digest_is_kept(web_table: Table) -> None:
    text = refused(await web_table.run("board", {"link": True}))
    token = token_of(text)
    assert len(token) >= 22  # at least 128 random bits (192: 32 characters)
    assert "Links given before still work" in text
    assert await server_of(web_table, token) == GUILD
    rows = await web_table.store.database.read(lambda sql: sql.rows("SELECT * FROM player_views"))
    assert len(rows) == 1 and token not in repr(rows) and digest(token) in repr(rows)
    # A second link: both work (the GM lost the first, say).
    second = token_of(refused(await web_table.run("board", {"link": True})))
    assert second != token and await server_of(web_table, token) == GUILD


async def test_revoking_stops_every_link_before_and_gives_a_new_one(web_table: Table) -> None:
    first = token_of(refused(await web_table.run("board", {"link": True})))
    second = token_of(refused(await web_table.run("board", {"link": True})))
    text = refused(await web_table.run("board", {"link": True, "revoke": True}))
    new = token_of(text)
    assert "stopped working" in text
    assert await server_of(web_table, first) is None and await server_of(web_table, second) is None
    assert await server_of(web_table, new) == GUILD


async def test_in_french_the_link_answer_is_french(web_table: Table) -> None:
    text = refused(await web_table.run("board", {"link": True}, locale="fr"))
    assert "La vue des joueurs de ce serveur" in text and token_of(text)


async def test_only_a_gm_gets_a_link_and_bad_options_change_nothing(web_table: Table) -> None:
    await web_table.create("Goblin")
    assert "GM" in refused(await web_table.run("board", {"link": True}, user=ALICE))
    assert "goes with link:True" in refused(await web_table.run("board", {"revoke": True}))
    assert "goes alone" in refused(await web_table.run("board", {"link": True, "add": "Goblin"}))
    rows = await web_table.store.database.read(lambda sql: sql.rows("SELECT * FROM player_views"))
    assert rows == []


async def test_without_an_address_the_bot_says_the_player_view_is_not_set_up(table: Table) -> None:
    text = refused(await table.run("board", {"link": True}))
    assert "not set up" in text and "WEB_BASE_URL" in text


async def test_links_are_in_history_and_undo_passes_them_by(web_table: Table) -> None:
    await web_table.create("Aria", ALICE)
    public(await web_table.run("wound", {"severity": "light", "character": "Aria"}))
    token = token_of(refused(await web_table.run("board", {"link": True})))
    refused(await web_table.run("board", {"link": True, "revoke": True}))
    history = public(await web_table.run("history"))
    assert "player-view links revoked, a new one given" in history
    assert "player-view link given" in history
    undone = public(await web_table.run("undo"))
    assert "light" in undone  # the wound was undone, not a link
    assert (await web_table.character("Aria")).counts(Track.PHYSICAL) == (0, 0, 0)
    assert await server_of(web_table, token) is None  # undo did not bring a revoked link back
