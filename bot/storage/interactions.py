"""The interactions whose change is committed, so that none is applied twice.

Discord may deliver an interaction again (a gateway RESUME replays what the bot may not have seen);
each change records the id of the interaction that asked for it in its own transaction, and a second
delivery finds it there: :class:`~bot.storage.errors.AlreadyHandled`, and nothing is applied.

An id is a Discord snowflake, whose high bits are its time: rows older than :data:`KEEP_MS` (far longer
than any replay) before the newest are dropped by :func:`forget_old`, once a minute (``run.py``), not
by every claim: each change then writes one row, and the old ones go by the thousand.
"""

from __future__ import annotations

from bot.storage.errors import AlreadyHandled
from bot.storage.sql import Sql

KEEP_MS = 24 * 3600 * 1000
_SNOWFLAKE_TIME_SHIFT = 22

_FORGET = (
    "DELETE FROM handled_interactions "
    "WHERE interaction_id < (SELECT MAX(interaction_id) FROM handled_interactions) - ?"
)
_CLAIM = (
    "INSERT INTO handled_interactions (interaction_id) VALUES (?) ON CONFLICT (interaction_id) DO NOTHING"
)


def claim(sql: Sql, interaction_id: int) -> None:
    """Inside the transaction of the change: record ``interaction_id``, or raise
    :class:`AlreadyHandled` when a committed change already did. (On PostgreSQL, a concurrent claim
    of the same id waits for the other transaction, then finds it.)"""
    if sql.run(_CLAIM, (interaction_id,)) == 0:
        raise AlreadyHandled(interaction_id)


def forget_old(sql: Sql) -> int:
    """Drop the ids older than :data:`KEEP_MS` before the newest; how many went."""
    return sql.run(_FORGET, (KEEP_MS << _SNOWFLAKE_TIME_SHIFT,))
