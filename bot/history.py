"""What the event log holds, as plain records shared by storage (which writes them) and the UI
(which shows them)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Event:
    """One recorded change (or an undo) in a server.

    ``kind`` is one of: ``character_create``, ``character_edit``, ``character_delete``,
    ``character_select``, ``wound``, ``mental``, ``heal_roll``, ``heal_wound``, ``heal_mental``, ``rest``,
    ``config``, ``import``, ``undo``. ``details`` holds what the UI needs to describe it (JSON-safe values).
    """

    id: int
    guild_id: int
    kind: str
    actor_id: int | None
    at: str
    character_id: int | None = None
    character_name: str | None = None
    details: dict[str, object] = field(default_factory=dict)
    undone: bool = False
    undoes: int | None = None
    """For an ``undo`` event: the id of the event it reverted."""
