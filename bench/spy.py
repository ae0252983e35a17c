"""Reading a py-spy profile (``py-spy record --format raw``: one collapsed stack and its sample count a
line) as a short table: each thread's share of the samples, then where the samples fall, inclusive
(a function and everything it called) and self (the innermost frame, C code it calls included); or,
for profiles of loads of a known number of commands, the microseconds per command of each stage
(``stages``), side by side (the trivial command's beside a /wound's)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

_LINE = re.compile(r":\d+\)$")
#: Frames every stack of a thread goes through (start-up, the event loop): no information.
_PLUMBING = (
    "<frozen runpy>",
    "bot/__main__.py",
    "bot/interface/run.py",
    "asyncio/runners.py",
    "BaseEventLoop.run_",
    "Handle._run",
    "threading.py",
)


def _frame(text: str) -> str:
    return _LINE.sub(")", text)


def _thread(frames: list[str]) -> str:
    if any("_connection_worker_thread" in f or "concurrent/futures/thread.py" in f for f in frames):
        return "database thread"
    if any("BaseEventLoop._run_once" in f for f in frames):
        return "event loop"
    return "other"


RATE = 400
"""Samples per second (``bench e2e`` records with ``--rate 400``)."""

#: The stages of a command, each named by frames a sample's stack holds; the first that matches wins.
STAGES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "rendering the answer (embeds, status lines, buttons)",
        (
            "wound_embed",
            "healing_embed",
            "result_view",
            "card_view",
            "character_card",
            "secret_",
        ),
    ),
    (
        "sending it, and reading Discord's echo of it (discord.py, aiohttp, JSON)",
        (
            "InteractionResponse.send_message",
            "send_public",
            "Webhook",
        ),
    ),
    (
        "handing the unit of work to the database's thread, and back",
        (
            "Store.run",
            "SqliteDatabase.write",
            "PostgresDatabase.",
            "aiosqlite",
            "ThreadPoolExecutor.submit",
        ),
    ),
    (
        "receiving the gateway frame, building the interaction",
        (
            "DiscordWebSocket",
            "parse_interaction_create",
            "ConnectionState",
        ),
    ),
    ("dispatch: the command tree, its checks, the options", ("CommandTree._call", "interaction_check")),
)
DATABASE = "the unit of work and its commit (the database's thread)"
OTHER = "the rest (event loop, timers, logging)"


def _samples(path: Path) -> list[tuple[str, list[str], int]]:
    """(thread, frames, count) of each line, the thread told by what its stacks hold."""
    stacks: list[tuple[str, list[str], int]] = []
    kinds: dict[str, str] = {}  # thread id -> what it is, from its stacks that tell
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        first, *rest = stack.split(";")
        frames = [_frame(f) for f in rest]
        if not frames:
            continue
        stacks.append((first, frames, int(count)))
        if (kind := _thread(frames)) != "other":
            kinds[first] = kind
    return [(kinds.get(first, "other"), frames, n) for first, frames, n in stacks]


def stages(path: Path, commands: int) -> dict[str, float]:
    """Microseconds per command in each stage, from a profile of ``commands`` commands."""
    out = dict.fromkeys([DATABASE, *(name for name, _ in STAGES), OTHER], 0.0)
    for thread, frames, n in _samples(path):
        if thread == "database thread":
            stage = DATABASE
        else:
            marked = (name for name, marks in STAGES if any(m in f for f in frames for m in marks))
            stage = next(marked, OTHER)
        out[stage] += n / RATE / commands * 1e6
    return out


def stages_table(paths: dict[str, Path], commands: int) -> str:
    """A markdown table: one row a stage, one column a profile (µs per command)."""
    columns = {label: stages(path, commands) for label, path in paths.items()}
    names = list(next(iter(columns.values())))
    lines = ["| stage | " + " | ".join(columns) + " |", "|---|" + "---|" * len(columns)]
    for name in names:
        lines.append(f"| {name} | " + " | ".join(f"{c[name]:,.0f} µs" for c in columns.values()) + " |")
    totals = " | ".join(f"**{sum(c.values()):,.0f} µs**" for c in columns.values())
    lines.append(f"| **all** | {totals} |")
    return "\n".join(lines)


def summary(path: Path, *, top: int = 25) -> str:
    inclusive: dict[str, Counter[str]] = {}
    own: dict[str, Counter[str]] = {}
    threads: Counter[str] = Counter()
    total = 0
    for thread, frames, n in _samples(path):  # a sample cut short still belongs to its thread
        threads[thread] += n
        total += n
        useful = [f for f in frames if not any(p in f for p in _PLUMBING)]
        for f in set(useful):
            inclusive.setdefault(thread, Counter())[f] += n
        own.setdefault(thread, Counter())[frames[-1]] += n
    if not total:
        return "py-spy recorded no samples."
    lines = [
        f"{total:,} samples: "
        + ", ".join(f"{name} {count / total:.0%}" for name, count in threads.most_common())
        + " (shares of all samples below)."
    ]
    for thread, _ in threads.most_common():
        lines.append(f"\n{thread}, inclusive:\n")
        lines += [f"    {n / total:6.1%}  {f}" for f, n in inclusive.get(thread, Counter()).most_common(top)]
        lines.append(f"\n{thread}, self:\n")
        lines += [f"    {n / total:6.1%}  {f}" for f, n in own[thread].most_common(top // 2)]
    return "\n".join(lines)


if __name__ == "__main__":
    import sys

    if sys.argv[1] == "--stages":  # --stages COMMANDS LABEL=FILE ...
        pairs = dict(arg.split("=", 1) for arg in sys.argv[3:])
        print(stages_table({label: Path(file) for label, file in pairs.items()}, int(sys.argv[2])))
    else:
        print(summary(Path(sys.argv[1]), top=int(sys.argv[2]) if len(sys.argv) > 2 else 25))
