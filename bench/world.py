"""The bot under benchmark: the real HarmoniesBot on a data set, driven through the fake Discord's
in-process door (tests/fakediscord).

Only the HTTP transport is fake. One extra command, ``/bench-floor``, is registered on the bot's own
tree: it answers a fixed embed and touches no database; dispatched through the very same path, it is
the floor every latency is compared with.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from pydantic import SecretStr

from bench import data
from bench.data import Shape
from bot.config import Settings
from bot.interface.client import HarmoniesBot
from bot.interface.replies import send_public
from bot.storage.store import Store
from tests.fakediscord import (
    FakeDiscord,
    Reply,
    autocomplete,
    close,
    connect,
    dispatch,
    guild_payload,
    role_payload,
    slash,
)

FLOOR = "bench-floor"
FLOOR_EMBED = discord.Embed(
    title="Benchmark floor", description="A fixed answer: no database, no rules.", colour=0x5865F2
)
COMMANDS = ("wound", "heal roll", "character show", "autocomplete")
Payload = dict[str, Any]


SIZED = "bench-floor-sized"


def sized_floor_command(world: World) -> app_commands.Command[Any, ..., None]:
    """``/bench-floor-sized``: like the floor, but answers a copy of a real ``/wound`` answer (the
    caller pinged, the result and the card: ``World.wound_reply``) through the bot's own helper. The
    harness's bookkeeping grows with the size of an answer: this shows how much of a figure that is."""

    @app_commands.command(name=SIZED, description="Benchmark: a fixed /wound-sized answer, no database")
    @app_commands.guild_only()
    async def bench_floor_sized(interaction: discord.Interaction[HarmoniesBot]) -> None:
        await send_public(interaction, embeds=world.wound_reply, mention=interaction.user.id)

    return bench_floor_sized


def floor_command() -> app_commands.Command[Any, ..., None]:
    """A new ``/bench-floor`` (one per tree)."""

    @app_commands.command(name=FLOOR, description="Benchmark floor: a fixed embed, no database")
    @app_commands.guild_only()
    async def bench_floor(interaction: discord.Interaction[HarmoniesBot]) -> None:
        await interaction.response.send_message(embed=FLOOR_EMBED)

    return bench_floor


def guild_payloads(servers: Sequence[int]) -> list[Payload]:
    return [
        guild_payload(
            data.guild_id(g),
            owner_id=data.OWNER,
            roles=[role_payload(data.gm_role_id(g), "MJ", position=1)],
            preferred_locale="fr" if g % 2 else "en-US",
        )
        for g in servers
    ]


def settings_for(db: Path | str) -> Settings:
    """``db``: an SQLite file, or a ``postgresql://`` URL."""
    url = db if isinstance(db, str) else f"sqlite:///{db}"
    return Settings(discord_token=SecretStr("bench-token"), database_url=url)


