"""The live party board (issue 13): posted by a GM, edited after every change of the server (at most
once per two seconds, never losing the last state), stored (it survives a restart), moved by /board
again, dropped quietly when its message is gone or the bot lost access."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

import pytest

from bot.interface.boards import EDIT_INTERVAL
from bot.storage.store import Board, Reader
from bot.ui.results import COLOURS, State
from tests import fakediscord as harness
from tests.databases import boards_of
from tests.fakediscord import check_requests
from tests.table import ALICE, BOB, GUILD, Table, open_table, public, refused, risky_sessions

EDIT = "/channels/{channel_id}/messages/{message_id}"


class ManualClock:
    """Time that moves only when the test says so: the board's pace is checked without timing."""

    def __init__(self) -> None:
        self.time = 1000.0
        self._moved = asyncio.Event()
        self.sleepers = 0

    def now(self) -> float:
        return self.time

    async def sleep(self, seconds: float) -> None:
        until = self.time + seconds
        self.sleepers += 1
        try:
            while self.time < until:
                self._moved.clear()
                await self._moved.wait()
        finally:
            self.sleepers -= 1

    async def advance(self, seconds: float) -> None:
        self.time += seconds
        self._moved.set()
        for _ in range(5):  # let the woken tasks run
            await asyncio.sleep(0)


@pytest.fixture
async def clock(table: Table) -> AsyncIterator[ManualClock]:
    manual = ManualClock()
    table.bot.boards.now = manual.now
    table.bot.boards.sleep = manual.sleep
    yield manual


def board_edits(table: Table, message_id: int | None = None) -> list[harness.RecordedRequest]:
    edits = table.fake.requests_for("PATCH", EDIT)
    return [r for r in edits if message_id is None or r.path.endswith(f"/{message_id}")]


def board_text(table: Table, message_id: int) -> str:
    message = table.fake.messages[message_id]
    embed = message["embeds"][0]
    return f"{embed['title']}\n{embed.get('description', '')}"


async def settle(table: Table) -> None:
    await table.bot.boards.settled()


async def post(table: Table, **kwargs: Any) -> int:
    reply = await table.run("board", **kwargs)
    public(reply)
    assert reply.message is not None
    return int(reply.message["id"])


async def test_the_board_lists_player_characters_and_is_edited_after_each_change(
    table: Table, clock: ManualClock
) -> None:
    await table.create("Aria", ALICE)
    await table.create("Brann", BOB)
    await table.create("Goblin")
    board = await post(table)
    text = board_text(table, board)
    assert "Party board" in text and "**Aria** · <@" in text and "**Brann**" in text
    assert "Goblin" not in text  # NPCs only when a GM adds them
    steps: list[tuple[str, dict[str, Any], str]] = [
        ("wound", {"severity": "serious", "character": "Aria"}, "🟧 · −3 · serious wound"),
        ("mental", {"severity": "shock", "character": "Aria"}, "🟧 · 🟡 · −4 · serious wound · shock"),
        ("rest", {"days": 7}, "🩹 can heal: success 21% · worsening 10%"),
        ("heal wound", {"severity": "serious", "character": "Aria"}, "🟨 · 🟡 · −2"),
        ("undo", {}, "🟧 · 🟡 · −4"),
    ]
    for command, options, expected in steps:
        public(await table.run(command, options))
        await clock.advance(EDIT_INTERVAL)
        await settle(table)
        assert expected in board_text(table, board), (command, board_text(table, board))
    assert len(board_edits(table, board)) == len(steps)
    for edit in board_edits(table):
        assert edit.json["allowed_mentions"] == {"parse": []}  # the board never pings


async def test_the_board_speaks_the_servers_language(table: Table, clock: ManualClock) -> None:
    await table.create("Aria", ALICE)
    await table.run("config language", {"language": "fr"})
    board = await post(table)
    await table.run("wound", {"severity": "light", "character": "Aria"})
    await clock.advance(EDIT_INTERVAL)
    await settle(table)
    text = board_text(table, board)
    assert "Tableau du groupe" in text and "blessure légère" in text and "−1" in text


async def test_a_burst_of_changes_is_two_edits_and_the_last_state_is_shown(
    table: Table, clock: ManualClock
) -> None:
    await table.create("Aria", ALICE)
    board = await post(table)
    await clock.advance(EDIT_INTERVAL)  # the board was posted long enough ago: the next change shows at once
    public(await table.run("wound", {"severity": "light", "character": "Aria"}))
    await settle_without_time(table, clock)
    assert len(board_edits(table, board)) == 1  # the first change: at once
    for _ in range(5):
        public(await table.run("wound", {"severity": "light", "character": "Aria"}))
    await settle_without_time(table, clock)
    assert len(board_edits(table, board)) == 1  # within two seconds of the last edit: waits
    await clock.advance(EDIT_INTERVAL / 2)
    assert len(board_edits(table, board)) == 1
    await clock.advance(EDIT_INTERVAL / 2)
    await settle(table)
    assert len(board_edits(table, board)) == 2  # then one edit, with the state of the last change
    assert "🟨🟨🟨🟨🟧🟧" in board_text(table, board)


