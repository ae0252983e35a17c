"""Per-address limits of the player view: a token bucket of requests (a page, its style sheet and
script, its update stream; a page without JavaScript reloads every few seconds), and a number of open
update streams. An address over its limit is answered 429 until its bucket refills."""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Callable
from dataclasses import dataclass

RATE = 5.0
"""Requests an address may make per second, sustained (a table behind one router: its pages without
JavaScript reload every 5 s)."""
BURST = 60
"""Requests an address may make at once (a few pages opened together)."""
STREAMS = 32
"""Update streams an address may hold open (a table's phones and screens behind one router)."""
FORGET_AFTER = 10_000
"""Above this many addresses known, the ones whose bucket is full again are forgotten."""


@dataclass
class _Bucket:
    tokens: float
    at: float
    streams: int = 0


class AddressLimits:
    def __init__(
        self,
        *,
        rate: float = RATE,
        burst: int = BURST,
        streams: int = STREAMS,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.streams = streams
        self.now = now
        self._buckets: dict[str, _Bucket] = {}

    def _bucket(self, address: str) -> _Bucket:
        now = self.now()
        bucket = self._buckets.get(address)
        if bucket is None:
            if len(self._buckets) >= FORGET_AFTER:
                self._forget_idle(now)
            bucket = self._buckets[address] = _Bucket(float(self.burst), now)
        bucket.tokens = min(float(self.burst), bucket.tokens + (now - bucket.at) * self.rate)
        bucket.at = now
        return bucket

    def _forget_idle(self, now: float) -> None:
        for address, bucket in list(self._buckets.items()):
            if bucket.streams == 0 and bucket.tokens + (now - bucket.at) * self.rate >= self.burst:
                del self._buckets[address]

    def allow(self, address: str) -> bool:
        """One request of ``address``: whether it may go on."""
        bucket = self._bucket(address)
        if bucket.tokens < 1:
            return False
        bucket.tokens -= 1
        return True

    def open_stream(self, address: str) -> bool:
        bucket = self._bucket(address)
        if bucket.streams >= self.streams:
            return False
        bucket.streams += 1
        return True

    def close_stream(self, address: str) -> None:
        """After an :meth:`open_stream` that allowed it (an address holding a stream is never forgotten)."""
        self._buckets[address].streams -= 1


def client_address(peer: str | None, forwarded_for: str | None) -> str:
    """Who is asking: the peer, or, when the peer is this machine or a private network's (a reverse
    proxy, in a container too) and says so, the last address of ``X-Forwarded-For`` (the one the proxy
    itself saw). A public peer is never believed."""
    address = peer or "?"
    if forwarded_for:
        try:
            found = ipaddress.ip_address(address)
            local = found.is_loopback or found.is_private
        except ValueError:
            local = False
        if local:
            last = forwarded_for.split(",")[-1].strip()
            if last:
                return last[:64]
    return address
