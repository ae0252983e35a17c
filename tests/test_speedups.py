"""The speed-ups of pyproject.toml are in use: discord.py parses and writes payloads with orjson, and
the bot's event loop is uvloop's where uvloop is installed (asyncio's own where it is not)."""

from __future__ import annotations

import asyncio
import sys

import discord.utils
import pytest

from bot.interface.run import loop_factory


def test_discord_py_uses_orjson() -> None:
    assert discord.utils.HAS_ORJSON
    assert discord.utils._from_json('{"a": [1]}') == {"a": [1]}


@pytest.mark.skipif(sys.platform == "win32", reason="uvloop exists only on Linux and macOS")
def test_the_bot_runs_on_uvloop() -> None:
    import uvloop

    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        assert isinstance(runner.get_loop(), uvloop.Loop)
        assert runner.run(asyncio.sleep(0, "ran")) == "ran"


def test_without_uvloop_the_bot_runs_on_asyncio_s_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "uvloop", None)  # import uvloop now fails, as where it is missing
    assert loop_factory() is None
