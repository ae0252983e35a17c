"""What every hardening test checks after each interaction, whatever it sent.

``Hardened`` wraps a :class:`tests.table.Table`: each call dispatches one interaction through the real
bot, dumps the SQLite file before and after, and checks the invariants of quality.md's "Reliability and
security" table on the answer:

* no unhandled exception (nothing discord.py logged, no "error id" from the bot's error funnel);
* answered, and every message within Discord's limits (``tests.ui.limits``);
* ``allowed_mentions`` never lets anyone be pinged but the players whose characters the interaction
  changed (and those a test names);
* user text never shows unescaped (``@everyone``, ``@here``, ``<@&role>``, ``<@user>`` of user text);
* either a public result, or an ephemeral refusal in the caller's language that left the database as
  it was.
"""

from __future__ import annotations

import re
import string
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import discord

from bot.ui.i18n import CATALOGUES, Lang, lang_of
from bot.ui.refusals import UNKNOWN
from bot.ui.text import CHOICE_NAME
from tests import fakediscord as harness
from tests.databases import Connection, connect, sql_lines
from tests.table import GM, GM_ROLE, GUILD, OTHER_GUILD, OWNER, Table
from tests.ui import limits
from tests.ui.refusals import INTERNAL_ERROR, REFUSALS

#: A user who is nobody at the table: the id hostile names and notes try to ping.
STRANGER = 100000000000000099
#: A member with no character and no power, who tries things.
NOBODY = 100000000000000097
#: A role hostile text tries to ping (the GM role is tried too, where no message shows it on purpose).
HOSTILE_ROLE = 300000000000000666
#: The owner of a character who then left the server.
DEPARTED = 100000000000000098
#: Locales a caller may have: French, English, and ones the bot falls back to English for.
LOCALES = ("en-US", "en-GB", "fr", "de", "ja", "pt-BR")
#: Refusals that are no refusal at all: the funnel's answers to a bug.
NOT_REFUSALS = frozenset({INTERNAL_ERROR, UNKNOWN})
#: Text that must never reach a message unescaped, whatever a user typed.
PINGS = re.compile(rf"@(everyone|here)|<@&{HOSTILE_ROLE}>|<@!?{STRANGER}>")


def template(message: str, lang: Lang) -> str:
    """The English ``message`` in ``lang``, its placeholders unfilled."""
    if lang == "en":
        return message
    translated = CATALOGUES[lang].messages[None, message]
    assert isinstance(translated, str)
    return translated


INTERNAL = [
    re.compile(re.escape(template(INTERNAL_ERROR, lang)).replace(re.escape("{error_id}"), r"[0-9a-f]+"))
    for lang in ("en", "fr")
]


def dump(url: str, conn: Connection | None = None) -> list[str]:
    """The whole database as lines of SQL text (a separate connection: the last committed state)."""
    return sql_lines(url, conn)


_CHARACTER_ROW = re.compile(r'^INSERT INTO "characters" VALUES\((\d+),\d+,(\d+|NULL),')
_WOUND_ROW = re.compile(r'^INSERT INTO "wounds" VALUES\(\d+,(\d+),')
_EVENT_LINK = re.compile(r'^INSERT INTO "event_characters" VALUES\(\d+,(\d+)\)')


def touched_players(before: list[str], after: list[str]) -> set[int]:
    """The players whose characters changed, or were the subject of a recorded change, between two dumps
    (a change to a player's character may mention that player, commands.md)."""
    owners: dict[int, int] = {}
    for line in before + after:
        if (match := _CHARACTER_ROW.match(line)) and match[2] != "NULL":
            owners[int(match[1])] = int(match[2])
    changed = set(before) ^ set(after)
    players: set[int] = set()
    for line in changed:
        if match := _CHARACTER_ROW.match(line) or _WOUND_ROW.match(line) or _EVENT_LINK.match(line):
            owner = owners.get(int(match[1]))
            if owner is not None:
                players.add(owner)
    return players


