"""The Bot subclass and its command tree. Settings, storage (which holds the clock), locks and
randomness are injected; setup_hook loads the cogs. The tree refuses options Discord would never send,
remembers the names of the players it sees (for autocomplete), and hands every error of every command
to the one error funnel (:func:`bot.interface.replies.answer_error`).

It is an :class:`~discord.ext.commands.AutoShardedBot`: one process runs the shards ``SHARD_IDS`` of
``SHARD_COUNT`` (by default all of the count Discord recommends). Several processes may share one
PostgreSQL database; the locks keep their IDENTIFYs within Discord's limit and let one of them sync
the commands."""

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
from dataclasses import dataclass
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
_NUMBERS = (OptionType.integer, OptionType.number)


def extensions() -> list[str]:
    """Every cog of ``cogs/`` (the package ``bot.cogs``), by its file name."""
    folder = resources.files("bot.cogs")
    names = sorted(p.name.removesuffix(".py") for p in folder.iterdir() if p.name.endswith(".py"))
    return [f"bot.cogs.{name}" for name in names if not name.startswith("_")]


class NameBook:
    """The names of the players the bot has seen (who ran a command, who was tagged), for autocomplete
    choices such as "Aélis (Léa) — −3". The bot asks Discord for no member list (no privileged intent):
    a player it has not seen since it started is shown as "player"."""

    def __init__(self, size: int = NAMES_KEPT) -> None:
        self._size = size
        self._names: OrderedDict[tuple[int, int], str] = OrderedDict()

    def get(self, guild_id: int, user_id: int) -> str | None:
        return self._names.get((guild_id, user_id))

    def put(self, guild_id: int, user_id: int, name: str) -> None:
        key = (guild_id, user_id)
        self._names[key] = name
        self._names.move_to_end(key)
        while len(self._names) > self._size:
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
    """Every error of every command ends here: user errors are answered privately in the caller's
    language; anything else is logged with a short id that the user is shown."""

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
        """discord.py's dispatch, with one more guarantee: whatever a malformed payload breaks while it
        is read (the command's name, an option, a resolved user's id, here or in interaction_check)
        ends in the error funnel as a refusal, instead of ending the task with no answer at all.
        (discord.py sends only its own AppCommandError subclasses to on_error.) Every command is
        counted, with its outcome and its time (:mod:`bot.interface.metrics`), and in flight until it
        ends (:meth:`HarmoniesBot.drain`)."""
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


@dataclass(frozen=True)
class _Option:
    """What Discord's client allows for one option of a command (read once per command)."""

    name: str
    required: bool
    choices: tuple[object, ...]
    type: OptionType
    low: float | None
    high: float | None


@lru_cache(maxsize=512)  # per command: a definition never changes once the tree is built
def _options(command: app_commands.Command[Any, ..., Any]) -> tuple[_Option, ...]:
    return tuple(
        _Option(
            p.display_name,
            p.required,
            tuple(choice.value for choice in p.choices),
            p.type,
            p.min_value,
            p.max_value,
        )
        for p in command.parameters
    )


def check_options(command: app_commands.Command[Any, ..., Any], given: dict[str, Any]) -> None:
    """Refuse what Discord's own client never sends for this command's definition: a missing required
    option, a value outside its choices, its range or its length, or of another type. Only a stale
    command definition (the bot updated, Discord not yet) or a forged payload does; it gets a refusal
    instead of reaching the command."""
    for option in _options(command):
        if option.name not in given:
            if option.required:
                refuse(option.name)
            continue
        value = given[option.name]
        if option.choices and value not in option.choices:
            refuse(value)
        if option.type in _NUMBERS:
            # An integer option must hold an integer: a stale definition may still send 1.5 (or 2.0).
            wanted = int if option.type is OptionType.integer else int | float
            if isinstance(value, bool) or not isinstance(value, wanted):
                refuse(value)
            size = value
        elif option.type is OptionType.string:
            if not isinstance(value, str):
                refuse(value)
            size = len(value)  # discord.py keeps a string's min/max length in min_value/max_value
        elif option.type is OptionType.boolean:
            if not isinstance(value, bool):
                refuse(value)
            continue
        else:
            continue
        if (option.low is not None and size < option.low) or (option.high is not None and size > option.high):
            refuse(value)


