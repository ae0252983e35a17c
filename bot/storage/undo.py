"""Undo's SQL: put back, whole, what a change stored in its snapshot (the action decides what to
revert, and refuses: ``bot/actions/undoing.py``).

The snapshot an event stores (see :mod:`bot.storage.transaction`)::

    {"characters": {"<id>": <Snapshot JSON> | null},   # null: created by the event
     "ruleset": <Ruleset JSON> | null,                  # only when the event changed it;
                                                        # null: there was no stored ruleset
     "active": {"<user id>": [<before id | null>, <after id | null>]}}
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from bot.errors import UserError
from bot.rules.character import Character
from bot.rules.ruleset import Ruleset
from bot.rules.severity import Severity, Track
from bot.storage import active, characters, events, settings
from bot.storage.characters import COUNTS, SET_COLUMNS, character_params, chunks, name_key
from bot.storage.errors import StorageError
from bot.storage.events import Undoable
from bot.storage.sql import Sql


class WoundState(NamedTuple):
    """What of a wound can change after it was inflicted (stored as ``[id, current, fatal]``)."""

    id: int
    current: Severity | None
    fatal: bool


class Snapshot(BaseModel):
    """A character as it was before a change: every column, and the changeable state of its wounds.

    Wound rows are never removed except by undo (healed wounds stay), so a wound's track, severity
    inflicted, note and author need not be copied: restoring means deleting the wounds added since,
    and resetting ``current``/``fatal`` of the others.
    """

    model_config = ConfigDict(frozen=True)

    id: int
    owner_id: int | None
    name: str
    corps: int
    resistance: int
    intuition: int
    preset: str
    physical_max: tuple[int, int, int]
    mental_max: tuple[int, int, int]
    rest_days: int
    created_at: str
    wounds: tuple[WoundState, ...]
    dead: bool | None = Field(default=None, exclude=True)
    incoherent: bool | None = Field(default=None, exclude=True)
    """Of a snapshot written before migration 0004: the stored flags. Those flags, not the ``fatal``
    marks, said then whether the character was dead or incoherent (0004 made them agree)."""

    @classmethod
    def of(cls, character: Character) -> Snapshot:
        columns = {name: getattr(character, name) for name in _COLUMNS}
        states = [(w.id, w.current, w.fatal) for w in character.wounds if w.id is not None]
        return cls.model_validate({**columns, "wounds": states})

    def character(self, guild_id: int) -> Character:
        return Character(**{name: getattr(self, name) for name in _COLUMNS}, guild_id=guild_id)

    @property
    def out(self) -> frozenset[Track] | None:
        """The tracks an older snapshot's flags said the character was out of play on (``None``:
        the snapshot has no flags, its ``fatal`` marks say it)."""
        if self.dead is None:
            return None
        flags = ((Track.PHYSICAL, self.dead), (Track.MENTAL, self.incoherent))
        return frozenset(track for track, flag in flags if flag)


_COLUMNS = [name for name in Snapshot.model_fields if name not in ("wounds", "dead", "incoherent")]


def revert(sql: Sql, guild_id: int, target: Undoable, now: str) -> set[int]:
    """Put back what ``target`` changed, from its snapshot, and mark it undone. Returns the players
    whose active character this set back or removed (some may now have none)."""
    snapshot = target.snapshot
    touched: dict[str, Any] = snapshot.get("characters") or {}
    # user id -> the active character to put back, for the players who still have the one the event
    # left them (a later choice is kept); looked up before anything moves.
    choices: dict[int, int | None] = {
        int(user): before
        for user, (before, after) in (snapshot.get("active") or {}).items()
        if active.active_id(sql, guild_id, int(user)) == after
    }
    created = [int(cid) for cid, state in touched.items() if state is None]
    # The players whose active character this removes (it is created by the event).
    orphaned = {user for cid in created for user in active.users_of(sql, guild_id, cid)}
    # Remove what the event created before restoring, so a restored name is free again.
    characters.soft_delete(sql, guild_id, created, now)
    active.clear_characters(sql, guild_id, created)
    restore(sql, guild_id, [Snapshot.model_validate(state) for state in touched.values() if state])
    if "ruleset" in snapshot:
        stored = snapshot["ruleset"]
        settings.save_ruleset(sql, guild_id, None if stored is None else Ruleset.model_validate(stored), now)
    for user_id, before in choices.items():
        if before is not None and not characters.exists(sql, guild_id, before, deleted_too=False):
            before = None
        active.put_many(sql, guild_id, {user_id: before})
    events.mark_undone(sql, target.event.id)
    return orphaned | set(choices)


def restore(sql: Sql, guild_id: int, snapshots: Sequence[Snapshot]) -> None:
    """Put characters back exactly as snapshotted: columns, alive again, wounds' state; the wounds
    added since are removed."""
    for s in snapshots:  # checked first: PostgreSQL aborts the transaction on a violation
        if sql.rows(
            "SELECT 1 FROM characters WHERE guild_id = ? AND name_key = ? AND deleted_at IS NULL AND id <> ?",
            (guild_id, name_key(s.name), s.id),
        ):
            raise UserError("name_taken", name=s.name)
    sql.run_many(
        f"UPDATE characters SET {SET_COLUMNS}, deleted_at = NULL WHERE id = ? AND guild_id = ?",
        [(*character_params(s.character(guild_id)), s.id, guild_id) for s in snapshots],
    )
    wanted = {s.id: {w.id for w in s.wounds} for s in snapshots}
    existing: dict[int, set[int]] = {cid: set() for cid in wanted}
    counting: set[int] = set()
    tracks: dict[int, tuple[Track, bool]] = {}  # wound id -> its track, and whether it is fatal
    for chunk in chunks(list(existing)):
        marks = ", ".join("?" * len(chunk))
        for wid, cid, counts, track, fatal in sql.rows(
            f"SELECT w.id, w.character_id, {COUNTS}, w.track, w.fatal FROM wounds w "
            f"WHERE w.character_id IN ({marks})",
            chunk,
        ):
            existing[cid].add(wid)
            tracks[wid] = (Track(track), bool(fatal))
            if counts:
                counting.add(wid)
    # An older snapshot's flags say what the character was (Snapshot.out): the fatal wound migration
    # 0004 gave a flag stays, a fatal mark the flags denied is not put back.
    kept = {
        wid
        for s in snapshots
        if s.out
        for wid in existing[s.id]
        if tracks[wid][1] and tracks[wid][0] in s.out
    }
    # Added since: the wounds that count now and not then. A wound healed before the snapshot is not
    # in it (a load leaves healed wounds out) and stays as it is.
    extra = [(wid, cid) for cid, ids in existing.items() for wid in (ids & counting) - wanted[cid] - kept]
    missing = [wid for cid, ids in existing.items() for wid in wanted[cid] - ids]
    if missing:
        raise StorageError(f"cannot restore: wounds {sorted(missing)[:10]} no longer exist")
    sql.run_many("DELETE FROM wounds WHERE id = ? AND character_id = ?", extra)
    sql.run_many(
        "UPDATE wounds SET current_severity = ?, fatal = ? WHERE id = ? AND character_id = ?",
        [
            (None if w.current is None else int(w.current), int(_fatal(s, w, tracks)), w.id, s.id)
            for s in snapshots
            for w in s.wounds
        ],
    )


def _fatal(snapshot: Snapshot, wound: WoundState, tracks: dict[int, tuple[Track, bool]]) -> bool:
    """The fatal mark to put back on ``wound``: the snapshot's, unless its flags denied it."""
    out = snapshot.out
    return wound.fatal if out is None else wound.fatal and tracks[wound.id][0] in out
