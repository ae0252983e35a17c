"""The game table: who sits at it, the commands they send and how their answers are read, written once
for two doors to the fake Discord of ``tests/fakediscord``:

* in process (``open_table``): the real bot on a database of its own, driven through discord.py's real
  dispatch with only the HTTP transport faked (``tests/bot``, ``tests/hardening``, ``tests/web``);
* over the stand-in (``Table.over``): ``python -m bot`` in its own process, talking HTTP and the
  gateway (``tests/e2e``; the process itself: ``tests/e2e/running.py``).

Either way a command is a payload (``Table.payload``) delivered through the door, and its answer a
``fakediscord.Reply`` read with ``public``, ``refused``, ``shown``, ``answer`` and ``pinged``::

    async with open_table(sqlite_url) as table:  # or: table = Table.over(standin, GUILD)
        await table.setup_gm_role()
        text = public(await table.run("wound", {"severity": "light", "target": player(ALICE)}))
"""

from __future__ import annotations

import asyncio
import copy
import itertools
import random
from collections.abc import AsyncIterator, Coroutine, Iterable, Mapping
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
from tests.fakediscord.rest import CB_DEFERRED_MESSAGE

Payload = dict[str, Any]

GUILD = 700000000000000001  # English
OTHER_GUILD = 700000000000000002  # French
OWNER = 100000000000000001  # owns both servers
GM = 100000000000000002  # holds the GM role
ALICE = 100000000000000003
BOB = 100000000000000004
GM_ROLE = 300000000000000001
OTHER_GM_ROLE = 300000000000000002  # the GM role of OTHER_GUILD, when it names one
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


# ------------------------------------------------------------------------------------------ the doors


@dataclass
class InProcess:
    """The bot in this process: a payload is dispatched by discord.py, and its tasks awaited."""

    bot: HarmoniesBot
    fake: harness.FakeDiscord
    store: Store
    rng: ScriptedRandom

    async def deliver(self, payload: Payload) -> harness.Reply:
        return await harness.dispatch(self.fake, self.bot, payload)


@dataclass
class OverStandin:
    """The bot in its own process: a payload goes over the gateway; its answer is awaited."""

    fake: harness.DiscordStandin
    within: float = 10.0

    async def deliver(self, payload: Payload) -> harness.Reply:
        return await answered(await self.fake.interaction(payload, within=self.within), self.within)


async def answered(exchange: harness.Interaction, within: float = 10.0) -> harness.Reply:
    """What an interaction sent to a bot process answered: its callback, and when it deferred, the
    follow-up that replaced the "thinking…"."""
    await exchange.wait_callback(within=within)
    if exchange.response["type"] == CB_DEFERRED_MESSAGE:
        await exchange.wait_followup(1, within=within)
    return harness.build_reply(exchange.fake, exchange)


# ----------------------------------------------------------------------------------------- the table


