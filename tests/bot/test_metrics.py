"""``GET /metrics``, scraped for real on 127.0.0.1 after real commands through the fake Discord, on
both backends (the gateway's latency is scraped from a bot process: tests/e2e/test_graceful_stop.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.interface.health import Health
from bot.storage.database import SqliteDatabase
from tests import fakediscord as harness
from tests.bot.table import ALICE, GM_ROLE, Table, public, refused
from tests.bot.test_health import free_port

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


async def scrape(port: int) -> tuple[str, Samples]:
    """The content type, and every sample by (name, sorted labels)."""
    async with (
        aiohttp.ClientSession() as http,
        http.get(f"http://127.0.0.1:{port}/metrics") as response,
    ):
        assert response.status == 200
        text = await response.text()
        kind = response.headers["Content-Type"]
    samples: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return kind, samples


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


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
    _, before = await scrape(port)
    board = await table.run("board")
    public(board)
    await table.create("Aria")
    public(await table.run("wound", {"severity": "light", "character": "Aria"}))
    public(await table.run("wound", {"severity": "serious", "character": "Aria", "note": "a fall"}))
    refused(await table.run("wound", {"severity": "light", "character": "Nobody"}))
    refused(await table.run("config gm-role", {"role": harness.role(GM_ROLE, "MJ")}, user=ALICE))
    await table.bot.boards.settled()

    kind, after = await scrape(port)
    assert kind.startswith("text/plain; version=")
    assert value(after, "harmonies_commands_total", command="wound", outcome="answered") == 2
    assert value(after, "harmonies_commands_total", command="wound", outcome="refused") == 1
    assert value(after, "harmonies_commands_total", command="character create", outcome="answered") == 1
    assert value(after, "harmonies_commands_total", command="config gm-role", outcome="refused") == 1
    assert value(after, "harmonies_commands_total", command="board", outcome="answered") == 1
    assert value(after, "harmonies_command_seconds_count", command="wound") == 3
    assert value(after, "harmonies_command_seconds_bucket", command="wound", le="+Inf") == 3
    # Units: the board's bookkeeping is not one (a game change is); both refusals rolled theirs back.
    committed = value(after, "harmonies_unit_seconds_count", outcome="committed")
    committed_before = value(before, "harmonies_unit_seconds_count", outcome="committed")
    assert committed - committed_before == 3  # the character, two wounds
    failed = value(after, "harmonies_unit_seconds_count", outcome="rolled_back")
    assert failed - value(before, "harmonies_unit_seconds_count", outcome="rolled_back") == 2
    groups = value(after, "harmonies_sqlite_group_units_sum")
    if isinstance(table.store.database, SqliteDatabase):
        assert groups >= committed + failed  # every unit went through a group (boards' too)
    else:
        assert groups == 0
    assert value(after, "harmonies_database_units_in_use") == 0  # nothing is running now
    assert value(after, "harmonies_database_units_waiting") == 0
    edits = len(table.fake.requests_for("PATCH", "/channels/{channel_id}/messages/{message_id}"))
    assert edits >= 1
    assert value(after, "harmonies_board_edits_total") == edits
    assert value(after, "process_resident_memory_bytes") > 0
    # Low cardinality: no server, user or character in any label.
    for name, labels in after:
        for _, label in labels:
            assert not label.isdigit() or len(label) < 6, (name, labels)
            assert "Aria" not in label and "Nobody" not in label, (name, labels)
