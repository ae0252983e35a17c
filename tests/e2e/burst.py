"""A burst of /wound sent to a bot process, and what each of them ended with: for the tests that stop
the bot (test_graceful_stop.py) or its database (test_failover.py) in the middle of one."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from tests.e2e.game import Table, rows
from tests.fakediscord import EPHEMERAL, Interaction
from tests.fakediscord.rest import LOADING

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


def text_of(message: Payload) -> str:
    parts = [str(message.get("content") or "")]
    for embed in message.get("embeds") or []:
        parts += [str(embed.get("title") or ""), str(embed.get("description") or "")]
    return "\n".join(parts)


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
                refused[note] = text_of(answer)
            else:
                applied.add(note)
        return cls(applied, refused, unanswered)

    def describe(self) -> str:
        return f"{len(self.applied)} applied, {len(self.refused)} refused, {len(self.unanswered)} unanswered"


def stored_notes(conn: Any, prefix: str = "burst") -> list[str]:
    """The notes of the burst's wounds in the database (a note stored twice appears twice)."""
    return [n for (n,) in rows(conn, "SELECT note FROM wounds WHERE note LIKE ?", f"{prefix} %")]


Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


async def scrape(port: int) -> Samples:
    """Every sample of ``GET /metrics`` by (name, sorted labels)."""
    async with (
        aiohttp.ClientSession() as http,
        http.get(f"http://127.0.0.1:{port}/metrics") as response,
    ):
        assert response.status == 200, response.status
        text = await response.text()
    samples: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def value(samples: Samples, name: str, **labels: str) -> float | None:
    return samples.get((name, tuple(sorted(labels.items()))))


async def scraped(port: int, name: str, tries: int = 100, **labels: str) -> float:
    """The sample once it is there (scraped again every 0.1 s, ``tries`` times at most)."""
    for _ in range(tries):
        found = value(await scrape(port), name, **labels)
        if found is not None:
            return found
        await asyncio.sleep(0.1)
    raise AssertionError(f"no sample {name}{labels} in /metrics")
