"""Issue 27: a command whose unit of work is slow (the server's lock held elsewhere) is deferred
("thinking…") and answered by its follow-up; a refusal then replaces the public "thinking…" with a
private message. A blank character option is refused, never read as "no character". Issue 36: an
answer that fails on an OS error is tried again within Discord's deadline; one that never gets through
is logged with its interaction, and its change stays."""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
import time
from collections.abc import Iterator

import psycopg

from bot.history import EventKind
from bot.rules import Track
from tests.databases import characters_of, history_of, is_postgres, sqlite_path
from tests.fakediscord import ROUTE_CALLBACK
from tests.table import ALICE, GUILD, Table, public, refused, shown

DEFERRED = 5  # DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
HELD_S = 2.2  # longer than the bot waits before deferring (1.5 s), shorter than its lock_timeout (3 s)


@contextlib.contextmanager
def lock_held_elsewhere(table: Table) -> Iterator[None]:
    """The server's lock, held by another session for :data:`HELD_S` from now: SQLite's write lock
    (``BEGIN IMMEDIATE``), or PostgreSQL's advisory lock of the server."""
    url = table.store.database.url
    taken, done = threading.Event(), threading.Event()

    def hold() -> None:
        if is_postgres(url):
            with psycopg.connect(url, autocommit=True) as conn:
                conn.execute("SELECT pg_advisory_lock(%s)", (GUILD,))
                taken.set()
                done.wait(HELD_S)
            return
        writer = sqlite3.connect(sqlite_path(url), isolation_level=None)
        try:
            writer.execute("BEGIN IMMEDIATE")
            taken.set()
            done.wait(HELD_S)
            writer.rollback()
        finally:
            writer.close()

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert taken.wait(10)
        yield
    finally:
        holder.join()


async def test_a_slow_change_is_deferred_then_posted_by_its_follow_up(table: Table) -> None:
    with lock_held_elsewhere(table):
        reply = await table.run("character create", {"name": "Patient"})
    assert reply.callback_type == DEFERRED
    assert "Patient" in public(reply)
    assert [c.name for c in await characters_of(table.store, GUILD)] == ["Patient"]


async def test_a_slow_refusal_replaces_the_public_thinking_with_a_private_message(table: Table) -> None:
    await table.create("Aria", ALICE)
    with lock_held_elsewhere(table):
        reply = await table.run("character create", {"name": "Aria"})
    assert reply.callback_type == DEFERRED
    assert "already a character called Aria" in refused(reply)  # nothing public is left
    assert all(m.ephemeral for m in shown(reply))


async def test_a_blank_character_option_is_refused_and_changes_nothing(table: Table) -> None:
    aria = await table.create("Aria", ALICE)
    public(await table.run("wound", {"severity": "light", "character": "Aria"}))
    before, _ = await history_of(table.store, GUILD, per_page=100)
    for command, options in [
        ("undo", {"character": "   "}),
        ("wound", {"severity": "light", "character": " "}),
        ("history", {"character": "\t "}),
    ]:
        text = refused(await table.run(command, options))
        assert "blank" in text, (command, text)
    after, _ = await history_of(table.store, GUILD, per_page=100)
    assert after == before
    assert (await table.character("Aria")).counts(Track.PHYSICAL) == (1, 0, 0)
    assert aria.id == (await table.character("Aria")).id


# ---- Discord first (issue 36): an answer that cannot reach Discord --------------------------------


async def test_an_answer_that_could_not_reach_discord_is_tried_again_in_time(table: Table) -> None:
    await table.create("Aria", ALICE)
    table.fake.unreachable("POST", ROUTE_CALLBACK, times=3)  # no file left to open a connection, 3 times
    reply = await table.run("wound", {"severity": "light", "character": "Aria"})
    assert "light 1/4" in public(reply) and reply.callback_type == 4
    assert reply.errors == []
    said = [r.getMessage() for r in reply.logs]
    assert sum("its answer could not reach Discord" in line for line in said) == 3, said
    assert await wounds_recorded(table) == 1


async def test_an_answer_that_never_reaches_discord_is_logged_with_its_interaction(table: Table) -> None:
    await table.create("Aria", ALICE)
    payload = table.payload("wound", {"severity": "light", "character": "Aria"})
    table.fake.unreachable("POST", ROUTE_CALLBACK, times=None, token=payload["token"])
    began = time.monotonic()
    reply = await table.deliver(payload)
    assert reply.callback_type is None  # never answered: Discord's 3 s went by
    assert time.monotonic() - began < 5
    said = [r.getMessage() for r in reply.logs]
    errors = [r.getMessage() for r in reply.logs if r.levelno >= logging.ERROR]
    assert len(errors) == 1, said  # one line, with its interaction: not an internal error, not "malformed"
    assert f"The answer to interaction {payload['id']} (wound) could not reach Discord" in errors[0]
    assert not any("Malformed" in line for line in said), said
    assert reply.errors == []
    # The wound is committed (it was, before its answer was tried): it shows, once.
    assert await wounds_recorded(table) == 1
    card = await table.run("character show", {"character": "Aria"})
    assert "1/4" in public(card)


async def wounds_recorded(table: Table) -> int:
    events, _ = await history_of(table.store, GUILD)
    return sum(event.kind == EventKind.WOUND for event in events)