@dataclass
class Table:
    """One server's table (``guild``), its GM holding ``gm_role``, playing through ``door``."""

    door: InProcess | OverStandin
    guild: int = GUILD
    gm_role: int = GM_ROLE
    locale: str = "en-US"
    guild_locale: str = "en-US"
    channel_id: int | None = None  # None: the payload builder's channel
    replies: list[harness.Reply] = field(default_factory=list)

    @classmethod
    def over(cls, standin: harness.DiscordStandin, guild: int = GUILD, **kwargs: Any) -> Table:
        """A table of ``guild`` (as ``server_payload`` describes it) served by a bot process."""
        return cls(OverStandin(standin), guild, channel_id=table_channel(guild), **kwargs)

    @property
    def fake(self) -> harness.FakeDiscord:
        return self.door.fake

    @property
    def standin(self) -> harness.DiscordStandin:
        assert isinstance(self.door, OverStandin), "in process there is no stand-in"
        return self.door.fake

    def _local(self) -> InProcess:
        assert isinstance(self.door, InProcess), "the bot runs in another process"
        return self.door

    @property
    def bot(self) -> HarmoniesBot:
        return self._local().bot

    @property
    def store(self) -> Store:
        return self._local().store

    @property
    def rng(self) -> ScriptedRandom:
        return self._local().rng

    # ---- what is sent

    def context(
        self,
        user: int,
        *,
        guild: int | None = None,
        locale: str | None = None,
        guild_locale: str | None = None,
        roles: Iterable[int] = (),
        permissions: int | None = None,
    ) -> dict[str, Any]:
        """Who sends from where: the GM carries the GM role unless ``roles`` says otherwise."""
        roles = tuple(roles) or ((self.gm_role,) if user == GM else ())
        context: dict[str, Any] = {
            "guild_id": self.guild if guild is None else guild,
            "user_id": user,
            "roles": roles,
            "locale": locale or self.locale,
            "guild_locale": guild_locale or self.guild_locale,
        }
        if self.channel_id is not None:
            context["channel_id"] = self.channel_id
        if permissions is not None:
            context["permissions"] = permissions
        return context

    def payload(
        self, command: str, options: Mapping[str, Any] | None = None, *, user: int = GM, **where: Any
    ) -> Payload:
        return harness.slash(command, dict(options or {}), **self.context(user, **where))

    async def deliver(self, payload: Payload) -> harness.Reply:
        reply = await self.door.deliver(payload)
        self.replies.append(reply)
        return reply

    async def run(
        self, command: str, options: Mapping[str, Any] | None = None, *, user: int = GM, **where: Any
    ) -> harness.Reply:
        """``/command`` sent by ``user``; ``where``: ``guild``, ``locale``, ``guild_locale``, ``roles``,
        ``permissions`` (see :meth:`context`)."""
        return await self.deliver(self.payload(command, options, user=user, **where))

    async def say(
        self,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        user: int = GM,
        public: bool = True,
        **where: Any,
    ) -> harness.Reply:
        """:meth:`run` a command whose answer must be public (a result), or with ``public=False``
        private (a refusal)."""
        reply = await self.run(command, options, user=user, **where)
        answer_text(reply, private=not public)
        return reply

    async def send(
        self, command: str, options: Mapping[str, Any] | None = None, *, user: int = GM, wait: bool = True
    ) -> harness.Interaction:
        """Over the stand-in, without waiting for the answer (``wait``: for the callback only)."""
        return await self.standin.interaction(self.payload(command, options, user=user), wait=wait)

    async def click(self, custom_id: str, message: Any, *, user: int, **where: Any) -> harness.Reply:
        return await self.deliver(
            harness.component(custom_id, message=message, **self.context(user, **where))
        )

    async def complete(
        self, command: str, options: Mapping[str, Any], focused: str, *, user: int = GM, guild: int = GUILD
    ) -> harness.Reply:
        payload = harness.autocomplete(command, dict(options), focused=focused, user_id=user, guild_id=guild)
        return await self.door.deliver(payload)

    async def setup_gm_role(self) -> harness.Reply:
        """The server owner names the GM role, as a real server starts."""
        return await self.say("config gm-role", {"role": harness.role(self.gm_role, "MJ")}, user=OWNER)

    # ---- questions asked before acting

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
        reply = await self.click(button["custom_id"], question, user=user, locale=locale)
        return question, reply, await task

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

    # ---- in process: the store beside the bot

    async def character(self, name: str, guild: int = GUILD) -> Character:
        return await self.store.read(guild, lambda r: r.character_by_name(name))

    async def create(self, name: str, player: int | None = None, **attributes: Any) -> Character:
        options: dict[str, Any] = {"name": name, **attributes}
        if player is not None:
            options["player"] = harness.user(player)
        reply = await self.run("character create", options)
        assert not reply.ephemeral, reply.text
        return await self.character(name)


def player(user_id: int) -> harness.UserArg:
    """A USER option value for ``user_id`` (with its resolved member)."""
    return harness.user(user_id, username=f"player{user_id % 100}")


