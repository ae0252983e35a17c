"""/undo: revert the latest change of the server (or of one character), unless a later one depends on it."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.actions.actor import Actor
from bot.actions.admin import named_even_deleted
from bot.actions.characters import take_newest
from bot.errors import Change, UserError
from bot.history import Event, Undid, record_of
from bot.rules import Character, Ruleset
from bot.storage.store import Store, Transaction
from bot.storage.transaction import Undoable


@dataclass(frozen=True)
class Undone:
    event: Event  # the ``undo`` event (its details name the reverted change)
    restored: list[Character]  # the characters it brought back or set back, as they are now
    ruleset: Ruleset
    back_in_play: dict[int, str] = field(default_factory=dict)  # out of play before: "dead", "incoherent"


async def undo(store: Store, actor: Actor, *, ref: str | None) -> Undone:

    def work(tx: Transaction) -> Undone:
        actor.require_gm(tx.ruleset())
        out_before = {
            c.id: "dead" if c.dead else "incoherent" for c in tx.characters() if c.out_of_play and c.id
        }
        event = revert(tx, actor.user_id, ref)
        undid = record_of(event)
        ids = undid.restored if isinstance(undid, Undid) else ()
        restored = [tx.character(i) for i in ids]
        back = {c.id: out_before[c.id] for c in restored if c.id and c.id in out_before and not c.out_of_play}
        return Undone(event, restored, tx.ruleset(), back)

    return await store.run(actor.guild_id, work, interaction=actor.interaction_id)


def revert(tx: Transaction, actor_id: int | None, ref: str | None = None) -> Event:
    """Revert the latest change of the server (touching the character ``ref`` names, even deleted)
    and record it; return the ``undo`` event."""
    character_id, name = (None, "") if ref is None else named_even_deleted(tx, ref)
    target = tx.latest_undoable(character_id)
    if target is None:
        raise UserError("There is nothing left to undo here. See /history for what was recorded.")
    blocking = tx.blocker(target)
    if blocking is not None:
        raise blocked(tx, target, blocking, name)
    for user_id in sorted(tx.revert(target)):
        take_newest(tx, user_id)
    return tx.record_undo(actor_id, target)


def blocked(tx: Transaction, target: Undoable, blocking: Event, name: str) -> UserError:
    """The refusal of undoing ``target`` (the latest change touching ``name``) before the later
    ``blocking``: both changes with their reach, and the character that ties them (touched by both)."""
    later = tx.touched(blocking.id)
    tie = next((other for cid, other in later if cid in target.links), None)
    change = Change(target.event.kind, len(target.links), target.event.character_id is None)
    blocked_by = Change(blocking.kind, len(later), blocking.character_id is None)
    if tie is None:  # no character ties them (a settings change, say)
        return UserError(
            "Change #{id} ({kind}), the latest one touching {name}, cannot be undone on its own: a "
            "later change, #{blocked_by_id} ({blocked_by}), depends on it. Undo the later changes "
            "first (/undo without a character).",
            id=target.event.id,
            kind=change,
            name=name,
            blocked_by=blocked_by,
            blocked_by_id=blocking.id,
        )
    return UserError(
        "Change #{id} ({kind}), the latest one touching {name}, cannot be undone on its own: {tie} "
        "changed after it, in #{blocked_by_id} ({blocked_by}). Undo the later changes first, newest "
        "first: /undo character:{tie} reverts #{blocked_by_id}; then undo #{id}.",
        id=target.event.id,
        kind=change,
        name=name,
        tie=tie,
        blocked_by=blocked_by,
        blocked_by_id=blocking.id,
    )
