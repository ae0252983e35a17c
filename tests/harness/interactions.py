"""INTERACTION_CREATE payload builders and ``dispatch``: feed one to discord.py and collect what it answered.

``dispatch`` hands the payload to ``ConnectionState.parse_interaction_create`` - exactly what the gateway
reader does - so the ``discord.Interaction`` is built by discord.py and the CommandTree / view store route it
(checks, transformers, autocomplete, error handlers and all). It then waits for the tasks that call started
(``CommandTree-invoker``, ``discord-ui-view-dispatch-*``, ``on_interaction`` listeners) and summarises the
requests made with that interaction's token as a ``Reply``.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands

from .payloads import (
    DEFAULT_APP_ID,
    DEFAULT_APP_PERMISSIONS,
    DEFAULT_CHANNEL_ID,
    DEFAULT_GUILD_ID,
    DEFAULT_MEMBER_PERMISSIONS,
    DEFAULT_USER_ID,
    Payload,
    dm_channel_payload,
    member_payload,
    role_payload,
    snowflake,
    text_channel_payload,
    user_payload,
)
from .runtime import HarnessError, new_dispatch_id, pop_logs, record_exceptions, start_in_context, wait_tasks
from .transport import (
    CDN,
    CDN_BASE,
    EPHEMERAL,
    FakeDiscord,
    FakeSession,
    InteractionRecord,
    RecordedFile,
    RecordedRequest,
)

APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

ADMINISTRATOR = discord.Permissions(administrator=True).value

# --------------------------------------------------------------------------------------------------
# Option values that need "resolved" data
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class UserArg:
    """A USER (or MENTIONABLE) option value; ``member=False`` for a user who is not in the guild."""

    id: int
    username: str | None = None
    global_name: str | None = None
    bot: bool = False
    roles: tuple[int, ...] = ()
    nick: str | None = None
    member: bool = True


@dataclass(frozen=True)
class RoleArg:
    id: int
    name: str = "role"
    permissions: int = 0


@dataclass(frozen=True)
class ChannelArg:
    id: int
    name: str = "channel"
    type: int = 0


@dataclass(frozen=True)
class AttachmentArg:
    """An ATTACHMENT option value; its bytes are served to ``discord.Attachment.read()``."""

    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None
    id: int = field(default_factory=snowflake)


@dataclass(frozen=True)
class Opt:
    """An option with an explicit type (``Opt(10, 3)`` is the NUMBER 3.0) for when inference is not enough."""

    type: int
    value: Any


def user(
    user_id: int,
    *,
    username: str | None = None,
    global_name: str | None = None,
    bot: bool = False,
    roles: Iterable[int] = (),
    nick: str | None = None,
    member: bool = True,
) -> UserArg:
    return UserArg(user_id, username, global_name, bot, tuple(roles), nick, member)


def role(role_id: int, name: str = "role", *, permissions: int = 0) -> RoleArg:
    return RoleArg(role_id, name, permissions)


def channel(channel_id: int, name: str = "channel", *, type: int = 0) -> ChannelArg:
    return ChannelArg(channel_id, name, type)


def attachment(
    filename: str, data: bytes, content_type: str | None = None, *, description: str | None = None
) -> AttachmentArg:
    return AttachmentArg(filename, data, content_type, description)


# --------------------------------------------------------------------------------------------------
# Payload builders
# --------------------------------------------------------------------------------------------------


def _envelope(
    interaction_type: int,
    *,
    guild_id: int | None,
    channel_id: int,
    user_id: int,
    username: str | None,
    global_name: str | None,
    nick: str | None,
    permissions: int,
    roles: Iterable[int],
    locale: str,
    guild_locale: str,
    app_permissions: int,
    application_id: int,
) -> Payload:
    interaction_id = snowflake()
    invoker = user_payload(user_id, username=username, global_name=global_name)
    payload: Payload = {
        "id": str(interaction_id),
        "application_id": str(application_id),
        "type": interaction_type,
        "token": f"harness-token-{interaction_id}",
        "version": 1,
        "channel_id": str(channel_id),
        "locale": locale,
        "app_permissions": str(app_permissions),
        "entitlements": [],
        "entitlement_sku_ids": [],
        "attachment_size_limit": 10 * 1024 * 1024,
    }
    if guild_id is not None:
        payload["guild_id"] = str(guild_id)
        payload["guild"] = {"id": str(guild_id), "locale": guild_locale, "features": []}
        payload["guild_locale"] = guild_locale
        payload["channel"] = text_channel_payload(channel_id, guild_id=guild_id, permissions=permissions)
        payload["member"] = member_payload(invoker, roles=roles, nick=nick, permissions=permissions)
        payload["authorizing_integration_owners"] = {"0": str(guild_id)}
        payload["context"] = 0
    else:
        payload["channel"] = dm_channel_payload(channel_id, invoker)
        payload["user"] = invoker
        payload["authorizing_integration_owners"] = {"0": "0"}
        payload["context"] = 1
    return payload


def _resolve_value(
    value: Any, resolved: dict[str, dict[str, Payload]], guild_id: int | None, permissions: int
) -> tuple[int, Any]:
    if isinstance(value, Opt):
        return value.type, value.value
    if isinstance(value, bool):
        return 5, value
    if isinstance(value, int):
        return 4, value
    if isinstance(value, float):
        return 10, value
    if isinstance(value, str):
        return 3, value
    if isinstance(value, UserArg):
        data = user_payload(value.id, username=value.username, global_name=value.global_name, bot=value.bot)
        resolved.setdefault("users", {})[str(value.id)] = data
        if value.member and guild_id is not None:
            member = member_payload(data, roles=value.roles, nick=value.nick, permissions=permissions)
            for key in ("user", "deaf", "mute"):
                member.pop(key, None)
            resolved.setdefault("members", {})[str(value.id)] = member
        return 6, str(value.id)
    if isinstance(value, RoleArg):
        resolved.setdefault("roles", {})[str(value.id)] = role_payload(
            value.id, value.name, permissions=value.permissions
        )
        return 8, str(value.id)
    if isinstance(value, ChannelArg):
        resolved.setdefault("channels", {})[str(value.id)] = {
            "id": str(value.id),
            "name": value.name,
            "type": value.type,
            "permissions": str(permissions),
            **({"guild_id": str(guild_id)} if guild_id is not None else {}),
        }
        return 7, str(value.id)
    if isinstance(value, AttachmentArg):
        url = f"{CDN_BASE}/ephemeral-attachments/{value.id}/{value.id}/{value.filename}"
        CDN[url] = value.data
        data = {
            "id": str(value.id),
            "filename": value.filename,
            "size": len(value.data),
            "url": url,
            "proxy_url": url.replace(CDN_BASE, "https://media.discordapp.net"),
            "ephemeral": True,
        }
        if value.content_type:
            data["content_type"] = value.content_type
        if value.description:
            data["description"] = value.description
        resolved.setdefault("attachments", {})[str(value.id)] = data
        return 11, str(value.id)
    raise TypeError(f"cannot infer the option type of {value!r}: use Opt(type, value)")


def _options(
    options: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None,
    resolved: dict[str, dict[str, Payload]],
    guild_id: int | None,
    permissions: int,
    focused: str | None = None,
) -> list[Payload]:
    if options is None:
        return []
    if not isinstance(options, Mapping):
        return [copy.deepcopy(dict(o)) for o in options]
    out: list[Payload] = []
    for name, value in options.items():
        if name == focused:
            out.append({"name": name, "type": 3, "value": str(value), "focused": True})
            continue
        option_type, option_value = _resolve_value(value, resolved, guild_id, permissions)
        out.append({"name": name, "type": option_type, "value": option_value})
    if focused is not None and focused not in options:
        out.append({"name": focused, "type": 3, "value": "", "focused": True})
    return out


def _command_data(
    name: str,
    leaf_options: list[Payload],
    resolved: dict[str, dict[str, Payload]],
    command_id: int | None,
    command_guild_id: int | None,
) -> Payload:
    path = name.split()
    if not 1 <= len(path) <= 3:
        raise ValueError(f"a command path has 1 to 3 words, not {name!r}")
    options = leaf_options
    for depth, part in reversed(list(enumerate(path[1:], start=1))):
        option_type = 1 if depth == len(path) - 1 else 2
        options = [{"name": part, "type": option_type, "options": options}]
    data: Payload = {"id": str(command_id or snowflake()), "name": path[0], "type": 1, "options": options}
    if resolved:
        data["resolved"] = resolved
    if command_guild_id is not None:
        data["guild_id"] = str(command_guild_id)
    return data


def slash(
    name: str,
    options: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None = None,
    *,
    guild_id: int | None = DEFAULT_GUILD_ID,
    channel_id: int = DEFAULT_CHANNEL_ID,
    user_id: int = DEFAULT_USER_ID,
    username: str | None = None,
    global_name: str | None = None,
    nick: str | None = None,
    permissions: int = DEFAULT_MEMBER_PERMISSIONS,
    roles: Iterable[int] = (),
    locale: str = "en-US",
    guild_locale: str = "en-US",
    app_permissions: int = DEFAULT_APP_PERMISSIONS,
    application_id: int = DEFAULT_APP_ID,
    command_id: int | None = None,
    command_guild_id: int | None = None,
) -> Payload:
    """An INTERACTION_CREATE payload for ``/name`` (``name`` may be a path: ``"character create"``).

    ``options``: ``{"name": value}`` with the type inferred (str, int, float, bool, ``user()``, ``role()``,
    ``channel()``, ``attachment()``, ``Opt(type, value)``), or a list of raw option dicts. ``dispatch`` then
    aligns the option types with the command's declared parameters, as Discord would.
    ``guild_id=None`` makes a DM interaction. ``command_guild_id`` is ``data.guild_id`` (set for guild
    commands); by default ``dispatch`` sets it when the client's tree has the command for that guild.
    """
    resolved: dict[str, dict[str, Payload]] = {}
    payload = _envelope(
        APPLICATION_COMMAND,
        guild_id=guild_id,
        channel_id=channel_id,
        user_id=user_id,
        username=username,
        global_name=global_name,
        nick=nick,
        permissions=permissions,
        roles=roles,
        locale=locale,
        guild_locale=guild_locale,
        app_permissions=app_permissions,
        application_id=application_id,
    )
    leaf = _options(options, resolved, guild_id, permissions)
    payload["data"] = _command_data(name, leaf, resolved, command_id, command_guild_id)
    return payload


def autocomplete(
    name: str,
    options: Mapping[str, Any] | None = None,
    *,
    focused: str,
    guild_id: int | None = DEFAULT_GUILD_ID,
    channel_id: int = DEFAULT_CHANNEL_ID,
    user_id: int = DEFAULT_USER_ID,
    username: str | None = None,
    global_name: str | None = None,
    nick: str | None = None,
    permissions: int = DEFAULT_MEMBER_PERMISSIONS,
    roles: Iterable[int] = (),
    locale: str = "en-US",
    guild_locale: str = "en-US",
    app_permissions: int = DEFAULT_APP_PERMISSIONS,
    application_id: int = DEFAULT_APP_ID,
    command_id: int | None = None,
    command_guild_id: int | None = None,
) -> Payload:
    """An APPLICATION_COMMAND_AUTOCOMPLETE payload: the user is typing ``options[focused]`` (a string)."""
    resolved: dict[str, dict[str, Payload]] = {}
    payload = _envelope(
        AUTOCOMPLETE,
        guild_id=guild_id,
        channel_id=channel_id,
        user_id=user_id,
        username=username,
        global_name=global_name,
        nick=nick,
        permissions=permissions,
        roles=roles,
        locale=locale,
        guild_locale=guild_locale,
        app_permissions=app_permissions,
        application_id=application_id,
    )
    leaf = _options(options or {}, resolved, guild_id, permissions, focused=focused)
    payload["data"] = _command_data(name, leaf, resolved, command_id, command_guild_id)
    return payload


def _message_of(
    message: Mapping[str, Any] | Reply | SentMessage | None, custom_id: str, channel_id: int
) -> Payload:
    if isinstance(message, Reply):
        if message.message is None:
            raise HarnessError("that reply has no message to click on")
        return copy.deepcopy(message.message)
    if isinstance(message, SentMessage):
        return copy.deepcopy(message.message)
    if message is not None:
        return copy.deepcopy(dict(message))
    # A message of the bot carrying just that component (enough for persistent views).
    mid = snowflake()
    return {
        "id": str(mid),
        "channel_id": str(channel_id),
        "type": 0,
        "content": "",
        "author": user_payload(DEFAULT_APP_ID, bot=True),
        "timestamp": discord.utils.snowflake_time(mid).isoformat(),
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": [],
        "pinned": False,
        "flags": 0,
        "components": [
            {"type": 1, "components": [{"type": 2, "style": 1, "custom_id": custom_id, "label": "?"}]}
        ],
    }


def component(
    custom_id: str,
    *,
    message: Mapping[str, Any] | Reply | SentMessage | None = None,
    component_type: int = 2,
    values: Sequence[str] | None = None,
    guild_id: int | None = DEFAULT_GUILD_ID,
    channel_id: int = DEFAULT_CHANNEL_ID,
    user_id: int = DEFAULT_USER_ID,
    username: str | None = None,
    global_name: str | None = None,
    nick: str | None = None,
    permissions: int = DEFAULT_MEMBER_PERMISSIONS,
    roles: Iterable[int] = (),
    locale: str = "en-US",
    guild_locale: str = "en-US",
    app_permissions: int = DEFAULT_APP_PERMISSIONS,
    application_id: int = DEFAULT_APP_ID,
) -> Payload:
    """A MESSAGE_COMPONENT payload: a click on ``custom_id`` (a button by default; ``values`` for selects).

    ``message`` is the message carrying the component: a ``Reply`` (its original response), a
    ``SentMessage`` (e.g. ``reply.followups[0]``) or a message dict; without it, a bot message holding just
    that button (fine for persistent views registered without a message id).
    """
    payload = _envelope(
        MESSAGE_COMPONENT,
        guild_id=guild_id,
        channel_id=channel_id,
        user_id=user_id,
        username=username,
        global_name=global_name,
        nick=nick,
        permissions=permissions,
        roles=roles,
        locale=locale,
        guild_locale=guild_locale,
        app_permissions=app_permissions,
        application_id=application_id,
    )
    msg = _message_of(message, custom_id, channel_id)
    payload["message"] = msg
    payload["channel_id"] = msg.get("channel_id", payload["channel_id"])
    payload["channel"]["id"] = payload["channel_id"]
    data: Payload = {"custom_id": custom_id, "component_type": component_type}
    if values is not None:
        data["values"] = list(values)
    payload["data"] = data
    return payload


def modal_submit(
    custom_id: str,
    fields: Mapping[str, str],
    *,
    message: Mapping[str, Any] | Reply | SentMessage | None = None,
    guild_id: int | None = DEFAULT_GUILD_ID,
    channel_id: int = DEFAULT_CHANNEL_ID,
    user_id: int = DEFAULT_USER_ID,
    username: str | None = None,
    global_name: str | None = None,
    nick: str | None = None,
    permissions: int = DEFAULT_MEMBER_PERMISSIONS,
    roles: Iterable[int] = (),
    locale: str = "en-US",
    guild_locale: str = "en-US",
    app_permissions: int = DEFAULT_APP_PERMISSIONS,
    application_id: int = DEFAULT_APP_ID,
) -> Payload:
    """A MODAL_SUBMIT payload: the modal ``custom_id`` submitted with text inputs ``{custom_id: value}``."""
    payload = _envelope(
        MODAL_SUBMIT,
        guild_id=guild_id,
        channel_id=channel_id,
        user_id=user_id,
        username=username,
        global_name=global_name,
        nick=nick,
        permissions=permissions,
        roles=roles,
        locale=locale,
        guild_locale=guild_locale,
        app_permissions=app_permissions,
        application_id=application_id,
    )
    payload["data"] = {
        "custom_id": custom_id,
        "components": [
            {"type": 1, "components": [{"type": 4, "custom_id": key, "value": value}]}
            for key, value in fields.items()
        ],
    }
    if message is not None:
        payload["message"] = _message_of(message, custom_id, channel_id)
    return payload


# --------------------------------------------------------------------------------------------------
# What came back
# --------------------------------------------------------------------------------------------------


@dataclass
class SentMessage:
    """A message the bot created or edited through the interaction, as the fake Discord holds it."""

    id: int
    message: Payload
    requests: list[RecordedRequest]
    deleted: bool = False

    @property
    def content(self) -> str:
        return str(self.message.get("content") or "")

    @property
    def embeds(self) -> list[Payload]:
        return list(self.message.get("embeds") or [])

    @property
    def embed(self) -> Payload | None:
        return self.embeds[0] if self.embeds else None

    @property
    def components(self) -> list[Payload]:
        return list(self.message.get("components") or [])

    @property
    def flags(self) -> int:
        return int(self.message.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def attachments(self) -> list[Payload]:
        return list(self.message.get("attachments") or [])

    @property
    def files(self) -> list[RecordedFile]:
        return [f for r in self.requests for f in r.files]

    @property
    def allowed_mentions(self) -> Payload | None:
        found: Payload | None = None
        for request in self.requests:
            body = _message_body(request)
            if body is not None and body.get("allowed_mentions") is not None:
                found = body["allowed_mentions"]
        return found

    @property
    def text(self) -> str:
        """Content and every embed's visible text, one piece per line (handy for wording assertions)."""
        return "\n".join([self.content, *(_embed_text(e) for e in self.embeds)]).strip()


