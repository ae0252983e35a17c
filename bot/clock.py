"""The one clock: every time the bot writes (wounds, characters, events, settings, exports) comes from
the clock given to :meth:`bot.storage.store.Store.open`, so that tests can pin it."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

Clock = Callable[[], str]
"""Now, as ISO-8601 text."""


def utc_now() -> str:
    """Now, as ISO-8601 UTC text with milliseconds (sorts as text)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")
