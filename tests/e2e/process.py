"""Running a bot as a child process (``python -m bot``, ``tiny_bot.py``) for end-to-end tests."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

#: Variables of the test process's environment that must not leak into the bot (real credentials).
SCRUBBED = ("DISCORD_TOKEN", "DISCORD_API_BASE", "DATABASE_URL")


class BotProcess:
    """A child process whose stdout+stderr go to ``log_path``. Stopped (SIGTERM, then SIGKILL) by
    :meth:`stop` or on leaving ``async with``; only ever signals its own pid."""

    def __init__(self, proc: asyncio.subprocess.Process, log_path: Path, started_at: float) -> None:
        self.proc = proc
        self.log_path = log_path
        self.started_at = started_at
        self.stop_seconds: float | None = None  # how long the last stop() took
        self.stopping = False  # stop() was called: an exit from now on is expected

    @classmethod
    async def start(
        cls,
        argv: Sequence[str],
        *,
        env: Mapping[str, str],
        log_path: Path,
        cwd: Path = REPO,
    ) -> BotProcess:
        full_env = {k: v for k, v in os.environ.items() if k not in SCRUBBED}
        full_env.update(env)
        full_env.setdefault("PYTHONUNBUFFERED", "1")
        log_path.parent.mkdir(parents=True, exist_ok=True)
        with log_path.open("wb") as log_file:
            proc = await asyncio.create_subprocess_exec(
                *argv,
                cwd=str(cwd),
                env=full_env,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log_file,
                stderr=log_file,
            )
        return cls(proc, log_path, time.monotonic())

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def returncode(self) -> int | None:
        return self.proc.returncode

    def exited(self) -> str | None:
        """None while running, else why it stopped (a watchdog for :meth:`DiscordStandin.watch`)."""
        if self.proc.returncode is None:
            return None
        tail = self.output()[-3000:]
        return f"the bot process exited with {self.proc.returncode}; its output ends with:\n{tail}"

    def unexpected_exit(self) -> str | None:
        """Like :meth:`exited`, but silent once :meth:`stop` was called (a watchdog for a bot that the
        test stops, or kills, on purpose before it goes on waiting for other things)."""
        return None if self.stopping else self.exited()

    def output(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    async def stop(self, grace: float = 5.0, sig: int = signal.SIGTERM) -> int:
        """Send ``sig`` and wait; SIGKILL after ``grace`` seconds. Returns the exit code (<0: killed)."""
        begin = time.monotonic()
        self.stopping = True
        if self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.send_signal(sig)
            try:
                await asyncio.wait_for(self.proc.wait(), grace)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    self.proc.kill()
                await self.proc.wait()
        self.stop_seconds = time.monotonic() - begin
        code = self.proc.returncode
        assert code is not None
        return code

    async def __aenter__(self) -> BotProcess:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()
