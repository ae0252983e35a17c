"""``python -m bench profile``: where a command's CPU goes, against the write floor's, with py-spy.

Both processes of ``python -m bench e2e`` (the bot, the floors' bot), each started under ``py-spy
record`` (which must be on the PATH, or given with ``--py-spy``; it is not a dependency: ``pip install
py-spy`` anywhere), over a stand-in of their own; ``--commands`` of ``--kind`` (``/wound`` on as many
characters, each once) sent to the bot and as many write floors to the floors' bot, ``--in-flight`` at
once. py-spy samples every thread on a CPU (``--rate`` a second, without stopping the process); what a
process does while it starts (imports, migrations, syncing commands, its log-in) and stops is left
out. Printed, for each: its samples per command in µs (samples ÷ rate ÷ commands), by area (the
innermost frame's library or module), by the project's innermost function, and the top frames; the
raw stacks are kept in ``--output``."""

from __future__ import annotations

import argparse
import asyncio
import re
import shutil
import signal
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from bench import data
from bench.data import Shape
from bench.e2e import MODULES, send, start
from bench.world import guild_payloads, payload
from tests.e2e.process import BotProcess
from tests.fakediscord import DiscordStandin

#: Functions of a process starting or stopping (their qualified names): a sample in one is left out.
NOT_COMMANDS = re.compile(
    r"(^|\.)(_find_and_load|setup_hook|login|sync_if_changed|quick_check|open_rows|_sqlite_connect|"
    r"migrate\w*|parse_ready|parse_guild_create|_delay_ready|from_client|on_ready|drain)$"
    r"|^(Store|SqliteDatabase|PostgresDatabase|Client|AutoShardedClient|HarmoniesBot|SqliteRows)\.(open|close)$"
)
FRAME = re.compile(r"^(?P<function>.*) \((?P<file>[^()]*?)(?::(?P<line>\d+))?\)$")
#: Native functions a thread waits in (off the CPU), found among a sample's innermost frames (--native).
WAITS = re.compile(
    r"^(epoll_p?wait|fdatasync|fsync|poll|select|clock_nanosleep|nanosleep|pthread_cond_(timed)?wait|"
    r"sem_(timed|clock)?wait|PyThread_acquire_lock_timed|take_gil|do_futex_wait|__futex_abstimed_wait\w*)$"
)
SQLITE_C = re.compile(r"^(sqlite3|pysqlite_|_pysqlite_|stmt_|cursor_|pysqlite)")
SYSCALLS = re.compile(
    r"^(write|writev|pwrite64|read|readv|send|sendto|sendmsg|recv|recvfrom|getpid|sem_post|fstatat64)$"
)


@dataclass(frozen=True)
class Frame:
    function: str
    file: str
    line: int | None

    @property
    def python(self) -> bool:
        return self.file.endswith((".py", ".pyx")) or self.file.startswith("<")

    @property
    def module(self) -> str:
        """``bot.ui.card``, ``discord.interactions``, ``asyncio.events``…: the file as a module (a
        native frame: its library or C file)."""
        if not self.python:
            return self.file
        path = self.file.removesuffix(".py").replace("\\", "/")
        for marker in ("site-packages/", "lib/python3.11/", "/work/"):
            path = path.split(marker, 1)[-1]
        return path.strip("/").replace("/", ".").removesuffix(".__init__")

    def __str__(self) -> str:
        return f"{self.function} ({self.module}{'' if self.line is None else f':{self.line}'})"


def parse(raw: str) -> tuple[list[tuple[list[Frame], int]], int, int]:
    """py-spy's raw stacks (outermost frame first) of commands on a CPU; the samples left out as
    start or stop; those waiting (native frames only: py-spy cannot tell them apart with --native)."""
    stacks, left_out, waiting = [], 0, 0
    for line in raw.splitlines():
        text, _, count = line.rpartition(" ")
        frames = [f for f in (_frame(part) for part in text.split(";")) if f is not None]
        if any(f.python and NOT_COMMANDS.search(f.function) for f in frames):
            left_out += int(count)
        elif any(not f.python and WAITS.match(f.function) for f in frames[-4:]):
            waiting += int(count)
        else:
            stacks.append((frames, int(count)))
    return stacks, left_out, waiting