def table_channel(guild: int) -> int:
    """The channel a table plays in over the stand-in (``server_payload``)."""
    return guild + 1000


# ----------------------------------------------------------------------------------------- the answers


def shown(reply: harness.Reply) -> list[harness.SentMessage]:
    """The messages of a reply that users still see (a deleted "thinking" message is not one)."""
    return [message for message in reply.messages if not message.deleted]


def answer(reply: harness.Reply) -> harness.SentMessage:
    """The message an interaction answered with, as users see it: its response, or the follow-up
    that replaced a deleted "thinking…"."""
    messages = shown(reply)
    assert messages, f"no answer: {reply}"
    return messages[0]


def refused(reply: harness.Reply) -> str:
    """A refusal: private to the caller, handled by the bot (nothing crashed); returns its text."""
    return answer_text(reply, private=True)


def public(reply: harness.Reply) -> str:
    """A result posted in the channel; returns its text."""
    return answer_text(reply, private=False)


def answer_text(reply: harness.Reply, *, private: bool) -> str:
    """The text of an answer delivered, handled by the bot (nothing crashed), and private or not."""
    assert reply.delivered, reply.undelivered_reason
    assert reply.errors == [], reply.errors
    messages = shown(reply)
    expected = "a private refusal" if private else "a public result"
    assert messages and all(m.ephemeral == private for m in messages), f"expected {expected}: {reply.text}"
    return reply.text


def pinged(reply: harness.Reply) -> list[int]:
    """Who the answer can ping, judged as Discord would from ``allowed_mentions``: the users listed.
    Fails when it could ping a role, @everyone, or whoever the content mentions (``parse``)."""
    message = answer(reply)
    allowed = message.allowed_mentions
    if allowed is None or allowed.get("parse") is None:
        # No allowed_mentions at all: Discord would parse everything in the content.
        raise AssertionError(f"message without allowed_mentions: {message.message}")
    parse = allowed["parse"]
    assert "everyone" not in parse and "roles" not in parse, allowed
    assert not allowed.get("roles"), allowed
    if "users" in parse:
        raise AssertionError(f"parse users pings anyone mentioned: {allowed}")
    return [int(u) for u in allowed.get("users") or []]


async def risky_sessions(table: Table) -> None:
    """Three players rested a day, one session of each kind: Cara's first roll can kill (−15, +6:
    success 1 %, death 45 %), Bastien's cannot succeed (−10, +0: worsening 55 %, never fatal), Dora's
    one light wound is worth offering."""
    await table.create("Cara", ALICE, corps=3, resistance=3)
    await table.create("Bastien", BOB)
    await table.create("Dora", OWNER)
    for name, wounds in (
        ("Cara", (("critical", 1), ("serious", 2), ("light", 4))),
        ("Bastien", (("serious", 2), ("light", 4))),
        ("Dora", (("light", 1),)),
    ):
        for severity, count in wounds:
            public(await table.run("wound", {"severity": severity, "character": name, "count": count}))
    public(await table.run("rest", {"days": 1}))


# ------------------------------------------------------------------------------------- in process


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
    """The bot in process on ``database_url``, ready, with its GM role named; ``fake``: the Discord of
    an earlier table (a restart: its messages are still there)."""
    settings = Settings(discord_token=SecretStr("test-token"), database_url=database_url)
    store = await Store.open(settings.database_url, clock=fixed_clock)
    rng = ScriptedRandom()
    bot = HarmoniesBot(settings, store, rng=rng, sync_commands=sync_commands)
    try:
        discord = await harness.connect(bot, guilds=guild_payloads(), fake=fake)
        table = Table(InProcess(bot, discord, store, rng))
        try:
            # The server owner names the GM role, as a real server would start (once per database).
            if (await ruleset_of(store, GUILD)).gm_role_id != GM_ROLE:
                await table.setup_gm_role()
            yield table
        finally:
            await harness.close(bot)
    finally:
        await store.close()
