"""Log lines on stdout: in a terminal after a time (``2026-12-01 14:30:00 INFO bot.x: text``); in the
systemd journal (which adds the time itself) after a syslog priority (``<6>INFO bot.x: text``), so that
``journalctl -p warning`` and the colours work. A traceback's lines are indented under their record.

After the logger's name: the shard of the code that logs (``[shard 3]``, :data:`shard`), or else the
shards of the process (``[shards 0-1]``, :func:`set_process_shards`) once they are known.
"""

from __future__ import annotations

import logging
import os
import sys
from contextvars import ContextVar
from typing import TextIO

#: The shard id of the code that logs (the bot sets it in each shard's tasks).
shard: ContextVar[int | None] = ContextVar("shard", default=None)

_process_shards: str | None = None


def set_process_shards(shards: str | None) -> None:
    """The shards this process runs (``"0-1"``), shown on the lines logged outside a shard's tasks."""
    global _process_shards
    _process_shards = shards


# Syslog priorities, read by journald from a "<N>" at the start of a line; below INFO: 7 (debug).
_PRIORITY = ((logging.CRITICAL, 2), (logging.ERROR, 3), (logging.WARNING, 4), (logging.INFO, 6))


def priority(levelno: int) -> int:
    """The syslog priority of a logging level (a level between two takes the lower one's)."""
    return next((found for level, found in _PRIORITY if levelno >= level), 7)


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
        elif _process_shards is not None:
            where += f" [shards {_process_shards}]"
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