def _message_body(request: RecordedRequest) -> Payload | None:
    body = request.json
    if not isinstance(body, dict):
        return None
    if request.path.endswith("/callback"):
        data = body.get("data")
        return data if isinstance(data, dict) else None
    return body


def _embed_text(embed: Mapping[str, Any]) -> str:
    parts = [embed.get("author", {}).get("name"), embed.get("title"), embed.get("description")]
    for f in embed.get("fields") or []:
        parts += [f.get("name"), f.get("value")]
    parts.append((embed.get("footer") or {}).get("text"))
    return "\n".join(str(p) for p in parts if p)


@dataclass
class Reply:
    """Everything discord.py sent in answer to one dispatched interaction.

    ``content``/``embeds``/``components``/``flags``/``files``/``allowed_mentions`` describe the original
    response message in its final state (the callback message, after any ``edit_original_response``; for
    ``edit_message`` on a component, the updated message). ``followups`` lists the followup messages (the
    first followup after a deferred response replaces the "thinking" message, as on Discord, so it is also
    the original). ``errors``: exceptions discord.py caught and logged while handling the interaction
    (``app_commands.CommandInvokeError`` etc.) plus those of the tasks themselves; ``logs``: every WARNING+
    log record emitted while handling it (the bot's own loggers included). ``delivered`` is False
    when Discord would not have sent the interaction at all (missing ``default_member_permissions``, a
    guild-only command used in DMs); nothing ran then.
    """

    interaction_id: int
    token: str
    payload: Payload
    dispatch_id: int | None = None
    delivered: bool = True
    undelivered_reason: str | None = None
    requests: list[RecordedRequest] = field(default_factory=list)
    other_requests: list[RecordedRequest] = field(default_factory=list)
    callback_type: int | None = None
    callback: Payload | None = None
    original: SentMessage | None = None
    followups: list[SentMessage] = field(default_factory=list)
    errors: list[BaseException] = field(default_factory=list)
    logs: list[logging.LogRecord] = field(default_factory=list)
    #: Names of the tasks discord.py started for it ("CommandTree-invoker", "discord-ui-view-dispatch-...");
    #: empty for a component nobody listens to (discord.py drops those silently).
    tasks: list[str] = field(default_factory=list)

    # -- the original response
    @property
    def message(self) -> Payload | None:
        """The original response message object (what a component click on it carries)."""
        return self.original.message if self.original is not None else None

    @property
    def content(self) -> str | None:
        return self.original.content if self.original is not None else None

    @property
    def embeds(self) -> list[Payload]:
        return self.original.embeds if self.original is not None else []

    @property
    def embed(self) -> Payload | None:
        return self.original.embed if self.original is not None else None

    @property
    def components(self) -> list[Payload]:
        return self.original.components if self.original is not None else []

    @property
    def flags(self) -> int:
        return self.original.flags if self.original is not None else 0

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def files(self) -> list[RecordedFile]:
        return self.original.files if self.original is not None else []

    @property
    def allowed_mentions(self) -> Payload | None:
        return self.original.allowed_mentions if self.original is not None else None

    @property
    def deferred(self) -> bool:
        return self.callback_type in (5, 6)

    @property
    def choices(self) -> list[Payload] | None:
        """Autocomplete choices ({"name", "value"}) when the callback was type 8."""
        if self.callback_type != 8:
            return None
        return list((self.callback or {}).get("choices") or [])

    @property
    def modal(self) -> Payload | None:
        return self.callback if self.callback_type == 9 else None

    @property
    def messages(self) -> list[SentMessage]:
        """The original response then the followups, without duplicates."""
        out: list[SentMessage] = []
        for m in ([self.original] if self.original else []) + self.followups:
            if all(m.id != o.id for o in out):
                out.append(m)
        return out

    @property
    def text(self) -> str:
        return "\n".join(m.text for m in self.messages if not m.deleted).strip()

    @property
    def error(self) -> BaseException | None:
        return self.errors[0] if self.errors else None

    @property
    def all_requests(self) -> list[RecordedRequest]:
        return sorted(self.requests + self.other_requests, key=lambda r: r.seq)

    def raise_errors(self) -> None:
        """Re-raise the first error discord.py swallowed (for tests that expect a clean run)."""
        if self.errors:
            error = self.errors[0]
            original = getattr(error, "original", None)
            raise HarnessError(f"the interaction failed: {original or error!r}") from error

    def __repr__(self) -> str:
        return (
            f"<Reply callback={self.callback_type} content={self.content!r} embeds={len(self.embeds)} "
            f"ephemeral={self.ephemeral} followups={len(self.followups)} errors={self.errors!r}>"
        )


