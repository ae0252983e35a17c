"""The bot and its command tree. Settings, storage (which holds the clock), locks and randomness are
injected. The tree refuses options Discord would never send, remembers the players' names it sees (for
autocomplete), and hands every error to the one error funnel (:func:`~bot.interface.replies.answer_error`).

One process runs the shards ``SHARD_IDS`` of ``SHARD_COUNT`` (by default all Discord recommends);
processes sharing a PostgreSQL database keep their IDENTIFYs within Discord's limit, and one syncs."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hashlib
import json
import logging
import random
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from functools import lru_cache
from importlib import resources
from typing import Any, NoReturn

import discord
import yarl
from discord import AppCommandOptionType as OptionType
from discord import app_commands
from discord.ext import commands

from bot import logs
from bot.config import DISCORD_API_BASE, Settings, describe_shard_ids
from bot.errors import UserError
from bot.interface.boards import BoardKeeper
from bot.interface.metrics import Metrics
from bot.interface.replies import answer_error, defer_when_slow, invalid
from bot.interface.views import ExpiredQuestion
from bot.rules import RandomSource
from bot.shards.locks import COMMAND_SYNC, Locks, identify_bucket
from bot.storage.store import Store
from bot.ui.i18n import HarmoniesTranslator

log = logging.getLogger(__name__)

COMMANDS_HASH_KEY = "synced_commands_sha256"
NAMES_KEPT = 50_000
_TYPES: dict[OptionType, Any] = {
    OptionType.integer: int,
    OptionType.number: int | float,
    OptionType.string: str,
    OptionType.boolean: bool,
}


def extensions() -> list[str]:
    """Every cog of ``cogs/`` (the package ``bot.cogs``), by its file name."""
    folder = resources.files("bot.cogs")
    names = sorted(p.name.removesuffix(".py") for p in folder.iterdir() if p.name.endswith(".py"))
    return [f"bot.cogs.{name}" for name in names if not name.startswith("_")]


class NameBook:
    """The names of the players the bot has seen (who ran a command, who was tagged), for autocomplete
    ("Aélis (Léa) — −3"): with no privileged intent, a player not seen since the start is "player"."""

    def __init__(self) -> None:
        self._names: OrderedDict[tuple[int, int], str] = OrderedDict()

    def get(self, guild_id: int, user_id: int) -> str | None:
        return self._names.get((guild_id, user_id))

    def put(self, guild_id: int, user_id: int, name: str) -> None:
        self._names[guild_id, user_id] = name
        self._names.move_to_end((guild_id, user_id))
        if len(self._names) > NAMES_KEPT:
            self._names.popitem(last=False)

    def seen(self, interaction: discord.Interaction) -> None:
        """Remember the caller and every user the interaction names, by their name in that server."""
        guild_id = interaction.guild_id
        if guild_id is None:
            return
        self.put(guild_id, interaction.user.id, interaction.user.display_name)
        data: Any = interaction.data or {}
        resolved = data.get("resolved") if isinstance(data, dict) else None
        if not isinstance(resolved, dict):
            return
        members = resolved.get("members") or {}
        for raw_id, user in (resolved.get("users") or {}).items():
            if not isinstance(user, dict) or not str(raw_id).isdigit():
                continue
            member = members.get(raw_id) if isinstance(members, dict) else None
            nick = member.get("nick") if isinstance(member, dict) else None
            name = nick or user.get("global_name") or user.get("username")
            if isinstance(name, str) and name:
                self.put(guild_id, int(raw_id), name)


class HarmoniesTree(app_commands.CommandTree[Any]):
    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        bot: HarmoniesBot = interaction.client
        bot.names.seen(interaction)  # for autocomplete choices ("Aélis (Léa)")
        if interaction.type is discord.InteractionType.application_command:
            command = interaction.command
            if isinstance(command, app_commands.Command):
                try:
                    check_options(command, vars(interaction.namespace))
                except UserError as refusal:
                    await answer_error(interaction, refusal)
                    return False
        return True

    async def _call(self, interaction: discord.Interaction[Any]) -> None:
        """discord.py's dispatch, but what a malformed payload breaks while it is read ends in the error
        funnel as a refusal (discord.py sends only its AppCommandErrors to on_error), not in silence.
        Every command is counted (:mod:`~bot.interface.metrics`), and in flight until it ends."""
        bot: HarmoniesBot = interaction.client
        bot.handling()
        began = time.perf_counter()
        try:
            await super()._call(interaction)
        except app_commands.AppCommandError:
            interaction.extras.setdefault("error", "internal_error")  # answered after this call
            raise
        except Exception as error:
            log.warning("Malformed interaction %s refused: %r", interaction.id, error)
            if interaction.type is discord.InteractionType.autocomplete:
                with contextlib.suppress(discord.HTTPException):
                    await interaction.response.autocomplete([])
                return
            await answer_error(
                interaction,
                UserError(
                    "Discord sent this command in a form the bot cannot read (it may have "
                    "just been updated). Nothing was changed: try again in a minute."
                ),
            )
        finally:
            if interaction.type is discord.InteractionType.application_command:
                bot.metrics.command_done(interaction, time.perf_counter() - began)

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError, /
    ) -> None:
        await answer_error(interaction, error)


@lru_cache(maxsize=512)  # per command: a definition never changes once the tree is built
def _parameters(command: app_commands.Command[Any, ..., Any]) -> list[app_commands.Parameter]:
    return command.parameters


def check_options(command: app_commands.Command[Any, ..., Any], given: dict[str, Any]) -> None:
    """Refuse what Discord's own client never sends for this command (a missing required option, a
    value outside its choices, range or length, or of another type): a stale definition or a forged
    payload."""
    for option in _parameters(command):
        if option.display_name not in given:
            if option.required:
                refuse(option.display_name)
            continue
        value = given[option.display_name]
        if option.choices and value not in [choice.value for choice in option.choices]:
            refuse(value)
        wanted = _TYPES.get(option.type)
        if wanted is None:
            continue
        # A stale definition may still send 1.5 (or 2.0) for an integer; a bool is no number.
        if not isinstance(value, wanted) or (isinstance(value, bool) and wanted is not bool):
            refuse(value)
        size = len(value) if isinstance(value, str) else value  # a string's length limits: min/max_value
        low, high = option.min_value, option.max_value
        if (low is not None and size < low) or (high is not None and size > high):
            refuse(value)


def refuse(value: object) -> NoReturn:
    raise invalid(str(value)[:100])


class HarmoniesBot(commands.AutoShardedBot):
    tree: HarmoniesTree

    def __init__(
        self,
        settings: Settings,
        store: Store,
        *,
        rng: RandomSource | None = None,
        locks: Locks | None = None,
        announce_shards: Callable[[str], None] | None = None,
        sync_commands: bool = True,
        freeze_gc: bool = False,
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # the only gateway intent needed: guild owners, roles and locales
        shards: dict[str, Any] = {}  # none: every shard of the count Discord recommends
        if settings.shard_count is not None:
            shards["shard_count"] = settings.shard_count
        if settings.shard_ids is not None:
            shards["shard_ids"] = list(settings.shard_ids)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            tree_cls=HarmoniesTree,
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
            **shards,
        )
        self.settings = settings
        self.store = store
        self.locks = locks if locks is not None else Locks()
        self.announce_shards = announce_shards  # told the shards of this process once they are known
        self.max_concurrency = 1  # IDENTIFYs per window Discord allows (from GET /gateway/bot)
        self.rng: RandomSource = rng if rng is not None else random.SystemRandom()
        self.sync_commands = sync_commands
        self.freeze_gc = freeze_gc
        self.boards = BoardKeeper(store, self)
        self.metrics = Metrics(store, self, self.boards)
        self.names = NameBook()
        # What the store tells the boards (each commit) and the metrics (units, SQLite groups).
        store.listeners.append(self.boards.changed)
        store.on_unit = self.metrics.unit_done
        store.count_groups(self.metrics.group_units.observe)
        self._boards_started = False
        self.run_id = secrets.token_hex(4)  # named by the buttons that live only in memory (views.Question)
        self.in_flight: set[asyncio.Task[Any]] = set()  # the tasks handling an interaction now

    def handling(self) -> None:
        """The current task handles an interaction: :meth:`drain` waits for it. Called as the tree or a
        view first sees it, before anything is awaited."""
        task = asyncio.current_task()
        assert task is not None
        self.in_flight.add(task)
        task.add_done_callback(self.in_flight.discard)

    async def setup_hook(self) -> None:
        recommended, url, limits = await self.http.get_bot_gateway()
        self.max_concurrency = int(limits.get("max_concurrency", 1))
        count = self.shard_count or recommended
        shards = describe_shard_ids(self.shard_ids or range(count))
        if self.announce_shards is not None:
            self.announce_shards(shards)
        log.info("Running shards %s of %d", shards, count)
        if self.settings.discord_api_base.rstrip("/") != DISCORD_API_BASE:
            # Given a SHARD_COUNT, discord.py connects to Discord's fixed gateway address; when the REST
            # API is somewhere else (a local stand-in), use the gateway it names.
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
        await self.tree.set_translator(HarmoniesTranslator())
        self.add_dynamic_items(ExpiredQuestion)
        for extension in extensions():
            await self.load_extension(extension)
        if self.sync_commands:
            await self.sync_if_changed()

    async def sync_if_changed(self) -> bool:
        """Sync the global commands when their definitions (as ``tree.sync()`` sends them) differ from
        the last sync recorded in the database; whether it synced. Under a lock every process shares."""
        translator = self.tree.translator
        assert translator is not None
        payload = [await c.get_translated_payload(self.tree, translator) for c in self.tree.get_commands()]
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
        async with self.locks.held(COMMAND_SYNC):
            last = await self.store.meta(COMMANDS_HASH_KEY)
            if last == digest:
                log.info("Application commands unchanged since the last sync; not syncing")
                return False
            synced = await self.tree.sync()
            await self.store.set_meta(COMMANDS_HASH_KEY, digest)
        log.info("Synced %d application commands", len(synced))
        return True

    async def launch_shard(self, gateway: yarl.URL, shard_id: int, *, initial: bool = False) -> None:
        """discord.py's, with the shard's id in the context its connection starts in: what it logs, and
        the commands it dispatches, carry it."""
        token = logs.shard.set(shard_id)
        try:
            await super().launch_shard(gateway, shard_id, initial=initial)
        finally:
            logs.shard.reset(token)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Hold the shard's identify bucket, in every process on the database, for the identify window:
        Discord allows one IDENTIFY per bucket in it."""
        bucket = identify_bucket(shard_id or 0, self.max_concurrency)
        await self.locks.hold_for(bucket, self.settings.identify_window)
        log.info("Identifying shard %s (bucket %d of %d)", shard_id, bucket.number, self.max_concurrency)

    async def drain(self, within: float) -> int:
        """On SIGTERM, before :meth:`close`: leave the gateway (no new interaction), wait up to ``within``
        seconds for those in flight; how many were still running then."""
        for shard in self.shards.values():
            await shard.disconnect()
        await asyncio.sleep(0)  # every interaction received so far reaches :meth:`handling`
        running = set(self.in_flight)
        log.info("Left the gateway; finishing %d interactions in flight", len(running))
        if running:
            _, running = await asyncio.wait(running, timeout=within)
        if running:
            log.warning("%d interactions still running after %g s: stopping anyway", len(running), within)
        return len(running)

    async def close(self) -> None:
        await self.boards.close()
        if self.boards.changed in self.store.listeners:
            self.store.listeners.remove(self.boards.changed)
        self.store.on_unit = None
        self.store.count_groups(None)
        try:
            await super().close()
        finally:
            await self.locks.close()

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        if event_name == "interaction":  # as it arrives, with no task of its own (an on_interaction
            defer_when_slow(args[0])  # would be one): every answer within Discord's 3 s
        super().dispatch(event_name, *args, **kwargs)

    async def on_ready(self) -> None:
        if not self._boards_started:  # once the servers' locales are known
            self._boards_started = True
            await self.boards.start()
        if self.freeze_gc:
            # What exists once ready lives as long as the bot: out of the collector's full passes, which
            # otherwise stop every command for a tenth of a second with 10 000 servers (bench/).
            gc.collect()
            gc.freeze()
        count = self.shard_count or 0
        shards = describe_shard_ids(self.shard_ids or range(count))
        log.info("Ready as %s in %d servers (shards %s of %d)", self.user, len(self.guilds), shards, count)
