"""``GET /metrics``, scraped for real on 127.0.0.1 after real commands through the fake Discord, on
both backends (the gateway's latency is scraped from a bot process: tests/e2e/test_graceful_stop.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.interface.run import Health
from bot.storage.sqlite import SqliteDatabase
from tests import fakediscord as harness
from tests.bot.test_health import free_port
from tests.prometheus import Samples, fetch, scrape, value
from tests.table import ALICE, GM, GM_ROLE, GUILD, Table, public, refused


def count(samples: Samples, name: str, **labels: str) -> float:
    return value(samples, name, **labels) or 0.0


@pytest.fixture
async def port(table: Table) -> AsyncIterator[int]:
    chosen = free_port()
    health = Health(table.bot, "127.0.0.1", chosen)
    await health.start()
    try:
        yield chosen
    finally:
        await health.close()


async def test_metrics_count_commands_by_outcome_units_groups_and_board_edits(
    table: Table, port: int
) -> None:
    before = await scrape(port)
    board = await table.run("board")
    public(board)
    await table.create("Aria")
    public(await table.run("wound", {"severity": "light", "character": "Aria"}))
    public(await table.run("wound", {"severity": "serious", "character": "Aria", "note": "a fall"}))
    refused(await table.run("wound", {"severity": "light", "character": "Nobody"}))
    refused(await table.run("config gm-role", {"role": harness.role(GM_ROLE, "MJ")}, user=ALICE))
    payload = harness.slash(
        "wound", {"severity": "light", "character": "Aria"}, guild_id=GUILD, user_id=GM, roles=(GM_ROLE,)
    )
    public(await harness.dispatch(table.fake, table.bot, payload))
    await harness.dispatch(table.fake, table.bot, payload)  # a gateway replay: applied once, not answered
    await table.bot.boards.settled()

    kind, _ = await fetch(port)
    after = await scrape(port)
    assert kind.startswith("text/plain; version=")
    assert count(after, "harmonies_commands_total", command="wound", outcome="answered") == 3
    assert count(after, "harmonies_commands_total", command="wound", outcome="refused") == 1
    assert count(after, "harmonies_commands_total", command="wound", outcome="replayed") == 1
    assert count(after, "harmonies_commands_total", command="character create", outcome="answered") == 1
    assert count(after, "harmonies_commands_total", command="config gm-role", outcome="refused") == 1
    assert count(after, "harmonies_commands_total", command="board", outcome="answered") == 1
    assert count(after, "harmonies_command_seconds_count", command="wound") == 5
    assert count(after, "harmonies_command_seconds_bucket", command="wound", le="+Inf") == 5
    # Units: the board's bookkeeping is not one (a game change is); both refusals and the replay rolled
    # theirs back.
    committed = count(after, "harmonies_unit_seconds_count", outcome="committed")
    committed_before = count(before, "harmonies_unit_seconds_count", outcome="committed")
    assert committed - committed_before == 4  # the character, three wounds
    failed = count(after, "harmonies_unit_seconds_count", outcome="rolled_back")
    assert failed - count(before, "harmonies_unit_seconds_count", outcome="rolled_back") == 3
    groups = count(after, "harmonies_sqlite_group_units_sum")
    if isinstance(table.store.database, SqliteDatabase):
        assert groups >= committed + failed  # every unit went through a group (boards' too)
    else:
        assert groups == 0
    assert count(after, "harmonies_database_units_in_use") == 0  # nothing is running now
    assert count(after, "harmonies_database_units_waiting") == 0
    edits = len(table.fake.requests_for("PATCH", "/channels/{channel_id}/messages/{message_id}"))
    assert edits >= 1
    assert count(after, "harmonies_board_edits_total") == edits
    assert count(after, "process_resident_memory_bytes") > 0
    # Low cardinality: no server, user or character in any label.
    for name, labels in after:
        for _, label in labels:
            assert not label.isdigit() or len(label) < 6, (name, labels)
            assert "Aria" not in label and "Nobody" not in label, (name, labels)