@dataclass
class World:
    """A connected bench bot on one data set, and the payloads of the benchmarked commands."""

    bot: HarmoniesBot
    fake: FakeDiscord
    store: Store
    shape: Shape
    servers: list[int]
    label: str = ""
    wound_reply: list[discord.Embed] = field(default_factory=list)
    """The embeds of a real ``/wound`` answer, for ``/bench-floor-sized``."""
    rotation: list[int] = field(default_factory=list)
    """The servers :meth:`next_target` goes through (default: all of ``servers``)."""
    _turn: int = field(default=0)

    # ---- payloads (what Discord would send) -----------------------------------------------------

    def _locale(self, g: int) -> str:
        return "fr" if g % 2 else "en-US"

    def floor(self, g: int) -> Payload:
        return slash(FLOOR, {}, guild_id=data.guild_id(g), user_id=data.GM, roles=(data.gm_role_id(g),))

    def wound(self, g: int, k: int) -> Payload:
        """The GM wounds character k (chosen from autocomplete, so the option holds its id)."""
        return slash(
            "wound",
            {"severity": "light", "character": str(data.character_id(self.shape, g, k)), "note": "an arrow"},
            guild_id=data.guild_id(g),
            user_id=data.GM,
            roles=(data.gm_role_id(g),),
            guild_locale=self._locale(g),
        )

    def heal(self, g: int, k: int) -> Payload:
        """The player of character k rolls one healing session for their active character. Their own
        dice: the first roll heals a light wound, a second one fails (by 7: not worse), so a wound and
        a heal roll leave the character as it was (one light wound held)."""
        return slash(
            "heal roll",
            {"dice": "10-1 1-10"},
            guild_id=data.guild_id(g),
            user_id=data.player_id(self.shape, g, k),
            guild_locale=self._locale(g),
        )

    def show(self, g: int, k: int) -> Payload:
        """The player of character k shows their active character's card."""
        return slash(
            "character show",
            {},
            guild_id=data.guild_id(g),
            user_id=data.player_id(self.shape, g, k),
            guild_locale=self._locale(g),
        )

    def autocomplete(self, g: int, k: int) -> Payload:
        """The GM types the first letters of character k's name in /wound's character option."""
        typed = data.character_name(g, k)[: 1 + k % 3]
        return autocomplete(
            "wound",
            {"severity": "light", "character": typed},
            focused="character",
            guild_id=data.guild_id(g),
            user_id=data.GM,
            roles=(data.gm_role_id(g),),
        )

    def payload(self, command: str, g: int, k: int) -> Payload:
        if command == "floor":
            return self.floor(g)
        if command == "sized floor":
            return slash(SIZED, {}, guild_id=data.guild_id(g), user_id=data.player_id(self.shape, g, k))
        if command == "wound":
            return self.wound(g, k)
        if command == "heal roll":
            return self.heal(g, k)
        if command == "character show":
            return self.show(g, k)
        if command == "autocomplete":
            return self.autocomplete(g, k)
        raise ValueError(command)

    def next_target(self) -> tuple[int, int]:
        """Servers in turn, then a player's character in each (a wound and a heal stay balanced)."""
        servers = self.rotation or self.servers
        turn = self._turn
        self._turn += 1
        g = servers[turn % len(servers)]
        k = (turn // len(servers)) % self.shape.players
        return g, k

    # ---- dispatch ---------------------------------------------------------------------------------

    async def dispatch(self, payload: Payload, *, checks: bool = False) -> Reply:
        reply = await dispatch(self.fake, self.bot, payload, discord_checks=checks)
        self.fake.forget(reply.token)
        self.fake.requests.clear()
        return reply


def answer_problem(command: str, reply: Reply) -> str | None:
    """Why ``reply`` is not the successful answer ``command`` should get (None: it is)."""
    if not reply.delivered:
        return f"not delivered: {reply.undelivered_reason}"
    if reply.errors:
        return f"errors: {reply.errors!r}"
    if reply.callback_type is None:
        return "no answer"
    if command == "autocomplete":
        return None if reply.callback_type == 8 and reply.choices else f"no choices ({reply.callback_type})"
    if reply.ephemeral:
        return f"refused: {reply.text[:200]!r}"
    return None


@asynccontextmanager
async def open_world(
    db: Path | str, shape: Shape, servers: Sequence[int], *, label: str = "", seed: int = 7
) -> AsyncIterator[World]:
    """The bot on ``db``, connected to a fake Discord with ``servers`` (indexes into ``shape``)."""
    settings = settings_for(db)
    store = await Store.open(settings.database_url)
    try:
        bot = HarmoniesBot(settings, store, rng=random.Random(seed), sync_commands=True, freeze_gc=True)
        fake = await connect(bot, guilds=guild_payloads(servers))
        try:
            # After setup_hook: the floor command is not part of the synced definitions.
            bot.tree.add_command(floor_command())
            world = World(bot, fake, store, shape, list(servers), label)
            bot.tree.add_command(sized_floor_command(world))
            yield world
        finally:
            await close(bot)
    finally:
        await store.close()