def _frame(text: str) -> Frame | None:
    found = FRAME.match(text.strip())
    if found is None:  # a thread's name or a process's, with --threads
        return None
    return Frame(found["function"], found["file"], int(found["line"]) if found["line"] else None)


def project(frame: Frame) -> bool:
    return frame.python and frame.module.startswith(("bot.", "cogs.", "bench.floor_bot"))


def area(frames: Sequence[Frame]) -> str:
    """What a sample is spent on: SQLite's C code, a system call, a collection, or the innermost
    Python frame's project package (``bot.ui``, ``bot.storage``…) or library."""
    for frame in reversed(frames):
        if not frame.python:
            if SQLITE_C.match(frame.function) or "libsqlite3" in frame.file:
                return "SQLite (C)"
            if frame.function.startswith("gc_collect") or frame.function == "collect":
                return "garbage collection"
            if SYSCALLS.match(frame.function):
                return f"system call: {frame.function}"
            continue  # the interpreter, an unnamed address: what called it says
        module = frame.module
        if module.startswith("cogs."):
            return "cogs"
        if module.startswith("bot."):
            parts = module.split(".")
            return ".".join(parts[:2]) if len(parts) > 2 else module
        top = module.split(".")[0]
        return {"uvloop": "asyncio", "selectors": "asyncio", "concurrent": "threads", "threading": "threads",
                "queue": "threads"}.get(top, top)  # fmt: skip
    return "(native only)"


@dataclass
class Profile:
    name: str
    commands: int
    rate: float
    stacks: list[tuple[list[Frame], int]]
    left_out: int
    waiting: int

    @property
    def samples(self) -> int:
        return sum(count for _, count in self.stacks)

    def us(self, samples: float) -> float:
        """Samples as µs of CPU per command."""
        return samples / self.rate / self.commands * 1e6

    def by(self, key: str) -> Counter[str]:
        """Samples by the innermost frame's area (``area``), the innermost project function
        (``project``; "-" for none) or the innermost frame (``frame``)."""
        found: Counter[str] = Counter()
        for frames, count in self.stacks:
            if not frames:
                found["(no frame)"] += count
            elif key == "area":
                found[area(frames)] += count
            elif key == "frame":
                found[str(frames[-1])] += count
            else:
                mine = [f for f in frames if project(f)]
                found[str(mine[-1]) if mine else "-"] += count
        return found

    def under(self, pattern: str) -> int:
        """Samples with a frame whose ``function (module:line)`` matches ``pattern`` (inclusive)."""
        wanted = re.compile(pattern)
        return sum(count for frames, count in self.stacks if any(wanted.search(str(f)) for f in frames))


def table(profiles: Sequence[Profile], counts: Iterable[tuple[str, Sequence[float]]], first: str) -> str:
    head = [first, *(f"{p.name} µs" for p in profiles), *(f"{p.name} %" for p in profiles)]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name, values in counts:
        cells = [f"{p.us(v):,.0f}" for p, v in zip(profiles, values, strict=True)]
        cells += [f"{v / max(p.samples, 1):.1%}" for p, v in zip(profiles, values, strict=True)]
        lines.append("| " + " | ".join([name.replace("|", "\\|"), *cells]) + " |")
    return "\n".join(lines)


def report(command: Profile, floor: Profile, top: int = 25) -> str:
    both = (command, floor)
    parts = [
        f"Samples on a CPU, every thread, {command.rate:g} a second (left out: the samples of a process "
        "starting or stopping, and with --native those waiting in a system call or for a lock):",
        "\n".join(
            f"- {p.name}: {p.samples:,} for {p.commands:,} commands, {p.us(p.samples):,.0f} µs each "
            f"({p.left_out:,} left out as start and stop, {p.waiting:,} waiting)"
            for p in both
        ),
    ]
    for key, title in (("area", "area (innermost frame)"), ("project", "innermost project function")):
        found = [p.by(key) for p in both]
        names = sorted(set(found[0]) | set(found[1]), key=lambda n: -(found[0][n] - found[1][n] / 2))
        if key == "project":
            names = [n for n in names if found[0][n] or found[1][n]][:top]
        rows = [(n, [f[n] for f in found]) for n in names]
        parts.append(f"By {title}:\n\n" + table(both, rows, title))
    for profile in both:
        frames = [(name, [count]) for name, count in profile.by("frame").most_common(top)]
        parts.append(f"Top frames (self), {profile.name}:\n\n" + table([profile], frames, "frame"))
    return "\n\n".join(parts) + "\n"