def _sent(fake: FakeDiscord, record: InteractionRecord, message_id: int) -> SentMessage | None:
    message = fake.messages.get(message_id)
    if message is None:
        return None
    touching = [r for r in record.requests if r.ok and r.message_id == message_id]
    deleted = message_id == record.original_id and record.original_deleted
    return SentMessage(message_id, copy.deepcopy(message), touching, deleted)


def build_reply(
    fake: FakeDiscord,
    record: InteractionRecord,
    *,
    dispatch_id: int | None = None,
    errors: Sequence[BaseException] = (),
    logs: Sequence[logging.LogRecord] = (),
    tasks: Sequence[str] = (),
) -> Reply:
    """Summarise what the fake knows about ``record`` now (``dispatch`` calls it when everything ran)."""
    original = _sent(fake, record, record.original_id) if record.original_id is not None else None
    followups = [m for m in (_sent(fake, record, mid) for mid in record.followup_ids) if m is not None]
    others = [
        r
        for r in fake.requests
        if dispatch_id is not None and r.dispatch_id == dispatch_id and r not in record.requests
    ]
    return Reply(
        interaction_id=record.id,
        token=record.token,
        payload=record.payload,
        dispatch_id=dispatch_id,
        requests=list(record.requests),
        other_requests=others,
        callback_type=record.callback_type,
        callback=copy.deepcopy(record.callback_data),
        original=original,
        followups=followups,
        errors=list(errors),
        logs=list(logs),
        tasks=list(tasks),
    )


