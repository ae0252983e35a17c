"""The table: each figure, the floor it is held against (same run), the ratio, and the target."""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import sqlite3
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import discord


def log(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def machine() -> str:
    started, load = datetime.datetime.now(datetime.UTC), ", ".join(f"{v:.2f}" for v in os.getloadavg())
    return (
        f"Run {started:%Y-%m-%d %H:%M} UTC: {os.cpu_count()} cores, load average {load} at the start; "
        f"Python {platform.python_version()}, SQLite {sqlite3.sqlite_version}, "
        f"discord.py {discord.__version__}."
    )


def parser(prog: str, doc: str | None) -> argparse.ArgumentParser:
    found = argparse.ArgumentParser(prog=prog, description=doc)
    found.add_argument("--quick", action="store_true", help="fewer samples, shorter runs")
    found.add_argument("--tiny", action="store_true", help="tiny sizes: checks that the bench runs")
    found.add_argument("--output", type=Path, help="also write the report to this file")
    return found


def publish(text: str, output: Path | None) -> None:
    print(text)
    if output is not None:
        output.write_text(text, encoding="utf-8")


@dataclass(frozen=True)
class Row:
    figure: str
    measured: str
    met: bool | None  # None: a floor, or reported only
    floor: str = "—"
    ratio: str = "—"
    target: str = "—"

    @property
    def verdict(self) -> str:
        return "—" if self.met is None else ("yes" if self.met else "**no**")


def ms(seconds: float) -> str:
    value = seconds * 1000
    return f"{value:.2f} ms" if value < 10 else f"{value:.1f} ms"


def ratio(value: float, floor: float) -> str:
    return f"{value / floor:.2f}×" if floor > 0 else "—"


def table(rows: Sequence[Row]) -> str:
    head = ("figure", "measured", "floor (same run)", "ratio", "target", "met")
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        cells = (row.figure, row.measured, row.floor, row.ratio, row.target, row.verdict)
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    return "\n".join(lines)


def against(
    figure: str,
    measured: str,
    value: float,
    floor: float,
    floor_text: str,
    bound: float | None = None,
    *,
    at_least: bool = False,
    answered: bool = True,
) -> Row:
    """A figure held against a floor: at most (or ``at_least``) ``bound`` times it; None: reported."""
    if bound is None:
        return Row(figure, measured, None, floor_text, ratio(value, floor), "reported")
    met = (value >= bound * floor if at_least else value <= bound * floor) and answered
    target = f"≥ {bound}×, every one answered" if at_least else f"≤ {bound}×"
    return Row(figure, measured, met, floor_text, ratio(value, floor), target)