async def profiled(
    name: str, spy: list[str], servers: range, env: dict[str, str], out: Path
) -> tuple[DiscordStandin, BotProcess]:
    standin = DiscordStandin(guilds=guild_payloads(servers))
    await standin.start()
    argv = [*spy, "-o", str(out / f"{name}.txt"), "--", sys.executable, "-m", MODULES[name]]
    return standin, await start(name, argv, standin, env, out)


async def send_all(standin: DiscordStandin, kind: str, shape: Shape, commands: int, in_flight: int) -> None:
    """``commands`` of ``kind``, on as many characters in turn, ``in_flight`` at once."""
    turns = iter(range(commands))

    async def worker() -> None:
        for i in turns:
            g, k = i % shape.servers, (i // shape.servers) % shape.players
            _, record = await send(standin, payload(shape, kind, g, k))
            if not record.ok:
                raise RuntimeError(f"{kind}: {record.status} {record.response!r}")

    await asyncio.gather(*(worker() for _ in range(in_flight)))


async def measure(args: argparse.Namespace, shape: Shape, db: Path, out: Path) -> tuple[Profile, Profile]:
    spy = [args.py_spy, "record", "--rate", str(args.rate), "--format", "raw"]
    spy += ["--native"] if args.native else ["--nonblocking"]  # native frames need the process stopped
    spy += ["--gil"] if args.gil else []
    servers = range(shape.servers)
    floor_url = f"sqlite:///{out / 'floor.db'}"
    bot = await profiled("bot", spy, servers, {"DATABASE_URL": f"sqlite:///{db}"}, out)
    floors = await profiled("floors", spy, servers, {"FLOOR_DATABASE_URL": floor_url}, out)
    try:
        await send_all(bot[0], args.kind, shape, args.commands, args.in_flight)
        await send_all(floors[0], "floor write", shape, args.commands, args.in_flight)
    finally:
        for standin, proc in (bot, floors):
            await proc.stop(grace=30.0, sig=signal.SIGINT)  # py-spy writes its stacks, ends the bot
            await standin.stop()
    found = []
    for name, label in (("bot", args.kind), ("floors", "write floor")):
        stacks, left_out, waiting = parse((out / f"{name}.txt").read_text())
        found.append(Profile(label, args.commands, args.rate, stacks, left_out, waiting))
    return found[0], found[1]


def main(argv: Sequence[str]) -> None:
    cli = argparse.ArgumentParser(prog="python -m bench profile", description=__doc__)
    cli.add_argument("--kind", default="wound", help="the command: wound, heal roll, character show…")
    cli.add_argument("--commands", type=int, default=6000, help="of each (at most 8 per server)")
    cli.add_argument("--servers", type=int, default=1000)
    cli.add_argument("--in-flight", type=int, default=1)
    cli.add_argument("--rate", type=int, default=1000, help="py-spy's samples a second")
    cli.add_argument("--native", action="store_true", help="py-spy's native frames too (C, syscalls)")
    cli.add_argument("--gil", action="store_true", help="only the thread holding the GIL (Python's work)")
    cli.add_argument("--py-spy", default=shutil.which("py-spy") or "py-spy")
    cli.add_argument("--output", type=Path, help="a folder for the raw stacks and the report")
    args = cli.parse_args(argv)
    shape = Shape(args.servers, events=args.servers * 20)
    out = args.output or Path(tempfile.mkdtemp(prefix="harmonies-profile-"))
    out.mkdir(parents=True, exist_ok=True)
    db = data.dataset(shape, out)
    began = time.monotonic()
    command, floor = asyncio.run(measure(args, shape, db, out))
    text = (
        f"`{args.kind}` ×{args.commands:,}, {args.in_flight} in flight, {time.monotonic() - began:.0f} s.\n\n"
    )
    text += report(command, floor)
    (out / "report.md").write_text(text, encoding="utf-8")
    print(text)