# --------------------------------------------------------------------------------------------------
# Making the payload what Discord would send for the client's commands
# --------------------------------------------------------------------------------------------------

_NUMBER, _INTEGER, _STRING = 10, 4, 3
_USER, _CHANNEL, _ROLE, _MENTIONABLE, _ATTACHMENT = 6, 7, 8, 9, 11

AnyCommand = app_commands.Command[Any, ..., Any] | app_commands.Group | app_commands.ContextMenu


def find_command(client: discord.Client, payload: Mapping[str, Any]) -> AnyCommand | None:
    """The root command of the client's tree that an application command payload designates."""
    tree = client._connection._command_tree
    data = payload.get("data") or {}
    if tree is None or "name" not in data:
        return None
    kind = discord.AppCommandType(int(data.get("type", 1)))
    scope_id = data.get("guild_id")
    scope = discord.Object(int(scope_id)) if scope_id else None
    return tree.get_command(data["name"], guild=scope, type=kind)


def conform(client: discord.Client, payload: Payload, *, discord_checks: bool = True) -> None:
    """Adjust an application command / autocomplete payload in place to what Discord would send.

    Sets ``data.guild_id`` when the tree has the command for the interaction's guild, gives each option the
    type the command declares (NUMBER values become floats, ids become strings, missing ``resolved``
    entries are filled in), and - with ``discord_checks`` - raises ``HarnessError`` for what Discord's client
    refuses to send: unknown options, missing required ones, values outside ``choices`` / min / max.
    """
    tree = client._connection._command_tree
    data = payload.get("data")
    if tree is None or payload.get("type") not in (APPLICATION_COMMAND, AUTOCOMPLETE) or not data:
        return
    guild_id = payload.get("guild_id")
    kind = discord.AppCommandType(int(data.get("type", 1)))
    if (
        "guild_id" not in data
        and guild_id
        and tree.get_command(data["name"], guild=discord.Object(int(guild_id)), type=kind) is not None
    ):
        data["guild_id"] = str(guild_id)
    command = find_command(client, payload)
    if command is None or isinstance(command, app_commands.ContextMenu):
        return
    container: Payload = data
    current: app_commands.Command[Any, ..., Any] | app_commands.Group = command
    path = [command.name]
    while isinstance(current, app_commands.Group):
        sub = next((o for o in container.get("options") or [] if o.get("type") in (1, 2)), None)
        if sub is None:
            known = sorted(c.name for c in current.commands)
            raise HarnessError(f"/{' '.join(path)} is a group: name a subcommand ({known})")
        child = current.get_command(sub["name"])
        if child is None:
            known = sorted(c.name for c in current.commands)
            raise HarnessError(f"/{' '.join(path)} has no subcommand {sub['name']!r} ({known})")
        sub["type"] = 2 if isinstance(child, app_commands.Group) else 1
        path.append(child.name)
        current = child
        container = sub
    _conform_options(client, current, container, payload, " ".join(path), discord_checks)


