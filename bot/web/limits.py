"""The player view's limits, so that the public port can never take the bot down:

* a **budget** of connections for the whole port (open, unfinished, idle and streaming alike), set at
  start from the process's open-files limit, with a reserve the port can never take (Discord's
  connections, the database, the logs); over it, a new connection is closed at once, and an update
  stream is refused (503) a little before (:class:`Budget`);
* per address (an IPv6 address by its /64, what one host is commonly given): a token bucket of
  requests (a page, its style sheet and script, its update stream; a page without JavaScript reloads
  every few seconds), a number of open update streams, and a number of open connections
  (:class:`AddressLimits`). An address over its limit is answered 429 until its bucket refills."""

from __future__ import annotations

import contextlib
import ipaddress
import resource
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
CONNECTIONS = 48
"""Connections an address may hold open (its streams, and its pages loading); a local peer (a reverse
proxy on this machine or in a container) carries every client's: only the budget bounds it."""
FORGET_AFTER = 10_000
"""Above this many addresses known, the ones whose bucket is full again are forgotten."""

RESERVE_FILES = 256
"""Open files the public port can never take: Discord's gateway and its HTTP connections (one per
answer in flight), the database (SQLite's file, journal and lock; PostgreSQL's pool), the health port,
the logs, Python's own."""
BACKLOG = 64
"""Connections the kernel queues for the port: the event loop may accept that many at once before it
counts them, so they come out of the budget too."""
MOST_CONNECTIONS = 4096
"""The budget whatever the limit (each connection costs memory too)."""


@dataclass(frozen=True)
class Budget:
    """How many connections the public port may hold at once."""

    open_files: int
    """The process's open-files limit (its soft limit, once raised to the hard one at start)."""
    connections: int
    """Connections at once; one more is closed as soon as it is accepted."""
    streams: int
    """Update streams at once (an eighth of the connections is kept for pages): one more gets 503."""

    @classmethod
    def for_limit(cls, open_files: int) -> Budget:
        connections = max(0, min(MOST_CONNECTIONS, open_files - RESERVE_FILES - BACKLOG))
        return cls(open_files, connections, connections - connections // 8)

    @classmethod
    def of_this_process(cls) -> Budget:
        return cls.for_limit(resource.getrlimit(resource.RLIMIT_NOFILE)[0])

    @property
    def reserve(self) -> int:
        """Open files the port can never take, whatever it is sent."""
        return self.open_files - self.connections - BACKLOG

    def describe(self) -> str:
        return (
            f"up to {self.connections} connections at once ({self.streams} update streams), "
            f"open-files limit {self.open_files}, {self.reserve} kept for Discord and the database"
        )


def open_files_at_start() -> int:
    """The open-files limit a start gives the process: its hard limit (65 536 when unlimited)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return hard if hard != resource.RLIM_INFINITY else max(soft, 65536)


def raise_open_files_limit() -> int:
    """At start: the soft open-files limit raised to the hard one (systemd starts a service with a soft
    limit of 1024 whatever its hard limit). The limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = open_files_at_start()
    if target > soft:  # a system may refuse it (macOS above OPEN_MAX): the soft one stays
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


@dataclass
class _Bucket:
    tokens: float
    at: float
    streams: int = 0
    connections: int = 0


class AddressLimits:
    def __init__(
        self,
        *,
        rate: float = RATE,
        burst: int = BURST,
        streams: int = STREAMS,
        connections: int = CONNECTIONS,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.streams = streams
        self.connections = connections
        self.now = now
        self._buckets: dict[str, _Bucket] = {}

    def _bucket(self, address: str) -> _Bucket:
        now = self.now()
        key = address_key(address)
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= FORGET_AFTER:
                self._forget_idle(now)
            bucket = self._buckets[key] = _Bucket(float(self.burst), now)
        bucket.tokens = min(float(self.burst), bucket.tokens + (now - bucket.at) * self.rate)
        bucket.at = now
        return bucket

    def _forget_idle(self, now: float) -> None:
        for key, bucket in list(self._buckets.items()):
            idle = bucket.streams == 0 and bucket.connections == 0
            if idle and bucket.tokens + (now - bucket.at) * self.rate >= self.burst:
                del self._buckets[key]

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
        self._buckets[address_key(address)].streams -= 1

    def connect(self, peer: str) -> bool:
        """A new connection from ``peer``: whether it may stay. A local peer (a reverse proxy) is not
        counted: it carries every client's connections."""
        if is_local(peer):
            return True
        bucket = self._bucket(peer)
        if bucket.connections >= self.connections:
            return False
        bucket.connections += 1
        return True

    def disconnect(self, peer: str) -> None:
        """After a :meth:`connect` that allowed it."""
        if not is_local(peer):
            self._buckets[address_key(peer)].connections -= 1


def _ip(address: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """``address`` parsed (an IPv4 address written as IPv6 is the IPv4 one); ``None``: not an address."""
    try:
        found = ipaddress.ip_address(address)
    except ValueError:
        return None
    return getattr(found, "ipv4_mapped", None) or found


def address_key(address: str) -> str:
    """What the limits count by: an IPv4 address, or an IPv6 address's /64."""
    found = _ip(address)
    if isinstance(found, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((found, 64), strict=False))
    return address if found is None else str(found)


def is_local(address: str) -> bool:
    """This machine or a private network's: a reverse proxy (on this machine, in a container)."""
    found = _ip(address)
    return found is not None and (found.is_loopback or found.is_private)


def client_address(peer: str | None, forwarded_for: str | None) -> str:
    """Who is asking: the peer, or, when the peer is this machine or a private network's (a reverse
    proxy, in a container too) and says so, the last address of ``X-Forwarded-For`` (the one the proxy
    itself saw). A public peer is never believed."""
    address = peer or "?"
    if forwarded_for and is_local(address):
        last = forwarded_for.split(",")[-1].strip()
        if last:
            return last[:64]
    return address
