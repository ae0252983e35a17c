"""A live party board: one message per channel, and the NPCs a GM added to it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Board:
    guild_id: int
    channel_id: int
    message_id: int
    npc_ids: tuple[int, ...] = ()