def _conform_options(
    client: discord.Client,
    command: app_commands.Command[Any, ..., Any],
    container: Payload,
    payload: Payload,
    path: str,
    discord_checks: bool,
) -> None:
    params = {p.display_name: p for p in command.parameters}
    by_python_name = {p.name: p for p in command.parameters}
    options = container.setdefault("options", [])
    data = payload["data"]
    for option in options:
        param = params.get(option["name"]) or by_python_name.get(option["name"])
        if param is None:
            if discord_checks:
                raise HarnessError(f"/{path} has no option {option['name']!r} (options: {sorted(params)})")
            continue
        option["name"] = param.display_name
        option["type"] = param.type.value
        if option.get("focused"):
            option["value"] = str(option.get("value", ""))
            continue
        option["value"] = _coerce(option.get("value"), param.type.value, data, payload, client)
        if discord_checks:
            _check_value(param, option["value"], path)
    if discord_checks and payload["type"] == APPLICATION_COMMAND:
        given = {o["name"] for o in options}
        missing = [p.display_name for p in command.parameters if p.required and p.display_name not in given]
        if missing:
            raise HarnessError(f"/{path}: Discord would not send it without the required options {missing}")


def _coerce(value: Any, option_type: int, data: Payload, payload: Payload, client: discord.Client) -> Any:
    if option_type == _NUMBER and isinstance(value, int | str) and not isinstance(value, bool):
        return float(value)
    if option_type == _INTEGER and isinstance(value, str) and value.lstrip("-").isdigit():
        return int(value)
    if option_type == _STRING and not isinstance(value, str):
        return str(value)
    if option_type in (_USER, _MENTIONABLE, _ROLE, _CHANNEL, _ATTACHMENT):
        value = str(value)
        resolved = data.setdefault("resolved", {})
        known = any(value in resolved.get(k, {}) for k in ("users", "roles", "channels", "attachments"))
        if not known:
            _fill_resolved(client, payload, resolved, option_type, int(value))
    return value


