"""Reading a py-spy profile (``py-spy record --format raw``: one collapsed stack and its sample count a
line) as a short table: each thread's share of the samples, then where the samples fall, inclusive
(a function and everything it called) and self (the innermost frame, C code it calls included)."""

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


def summary(path: Path, *, top: int = 25) -> str:
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
    inclusive: dict[str, Counter[str]] = {}
    own: dict[str, Counter[str]] = {}
    threads: Counter[str] = Counter()
    total = 0
    for first, frames, n in stacks:
        thread = kinds.get(first, "other")  # a sample cut short still belongs to its thread
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

    print(summary(Path(sys.argv[1]), top=int(sys.argv[2]) if len(sys.argv) > 2 else 25))
