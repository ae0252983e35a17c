"""The log line format (bot/logs.py): a time in a terminal, a syslog priority in the systemd journal,
one record per line with its traceback indented under it, and the shard once there is one."""

from __future__ import annotations

import io
import logging
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.logs import LineFormatter, priority, setup_logging, shard, writes_to_journal


def record(level: int, message: str, *args: object, exc: bool = False) -> logging.LogRecord:
    exc_info = None
    if exc:
        try:
            raise ValueError("boom")
        except ValueError as error:
            exc_info = (type(error), error, error.__traceback__)
    made = logging.LogRecord("bot.client", level, __file__, 1, message, args, exc_info)
    made.created = 1_780_000_000.0  # 2026-05-28
    return made


def test_terminal_lines_start_with_the_time() -> None:
    line = LineFormatter(journal=False).format(record(logging.INFO, "Logged in as %s", "Harmonies"))
    date, time, rest = line.split(" ", 2)
    assert len(date) == 10 and date.startswith("2026-05-2") and len(time) == 8
    assert rest == "INFO bot.client: Logged in as Harmonies"


@pytest.mark.parametrize(
    ("level", "mark"),
    [(logging.DEBUG, "<7>"), (logging.INFO, "<6>"), (logging.WARNING, "<4>"), (logging.ERROR, "<3>"),
     (logging.CRITICAL, "<2>")],
)  # fmt: skip
def test_journal_lines_start_with_the_syslog_priority(level: int, mark: str) -> None:
    line = LineFormatter(journal=True).format(record(level, "hello"))
    assert line == f"{mark}{logging.getLevelName(level)} bot.client: hello"


def test_a_level_between_two_takes_the_more_severe_priority() -> None:
    assert priority(logging.INFO + 5) == 6
    assert priority(logging.WARNING + 1) == 4
    assert priority(1) == 7


def test_a_traceback_stays_under_its_record_with_its_priority() -> None:
    lines = LineFormatter(journal=True).format(record(logging.ERROR, "failed", exc=True)).splitlines()
    assert lines[0] == "<3>ERROR bot.client: failed"
    assert lines[1] == "<3>    Traceback (most recent call last):"
    assert lines[-1] == "<3>    ValueError: boom"
    assert all(line.startswith("<3>    ") for line in lines[1:])


def test_a_message_of_several_lines_is_indented_the_same() -> None:
    line = LineFormatter(journal=False).format(record(logging.WARNING, "one\ntwo"))
    assert line.splitlines()[1] == "    two"


def test_the_shard_follows_the_logger_name_when_set() -> None:
    formatter = LineFormatter(journal=True)
    assert formatter.format(record(logging.INFO, "ready")) == "<6>INFO bot.client: ready"
    token = shard.set(3)
    try:
        assert formatter.format(record(logging.INFO, "ready")) == "<6>INFO bot.client [shard 3]: ready"
    finally:
        shard.reset(token)


def test_the_journal_is_recognised_by_its_device_and_inode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with (tmp_path / "out").open("w") as stream:
        info = os.fstat(stream.fileno())
        monkeypatch.delenv("JOURNAL_STREAM", raising=False)
        assert not writes_to_journal(stream)
        monkeypatch.setenv("JOURNAL_STREAM", f"{info.st_dev}:{info.st_ino + 1}")  # another stream
        assert not writes_to_journal(stream)
        monkeypatch.setenv("JOURNAL_STREAM", f"{info.st_dev}:{info.st_ino}")
        assert writes_to_journal(stream)
        assert not writes_to_journal(io.StringIO())


@pytest.fixture
def root_logger() -> Iterator[logging.Logger]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield root
    root.handlers[:] = handlers
    root.setLevel(level)


def test_setup_logging_sends_one_line_per_record_at_the_level(root_logger: logging.Logger) -> None:
    out = io.StringIO()
    setup_logging("WARNING", out)
    logging.getLogger("discord.gateway").info("not shown")
    logging.getLogger("bot.storage").warning("disk %s", "full")
    assert out.getvalue().endswith(" WARNING bot.storage: disk full\n")
    assert out.getvalue().count("\n") == 1
    assert len(root_logger.handlers) == 1  # the earlier handlers were replaced
