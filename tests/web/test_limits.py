"""The public port's bounds (issue 36), on the view served in this process: a budget of connections
counted from their acceptance (one more is closed at once), an update stream over its share refused
with 503 and Retry-After, a request that is not whole within a few seconds closed, a stream whose
connection is lost giving its place back at once; per-address counts (IPv6 by its /64); the budget
taken from the open-files limit with its reserve, and that limit raised to the hard one at start."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import time

import pytest

from bot.web import server
from bot.web.limits import BACKLOG, RESERVE_FILES, AddressLimits, Budget, address_key
from tests.e2e.process import REPO
from tests.table import ALICE
from tests.web.conftest import Served, serve


async def closed_within(reader: asyncio.StreamReader, seconds: float) -> float:
    """How long until the server closed the connection (it must, within ``seconds``)."""
    began = time.monotonic()
    while await asyncio.wait_for(reader.read(4096), seconds):
        pass
    return time.monotonic() - began


async def test_over_the_budget_a_connection_is_closed_and_a_stream_gets_503(served: Served) -> None:
    link = await served.link()
    view = await serve(served.table, budget=Budget(open_files=1024, connections=3, streams=2))
    base = f"http://127.0.0.1:{view.port}/" + link.rsplit("/", 1)[1]
    try:
        async with served.http.get(base + "/events") as one, served.http.get(base + "/events") as two:
            assert (one.status, two.status) == (200, 200)
            third = await served.get(base + "/events")  # a third connection: within the budget
            assert third[0] == 503 and third[2]["Retry-After"] == "10"
            assert view.status()["streams"] == 2
            # Three connections held: a fourth is closed as soon as it is accepted, before a byte.
            held = await asyncio.open_connection("127.0.0.1", view.port)
            assert view.connections == 3
            reader, writer = await asyncio.open_connection("127.0.0.1", view.port)
            writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            assert await closed_within(reader, 2) < 1
            assert view.refused >= 1
            held[1].close()
        # The streams' connections closed: their places are given back at once (not at a heartbeat).
        for _ in range(50):
            if view.streams == 0 and view.connections <= 1:
                break
            await asyncio.sleep(0.05)
        assert view.streams == 0 and view.connections <= 1  # the client's idle keep-alive, perhaps
        assert (await served.get(base))[0] == 200
    finally:
        await view.close()


async def test_an_unfinished_request_or_an_idle_connection_is_closed(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server, "REQUEST_S", 1.0)
    view = await serve(served.table)
    try:
        # Headers a byte every 0.3 s: closed about REQUEST_S after the connection opened.
        reader, writer = await asyncio.open_connection("127.0.0.1", view.port)
        began = time.monotonic()
        for byte in b"GET /static/view.css HTTP/1.1\r\nHost: x\r\nX-Slow: aaaaaaaaaaaaaaaa":
            writer.write(bytes([byte]))
            try:
                if not await asyncio.wait_for(reader.read(1024), 0.3):
                    break
            except TimeoutError:
                continue
        assert 0.9 < time.monotonic() - began < 2.5
        # A whole request is answered; then the idle connection is closed after REQUEST_S too.
        reader, writer = await asyncio.open_connection("127.0.0.1", view.port)
        writer.write(b"GET /static/view.css HTTP/1.1\r\nHost: x\r\n\r\n")
        assert (await reader.readline()).startswith(b"HTTP/1.1 200")
        assert 0.5 < await closed_within(reader, 3) < 2.5
        assert view.connections == 0
    finally:
        await view.close()


def test_an_ipv6_address_is_counted_by_its_64() -> None:
    limits = AddressLimits(rate=0.001, burst=2, connections=2)
    assert (
        address_key("2a01:e0a:1:2::1") == address_key("2a01:e0a:1:2:ffff:ffff:ffff:9") == "2a01:e0a:1:2::/64"
    )
    assert address_key("::ffff:93.184.216.7") == address_key("93.184.216.7") == "93.184.216.7"
    assert limits.allow("2a01:e0a:1:2::1") and limits.allow("2a01:e0a:1:2::99")
    assert not limits.allow("2a01:e0a:1:2:abcd::1")  # the same /64: its bucket is empty
    assert limits.allow("2a01:e0a:1:3::1")  # the next /64 has its own
    assert limits.connect("2a01:e0a:7:7::1") and limits.connect("2a01:e0a:7:7::2")
    assert not limits.connect("2a01:e0a:7:7::3")
    limits.disconnect("2a01:e0a:7:7::1")
    assert limits.connect("2a01:e0a:7:7::4")


def test_a_local_peer_is_a_proxy_whose_connections_only_the_budget_bounds() -> None:
    limits = AddressLimits(connections=2)
    assert all(limits.connect("93.184.216.34") for _ in range(2)) and not limits.connect("93.184.216.34")
    for proxy in ("127.0.0.1", "::1", "10.0.0.2", "172.17.0.1", "::ffff:127.0.0.1"):
        assert all(limits.connect(proxy) for _ in range(100)), proxy
        limits.disconnect(proxy)


def test_the_budget_leaves_the_reserve_to_discord_and_the_database() -> None:
    budget = Budget.for_limit(1024)
    assert budget.connections == 1024 - RESERVE_FILES - BACKLOG == 704
    assert budget.streams == 616 and budget.reserve == RESERVE_FILES
    assert Budget.for_limit(1_048_576).connections == 4096  # memory bounds it too
    assert Budget.for_limit(RESERVE_FILES).connections == 0
    assert "up to 704 connections at once" in budget.describe()


def test_the_soft_open_files_limit_is_raised_to_the_hard_one() -> None:
    code = "from bot.web.limits import raise_open_files_limit; print(raise_open_files_limit())"
    done = subprocess.run(
        ["prlimit", "--nofile=512:2048", sys.executable, "-c", code],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert done.stdout.strip() == "2048"


async def test_a_viewer_who_stops_reading_is_dropped(served: Served, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server, "WRITE_S", 0.5)
    names = [f"Character number {n:02d} with a long name" for n in range(20)]
    for name in names:
        await served.table.create(name, ALICE)
    link = await served.link()
    served.view.feeds.interval = 0.0  # one update per change: the writes pile up sooner
    silent = socket.socket()
    silent.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # and never read
    silent.connect(("127.0.0.1", served.view.port))
    try:
        silent.sendall(f"GET /{link.rsplit('/', 1)[1]}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        for _ in range(100):
            if served.view.streams == 1:
                break
            await asyncio.sleep(0.02)
        assert served.view.streams == 1
        # The bot's side of it as a slow link's: a small send buffer, not autotuned to megabytes.
        assert served.view._runner is not None and served.view._runner.server is not None
        for connection in served.view._runner.server.connections:
            assert connection.transport is not None
            connection.transport.get_extra_info("socket").setsockopt(
                socket.SOL_SOCKET, socket.SO_SNDBUF, 4096
            )
        for n in range(100):  # every change sends the whole party (some 10 KB) to the silent viewer
            if served.view.streams == 0:
                break
            await served.table.run("wound", {"severity": "light", "character": names[n % len(names)]})
            await asyncio.sleep(0.02)
        assert served.view.streams == 0, "the viewer who stopped reading is still held"
        assert n < 100
    finally:
        silent.close()
    assert (await served.get(link))[0] == 200