PRIVATE_SUCCESSES = ("{name} is on the board now.", "{name} is off the board.")
"""What the bot answers privately when it did what was asked (a GM's ``/board add:`` and ``remove:``)."""


def _pattern(template: str) -> re.Pattern[str]:
    """A message of the catalogue as a regex, its parameters matching anything."""
    parts = []
    for literal, placeholder, _, _ in string.Formatter().parse(template):
        parts.append(re.escape(literal))
        if placeholder is not None:
            parts.append(".*?")
    return re.compile("".join(parts) + "…?", re.DOTALL)


@cache
def refusal_patterns(lang: Lang) -> list[tuple[str, re.Pattern[str]]]:
    """Every refusal of the catalogue in ``lang`` as a regex, its parameters matching anything."""
    refusals = REFUSALS | {"Only the person who ran the command can use these buttons."}
    return [(message, _pattern(template(message, lang))) for message in sorted(refusals - NOT_REFUSALS)]


def is_private_success(text: str, lang: Lang) -> bool:
    return any(_pattern(template(message, lang)).fullmatch(text) for message in PRIVATE_SUCCESSES)


def refusal_of(text: str, lang: Lang) -> str | None:
    """The refusal ``text`` in ``lang`` (by its English), None if it is not one."""
    for message, pattern in refusal_patterns(lang):
        if pattern.fullmatch(text):
            return message
    return None


def embed_of(data: Mapping[str, Any]) -> discord.Embed:
    return discord.Embed.from_dict(dict(data))


def message_bodies(reply: harness.Reply) -> list[dict[str, Any]]:
    """Every message body the bot sent for this interaction: the callback's data, followups, edits."""
    bodies: list[dict[str, Any]] = []
    for request in reply.all_requests:
        body = request.json
        if not isinstance(body, dict):
            continue
        if request.path.endswith("/callback"):
            data = body.get("data")
            if isinstance(data, dict) and body.get("type") in (4, 7):
                bodies.append(data)
        elif request.method in ("POST", "PATCH") and (
            "content" in body or "embeds" in body or "allowed_mentions" in body
        ):
            bodies.append(body)
    return bodies


def limit_violations(reply: harness.Reply) -> list[str]:
    """Every way a message of ``reply`` breaks Discord's documented limits (tests/ui/limits.py)."""
    problems: list[str] = []
    for body in message_bodies(reply):
        embeds = [embed_of(e) for e in body.get("embeds") or []]
        problems += limits.message_within_limits(body.get("content"), embeds)
        for row in body.get("components") or []:
            for item in row.get("components") or []:
                label = item.get("label")
                if label is not None and len(label) > limits.BUTTON_LABEL:
                    problems.append(f"button label: {len(label)} > {limits.BUTTON_LABEL}")
    for choice in reply.choices or []:
        if len(choice["name"]) > CHOICE_NAME:
            problems.append(f"choice name: {len(choice['name'])} > {CHOICE_NAME}")
    if reply.choices is not None and len(reply.choices) > 25:
        problems.append(f"choices: {len(reply.choices)} > 25")
    return problems


def mention_violations(reply: harness.Reply, may_ping: Collection[int]) -> list[str]:
    """Every message body whose allowed_mentions could ping more than the players of ``may_ping``."""
    problems: list[str] = []
    for body in message_bodies(reply):
        allowed = body.get("allowed_mentions")
        if allowed is None:
            problems.append(f"no allowed_mentions (Discord's default pings everything): {body!r:.200}")
            continue
        if allowed.get("parse"):
            problems.append(f"allowed_mentions.parse = {allowed['parse']!r}")
        if allowed.get("roles"):
            problems.append(f"allowed_mentions.roles = {allowed['roles']!r}")
        users = {int(u) for u in allowed.get("users") or []}
        if not users <= set(may_ping):
            problems.append(f"allowed_mentions.users = {sorted(users)} beyond {sorted(may_ping)}")
        if allowed.get("replied_user"):
            problems.append("allowed_mentions.replied_user")
    return problems


