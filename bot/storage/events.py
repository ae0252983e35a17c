"""The history's rows: an event and the characters it touched, and what undo needs to find."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from bot.history import Event, EventKind
from bot.rules.ruleset import Ruleset
from bot.storage.sql import Row

COLUMNS = (
    "e.id, e.guild_id, e.kind, e.actor_id, e.occurred_at, e.character_id, e.character_name, e.details, "
    f"e.undone, e.undoes, CASE WHEN e.kind = '{EventKind.CONFIG}' THEN e.snapshot END"
)
UNDOABLE = f"e.undone = 0 AND e.kind NOT IN ('{EventKind.UNDO}', '{EventKind.VIEW_LINK}')"
"""Events /undo may revert: not undone yet, not an undo, not a player-view link (revoking it is how a
link is taken back)."""
INSERT = (
    "INSERT INTO events (guild_id, kind, actor_id, occurred_at, character_id, character_name, details, "
    "touches_ruleset, undone, undoes, snapshot) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?) RETURNING id"
)


def dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def scope(guild_id: int, character_id: int | None) -> tuple[str, str, tuple[int, ...]]:
    """FROM and WHERE of the events of a server (touching one character), the column to order them
    newest first by (the one its index is ordered by), and the parameters."""
    if character_id is None:
        return "events e WHERE e.guild_id = ?", "e.id", (guild_id,)
    joined = (
        "event_characters l JOIN events e ON e.id = l.event_id WHERE l.character_id = ? AND e.guild_id = ?"
    )
    return joined, "l.event_id", (character_id, guild_id)


def event_of(row: Row) -> Event:
    """The event of a row of :data:`COLUMNS`. A settings change keeps the whole settings before it once,
    in its undo snapshot (null: the defaults): they are read back from there."""
    eid, guild_id, kind, actor_id, at, character_id, character_name, details, undone, undoes = row[:10]
    decoded = json.loads(details) if details else {}
    if not isinstance(decoded, dict):
        decoded = {}
    if kind == EventKind.CONFIG and row[10] and "after" in decoded:
        snapshot = json.loads(row[10])
        if "ruleset" in snapshot:
            before = snapshot["ruleset"]
            decoded["before"] = Ruleset().model_dump(mode="json") if before is None else before
    return Event(
        eid, guild_id, kind, actor_id, at, character_id, character_name, decoded, bool(undone), undoes
    )


@dataclass(frozen=True)
class Undoable:
    """An event /undo may revert, with what it needs to do so."""

    event: Event
    snapshot: dict[str, Any]
    touches_ruleset: bool

    @property
    def links(self) -> set[int]:
        """The characters the event touched, and its character."""
        found = {int(cid) for cid in self.snapshot.get("characters") or {}}
        return found if self.event.character_id is None else found | {self.event.character_id}

    @property
    def restored(self) -> list[int]:
        """The characters undoing it sets back (those it did not create)."""
        return sorted(int(cid) for cid, state in (self.snapshot.get("characters") or {}).items() if state)
