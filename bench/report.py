"""The table: each figure, its floor measured in the same run, the ratio, and the target."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Row:
    figure: str
    measured: str
    floor: str
    ratio: str
    target: str
    met: bool | None  # None: a floor, or reported only

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
