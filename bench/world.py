"""The commands benchmarked, as Discord sends them, and the bot in process on a data set. Both floors
are a plain discord.py bot of their own (bench/floor_bot.py), not the bot's: ``/bench-floor`` answers
a fixed embed and touches no database (the **trivial command**); ``/bench-floor-write`` first commits
one durable row, the interaction's id (the **write floor**: what any change pays at least). In process,
only Discord's HTTP is faked (tests/fakediscord), one fake for each bot: their own trees and
discord.py's code."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Coroutine, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

import discord
from pydantic import SecretStr

from bench import data
from bench.data import Shape
from bench.floor_bot import FloorBot, open_rows
from bot.config import Settings
from bot.interface.client import HarmoniesBot
from bot.interface.run import loop_factory
from bot.storage.store import Store
from tests import fakediscord as fd
from tests.fakediscord import FakeDiscord, Reply

Payload = dict[str, Any]
T = TypeVar("T")
FLOORS = ("floor", "floor write")
COMMANDS = ("wound", "heal roll", "character show", "autocomplete")
KINDS = (*FLOORS, *COMMANDS)
NAMES = ("trivial command", "write floor", "`/wound`", "`/heal roll`", "`/character show`", "autocomplete")
LABELS = dict(zip(KINDS, NAMES, strict=True))
#: What each command is held against: the changes against the write floor, the reads the trivial one.
FLOOR_OF = dict.fromkeys(COMMANDS[:2], "floor write") | dict.fromkeys(COMMANDS[2:], "floor")


def payload(shape: Shape, kind: str, g: int, k: int) -> Payload:
    """Command ``kind`` about character ``k`` of server ``g``. A ``/wound`` then a ``/heal roll`` of
    one character leave it as it was: it holds one light wound; the heal roll's own dice heal one,
    then fail by 9 (not worse)."""
    guild, role = data.guild_id(g), (data.gm_role_id(g),)
    player = data.player_id(shape, g, k)
    gm: Payload = {"user_id": data.GM, "roles": role}
    locale = "fr" if g % 2 else "en-US"
    if kind == "floor":
        return fd.slash("bench-floor", {}, guild_id=guild, user_id=player)
    if kind == "floor write":
        return fd.slash("bench-floor-write", {}, guild_id=guild, user_id=player)
    if kind == "wound":
        options = {"severity": "light", "character": str(data.character_id(shape, g, k)), "note": "an arrow"}
        return fd.slash("wound", options, guild_id=guild, guild_locale=locale, **gm)
    if kind == "heal roll":
        dice = {"dice": "10-1 1-10"}
        return fd.slash("heal roll", dice, guild_id=guild, guild_locale=locale, user_id=player)
    if kind == "character show":
        return fd.slash("character show", {}, guild_id=guild, guild_locale=locale, user_id=player)
    if kind == "autocomplete":
        typed = {"severity": "light", "character": data.character_name(g, k)[: 1 + k % 3]}
        return fd.autocomplete("wound", typed, focused="character", guild_id=guild, **gm)
    raise ValueError(kind)


def guild_payloads(servers: Sequence[int]) -> list[Payload]:
    return [
        fd.guild_payload(
            data.guild_id(g),
            owner_id=data.OWNER,
            roles=[fd.role_payload(data.gm_role_id(g), "MJ", position=1)],
            preferred_locale="fr" if g % 2 else "en-US",
        )
        for g in servers
    ]


def answer_problem(kind: str, reply: Reply) -> str | None:
    """Why ``reply`` is not the successful answer ``kind`` should get (None: it is)."""
    if not reply.delivered:
        return f"not delivered: {reply.undelivered_reason}"
    if reply.errors:
        return f"errors: {reply.errors!r}"[:300]
    if kind == "autocomplete":
        return None if reply.callback_type == 8 and reply.choices else f"no choices ({reply.callback_type})"
    if reply.callback_type is None or reply.ephemeral:
        return f"refused or unanswered: {reply.text[:200]!r}"
    return None


class BenchError(RuntimeError):
    """A benchmarked command did not get the answer it should (a bench bug, or a bot bug)."""


@dataclass
class World:
    """A connected bot on one data set, in process."""

    bot: HarmoniesBot
    fake: FakeDiscord
    shape: Shape
    servers: list[int]
    label: str = ""
    floors: tuple[FloorBot, FakeDiscord] | None = None
    """The floors' own bot and its fake (None: the floors are not measured)."""
    rotation: list[int] = field(default_factory=list)
    """The servers :meth:`next_target` goes through (default: all of ``servers``)."""
    _turn: int = 0

    def next_target(self) -> tuple[int, int]:
        """Servers in turn, then a player's character in each (a wound and a heal stay balanced)."""
        servers = self.rotation or self.servers
        turn, self._turn = self._turn, self._turn + 1
        return servers[turn % len(servers)], (turn // len(servers)) % self.shape.players

    def payload(self, kind: str, g: int, k: int) -> Payload:
        return payload(self.shape, kind, g, k)

    async def dispatch(self, kind: str, body: Payload, *, checks: bool = False) -> Reply:
        """``body`` sent to the bot, or to the floors' bot for a floor."""
        client: discord.Client
        client, fake = (self.bot, self.fake) if kind not in FLOORS or self.floors is None else self.floors
        reply = await fd.dispatch(fake, client, body, discord_checks=checks)
        fake.forget(reply.token)
        fake.requests.clear()
        return reply

    async def checked(self, kind: str, body: Payload, *, checks: bool = False) -> Reply:
        reply = await self.dispatch(kind, body, checks=checks)
        if (problem := answer_problem(kind, reply)) is not None:
            raise BenchError(f"{self.label} {kind}: {problem}")
        return reply


@asynccontextmanager
async def open_world(
    url: str,
    shape: Shape,
    servers: Sequence[int],
    *,
    label: str = "",
    seed: int = 7,
    floor_url: str | None = None,
) -> AsyncIterator[World]:
    """The bot on ``url``'s database, connected to a fake Discord with ``servers`` (indexes); with a
    ``floor_url`` (where the write floor commits), the floors' bot too, on a fake of its own."""
    settings = Settings(discord_token=SecretStr("bench-token"), database_url=url)
    store = await Store.open(settings.database_url)
    try:
        bot = HarmoniesBot(settings, store, rng=random.Random(seed), sync_commands=True, freeze_gc=True)
        fake = await fd.connect(bot, guilds=guild_payloads(servers))
        try:
            async with open_floors(floor_url, servers) as floors:
                yield World(bot, fake, shape, list(servers), label, floors)
        finally:
            await fd.close(bot)
    finally:
        await store.close()


@asynccontextmanager
async def open_floors(
    url: str | None, servers: Sequence[int]
) -> AsyncIterator[tuple[FloorBot, FakeDiscord] | None]:
    """The floors' bot (writing to ``url``) connected to a fake Discord of its own; None without a url."""
    if url is None:
        yield None
        return
    rows = await open_rows(url)
    try:
        floor_bot = FloorBot(rows)
        fake = await fd.connect(floor_bot, guilds=guild_payloads(servers))
        try:
            yield floor_bot, fake
        finally:
            await fd.close(floor_bot)
    finally:
        await rows.close()


def run_like_the_bot(main: Coroutine[Any, Any, T]) -> T:
    """``main`` on the event loop the bot runs on (uvloop's where it is installed)."""
    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        return runner.run(main)


def spread(count: int, total: int) -> list[int]:
    """``count`` server indexes spread evenly over ``total``."""
    count = min(count, total)
    return sorted({i * total // count for i in range(count)})
