"""Log lines on stdout, as a terminal or the systemd journal reads them best.

In a terminal: ``2026-12-01 14:30:00 INFO bot.interface.client: Synced 9 application commands``.
Under systemd (stdout is the journal, which adds the time, host and unit itself), each line starts
with its syslog priority instead of a time: ``<6>INFO bot.interface.client: Synced 9 application
commands``, so that ``journalctl -p warning`` and the colours work. A traceback keeps its lines, each
one indented under its record and carrying the record's priority.

The shard a line comes from goes right after the logger's name (``bot.interface.client [shard 3]:``)
when :data:`shard` is set in the context that logs; until the bot runs shards nothing sets it.
"""

from __future__ import annotations

import logging
import os
import sys
from contextvars import ContextVar
from typing import TextIO

#: The shard id of the code that logs: set it (``shard.set(3)``) in each shard's task once there are
#: shards; None adds nothing to the line.
shard: ContextVar[int | None] = ContextVar("shard", default=None)

_PRIORITY = {  # syslog priorities, read by journald from a "<N>" at the start of a line
    logging.DEBUG: 7,
    logging.INFO: 6,
    logging.WARNING: 4,
    logging.ERROR: 3,
    logging.CRITICAL: 2,
}


def priority(levelno: int) -> int:
    """The syslog priority of a logging level (levels between two take the more severe one's)."""
    for level in sorted(_PRIORITY, reverse=True):
        if levelno >= level:
            return _PRIORITY[level]
    return _PRIORITY[logging.DEBUG]


class LineFormatter(logging.Formatter):
    """``LEVEL logger [shard N]: message``, after a time (terminal) or a ``<priority>`` (journal)."""

    def __init__(self, *, journal: bool) -> None:
        super().__init__(datefmt="%Y-%m-%d %H:%M:%S")
        self.journal = journal

    def format(self, record: logging.LogRecord) -> str:
        record.message = record.getMessage()
        where = record.name
        shard_id = shard.get()
        if shard_id is not None:
            where += f" [shard {shard_id}]"
        head = f"{record.levelname} {where}: "
        lines = record.message.splitlines() or [""]
        if record.exc_info:
            record.exc_text = record.exc_text or self.formatException(record.exc_info)
        if record.exc_text:
            lines += record.exc_text.splitlines()
        if record.stack_info:
            lines += self.formatStack(record.stack_info).splitlines()
        first = head + lines[0]
        rest = ["    " + line for line in lines[1:]]
        if self.journal:
            mark = f"<{priority(record.levelno)}>"
            return "\n".join(mark + line for line in [first, *rest])
        return "\n".join([f"{self.formatTime(record, self.datefmt)} {first}", *rest])


def writes_to_journal(stream: TextIO) -> bool:
    """Whether ``stream`` is connected to the systemd journal: systemd then sets ``JOURNAL_STREAM`` to
    the device and inode of that connection (see systemd.exec(5))."""
    expected = os.environ.get("JOURNAL_STREAM", "")
    if not expected:
        return False
    try:
        info = os.fstat(stream.fileno())
    except (OSError, ValueError):  # no file descriptor (a test's StringIO)
        return False
    return expected == f"{info.st_dev}:{info.st_ino}"


def setup_logging(level: str, stream: TextIO | None = None) -> logging.Handler:
    """Send every log record at ``level`` or above to ``stream`` (stdout), one line per record."""
    out = sys.stdout if stream is None else stream
    handler = logging.StreamHandler(out)
    handler.setFormatter(LineFormatter(journal=writes_to_journal(out)))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    return handler