def rendered_text(reply: harness.Reply) -> str:
    """All the text of every message body sent (content and every part of every embed)."""
    parts: list[str] = []
    for body in message_bodies(reply):
        parts.append(str(body.get("content") or ""))
        for embed in body.get("embeds") or []:
            parts += [str(embed.get("title") or ""), str(embed.get("description") or "")]
            parts += [str((embed.get("footer") or {}).get("text") or "")]
            parts += [str((embed.get("author") or {}).get("name") or "")]
            for item in embed.get("fields") or []:
                parts += [str(item.get("name") or ""), str(item.get("value") or "")]
    # Autocomplete choices are plain text in Discord's picker (no markdown, no pings): not checked here.
    return "\n".join(parts)


def visible(reply: harness.Reply) -> list[harness.SentMessage]:
    return [m for m in reply.messages if not m.deleted]


def is_refusal(reply: harness.Reply) -> bool:
    shown = visible(reply)
    return bool(shown) and all(m.ephemeral for m in shown) and not any(m.components for m in shown)


def failures(reply: harness.Reply) -> list[str]:
    """Signs of an unhandled exception: discord.py's own logs, the funnel's "error id"."""
    found = [f"discord.py logged {e!r}" for e in reply.errors]
    for record in reply.logs:
        if record.levelname in ("ERROR", "CRITICAL"):
            found.append(f"{record.name}: {record.getMessage()}")
    for message in reply.messages:
        if any(pattern.search(message.content) for pattern in INTERNAL):
            found.append(f"internal error shown: {message.content!r}")
    return found


@dataclass
class Outcome:
    reply: harness.Reply
    before: list[str] = field(repr=False)
    after: list[str] = field(repr=False)
    lang: Lang = "en"

    @property
    def refused(self) -> bool:
        return is_refusal(self.reply)

    @property
    def changed(self) -> bool:
        return self.before != self.after

    @property
    def text(self) -> str:
        return self.reply.text

    @property
    def refusal(self) -> str | None:
        """The refusal, by its English (matched on the message as sent, not stripped)."""
        if not self.refused:
            return None
        return refusal_of("\n".join(m.content for m in visible(self.reply)), self.lang)

    def public(self) -> harness.Reply:
        """The reply, asserting it is a public result."""
        assert not self.refused and visible(self.reply), f"expected a public result, got {self.text!r}"
        assert all(not m.ephemeral for m in visible(self.reply)), self.text
        return self.reply

    def refused_with(self, *keys: str) -> None:
        assert self.refused, f"expected a refusal {keys}, got a public result: {self.text[:300]!r}"
        assert self.refusal in keys, f"expected a refusal {keys}, got {self.refusal}: {self.text!r}"


