"""A burst of /wound sent to a bot process, and what each of them ended with: for the tests that stop
the bot (test_graceful_stop.py) or its database (test_failover.py) in the middle of one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tests.e2e.running import rows
from tests.fakediscord import EPHEMERAL, Interaction, message_text
from tests.fakediscord.rest import LOADING
from tests.table import Table

GIANTS = ("Ymir", "Surt", "Hrym")  # a "giant" holds 20 light wounds: no escalation, no death
Payload = dict[str, Any]


async def seat_giants(table: Table) -> None:
    await table.setup_gm_role()
    await table.say("config preset", {"name": "giant", "light": 20})
    for name in GIANTS:
        await table.say("character create", {"name": name, "preset": "giant"})


async def send_burst(table: Table, count: int, prefix: str = "burst") -> dict[str, Interaction]:
    """``count`` light wounds at once, each with its own note ``"{prefix} {i}"``."""
    sent: dict[str, Interaction] = {}
    for i in range(count):
        options = {"severity": "light", "character": GIANTS[i % len(GIANTS)], "note": f"{prefix} {i}"}
        sent[options["note"]] = await table.send("wound", options, wait=False)
    return sent


def final_answer(exchange: Interaction) -> Payload | None:
    """The message an interaction ended with: its answer, or None when there is none (no callback,
    or a "thinking…" never followed up)."""
    if exchange.followups:
        return exchange.followups[-1]
    original = exchange.original
    if original is not None and not int(original.get("flags") or 0) & LOADING:
        return original
    return None


@dataclass
class Outcomes:
    """What a burst's interactions ended with, by note."""

    applied: set[str]  # a public result
    refused: dict[str, str]  # a private answer (its text)
    unanswered: set[str]  # no answer at all

    @classmethod
    def of(cls, sent: dict[str, Interaction]) -> Outcomes:
        applied, refused, unanswered = set(), {}, set()
        for note, exchange in sent.items():
            answer = final_answer(exchange)
            if answer is None:
                unanswered.add(note)
            elif int(answer.get("flags") or 0) & EPHEMERAL:
                refused[note] = message_text(answer)
            else:
                applied.add(note)
        return cls(applied, refused, unanswered)

    def describe(self) -> str:
        return f"{len(self.applied)} applied, {len(self.refused)} refused, {len(self.unanswered)} unanswered"


def stored_notes(conn: Any, prefix: str = "burst") -> list[str]:
    """The notes of the burst's wounds in the database (a note stored twice appears twice)."""
    return [n for (n,) in rows(conn, "SELECT note FROM wounds WHERE note LIKE ?", f"{prefix} %")]