def refuse(value: object) -> NoReturn:
    raise invalid(str(value)[:100])


class HarmoniesBot(commands.AutoShardedBot):
    """The bot. Everything it depends on is passed in, so tests can build one around a temp file."""

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
        # What the store tells the bot's parts: each commit (the boards), each unit's time and each
        # SQLite group (the metrics). Undone in close().
        store.listeners.append(self.boards.changed)
        store.on_unit = self.metrics.unit_done
        store.database.on_group = self.metrics.group_units.observe
        self._boards_started = False
        self.run_id = secrets.token_hex(4)
        """This run of the bot: buttons that live only in memory name it (see ``views.Question``)."""
        self.in_flight: set[asyncio.Task[Any]] = set()
        """The tasks handling an interaction now (see :meth:`handling`)."""

    def handling(self) -> None:
        """The current task handles an interaction (a command, an autocomplete, a click): :meth:`drain`
        waits for it. Called as the tree or a view first sees it, before anything is awaited."""
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

    async def command_payload(self) -> list[dict[str, object]]:
        """The global command definitions exactly as ``tree.sync()`` sends them (translated)."""
        translator = self.tree.translator
        assert translator is not None
        return [
            await command.get_translated_payload(self.tree, translator)
            for command in self.tree.get_commands()
        ]

    async def sync_if_changed(self) -> bool:
        """Sync the global commands when their definitions differ from the last sync recorded in the
        database (a new database always syncs). Returns whether it synced. Under a lock shared by every
        process on the database: the first to start syncs, the others then find the commands synced."""
        payload = await self.command_payload()
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
        """discord.py's, with the shard's id in the context its connection and reading task start in:
        what they log, and the commands they dispatch, carry it (a later reconnection carries the
        process's shards)."""
        token = logs.shard.set(shard_id)
        try:
            await super().launch_shard(gateway, shard_id, initial=initial)
        finally:
            logs.shard.reset(token)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Wait for the shard's identify bucket (``shard_id % max_concurrency``), in every process on
        the database, and keep it for the identify window: Discord allows one IDENTIFY per bucket in it."""
        bucket = identify_bucket(shard_id or 0, self.max_concurrency)
        await self.locks.hold_for(bucket, self.settings.identify_window)
        log.info("Identifying shard %s (bucket %d of %d)", shard_id, bucket.number, self.max_concurrency)

    async def drain(self, within: float) -> int:
        """Before :meth:`close`, on SIGTERM: take no new interaction (every shard leaves the gateway:
        Discord sends nothing more), and wait up to ``within`` seconds for those in flight to end,
        each answered after its commit. Returns how many were still running then."""
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
        self.store.database.on_group = None
        try:
            await super().close()
        finally:
            await self.locks.close()

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        if event_name == "interaction":  # as it arrives, with no task of its own (an on_interaction
            defer_when_slow(args[0])  # would be one): every answer within Discord's 3 s
        super().dispatch(event_name, *args, **kwargs)

    async def on_ready(self) -> None:
        if not self._boards_started:
            # Once the servers' locales are known: every board shows the state of now (changes made
            # while the bot was away included).
            self._boards_started = True
            await self.boards.start()
        if self.freeze_gc:
            # What exists once ready (modules, commands, every server's cache) lives as long as the
            # bot: keep it out of the cyclic collector's full passes, which otherwise stop every
            # command for a tenth of a second with 10 000 servers (bench/: "full collection").
            gc.collect()
            gc.freeze()
        shards = describe_shard_ids(self.shard_ids or range(self.shard_count or 0))
        log.info(
            "Ready as %s in %d servers (shards %s of %d)",
            self.user,
            len(self.guilds),
            shards,
            self.shard_count or 0,
        )