class Hardened:
    """Runs interactions on a table and checks the invariants above on every one."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.url = table.store.database.url
        self.looker = connect(self.url)  # one connection for every dump; closed by the fixture
        #: What a test builds once and reuses across Hypothesis examples (e.g. the world).
        self.cached: dict[str, Any] = {}

    @property
    def bot(self) -> Any:
        return self.table.bot

    def dump(self) -> list[str]:
        return dump(self.url, self.looker)

    async def _deliver(self, payload: dict[str, Any], *, discord_checks: bool) -> harness.Reply:
        reply = await harness.dispatch(
            self.table.fake, self.table.bot, payload, discord_checks=discord_checks
        )
        self.table.replies.append(reply)
        return reply

    def check(
        self, reply: harness.Reply, lang: Lang, may_ping: Collection[int], before: list[str], after: list[str]
    ) -> Outcome:
        outcome = Outcome(reply, before, after, lang)
        assert reply.delivered, reply.undelivered_reason
        assert not failures(reply), failures(reply)
        assert reply.callback_type is not None, "never answered"
        assert not limit_violations(reply), limit_violations(reply)
        may_ping = {*may_ping, *touched_players(before, after)}
        assert not mention_violations(reply, may_ping), mention_violations(reply, may_ping)
        shown = rendered_text(reply)
        assert not PINGS.search(shown), f"unescaped ping in {PINGS.search(shown)!r}: {shown[:500]!r}"
        if reply.callback_type == 8:  # autocomplete: never a change
            assert not outcome.changed, "an autocomplete changed the database"
            return outcome
        if outcome.refused and outcome.changed and is_private_success(reply.text, lang):
            return outcome  # done, and said privately (not a refusal)
        if outcome.refused:
            assert outcome.refusal is not None, f"not a refusal of the catalogue in {lang}: {reply.text!r}"
            assert not outcome.changed, f"refused ({outcome.refusal}) but the database changed"
        return outcome

    async def run(
        self,
        command: str,
        options: Mapping[str, Any] | Iterable[Mapping[str, Any]] | None = None,
        *,
        user: int = GM,
        guild: int = GUILD,
        locale: str = "en-US",
        guild_locale: str = "en-US",
        roles: Iterable[int] | None = None,
        permissions: int | None = None,
        may_ping: Collection[int] = (),
        discord_checks: bool = True,
    ) -> Outcome:
        """``/command`` with ``options``; the GM has the GM role unless ``roles`` says otherwise."""
        if roles is None:
            roles = (GM_ROLE,) if user == GM else ()
        kwargs: dict[str, Any] = {}
        if permissions is not None:
            kwargs["permissions"] = permissions
        opts: Any = dict(options) if isinstance(options, Mapping) else list(options or [])
        payload = harness.slash(
            command,
            opts,
            guild_id=guild,
            user_id=user,
            roles=roles,
            locale=locale,
            guild_locale=guild_locale,
            **kwargs,
        )
        before = self.dump()
        reply = await self._deliver(payload, discord_checks=discord_checks)
        return self.check(reply, lang_of(locale), may_ping, before, self.dump())

    async def complete(
        self,
        command: str,
        options: Mapping[str, Any],
        focused: str,
        *,
        user: int = GM,
        guild: int = GUILD,
        locale: str = "en-US",
        discord_checks: bool = True,
    ) -> Outcome:
        payload = harness.autocomplete(
            command, dict(options), focused=focused, user_id=user, guild_id=guild, locale=locale
        )
        before = self.dump()
        reply = await self._deliver(payload, discord_checks=discord_checks)
        outcome = self.check(reply, lang_of(locale), (), before, self.dump())
        assert reply.callback_type == 8, reply
        return outcome

    async def click(
        self,
        custom_id: str,
        message: Any = None,
        *,
        user: int = GM,
        guild: int = GUILD,
        locale: str = "en-US",
        roles: Iterable[int] | None = None,
        may_ping: Collection[int] = (),
    ) -> Outcome:
        if roles is None:
            roles = (GM_ROLE,) if user == GM else ()
        payload = harness.component(
            custom_id, message=message, user_id=user, guild_id=guild, locale=locale, roles=roles
        )
        before = self.dump()
        reply = await self._deliver(payload, discord_checks=True)
        return self.check(reply, lang_of(locale), may_ping, before, self.dump())

    # ---- set-up shortcuts (checked too) ----------------------------------------------------------

    async def create(
        self, name: str, player: int | None = None, *, guild: int = GUILD, **attributes: Any
    ) -> int:
        """A character made by the GM (the server owner in OTHER_GUILD); returns its id."""
        options: dict[str, Any] = {"name": name, **attributes}
        if player is not None:
            options["player"] = harness.user(player)
        user = GM if guild == GUILD else OWNER_OF[guild]
        outcome = await self.run(
            "character create", options, user=user, guild=guild, may_ping=() if player is None else (player,)
        )
        outcome.public()
        found = await self.table.store.read(guild, lambda r: r.character_by_name(name))
        assert found.id is not None
        return found.id


OWNER_OF = {GUILD: GM, OTHER_GUILD: OWNER}
