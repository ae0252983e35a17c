"""``python -m bench.player_view``: the player view with 200 open viewers beside the bot's load.

Two processes on the two cores of the machine: the bot (the real bot on a SQLite file, its commands
dispatched through the in-process fake Discord, its player view on a local port) pinned to one core,
and the viewers (aiohttp clients, each from its own address through ``X-Forwarded-For``) pinned to the
other. Each viewer loads the page, then holds its update stream. Meanwhile the bot takes a steady load
in another server (a /wound then an /undo, ``--load`` commands a second), and every second a GM
renames a character of the watched server (a change every page must show). Reported: how long a
change takes to reach every open page, how long a page takes to load, what the commands took, and
the bot's CPU."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import sys
import tempfile
import time

import aiohttp

from bot.web.limits import AddressLimits
from bot.web.server import PlayerView
from tests.table import ALICE, OTHER_GUILD, OWNER, open_table, refused


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def bot_side(rounds: int, load: float) -> None:
    os.sched_setaffinity(0, {0})
    with tempfile.TemporaryDirectory() as tmp:
        async with open_table(f"sqlite:///{tmp}/bot.db") as table:
            view = PlayerView(table.store, "127.0.0.1", 0, limits=AddressLimits(burst=100))
            await view.start()
            table.bot.settings = table.bot.settings.model_copy(
                update={"web_base_url": f"http://127.0.0.1:{view.port}"}
            )
            for i in range(5):
                await table.create(f"Hero{i}", ALICE + i)
            await table.run("character create", {"name": "Target"}, guild=OTHER_GUILD, user=OWNER)
            revoked = refused(await table.run("board", {"link": True}))
            text = refused(await table.run("board", {"link": True, "revoke": True}))
            print("link", text.split(": ", 1)[1].split()[0], revoked.split(": ", 1)[1].split()[0], flush=True)
            await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)  # "go"
            latencies: list[float] = []
            stop = asyncio.Event()

            async def timed(command: str, options: dict[str, object], **where: object) -> None:
                start = time.monotonic()
                await table.run(command, options, **where)  # type: ignore[arg-type]
                latencies.append(time.monotonic() - start)

            async def background() -> None:
                while not stop.is_set():
                    wound: dict[str, object] = {"severity": "light", "character": "Target"}
                    await timed("wound", wound, guild=OTHER_GUILD, user=OWNER)
                    await asyncio.sleep(1 / load)
                    await timed("undo", {}, guild=OTHER_GUILD, user=OWNER)
                    await asyncio.sleep(1 / load)

            cpu = resource.getrusage(resource.RUSAGE_SELF)
            began = time.monotonic()
            loader = asyncio.create_task(background())
            for k in range(1, rounds + 1):
                await asyncio.sleep(1.0)
                old = "Hero0" if k == 1 else f"Hero0-{k - 1}"
                await timed("character edit", {"character": old, "name": f"Hero0-{k}"})
                print("marker", k, time.monotonic(), flush=True)
            stop.set()
            await loader
            after = resource.getrusage(resource.RUSAGE_SELF)
            used = after.ru_utime + after.ru_stime - cpu.ru_utime - cpu.ru_stime
            wall = time.monotonic() - began
            stats = {"cpu": used / wall, "commands": len(latencies), "p50": pct(latencies, 0.5)}
            stats |= {"p99": pct(latencies, 0.99), "renders": view.feeds.renders}
            print("stats", json.dumps(stats), flush=True)
            await view.close()


async def load_page(http: aiohttp.ClientSession, link: str, address: dict[str, str]) -> float:
    start = time.monotonic()
    async with http.get(link, headers=address) as page:
        assert page.status == 200, page.status
        await page.read()
    return time.monotonic() - start


async def viewer(http: aiohttp.ClientSession, link: str, n: int, seen: list[tuple[float, str]]) -> None:
    address = {"X-Forwarded-For": f"10.0.{n // 250}.{n % 250 + 1}"}
    await load_page(http, link, address)
    async with http.get(link + "/events", headers=address) as stream:
        assert stream.status == 200, stream.status
        async for raw in stream.content:
            if raw.startswith(b"data: "):
                seen.append((time.monotonic(), raw.decode()))


async def refusals(http: aiohttp.ClientSession, revoked: str, rounds: int = 300) -> dict[str, list[float]]:
    """How long a 404 takes, for a revoked link and for an unknown one (alternating, before the run)."""
    times: dict[str, list[float]] = {"revoked": [], "unknown": []}
    unknown = revoked.rsplit("/", 1)[0] + "/" + "A" * len(revoked.rsplit("/", 1)[1])
    for n in range(rounds):
        for kind, url in (("revoked", revoked), ("unknown", unknown)):
            start = time.monotonic()
            async with http.get(url, headers={"X-Forwarded-For": f"10.8.{n // 250}.{n % 250 + 1}"}) as answer:
                assert answer.status == 404, answer.status
                await answer.read()
            times[kind].append(time.monotonic() - start)
    return times


async def prober(http: aiohttp.ClientSession, link: str, times: list[float], stop: asyncio.Event) -> None:
    """One more visitor, loading the page four times a second while the viewers watch."""
    while not stop.is_set():
        times.append(await load_page(http, link, {"X-Forwarded-For": "10.9.9.9"}))
        await asyncio.sleep(0.25)


async def viewers_side(count: int, rounds: int, load: float) -> None:
    os.sched_setaffinity(0, {1})
    bot = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bench.player_view",
        "--bot",
        str(rounds),
        str(load),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    assert bot.stdin is not None and bot.stdout is not None
    _, link, revoked = (await bot.stdout.readline()).decode().split()
    seen: list[list[tuple[float, str]]] = [[] for _ in range(count)]
    unlimited = aiohttp.TCPConnector(limit=0)  # 200 streams open at once, and a prober
    async with aiohttp.ClientSession(
        timeout=aiohttp.ClientTimeout(sock_read=None), connector=unlimited
    ) as http:
        not_found = await refusals(http, revoked)
        tasks = [asyncio.create_task(viewer(http, link, n, seen[n])) for n in range(count)]
        while sum(1 for s in seen if s) < count:  # noqa: ASYNC110 (every stream sent its first state)
            await asyncio.sleep(0.1)
        bot.stdin.write(b"go\n")
        await bot.stdin.drain()
        pages: list[float] = []
        stop = asyncio.Event()
        probing = asyncio.create_task(prober(http, link, pages, stop))
        markers: dict[int, float] = {}
        while True:
            line = await bot.stdout.readline()
            if not line:
                raise SystemExit("the bot side stopped early (see above)")
            words = line.decode().split(" ", 1)
            if words[0] == "marker":
                k, at = words[1].split()
                markers[int(k)] = float(at)
            elif words[0] == "stats":
                stats = json.loads(words[1])
                break
        stop.set()
        await probing
        for task in tasks:
            task.cancel()
    await bot.wait()
    delays = []
    for number, changed_at in markers.items():
        for events in seen:
            arrival = next(t for t, data in events if f">Hero0-{number}<" in data)
            delays.append(arrival - changed_at)
    print(f"viewers {count}, changes {len(markers)}, background load {load:g} commands/s")
    print(f"change on every open page: {spread(delays)}")
    print(f"page load while watched: {spread(pages)} ({len(pages)} loads)")
    print(f"commands ({stats['commands']}): median {ms(stats['p50'])}, p99 {ms(stats['p99'])}")
    print(
        "404, revoked link / unknown link: "
        + " / ".join(spread(not_found[k]) for k in ("revoked", "unknown"))
    )
    print(f"bot process CPU: {stats['cpu'] * 100:.0f}% of its core; renders of the page: {stats['renders']}")


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def spread(values: list[float]) -> str:
    if not values:
        return "none"
    return f"median {ms(pct(values, 0.5))}, p99 {ms(pct(values, 0.99))}, max {ms(max(values))}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--viewers", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--load", type=float, default=10.0, help="background commands per second")
    parser.add_argument("--bot", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.bot:
        asyncio.run(bot_side(int(args.bot[0]), float(args.bot[1])))
    else:
        asyncio.run(viewers_side(args.viewers, args.rounds, args.load))


if __name__ == "__main__":
    main()
