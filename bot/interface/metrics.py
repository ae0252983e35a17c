"""The bot's numbers, in Prometheus's text format (``GET /metrics`` on ``HEALTH_PORT``).

One :class:`Metrics` per bot, on a registry of its own. Labels stay few: a command's name, an outcome,
a shard's number; never a server's or a user's id. What storage and the boards count is read from them
through plain callbacks and attributes (storage imports nothing from here): the bot tells its store to
call :meth:`Metrics.unit_done` and ``group_units.observe``.

* ``harmonies_commands_total{command, outcome}``: application commands handled; ``outcome`` is
  ``answered``, ``refused`` (a user error: bad input, no permission), ``failed`` (an internal error,
  a database fault) or ``replayed`` (a second delivery of an interaction already applied);
* ``harmonies_command_seconds{command}``: from the interaction's arrival to its last answer;
* ``harmonies_unit_seconds{outcome}``: units of work (the game's changes), from asking to commit
  (``committed``) or rollback (``rolled_back``: a refusal, or a fault), queueing included;
* ``harmonies_sqlite_group_units``: units committed together by one SQLite commit;
* ``harmonies_database_units_in_use`` / ``harmonies_database_units_waiting``: PostgreSQL connections
  lent out and units waiting for one; on SQLite, units being written and units queued for the writer;
* ``harmonies_gateway_latency_seconds{shard}``: each shard's last heartbeat round trip;
* ``harmonies_board_edits_total``: live party board edits sent;
* the process's own (``process_cpu_seconds_total``, ``process_resident_memory_bytes``, …).
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import discord
from prometheus_client import CollectorRegistry, Counter, Histogram, ProcessCollector, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from bot.interface.boards import BoardKeeper
from bot.storage.store import Store

COMMAND_BUCKETS = (0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.5, 3.0, 5.0, 10.0)
"""Seconds; 3 s is Discord's limit for a first answer (a deferred command may take longer)."""
UNIT_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
GROUP_BUCKETS = (1, 2, 4, 8, 16, 32, 64, 128, 256)

FAILURES = ("failed", "internal_error", "unanswered")
"""Error keys that are the bot's failure, not the user's (with every ``storage_…`` fault)."""


def outcome_of(error: str | None) -> str:
    """A command's outcome from the key its error funnel noted (``None``: no error, answered)."""
    if error is None:
        return "answered"
    if error == "replayed":
        return "replayed"
    if error in FAILURES:
        return "failed"
    return "refused"


class Metrics:
    """The metrics of one bot: what it is told (commands, units of work, SQLite groups), and what is
    read at each scrape from the parts it is given (the store's database, the client's shards, the
    boards)."""

    def __init__(self, store: Store, client: discord.AutoShardedClient, boards: BoardKeeper) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.commands = Counter(
            "harmonies_commands",
            "Application commands handled, by command and outcome (answered, refused, failed, replayed)",
            ["command", "outcome"],
            registry=self.registry,
        )
        self.command_seconds = Histogram(
            "harmonies_command_seconds",
            "Seconds from an interaction's arrival to its last answer, by command",
            ["command"],
            buckets=COMMAND_BUCKETS,
            registry=self.registry,
        )
        self.units = Histogram(
            "harmonies_unit_seconds",
            "Seconds a unit of work took from asking to commit (committed) or rollback (rolled_back)",
            ["outcome"],
            buckets=UNIT_BUCKETS,
            registry=self.registry,
        )
        self.group_units = Histogram(
            "harmonies_sqlite_group_units",
            "Units of work committed together by one SQLite commit",
            buckets=GROUP_BUCKETS,
            registry=self.registry,
        )
        ProcessCollector(registry=self.registry)
        self.registry.register(_StateCollector(store, client, boards))
        # Each series' child, looked up once (labels() validates and locks at every call).
        self._units: dict[bool, Histogram] = {}
        self._per_command: dict[tuple[str, str], tuple[Counter, Histogram]] = {}

    def unit_done(self, seconds: float, committed: bool) -> None:
        units = self._units.get(committed)
        if units is None:
            units = self._units[committed] = self.units.labels("committed" if committed else "rolled_back")
        units.observe(seconds)

    def command_done(self, interaction: discord.Interaction, seconds: float) -> None:
        """One application command handled (its error funnel noted its error key, if any)."""
        command = interaction.command
        name = command.qualified_name if command is not None else "unknown"
        key = name, outcome_of(interaction.extras.get("error"))
        series = self._per_command.get(key)
        if series is None:
            series = self._per_command[key] = self.commands.labels(*key), self.command_seconds.labels(name)
        count, duration = series
        count.inc()
        duration.observe(seconds)

    def text(self) -> bytes:
        return generate_latest(self.registry)


class _StateCollector(Collector):
    """What is read from the bot at each scrape: the database's load, the gateway, the boards."""

    def __init__(self, store: Store, client: discord.AutoShardedClient, boards: BoardKeeper) -> None:
        self.store = store
        self.client = client
        self.boards = boards

    def collect(self) -> Iterator[Metric]:
        in_use, waiting = self.store.database.usage()
        yield GaugeMetricFamily(
            "harmonies_database_units_in_use",
            "PostgreSQL: pooled connections lent out; SQLite: units being written",
            value=in_use,
        )
        yield GaugeMetricFamily(
            "harmonies_database_units_waiting",
            "Units of work waiting for a connection (PostgreSQL) or for the writer (SQLite)",
            value=waiting,
        )
        latency = GaugeMetricFamily(
            "harmonies_gateway_latency_seconds",
            "Each shard's last gateway heartbeat round trip",
            labels=["shard"],
        )
        for shard_id, seconds in self.client.latencies if not self.client.is_closed() else ():
            if math.isfinite(seconds):  # nothing measured yet
                latency.add_metric([str(shard_id)], seconds)
        yield latency
        yield CounterMetricFamily(
            "harmonies_board_edits", "Live party board edits sent", value=self.boards.edits
        )
