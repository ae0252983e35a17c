"""The interactions whose change is committed, so that none is applied twice.

Discord may deliver an interaction again (a gateway RESUME replays what the bot may not have seen);
each change records the id of the interaction that asked for it in its own transaction, and a second
delivery finds it there: :class:`~bot.storage.errors.AlreadyHandled`, and nothing is applied.

An id is a Discord snowflake, whose high bits are its time: rows older than :data:`KEEP_MS` (far longer
than any replay) are dropped by the next claim, without any clock.
"""

from __future__ import annotations

from bot.storage.errors import AlreadyHandled
from bot.storage.sql import Sql

KEEP_MS = 24 * 3600 * 1000
_SNOWFLAKE_TIME_SHIFT = 22

_FORGET = "DELETE FROM handled_interactions WHERE interaction_id < ?"
_CLAIM = (
    "INSERT INTO handled_interactions (interaction_id) VALUES (?) ON CONFLICT (interaction_id) DO NOTHING"
)


def claim(sql: Sql, interaction_id: int) -> None:
    """Inside the transaction of the change: record ``interaction_id``, or raise
    :class:`AlreadyHandled` when a committed change already did. (On PostgreSQL, a concurrent claim
    of the same id waits for the other transaction, then finds it.)"""
    sql.run(_FORGET, (interaction_id - (KEEP_MS << _SNOWFLAKE_TIME_SHIFT),))
    if sql.run(_CLAIM, (interaction_id,)) == 0:
        raise AlreadyHandled(interaction_id)