async def settle_without_time(table: Table, clock: ManualClock) -> None:
    """Wait until every board task is done or waits for the clock to move."""
    keeper = table.bot.boards
    for _ in range(5000):
        running = [p.task for p in keeper._paces.values() if p.task is not None and not p.task.done()]
        if len(running) == clock.sleepers and not keeper._loading:
            return
        await asyncio.sleep(0.002)
    raise AssertionError("the board tasks never settled")


async def test_board_again_moves_it_and_npcs_are_added_and_dropped(table: Table, clock: ManualClock) -> None:
    await table.create("Aria", ALICE)
    await table.create("Goblin")
    first = await post(table)
    added = await table.run("board", {"add": "Goblin"})
    assert "Goblin is on the board now" in refused(added)  # a private note to the GM
    await clock.advance(EDIT_INTERVAL)
    await settle(table)
    assert "**Goblin** · NPC" in board_text(table, first)
    edits_of_first = len(board_edits(table, first))
    second = await post(table)
    assert first not in table.fake.messages  # the old message is deleted
    assert "**Goblin** · NPC" in board_text(table, second)  # the NPCs stay with the channel's board
    await table.run("wound", {"severity": "light", "character": "Goblin"})
    await clock.advance(EDIT_INTERVAL)
    await settle(table)
    assert len(board_edits(table, first)) == edits_of_first  # the moved board is no longer edited
    assert "**Goblin** · NPC · 🟨" in board_text(table, second)
    assert "Goblin is off the board" in refused(await table.run("board", {"drop": "Goblin"}))
    await clock.advance(EDIT_INTERVAL)
    await settle(table)
    assert "Goblin" not in board_text(table, second)


async def test_board_refusals_are_private_and_change_nothing(table: Table) -> None:
    await table.create("Aria", ALICE)
    await table.create("Goblin")
    assert "GM" in refused(await table.run("board", user=ALICE))
    assert "/board first" in refused(await table.run("board", {"add": "Goblin"}))
    await post(table)
    assert "player character" in refused(await table.run("board", {"add": "Aria"}))
    assert "not on this channel's board" in refused(await table.run("board", {"drop": "Goblin"}))
    assert "one NPC at a time" in refused(await table.run("board", {"add": "Goblin", "drop": "Goblin"}))
    french = await table.run("board", {"add": "Aria"}, locale="fr")
    assert "personnage joueur" in refused(french)
    assert (await table.bot.boards.board(GUILD, harness.DEFAULT_CHANNEL_ID)) is not None
    assert (await boards_of(table.store, GUILD))[0].npc_ids == ()


async def test_npc_autocomplete_offers_only_npcs(table: Table) -> None:
    await table.create("Aria", ALICE)
    await table.create("Goblin")
    reply = await table.complete("board", {"add": ""}, "add")
    assert [c["name"] for c in reply.choices or []] == ["Goblin (NPC) — unhurt"]


@pytest.mark.parametrize(
    ("status", "code", "message"),
    [(404, 10008, "Unknown Message"), (403, 50001, "Missing Access"), (404, 10003, "Unknown Channel")],
)
async def test_the_board_stops_quietly_when_gone_or_out_of_reach(
    table: Table, clock: ManualClock, status: int, code: int, message: str
) -> None:
    await table.create("Aria", ALICE)
    board = await post(table)
    table.fake.fail("PATCH", EDIT, status=status, body={"message": message, "code": code}, times=None)
    reply = await table.run("wound", {"severity": "light", "character": "Aria"})
    public(reply)
    await clock.advance(EDIT_INTERVAL)
    await settle(table)
    assert len(board_edits(table, board)) == 1
    assert await boards_of(table.store, GUILD) == []  # no longer kept: never tried again
    public(await table.run("wound", {"severity": "light", "character": "Aria"}))
    await clock.advance(EDIT_INTERVAL)
    await settle(table)
    assert len(board_edits(table, board)) == 1
    assert reply.errors == []


async def test_the_board_survives_a_restart(database_url: str) -> None:
    path = database_url
    async with open_table(path) as table:
        await table.create("Aria", ALICE)
        board = await post(table)
        table.bot.boards.interval = 0
        public(await table.run("wound", {"severity": "light", "character": "Aria"}))
        await settle(table)
        discord = table.fake
    await_edits = len(board_edits(table, board))
    async with open_table(path, fake=discord) as table:
        await settle(table)
        # At start-up each board is edited once (changes made while the bot was away show).
        assert len(board_edits(table, board)) == await_edits + 1
        table.bot.boards.interval = 0
        public(await table.run("wound", {"severity": "critical", "character": "Aria"}))
        await settle(table)
        assert len(board_edits(table, board)) == await_edits + 2
        assert "🟨 · 🟥 · −6 · light wound" not in board_text(table, board)
        assert "🟨🟥 · −6 · critical wound" in board_text(table, board)
        check_requests(table.fake.requests)


