"""One clock: the one given to the store writes every time, whatever the action."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.actions import admin, characters, undoing, wounds
from bot.actions.actor import Actor
from bot.rules import Severity, Track
from bot.storage import Store
from bot.storage.store import utc_now

GUILD = 123_456
GM = Actor(user_id=1, guild_id=GUILD, owns_guild=True)
PINNED = "2031-02-03T04:05:06.789+00:00"


async def test_every_time_written_comes_from_the_pinned_clock(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    store = await Store.open(f"sqlite:///{path}", clock=lambda: PINNED)
    try:
        aria, _ = await characters.create(store, GM, characters.Create(name="Aria", corps=1, resistance=1))
        await wounds.wound(
            store, GM, wounds.Inflict(track=Track.PHYSICAL, severity=Severity.LOW, ref="Aria", count=2)
        )
        await admin.configure(store, GM, "dice", admin.values(open_rolls=True))
        assert aria.id is not None
        await characters.delete(store, GM, aria.id)
        with sqlite3.connect(path) as conn:
            [(deleted_at,)] = conn.execute("SELECT deleted_at FROM characters")
        await undoing.undo(store, GM, ref=None)
        exported = await admin.export(store, GM)
    finally:
        await store.close()
    assert PINNED.encode() in exported
    with sqlite3.connect(path) as conn:
        times = [
            *conn.execute("SELECT created_at FROM characters"),
            *conn.execute("SELECT inflicted_at FROM wounds"),
            *conn.execute("SELECT occurred_at FROM events"),
            *conn.execute("SELECT updated_at FROM guild_settings"),
            (deleted_at,),
        ]
    assert len(times) == 1 + 2 + 5 + 1 + 1  # characters, wounds, events, settings, the deletion
    assert {time for (time,) in times} == {PINNED}


def test_the_real_clock_is_utc_with_milliseconds() -> None:
    now = utc_now()
    assert now.endswith("+00:00") and len(now.split("T")[1]) == len("04:05:06.789+00:00")
