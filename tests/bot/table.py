"""A game table for command tests: the real bot on a temporary SQLite file, driven through
discord.py's real dispatch with only the HTTP transport faked (tests/fakediscord)."""

from __future__ import annotations

import asyncio
import copy
import itertools
import json
import random
from collections.abc import AsyncIterator, Coroutine, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from pydantic import SecretStr

from bot.config import Settings
from bot.interface.client import HarmoniesBot
from bot.rules import Character
from bot.storage.store import Store
from tests import fakediscord as harness
from tests.databases import ruleset_of

GUILD = 700000000000000001
OTHER_GUILD = 700000000000000002
OWNER = 100000000000000001
GM = 100000000000000002
ALICE = 100000000000000003
BOB = 100000000000000004
GM_ROLE = 300000000000000001
MANAGE_GUILD = 1 << 5


class ScriptedRandom:
    """A random source that hands out given numbers, then falls back to a seeded generator."""

    def __init__(self, seed: int = 7) -> None:
        self.queue: list[int] = []
        self.fallback = random.Random(seed)

    def randint(self, a: int, b: int) -> int:
        if self.queue:
            value = self.queue.pop(0)
            assert a <= value <= b
            return value
        return self.fallback.randint(a, b)


@dataclass
class Table:
    bot: HarmoniesBot
    fake: harness.FakeDiscord
    store: Store
    rng: ScriptedRandom
    replies: list[harness.Reply] = field(default_factory=list)

    async def run(
        self,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        user: int = GM,
        guild: int = GUILD,
        locale: str = "en-US",
        guild_locale: str = "en-US",
        roles: tuple[int, ...] = (),
        permissions: int | None = None,
    ) -> harness.Reply:
        if roles == () and user == GM:
            roles = (GM_ROLE,)
        kwargs: dict[str, Any] = {}
        if permissions is not None:
            kwargs["permissions"] = permissions
        payload = harness.slash(
            command,
            dict(options or {}),
            guild_id=guild,
            user_id=user,
            roles=roles,
            locale=locale,
            guild_locale=guild_locale,
            **kwargs,
        )
        reply = await harness.dispatch(self.fake, self.bot, payload)
        self.replies.append(reply)
        return reply

    async def click(
        self,
        custom_id: str,
        message: Any,
        *,
        user: int,
        locale: str = "en-US",
        guild_locale: str = "en-US",
        roles: tuple[int, ...] = (),
    ) -> harness.Reply:
        if roles == () and user == GM:
            roles = (GM_ROLE,)
        payload = harness.component(
            custom_id,
            message=message,
            user_id=user,
            guild_id=GUILD,
            locale=locale,
            guild_locale=guild_locale,
            roles=roles,
        )
        reply = await harness.dispatch(self.fake, self.bot, payload)
        self.replies.append(reply)
        return reply

    async def asked(
        self, action: Coroutine[Any, Any, harness.Reply]
    ) -> tuple[asyncio.Task[harness.Reply], Any]:
        """Start ``action`` (a command or a click that may ask a private question before it acts) and
        return its task with the question's message, or ``None`` when it finished without asking."""
        before = set(self.fake.messages)
        task = asyncio.create_task(action)
        while not task.done():
            for message_id, message in list(self.fake.messages.items()):
                if message_id not in before and message.get("components") and message.get("flags", 0) & 64:
                    return task, copy.deepcopy(message)
            await asyncio.sleep(0.001)
        return task, None

    async def answer(
        self, action: Coroutine[Any, Any, harness.Reply], *, user: int, go: bool = True, locale: str = "en-US"
    ) -> tuple[Any, harness.Reply, harness.Reply]:
        """Run ``action``, which must ask a private question, and answer it (go on, or cancel) as
        ``user``: returns the question as first sent, the reply to the answer, and the reply to
        ``action`` (whose follow-ups carry any result)."""
        task, question = await self.asked(action)
        assert question is not None, f"no question was asked: {(await task).text}"
        buttons = [b for row in question["components"] for b in row["components"]]
        (button,) = [b for b in buttons if b["custom_id"].endswith(":y" if go else ":n")]
        answered = await self.click(button["custom_id"], question, user=user, locale=locale)
        return question, answered, await task

    async def healed(
        self, action: Coroutine[Any, Any, harness.Reply], *, user: int, locale: str = "en-US"
    ) -> str:
        """Run ``action`` (a healing session the bot rolls); when it asks first (a deadly roll, by
        default), go on. Returns the text of the public result."""
        task, question = await self.asked(action)
        if question is None:
            return public(await task)
        (go,) = [
            b for row in question["components"] for b in row["components"] if b["custom_id"].endswith(":y")
        ]
        await self.click(go["custom_id"], question, user=user, locale=locale)
        return (await task).followups[-1].text

    async def complete(
        self, command: str, options: Mapping[str, Any], focused: str, *, user: int = GM, guild: int = GUILD
    ) -> harness.Reply:
        payload = harness.autocomplete(command, dict(options), focused=focused, user_id=user, guild_id=guild)
        return await harness.dispatch(self.fake, self.bot, payload)

    async def character(self, name: str, guild: int = GUILD) -> Character:
        return await self.store.read(guild, lambda r: r.character_by_name(name))

    async def create(self, name: str, player: int | None = None, **attributes: Any) -> Character:
        options: dict[str, Any] = {"name": name, **attributes}
        if player is not None:
            options["player"] = harness.user(player)
        reply = await self.run("character create", options)
        assert not reply.ephemeral, reply.text
        return await self.character(name)