def _fill_resolved(
    client: discord.Client, payload: Payload, resolved: Payload, option_type: int, object_id: int
) -> None:
    """Discord sends the objects an id option designates: build them from the client's cache if it has
    them (so names, roles, permissions are the real ones), else minimal stand-ins."""
    guild = client.get_guild(int(payload["guild_id"])) if payload.get("guild_id") else None
    key = str(object_id)
    role = guild.get_role(object_id) if guild is not None else None
    if option_type == _ROLE or (option_type == _MENTIONABLE and role is not None):
        if role is not None:
            data = role_payload(
                role.id, role.name, permissions=role.permissions.value, position=role.position
            )
            data["color"] = role.colour.value
        else:
            data = role_payload(object_id, "role")
        resolved.setdefault("roles", {})[key] = data
    elif option_type in (_USER, _MENTIONABLE):
        member = guild.get_member(object_id) if guild is not None else None
        cached = member or client.get_user(object_id)
        if cached is not None:
            user_data = user_payload(
                object_id, username=cached.name, global_name=cached.global_name, bot=cached.bot
            )
        else:
            user_data = user_payload(object_id)
        resolved.setdefault("users", {})[key] = user_data
        if guild is not None or payload.get("guild_id"):
            roles = [r.id for r in member.roles if not r.is_default()] if member is not None else []
            nick = member.nick if member is not None else None
            data = member_payload(user_data, roles=roles, nick=nick, permissions=DEFAULT_MEMBER_PERMISSIONS)
            for field_name in ("user", "deaf", "mute"):
                data.pop(field_name, None)
            resolved.setdefault("members", {})[key] = data
    elif option_type == _CHANNEL:
        found = guild.get_channel_or_thread(object_id) if guild is not None else None
        resolved.setdefault("channels", {})[key] = {
            "id": key,
            "name": getattr(found, "name", "channel"),
            "type": found.type.value if found is not None else 0,
            "permissions": str(DEFAULT_MEMBER_PERMISSIONS),
            **({"guild_id": payload["guild_id"]} if payload.get("guild_id") else {}),
        }
    else:
        raise HarnessError("ATTACHMENT options need harness.attachment(...) values")


