"""The Bot subclass: settings, storage (which holds the clock) and randomness are injected; setup_hook
loads the cogs."""

from __future__ import annotations

import gc
import hashlib
import json
import logging
import random
import secrets

import discord
import yarl
from discord.ext import commands

from bot.config import DISCORD_API_BASE, Settings
from bot.interface.tree import HarmoniesTree
from bot.interface.views import ExpiredQuestion
from bot.rules import RandomSource
from bot.storage.store import Store
from bot.ui.translator import HarmoniesTranslator

log = logging.getLogger(__name__)

EXTENSIONS = (
    "bot.interface.cogs.characters",
    "bot.interface.cogs.combat",
    "bot.interface.cogs.mental",
    "bot.interface.cogs.healing",
    "bot.interface.cogs.admin",
)
COMMANDS_HASH_KEY = "synced_commands_sha256"


class HarmoniesBot(commands.Bot):
    """The bot. Everything it depends on is passed in, so tests can build one around a temp file."""

    tree: HarmoniesTree

    def __init__(
        self,
        settings: Settings,
        store: Store,
        *,
        rng: RandomSource | None = None,
        sync_commands: bool = True,
        freeze_gc: bool = False,
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # the only gateway intent needed: guild owners, roles and locales
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            tree_cls=HarmoniesTree,
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
        )
        self.settings = settings
        self.store = store
        self.rng: RandomSource = rng if rng is not None else random.SystemRandom()
        self.sync_commands = sync_commands
        self.freeze_gc = freeze_gc
        self.run_id = secrets.token_hex(4)
        """This run of the bot: buttons that live only in memory name it (see ``views.Confirm``)."""

    async def setup_hook(self) -> None:
        if self.settings.discord_api_base.rstrip("/") != DISCORD_API_BASE:
            # A non-sharded client connects to Discord's fixed gateway address; when the REST API is
            # somewhere else (a local stand-in), ask it where its gateway is, as a sharded client would.
            _, url, _ = await self.http.get_bot_gateway()
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
        await self.tree.set_translator(HarmoniesTranslator())
        self.add_dynamic_items(ExpiredQuestion)
        for extension in EXTENSIONS:
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
        database (a new database always syncs). Returns whether it synced."""
        payload = await self.command_payload()
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
        if await self.store.get_meta(COMMANDS_HASH_KEY) == digest:
            log.info("Application commands unchanged since the last sync; not syncing")
            return False
        synced = await self.tree.sync()
        await self.store.set_meta(COMMANDS_HASH_KEY, digest)
        log.info("Synced %d application commands", len(synced))
        return True

    async def on_ready(self) -> None:
        if self.freeze_gc:
            # What exists once ready (modules, commands, every server's cache) lives as long as the
            # bot: keep it out of the cyclic collector's full passes, which otherwise stop every
            # command for a tenth of a second with 10 000 servers (bench/: "full collection").
            gc.collect()
            gc.freeze()
        log.info("Ready as %s in %d servers", self.user, len(self.guilds))
