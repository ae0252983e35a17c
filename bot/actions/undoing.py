"""/undo: revert the latest change of the server (or of one character), unless a later one depends on it."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.actions.actor import Actor
from bot.actions.admin import named_even_deleted
from bot.actions.characters import take_newest
from bot.errors import EventKind, UserError
from bot.history import Event, Undid, record_of
from bot.rules import Character, Ruleset
from bot.storage.store import Store, Transaction


@dataclass(frozen=True)
class Undone:
    event: Event
    """The ``undo`` event (its details name the reverted change)."""
    restored: list[Character]
    """The characters as the undo left them (those it brought back or set back)."""
    ruleset: Ruleset
    back_in_play: dict[int, str] = field(default_factory=dict)
    """The restored characters that were out of play before the undo: ``"dead"`` or ``"incoherent"``."""


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
    character_id = None if ref is None else named_even_deleted(tx, ref)[0]
    target = tx.latest_undoable(character_id)
    if target is None:
        raise UserError("There is nothing left to undo here. See /history for what was recorded.")
    blocking = tx.blocker(target)
    if blocking is not None:
        # The character that ties the two changes: the one asked about, when the later change touched
        # it too (or when the later change is about a character of the one asked about).
        tie = target.event.character_name
        if blocking.character_id is not None and blocking.character_id in target.links:
            tie = blocking.character_name
        kind, blocked_by = EventKind(target.event.kind), EventKind(blocking.kind)
        if not tie:  # no character ties them (a settings change, say)
            raise UserError(
                "Change #{id} ({kind}) cannot be undone on its own: a later change, "
                "#{blocked_by_id} ({blocked_by}), depends on it. Undo the later changes "
                "first (/undo without a character).",
                id=target.event.id,
                kind=kind,
                blocked_by=blocked_by,
                blocked_by_id=blocking.id,
            )
        raise UserError(
            "Change #{id} ({kind}) cannot be undone on its own: {tie} changed after "
            "it, in #{blocked_by_id} ({blocked_by}). Undo the later changes first, "
            "newest first: /undo character:{tie} reverts #{blocked_by_id}; then undo "
            "#{id}.",
            id=target.event.id,
            kind=kind,
            tie=tie,
            blocked_by=blocked_by,
            blocked_by_id=blocking.id,
        )
    for user_id in sorted(tx.revert(target)):
        take_newest(tx, user_id)
    return tx.record_undo(actor_id, target)
