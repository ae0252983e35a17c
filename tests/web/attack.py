"""An attack on the player view, from its own process (so that the Discord stand-in of the test keeps
its own event loop): ``python -m tests.web.attack KIND URL FIRST LAST PER_ADDRESS SECONDS``.

From each loopback address 127.0.0.FIRST … 127.0.0.LAST, PER_ADDRESS clients at once, for SECONDS:

* ``streams``: each opens the link's update stream and reads it, and opens it again 0.2 s after it
  ends or is refused (a browser's EventSource, impatient);
* ``slow``: each sends a request's headers a byte every 3 s, and starts again 0.2 s after the
  connection is closed;
* ``links``: each asks for bogus links (a database lookup each), one after the other.

Only loopback addresses; every loop ends at the deadline. Prints one JSON line: what it got."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import resource
import sys
import time
from urllib.parse import urlsplit

OPEN_AGAIN_S = 0.2
SLOW_BYTE_S = 3.0


async def client(
    kind: str, host: str, port: int, path: str, source: str, until: float, seen: collections.Counter[str]
) -> None:
    while time.monotonic() < until:
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(host, port, local_addr=(source, 0)), 5
            )
        except (OSError, TimeoutError):
            seen["connect failed"] += 1
            await asyncio.sleep(OPEN_AGAIN_S)
            continue
        seen["opened"] += 1
        try:
            if kind == "slow":
                await slow_request(reader, writer, path, until, seen)
            else:
                await request(kind, reader, writer, path, until, seen)
        except (OSError, TimeoutError, asyncio.IncompleteReadError):
            seen["dropped"] += 1
        finally:
            writer.transport.abort()
        await asyncio.sleep(OPEN_AGAIN_S)


async def request(
    kind: str,
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    path: str,
    until: float,
    seen: collections.Counter[str],
) -> None:
    for n in range(1_000_000):
        target = f"{path}/events" if kind == "streams" else f"/{'x' * 31}{n % 10}"
        asked = time.monotonic()
        writer.write(f"GET {target} HTTP/1.1\r\nHost: view\r\nAccept: */*\r\n\r\n".encode())
        line = await asyncio.wait_for(reader.readline(), max(0.1, until - time.monotonic()))
        if not line:
            seen["closed before an answer"] += 1
            return
        status = line.split()[1].decode()
        seen[status] += 1
        took = time.monotonic() - asked
        seen[
            next((f"answered within {n} ms" for n in (10, 100, 1000) if took <= n / 1000), "answered later")
        ] += 1
        if kind == "streams" and status == "200":
            while time.monotonic() < until:  # read the stream to its end
                if not await asyncio.wait_for(reader.read(65536), max(0.1, until - time.monotonic())):
                    return
            return
        length = 0
        while header := (await reader.readline()).strip():
            if header.lower().startswith(b"content-length:"):
                length = int(header.split(b":")[1])
        await reader.readexactly(length)
        if kind == "streams" or time.monotonic() >= until:
            return


async def slow_request(
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    path: str,
    until: float,
    seen: collections.Counter[str],
) -> None:
    began = time.monotonic()
    for byte in f"GET {path} HTTP/1.1\r\nHost: view\r\nX-Slow: {'a' * 1000}".encode():
        writer.write(bytes([byte]))
        try:  # the connection closed by the server ends the read at once
            if not await asyncio.wait_for(
                reader.read(1024), min(SLOW_BYTE_S, max(0.1, until - time.monotonic()))
            ):
                seen["closed"] += 1
                seen[f"closed after {min(int(time.monotonic() - began), 30)} s"] += 1
                return
            seen["answered"] += 1
            return
        except TimeoutError:
            if time.monotonic() >= until:
                seen["held to the end"] += 1
                return


async def main(kind: str, url: str, first: int, last: int, per_address: int, seconds: float) -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    clients = (last - first + 1) * per_address
    assert clients + 64 <= hard, f"{clients} clients need more open files than {hard}"
    split = urlsplit(url)
    host, port, path = split.hostname or "127.0.0.1", split.port or 80, split.path
    seen: collections.Counter[str] = collections.Counter()
    until = time.monotonic() + seconds
    tasks = [
        asyncio.create_task(client(kind, host, port, path, f"127.0.0.{a}", until, seen))
        for a in range(first, last + 1)
        for _ in range(per_address)
    ]
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), seconds + 10)
    print(json.dumps(dict(seen)))


if __name__ == "__main__":
    kind, url, first, last, per_address, seconds = sys.argv[1:7]
    assert kind in ("streams", "slow", "links") and 2 <= int(first) <= int(last) <= 254
    asyncio.run(main(kind, url, int(first), int(last), int(per_address), float(seconds)))