def _check_value(param: app_commands.Parameter, value: Any, path: str) -> None:
    name = param.display_name
    if param.choices and value not in [c.value for c in param.choices]:
        raise HarnessError(
            f"/{path} {name}={value!r}: Discord only sends one of {[c.value for c in param.choices]}"
        )
    if isinstance(value, int | float) and not isinstance(value, bool):
        if param.min_value is not None and value < param.min_value:
            raise HarnessError(f"/{path} {name}={value!r}: below min_value {param.min_value}")
        if param.max_value is not None and value > param.max_value:
            raise HarnessError(f"/{path} {name}={value!r}: above max_value {param.max_value}")
    if isinstance(value, str) and param.type.value == _STRING:
        # For strings, discord.py keeps min_length/max_length in min_value/max_value.
        if param.min_value is not None and len(value) < param.min_value:
            raise HarnessError(f"/{path} {name}: shorter than min_length {param.min_value}")
        if param.max_value is not None and len(value) > param.max_value:
            raise HarnessError(f"/{path} {name}: longer than max_length {param.max_value}")


def undeliverable_reason(client: discord.Client, payload: Mapping[str, Any]) -> str | None:
    """Why Discord would not deliver this application command interaction at all (None: it would).

    Models ``default_member_permissions`` (administrators and the guild owner bypass it) and the contexts /
    ``dm_permission`` a command allows. Per-guild permission overrides set by admins are not modelled.
    """
    if payload.get("type") not in (APPLICATION_COMMAND, AUTOCOMPLETE):
        return None
    command = find_command(client, payload)
    tree = client._connection._command_tree
    if tree is None:
        return None
    if command is None:
        data = payload.get("data") or {}
        if not payload.get("guild_id") and not data.get("guild_id"):
            for guild in client.guilds:
                if tree.get_command(data.get("name", ""), guild=guild) is not None:
                    return f"/{data.get('name')} is a command of guild {guild.id} only, not of DMs"
        return None
    definition = command.to_dict(tree)
    member = payload.get("member")
    context = payload.get("context", 0 if payload.get("guild_id") else 1)
    contexts = definition.get("contexts")
    if contexts is not None and context not in contexts:
        return f"/{command.name} is not available in interaction context {context} (allowed: {contexts})"
    if context != 0 and definition.get("dm_permission") is False:
        return f"/{command.name} is guild-only"
    required = definition.get("default_member_permissions")
    if required is None or member is None:
        return None
    required = int(required)
    perms = int(member.get("permissions") or 0)
    home = client.get_guild(int(payload["guild_id"])) if payload.get("guild_id") else None
    is_owner = home is not None and home.owner_id == int(member["user"]["id"])
    if perms & ADMINISTRATOR or is_owner or (required != 0 and perms & required == required):
        return None
    missing = discord.Permissions(required & ~perms)
    names = [name for name, value in missing if value]
    return f"/{command.name} needs default_member_permissions {names or ['(administrators only)']}"


