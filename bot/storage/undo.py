"""Undo: revert the latest change of a server (or of one character) from its snapshot, whole.

The snapshot an event stores (see :mod:`bot.storage.transaction`)::

    {"characters": {"<id>": <CharacterSnapshot JSON> | null},   # null: created by the event
     "ruleset": <Ruleset JSON> | null,                          # only when the event changed it;
                                                                # null: there was no stored ruleset
     "active": {"<user id>": [<before id | null>, <after id | null>]}}
"""

from __future__ import annotations

from typing import Any

from bot.errors import UserError
from bot.history import Event
from bot.rules.ruleset import Ruleset
from bot.storage import active, characters, events, settings
from bot.storage.codec import CharacterSnapshot
from bot.storage.sql import Sql


def undo(
    sql: Sql, guild_id: int, actor_id: int | None, character_id: int | None, now: str
) -> tuple[Event, bool]:
    """Revert and record; return the ``undo`` event and whether the ruleset changed."""
    if character_id is not None and not characters.exists(sql, guild_id, character_id, deleted_too=True):
        raise characters.not_found(id=character_id)
    target = events.latest_undoable(sql, guild_id, character_id)
    if target is None:
        raise UserError("undo_nothing")
    touched: dict[str, Any] = target.snapshot.get("characters") or {}
    links = {int(cid) for cid in touched}
    if target.event.character_id is not None:
        links.add(target.event.character_id)
    blocking = events.blocker(sql, guild_id, target, links)
    if blocking is not None:
        # The character that ties the two changes: the one asked about, when the later change touched
        # it too (or when the later change is about a character of the one asked about).
        tie = target.event.character_name
        if blocking.character_id is not None and blocking.character_id in links:
            tie = blocking.character_name
        named = {"tie": tie} if tie else {}
        raise UserError(
            "undo_blocked",
            id=target.event.id,
            kind=target.event.kind,
            blocked_by=blocking.kind,
            blocked_by_id=blocking.id,
            **named,
        )
    snapshot = target.snapshot
    # user id -> the active character to put back, for the players who still have the one the event
    # left them (a later choice is kept); looked up before anything moves.
    choices: dict[int, int | None] = {
        int(user): before
        for user, (before, after) in (snapshot.get("active") or {}).items()
        if active.active_id(sql, guild_id, int(user)) == after
    }
    created = [int(cid) for cid, state in touched.items() if state is None]
    restored = [
        CharacterSnapshot.from_json(state, guild_id) for state in touched.values() if state is not None
    ]
    # The players whose active character this undo removes (it is created by the event).
    orphaned = {user for cid in created for user in active.users_of(sql, guild_id, cid)}
    # Remove what the event created before restoring, so a restored name is free again.
    if created:
        characters.soft_delete(sql, guild_id, created, now)
        active.clear_characters(sql, guild_id, created)
    characters.restore(sql, guild_id, restored)
    ruleset_changed = "ruleset" in snapshot
    if ruleset_changed:
        stored = snapshot["ruleset"]
        settings.save_ruleset(sql, guild_id, None if stored is None else Ruleset.model_validate(stored), now)
    for user_id, before in choices.items():
        if before is not None and not characters.exists(sql, guild_id, before, deleted_too=False):
            before = None
        active.put_many(sql, guild_id, {user_id: before})
    # As when a character is deleted: a player left without one takes their most recent character.
    for user_id in sorted(orphaned | set(choices)):
        if active.active_id(sql, guild_id, user_id) is None:
            active.put_many(sql, guild_id, {user_id: active.most_recent(sql, guild_id, user_id)})
    events.mark_undone(sql, target.event.id)
    event = events.insert(
        sql,
        guild_id=guild_id,
        kind=events.UNDO,
        actor_id=actor_id,
        at=now,
        character_id=target.event.character_id,
        character_name=target.event.character_name,
        details={
            "kind": target.event.kind,
            "character_name": target.event.character_name,
            "event_details": target.event.details,
            "event_id": target.event.id,
            "event_at": target.event.at,
            "restored": sorted(c.character.id for c in restored if c.character.id is not None),
        },
        snapshot=None,
        touches_ruleset=False,
        links=links,
        undoes=target.event.id,
    )
    return event, ruleset_changed
