"""Recording a change in the server's history, as its typed record (:mod:`bot.history`)."""

from __future__ import annotations

from bot.actions.actor import Actor
from bot.history import Recordable
from bot.rules import Character
from bot.storage.store import Transaction


def record(tx: Transaction, actor: Actor, change: Recordable, *, character: Character | None = None) -> None:
    """Record ``change``, made by ``actor`` (to ``character``), with the before-state undo needs."""
    tx.record(change.kind, actor.user_id, character=character, details=change)