# --------------------------------------------------------------------------------------------------
# Dispatch
# --------------------------------------------------------------------------------------------------


async def dispatch(
    fake: FakeDiscord,
    client: discord.Client,
    payload: Mapping[str, Any],
    *,
    max_wait: float = 10.0,
    discord_checks: bool = True,
) -> Reply:
    """Deliver ``payload`` to ``client`` as the gateway would and return what it answered.

    The payload is copied, given the client's application id and ``conform``-ed to its command tree.
    Raises ``HarnessError`` when the handling tasks are still running after ``max_wait`` seconds.
    With ``discord_checks`` an interaction Discord would refuse to deliver returns ``Reply(delivered=False)``.
    Safe to run many at once (``asyncio.gather``): requests are told apart by interaction token.
    """
    if not client.is_ready() or client.is_closed():
        raise HarnessError("the client is not connected: await harness.connect(client) first")
    session = getattr(client.http, "_HTTPClient__session", None)
    if not isinstance(session, FakeSession) or session.fake is not fake:
        raise HarnessError("this client does not talk to that FakeDiscord (use the one connect() returned)")
    data = copy.deepcopy(dict(payload))
    if client.application_id is not None:
        data["application_id"] = str(client.application_id)
    if data.get("message"):
        _adopt_message(fake, data["message"])
    conform(client, data, discord_checks=discord_checks)
    _use_synced_id(fake, data)
    if discord_checks:
        reason = undeliverable_reason(client, data)
        if reason is not None:
            return Reply(
                int(data["id"]), str(data["token"]), data, delivered=False, undelivered_reason=reason
            )
    dispatch_id = new_dispatch_id()
    record = fake.register_interaction(data, dispatch_id=dispatch_id)
    state = client._connection
    try:
        tasks = start_in_context(dispatch_id, lambda: state.parse_interaction_create(data))  # type: ignore[arg-type]
        task_errors = await wait_tasks(tasks, max_wait, f"interaction {_describe(data)}")
    finally:
        logs = pop_logs(dispatch_id)
    return build_reply(
        fake,
        record,
        dispatch_id=dispatch_id,
        errors=record_exceptions(logs) + task_errors,
        logs=logs,
        tasks=sorted(t.get_name() for t in tasks),
    )


def _use_synced_id(fake: FakeDiscord, payload: Payload) -> None:
    """Give ``data.id`` the id the fake assigned when the command was synced, if it was."""
    data = payload.get("data") or {}
    if payload.get("type") not in (APPLICATION_COMMAND, AUTOCOMPLETE) or "name" not in data:
        return
    scope = int(data["guild_id"]) if data.get("guild_id") else None
    for command in fake.commands.get(scope, []):
        if command["name"] == data["name"] and command.get("type", 1) == data.get("type", 1):
            data["id"] = command["id"]
            return


def _adopt_message(fake: FakeDiscord, message: Payload) -> None:
    """A component click carries the message as Discord has it now: use the fake's current state."""
    current = fake.messages.get(int(message["id"]))
    if current is not None:
        message.clear()
        message.update(copy.deepcopy(current))


def _describe(payload: Mapping[str, Any]) -> str:
    data = payload.get("data") or {}
    if payload.get("type") in (APPLICATION_COMMAND, AUTOCOMPLETE):
        return f"/{data.get('name')} ({payload.get('id')})"
    return f"{data.get('custom_id')!r} ({payload.get('id')})"
