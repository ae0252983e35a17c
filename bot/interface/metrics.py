"""The bot's numbers, in Prometheus's text format (``GET /metrics`` on ``HEALTH_PORT``).

One :class:`Metrics` per bot, on a registry of its own. Labels stay few: a command's name, an outcome,
a shard's number; never a server's or a user's id. What storage and the boards count is read from them
through plain callbacks and attributes (storage imports nothing from here).

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
from typing import TYPE_CHECKING

import discord
from prometheus_client import CollectorRegistry, Counter, Histogram, ProcessCollector, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

if TYPE_CHECKING:
    from bot.interface.client import HarmoniesBot

COMMAND_BUCKETS = (0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.5, 3.0, 5.0, 10.0)
"""Seconds; 3 s is Discord's limit for a first answer (a deferred command may take longer)."""
UNIT_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
GROUP_BUCKETS = (1, 2, 4, 8, 16, 32, 64, 128, 256)

FAILURES = ("internal_error", "unanswered")
"""Error keys that are the bot's failure, not the user's (with every ``storage_…`` fault)."""


def outcome_of(error: str | None) -> str:
    """A command's outcome from the key its error funnel noted (``None``: no error, answered)."""
    if error is None:
        return "answered"
    if error == "replayed":
        return "replayed"
    if error in FAILURES or error.startswith("storage_"):
        return "failed"
    return "refused"


class Metrics:
    """The metrics of one bot; :meth:`watch` connects it to the bot's store and state."""

    def __init__(self) -> None:
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

    def watch(self, bot: HarmoniesBot) -> None:
        """Count the units of ``bot``'s store, its SQLite groups, and read its state at each scrape."""
        bot.store.on_unit = self.unit_done
        bot.store.count_groups(self.group_units.observe)
        self.registry.register(_StateCollector(bot))

    def unit_done(self, seconds: float, committed: bool) -> None:
        self.units.labels("committed" if committed else "rolled_back").observe(seconds)

    def command_done(self, interaction: discord.Interaction, seconds: float) -> None:
        """One application command handled (its error funnel noted its error key, if any)."""
        command = interaction.command
        name = command.qualified_name if command is not None else "unknown"
        self.commands.labels(name, outcome_of(interaction.extras.get("error"))).inc()
        self.command_seconds.labels(name).observe(seconds)

    def text(self) -> bytes:
        return generate_latest(self.registry)


class _StateCollector(Collector):
    """What is read from the bot at each scrape: the database's load, the gateway, the boards."""

    def __init__(self, bot: HarmoniesBot) -> None:
        self.bot = bot

    def collect(self) -> Iterator[Metric]:
        in_use, waiting = self.bot.store.usage()
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
        for shard_id, seconds in self.bot.latencies if not self.bot.is_closed() else ():
            if math.isfinite(seconds):  # nothing measured yet
                latency.add_metric([str(shard_id)], seconds)
        yield latency
        yield CounterMetricFamily(
            "harmonies_board_edits", "Live party board edits sent", value=self.bot.boards.edits
        )
