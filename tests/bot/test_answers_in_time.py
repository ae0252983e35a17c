"""Issue 27: a command whose unit of work is slow (the server's lock held elsewhere) is deferred
("thinking…") and answered by its follow-up; a refusal then replaces the public "thinking…" with a
private message. A blank character option is refused, never read as "no character"."""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Iterator

import psycopg

from bot.rules import Track
from tests.databases import characters_of, history_of, is_postgres, sqlite_path
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
