"""Reading a bot's ``GET /metrics`` (Prometheus's text format) in tests, with prometheus-client's own
parser."""

from __future__ import annotations

import asyncio

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


async def fetch(port: int) -> tuple[str, str]:
    """The content type and the text of ``GET /metrics`` on 127.0.0.1."""
    async with (
        aiohttp.ClientSession() as http,
        http.get(f"http://127.0.0.1:{port}/metrics") as response,
    ):
        assert response.status == 200, response.status
        return response.headers["Content-Type"], await response.text()


async def scrape(port: int) -> Samples:
    """Every sample, by (name, sorted labels)."""
    _, text = await fetch(port)
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