_valid_bodies: set[str] = set()
"""Requests already found valid in this session: the command sync sends the very same (large) body
at every start, and validating it again would take longer than most tests."""


def assert_all_valid(requests: list[harness.RecordedRequest]) -> None:
    """Every request the bot made must be valid for Discord (strict: no undeclared property)."""
    fresh = []
    for request in requests:
        key = json.dumps([request.method, request.path, request.json], sort_keys=True, default=str)
        if key not in _valid_bodies:
            fresh.append((key, request))
    harness.assert_valid([request for _, request in fresh], strict=True)
    _valid_bodies.update(key for key, _ in fresh)


def assert_never_pings(requests: list[harness.RecordedRequest]) -> None:
    """Nothing the bot sends may ping @everyone, @here or a role; only the players its content names."""
    for request in requests:
        body = request.json
        if not isinstance(body, dict) or not request.path.startswith(("/interactions/", "/webhooks/")):
            continue
        message = body.get("data") if request.path.endswith("/callback") else body
        if not isinstance(message, dict) or not ({"content", "embeds"} & set(message)):
            continue
        allowed = message.get("allowed_mentions")
        assert isinstance(allowed, dict), f"{request}: no allowed_mentions"
        assert allowed.get("parse") == [] and not allowed.get("roles"), f"{request}: {allowed}"
        content = str(message.get("content") or "")
        assert all(f"<@{user}>" in content for user in allowed.get("users", [])), f"{request}: {allowed}"


def check_requests(requests: list[harness.RecordedRequest]) -> None:
    """What every test checks at the end: valid for Discord, and pinging nobody it should not."""
    assert_all_valid(requests)
    assert_never_pings(requests)


def shown(reply: harness.Reply) -> list[harness.SentMessage]:
    """The messages of a reply that users still see (a deleted "thinking" message is not one)."""
    return [message for message in reply.messages if not message.deleted]


def refused(reply: harness.Reply) -> str:
    """A refusal: private to the caller, handled by the bot (nothing crashed); returns its text."""
    assert reply.delivered, reply.undelivered_reason
    assert reply.errors == [], reply.errors
    messages = shown(reply)
    assert messages and all(m.ephemeral for m in messages), f"expected a private refusal: {reply.text}"
    return reply.text


def public(reply: harness.Reply) -> str:
    """A result posted in the channel; returns its text."""
    assert reply.delivered, reply.undelivered_reason
    assert reply.errors == [], reply.errors
    messages = shown(reply)
    assert messages and not any(m.ephemeral for m in messages), f"expected a public result: {reply.text}"
    return reply.text


def guild_payloads() -> list[Any]:
    roles = [harness.role_payload(GM_ROLE, "MJ", position=1)]
    return [
        harness.guild_payload(GUILD, owner_id=OWNER, roles=roles, preferred_locale="en-US"),
        harness.guild_payload(OTHER_GUILD, owner_id=OWNER, preferred_locale="fr"),
    ]


_clock = itertools.count()


def fixed_clock() -> str:
    return f"2026-11-30T12:00:{next(_clock) % 60:02d}+00:00"


@asynccontextmanager
async def open_table(
    database_url: str, *, sync_commands: bool = True, fake: harness.FakeDiscord | None = None
) -> AsyncIterator[Table]:
    """``fake``: the Discord of an earlier table (a restart: its messages are still there)."""
    settings = Settings(discord_token=SecretStr("test-token"), database_url=database_url)
    store = await Store.open(settings.database_url, clock=fixed_clock)
    rng = ScriptedRandom()
    bot = HarmoniesBot(settings, store, rng=rng, sync_commands=sync_commands)
    try:
        discord = await harness.connect(bot, guilds=guild_payloads(), fake=fake)
        table = Table(bot, discord, store, rng)
        try:
            # The server owner names the GM role, as a real server would start (once per database).
            if (await ruleset_of(store, GUILD)).gm_role_id != GM_ROLE:
                setup = await table.run("config gm-role", {"role": harness.role(GM_ROLE, "MJ")}, user=OWNER)
                assert not setup.ephemeral, setup.text
            yield table
        finally:
            await harness.close(bot)
    finally:
        await store.close()
