"""Every command once, through the real dispatch, on each backend: the smoke that keeps PostgreSQL in the
dispatch tests. The other command tests run on SQLite alone (the backend plays no part in them; the
storage and end-to-end tests run on both)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests import fakediscord as harness
from tests.databases import characters_of
from tests.fakediscord import check_requests
from tests.table import ALICE, GM, GUILD, Table, open_table, public, shown


@pytest.fixture
async def any_table(database_url: str) -> AsyncIterator[Table]:
    async with open_table(database_url) as table:
        yield table
        check_requests(table.fake.requests)


def answered(reply: harness.Reply) -> str:
    """Delivered, and answered by the bot (publicly or privately), with no error anywhere."""
    assert reply.delivered, reply.undelivered_reason
    assert reply.errors == [], reply.errors
    assert shown(reply), "no answer"
    return reply.text


async def test_every_command_answers_on_each_backend(any_table: Table) -> None:
    table = any_table
    await table.create("Aria", ALICE, corps=2, resistance=1)
    await table.create("Goblin")
    public(await table.run("character show", {"character": "Aria"}))
    public(await table.run("character list"))
    answered(await table.run("character select", {"character": "Aria"}, user=ALICE))
    public(await table.run("character edit", {"character": "Goblin", "name": "Gobelin"}))
    public(await table.run("wound", {"severity": "light", "target": harness.user(ALICE)}))
    table.rng.queue[:] = [5, 1]
    public(await table.run("wound", {"damage": 25, "character": "Gobelin"}))
    public(await table.run("mental", {"severity": "shock", "character": "Aria"}))
    public(await table.run("rest", {"days": 1}))
    public(await table.run("heal roll", {"character": "Aria", "dice": "9-1"}, user=ALICE))
    public(await table.run("heal mental", {"severity": "shock", "character": "Aria"}))
    public(await table.run("wound", {"severity": "serious", "character": "Aria"}))
    public(await table.run("heal wound", {"severity": "serious", "character": "Aria"}))
    public(await table.run("roll", {"modifier": 2, "dice": "6-2"}, user=ALICE))
    public(await table.run("history"))
    public(await table.run("undo"))
    public(await table.run("board"))
    answered(await table.run("board", {"add": "Gobelin"}))
    public(await table.run("config show"))
    settings: list[tuple[str, dict[str, Any]]] = [
        ("config penalties", {"track": "physical", "light": -2}),
        ("config rest", {"track": "physical", "light": 2}),
        ("config difficulty", {"track": "physical", "light": 1}),
        ("config preset", {"name": "troll", "light": 6}),
        ("config damage", {"light": 12}),
        ("config dice", {"open-rolls": True}),
        ("config players-create", {"allowed": False}),
        ("config secret-npcs", {"secret": True}),
        ("config language", {"language": "fr"}),
    ]
    for command, options in settings:
        public(await table.run(command, options))
    exported = await table.run("config export")
    (message,) = shown(exported)
    (file,) = message.files
    attachment = harness.attachment("harmonies.json", file.data, "application/json")
    public(await table.run("config import", {"file": attachment}))
    ask = await table.run("character delete", {"character": "Aria"})
    confirm = (ask.message or {})["components"][0]["components"][0]["custom_id"]
    done = await table.click(confirm, ask, user=GM)
    assert done.errors == [] and not done.followups[-1].ephemeral, done.text
    assert [c.name for c in await characters_of(table.store, GUILD)] == ["Gobelin"]