async def test_a_change_in_a_server_without_a_board_reads_no_boards(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every stored board is known from start-up on: the changes of a server that has none cost no
    read of the database (a /wound is as cheap with boards in other servers as without)."""
    async with open_table(database_url) as table:
        await table.create("Aria", ALICE)
        discord = table.fake
    async with open_table(database_url, fake=discord) as table:  # a restart: nothing known but the start
        reads: list[int] = []
        real = Reader.boards

        def counted(reader: Reader) -> list[Board]:
            reads.append(reader.guild_id)
            return real(reader)

        monkeypatch.setattr(Reader, "boards", counted)
        public(await table.run("wound", {"severity": "light", "character": "Aria"}))
        await settle(table)
        assert reads == []
        assert board_edits(table) == []
        board = await post(table)  # a board posted later is known at once: the next change edits it
        table.bot.boards.interval = 0
        public(await table.run("wound", {"severity": "light", "character": "Aria"}))
        await settle(table)
        assert reads == [] and len(board_edits(table, board)) == 1


async def test_a_board_given_up_late_does_not_take_the_new_one_with_it(table: Table) -> None:
    """An edit of the old message that fails (404: /board deleted it) after the board was posted again
    in the channel gives up that message only: the new board stays, in memory and in the database."""
    first = await post(table)
    second = await post(table)
    (board,) = await boards_of(table.store, GUILD)
    assert board.message_id == second != first
    await table.bot.boards.forget(replace(board, message_id=first))
    assert await boards_of(table.store, GUILD) == [board]
    assert await table.bot.boards.board(GUILD, board.channel_id) == board


@pytest.mark.parametrize("locale", ["en-US", "fr"])
async def test_the_board_marks_who_is_one_wound_from_death_and_whose_heal_can_kill(
    table: Table, clock: ManualClock, locale: str
) -> None:
    await table.create("Aélis", ALICE, corps=2, resistance=1)  # −14, Cp+Rs +3: a heal that can kill
    for severity, count in (("critical", 1), ("serious", 2), ("light", 3)):
        public(await table.run("wound", {"severity": severity, "character": "Aélis", "count": count}))
    await table.create("Brann", BOB)
    public(await table.run("wound", {"severity": "critical", "character": "Brann"}))  # a critical more kills
    await table.create("Goblin")
    public(await table.run("wound", {"severity": "critical", "character": "Goblin", "count": 2}))  # dead
    if locale == "fr":
        public(await table.run("config language", {"language": "fr"}))
    board = await post(table)
    refused(await table.run("board", {"add": "Goblin"}))  # a private "done"
    public(await table.run("rest", {"days": 1}))
    await clock.advance(EDIT_INTERVAL)
    await settle(table)
    lines = {line.split(" · ")[0]: line for line in board_text(table, board).splitlines()[1:]}
    aelis, brann = lines["**Aélis**"], lines["**Brann**"]
    assert aelis.startswith("**Aélis** · ☠️ · ")
    if locale == "fr":
        assert aelis.endswith("☠️ la guérison peut tuer\u202f: réussite impossible · ☠️ 64\u202f%")
    else:
        assert aelis.endswith("☠️ healing can kill: success impossible · ☠️ 64%")
    assert brann.startswith("**Brann** · ⚠️ · ") and "🩹" not in brann  # rest not over
    assert "⚠️" not in lines["**Goblin**"] and "☠️" not in lines["**Goblin**"]
    # The colour follows the worst living player character (critical), not the dead goblin.
    colour = table.fake.messages[board]["embeds"][0]["color"]
    assert colour == COLOURS[State.CRITICAL]


@pytest.mark.parametrize("locale", ["en-US", "fr"])
async def test_a_heal_that_can_kill_or_hardly_succeed_is_never_good_news_on_the_board(
    table: Table, locale: str
) -> None:
    await risky_sessions(table)
    if locale == "fr":
        public(await table.run("config language", {"language": "fr"}))
    board = await post(table)
    lines = {line.split(" · ")[0]: line for line in board_text(table, board).splitlines()[1:]}
    cara, bastien, dora = lines["**Cara**"], lines["**Bastien**"], lines["**Dora**"]
    assert cara.startswith("**Cara** · ☠️ · ") and "🩹" not in cara
    assert "🩹" not in bastien and "🩹" in dora
    if locale == "fr":
        assert cara.endswith("☠️ la guérison peut tuer\u202f: réussite 1\u202f% · ☠️ 45\u202f%")
        assert bastien.endswith(
            "⛔ la guérison ne peut guère réussir\u202f: réussite impossible · aggravation 55\u202f%"
        )
    else:
        assert cara.endswith("☠️ healing can kill: success 1% · ☠️ 45%")
        assert bastien.endswith("⛔ healing can hardly succeed: success impossible · worsening 55%")
        assert dora.endswith("🩹 can heal: success 45% · worsening 1%")
