"""SQL of the history: events, the characters each touched, and what undo needs to find."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from bot.history import Event, EventKind
from bot.rules.ruleset import Ruleset
from bot.storage.sql import Row, Sql

UNDO = "undo"
_COLUMNS = (
    "e.id, e.guild_id, e.kind, e.actor_id, e.occurred_at, e.character_id, e.character_name, e.details, "
    "e.undone, e.undoes, CASE WHEN e.kind = 'config' THEN e.snapshot END"
)
_UNDOABLE = "e.undone = 0 AND e.kind NOT IN ('undo', 'view_link')"
"""Events /undo may revert: not undone yet, not an undo, not a player-view link (revoking it is how a
link is taken back)."""
_FEW = 64  # up to this many characters, look for undo conflicts character by character


def _dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _event(row: Row) -> Event:
    eid, guild_id, kind, actor_id, at, character_id, character_name, details, undone, undoes = row[:10]
    decoded = json.loads(details) if details else {}
    if not isinstance(decoded, dict):
        decoded = {}
    if kind == EventKind.CONFIG and row[10] and "after" in decoded and "before" not in decoded:
        # A settings change keeps the whole settings before it once, in its snapshot, for undo
        # (null: the defaults; the first of these events kept them in its details too).
        snapshot = json.loads(row[10])
        if "ruleset" in snapshot:
            before = snapshot["ruleset"]
            decoded["before"] = Ruleset().model_dump(mode="json") if before is None else before
    return Event(
        id=eid,
        guild_id=guild_id,
        kind=kind,
        actor_id=actor_id,
        at=at,
        character_id=character_id,
        character_name=character_name,
        details=decoded,
        undone=bool(undone),
        undoes=undoes,
    )


_INSERT = (
    "INSERT INTO events (guild_id, kind, actor_id, occurred_at, character_id, character_name, details, "
    "touches_ruleset, undone, undoes, snapshot) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?) RETURNING id"
)
_LINK = "INSERT INTO event_characters (event_id, character_id) VALUES (?, ?)"


def insert(
    sql: Sql,
    *,
    guild_id: int,
    kind: str,
    actor_id: int | None,
    at: str,
    character_id: int | None,
    character_name: str | None,
    details: dict[str, object],
    snapshot: dict[str, Any] | None,
    touches_ruleset: bool,
    links: Iterable[int],
    undoes: int | None = None,
) -> Event:
    """Write an event and its links to the characters it touched; it comes back with its id."""
    found = sql.row(
        _INSERT,
        (
            guild_id,
            kind,
            actor_id,
            at,
            character_id,
            character_name,
            _dumps(details),
            int(touches_ruleset),
            undoes,
            None if snapshot is None else _dumps(snapshot),
        ),
    )
    assert found is not None
    event_id = int(found[0])
    sql.run_many(_LINK, [(event_id, cid) for cid in sorted(set(links))])
    return Event(
        id=event_id,
        guild_id=guild_id,
        kind=kind,
        actor_id=actor_id,
        at=at,
        character_id=character_id,
        character_name=character_name,
        details=dict(details),
        undoes=undoes,
    )


def _scope(guild_id: int, character_id: int | None) -> tuple[str, str, tuple[int, ...]]:
    """FROM and WHERE of the events of a server (touching one character), the column to order them
    newest first by (the one its index is ordered by), and the parameters."""
    if character_id is None:
        return "events e WHERE e.guild_id = ?", "e.id", (guild_id,)
    joined = (
        "event_characters l JOIN events e ON e.id = l.event_id WHERE l.character_id = ? AND e.guild_id = ?"
    )
    return joined, "l.event_id", (character_id, guild_id)


def page(sql: Sql, guild_id: int, character_id: int | None, *, limit: int, offset: int) -> list[Event]:
    """Events of the server (touching one character), newest first."""
    where, newest, params = _scope(guild_id, character_id)
    rows = sql.rows(
        f"SELECT {_COLUMNS} FROM {where} ORDER BY {newest} DESC LIMIT ? OFFSET ?", (*params, limit, offset)
    )
    return [_event(r) for r in rows]


def count(sql: Sql, guild_id: int, character_id: int | None) -> int:
    where, _, params = _scope(guild_id, character_id)
    return int(sql.rows(f"SELECT COUNT(*) FROM {where}", params)[0][0])


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


def latest_undoable(sql: Sql, guild_id: int, character_id: int | None) -> Undoable | None:
    where, newest, params = _scope(guild_id, character_id)
    row = sql.row(
        f"SELECT {_COLUMNS}, e.snapshot, e.touches_ruleset FROM {where} AND {_UNDOABLE} "
        f"ORDER BY {newest} DESC LIMIT 1",
        params,
    )
    if row is None:
        return None
    snapshot = json.loads(row[11]) if row[11] else {}
    return Undoable(_event(row), snapshot if isinstance(snapshot, dict) else {}, bool(row[12]))


def blocker(sql: Sql, guild_id: int, target: Undoable) -> Event | None:
    """The latest later event, not undone, that touched a character (or the ruleset) ``target`` did."""
    after, character_ids = target.event.id, target.links
    if len(character_ids) <= _FEW:
        # One index range per character: cheap however long the server's history is.
        found: list[Row] = []
        for character_id in character_ids:
            found.extend(
                sql.rows(
                    f"SELECT {_COLUMNS} FROM event_characters l JOIN events e ON e.id = l.event_id "
                    f"WHERE l.character_id = ? AND l.event_id > ? AND e.guild_id = ? AND {_UNDOABLE} "
                    "ORDER BY l.event_id DESC LIMIT 1",
                    (character_id, after, guild_id),
                )
            )
    else:
        found = list(
            sql.rows(
                f"SELECT {_COLUMNS} FROM event_characters mine "
                "JOIN event_characters later ON later.character_id = mine.character_id "
                "JOIN events e ON e.id = later.event_id "
                f"WHERE mine.event_id = ? AND later.event_id > ? AND e.guild_id = ? AND {_UNDOABLE} "
                "ORDER BY e.id DESC LIMIT 1",
                (after, after, guild_id),
            )
        )
    if not found and target.touches_ruleset:
        found = list(
            sql.rows(
                f"SELECT {_COLUMNS} FROM events e WHERE e.guild_id = ? AND e.id > ? "
                f"AND e.touches_ruleset = 1 AND {_UNDOABLE} ORDER BY e.id DESC LIMIT 1",
                (guild_id, after),
            )
        )
    return _event(max(found, key=lambda row: int(row[0]))) if found else None


def mark_undone(sql: Sql, event_id: int) -> None:
    sql.run("UPDATE events SET undone = 1 WHERE id = ?", (event_id,))
