"""Capacity of two shard processes against one, on the same PostgreSQL: ``python -m bench.shards``.

The bot runs as its own process(es) (``python -m bot``), against the local Discord stand-in of the
tests (``tests/fakediscord``: real HTTP and gateway on 127.0.0.1) with two shards and 100 servers,
half on each; the database is one PostgreSQL (a throwaway cluster with PostgreSQL's durable defaults,
or ``HARMONIES_BENCH_POSTGRES_URL``). Each run keeps a fixed number of commands in flight (half
``/wound``, half ``/character show``, on random characters of random servers) for a fixed time, with

* **one** process running both shards, or
* **two** processes running one shard each,

alternately (one, two, one, two…), each run after a warm-up. Reported: commands answered per second,
median and p99 latency, and the CPU each process used (utime + stime), the stand-in's (this
process) included: on a small machine the stand-in and PostgreSQL share the cores with the bot.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bench.measure import percentile
from bench.postgres import fresh_database, server
from tests.e2e.game import BOT_ARGV, Table, player, server_payload
from tests.e2e.process import BotProcess
from tests.fakediscord import DiscordStandin

BASE_GUILD = 1300000000000000000
BASE_ROLE = 1300000000000900000
PLAYER = 1300000000000800000
CHARACTERS = 10  # per server
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


@dataclass
class Run:
    processes: int
    seconds: float
    latencies: list[float] = field(default_factory=list)
    failed: int = 0
    cpu: dict[str, float] = field(default_factory=dict)  # CPU seconds by process

    @property
    def rate(self) -> float:
        return len(self.latencies) / self.seconds

    @property
    def bot_cpu(self) -> float:
        return sum(v for k, v in self.cpu.items() if k.startswith("bot"))


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime + stime


def guild_ids(servers: int) -> list[int]:
    """Server ids alternating between shard 0 and shard 1 ((id >> 22) % 2)."""
    return [BASE_GUILD + (i << 22) for i in range(servers)]


class Bench:
    def __init__(self, standin: DiscordStandin, database_url: str, workdir: Path, servers: int) -> None:
        self.standin = standin
        self.database_url = database_url
        self.workdir = workdir
        self.guilds = guild_ids(servers)
        self.tables = [Table(standin, g, gm_role=BASE_ROLE + i) for i, g in enumerate(self.guilds)]
        self.starts = 0

    async def start(self, shard_ids: Sequence[str]) -> list[BotProcess]:
        procs = []
        for ids in shard_ids:
            self.starts += 1
            env = self.standin.bot_env(
                DATABASE_URL=self.database_url,
                LOG_LEVEL="WARNING",
                SHARD_COUNT="2",
                SHARD_IDS=ids,
                IDENTIFY_WINDOW="0",
            )
            log_path = self.workdir / f"bot-{self.starts}.log"
            procs.append(await BotProcess.start(BOT_ARGV, env=env, log_path=log_path))
        since = min(p.started_at for p in procs)
        for proc in procs:
            self.standin.watch(proc.unexpected_exit)
        await self.standin.wait_shards(since=since, within=120)
        return procs

    async def setup(self) -> None:
        procs = await self.start(["0-1"])
        try:

            async def one(table: Table) -> None:
                await table.setup_gm_role()
                await table.say(
                    "config preset", {"name": "giant", "light": 20, "serious": 20, "critical": 20}
                )
                for c in range(CHARACTERS):
                    options = {"name": f"G{c}", "player": player(PLAYER + c), "preset": "giant"}
                    await table.say("character create", options)

            for start in range(0, len(self.tables), 25):
                await asyncio.gather(*(one(t) for t in self.tables[start : start + 25]))
        finally:
            for proc in procs:
                await proc.stop()

    async def load(self, seconds: float, in_flight: int, rng: random.Random, run: Run | None) -> None:
        """Keep ``in_flight`` commands in flight for ``seconds``; record them in ``run``."""
        stop_at = time.monotonic() + seconds

        async def worker() -> None:
            while time.monotonic() < stop_at:
                table = rng.choice(self.tables)
                character = f"G{rng.randrange(CHARACTERS)}"
                if rng.random() < 0.5:
                    command, options = "wound", {"severity": "light", "character": character}
                else:
                    command, options = "character show", {"character": character}
                began = time.monotonic()
                try:
                    exchange = await table.send(command, options, within=30)
                except AssertionError:
                    if run is not None:
                        run.failed += 1
                    continue
                if run is not None and time.monotonic() <= stop_at:
                    assert exchange.callback_type is not None
                    run.latencies.append(time.monotonic() - began)

        await asyncio.gather(*(worker() for _ in range(in_flight)))

    async def measure(self, processes: int, seconds: float, in_flight: int, rng: random.Random) -> Run:
        procs = await self.start(["0-1"] if processes == 1 else ["0", "1"])
        try:
            await self.load(2.0, in_flight, rng, None)  # warm-up
            before = {p.pid: cpu_seconds(p.pid) for p in procs}
            mine = time.process_time()
            run = Run(processes, seconds)
            await self.load(seconds, in_flight, rng, run)
            for i, p in enumerate(procs):
                run.cpu[f"bot {i + 1}"] = cpu_seconds(p.pid) - before[p.pid]
            run.cpu["stand-in"] = time.process_time() - mine
            return run
        finally:
            for proc in procs:
                await proc.stop()


def report(runs: list[Run], servers: int, in_flight: int, cpus: int, load: tuple[float, ...]) -> str:
    lines = [
        f"Two shard processes against one, on one PostgreSQL (durable): {servers} servers on 2 shards, "
        f"{in_flight} commands always in flight (half /wound, half /character show), "
        f"{runs[0].seconds:g} s per run; {cpus} cores, load average at start "
        f"{' '.join(f'{x:.2f}' for x in load)}.",
        "",
        "| run | processes | answered/s | median | p99 | failed | bot CPU per command | CPU s by process |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for i, run in enumerate(runs, 1):
        cpu = ", ".join(f"{k} {v:.1f}" for k, v in run.cpu.items())
        lines.append(
            f"| {i} | {run.processes} | {run.rate:.0f} | {percentile(run.latencies, 50) * 1000:.1f} ms "
            f"| {percentile(run.latencies, 99) * 1000:.1f} ms | {run.failed} "
            f"| {run.bot_cpu / max(len(run.latencies), 1) * 1000:.2f} ms | {cpu} |"
        )
    one = [r.rate for r in runs if r.processes == 1]
    two = [r.rate for r in runs if r.processes == 2]
    lines += [
        "",
        f"Capacity, two processes / one: **{(sum(two) / len(two)) / (sum(one) / len(one)):.2f}×** "
        f"({sum(two) / len(two):.0f} against {sum(one) / len(one):.0f} commands/s, mean of the runs).",
    ]
    return "\n".join(lines)


async def main_async(args: argparse.Namespace) -> str:
    rng = random.Random(args.seed)
    load = os.getloadavg()
    with server() as server_url, tempfile.TemporaryDirectory(prefix="harmonies-shards-") as tmp:
        url = fresh_database(server_url)
        guilds = [server_payload(g, gm_role=BASE_ROLE + i) for i, g in enumerate(guild_ids(args.servers))]
        async with DiscordStandin(guilds=guilds, shard_count=2, max_concurrency=2) as standin:
            bench = Bench(standin, url, Path(tmp), args.servers)
            print("setting up the servers…", file=sys.stderr)
            await bench.setup()
            runs = []
            for i in range(args.rounds * 2):
                processes = 1 + i % 2
                print(f"run {i + 1}: {processes} process(es)…", file=sys.stderr)
                runs.append(await bench.measure(processes, args.seconds, args.in_flight, rng))
                standin.requests.clear()
                standin.interactions.clear()
                standin.gateway_log.clear()
    return report(runs, args.servers, args.in_flight, os.cpu_count() or 0, load)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.shards", description=__doc__)
    parser.add_argument("--servers", type=int, default=100, help="servers, half on each shard")
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each run")
    parser.add_argument("--in-flight", type=int, default=50, help="commands always in flight")
    parser.add_argument("--rounds", type=int, default=2, help="pairs of runs (one process, then two)")
    parser.add_argument("--seed", type=int, default=15)
    args = parser.parse_args(argv)
    print(asyncio.run(main_async(args)))


if __name__ == "__main__":
    main()
