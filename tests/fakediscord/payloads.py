"""The one payload builder: Discord objects and INTERACTION_CREATE payloads, as plain JSON-like dicts.

Snowflakes are strings, shapes are Discord's own, so everything goes through discord.py's real parsers
(in-process) or over the wire to a bot process (the server door) unchanged.
"""

from __future__ import annotations

import datetime
import itertools
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import discord

Payload = dict[str, Any]

DISCORD_EPOCH_MS = 1420070400000
CDN_BASE = "https://cdn.discordapp.com"

#: The fake application's id; as for real bots, the bot user has the same id.
DEFAULT_APP_ID = 1100000000000000001
DEFAULT_GUILD_ID = 1100000000000000100
DEFAULT_CHANNEL_ID = 1100000000000000200
DEFAULT_USER_ID = 1100000000000000300
DEFAULT_OWNER_ID = 1100000000000000400
DEFAULT_BOT_NAME = "fake-bot"

#: Interaction types.
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5

#: What the @everyone role of a fresh guild allows (Discord's defaults for a new server).
DEFAULT_MEMBER_PERMISSIONS: int = discord.Permissions(
    create_instant_invite=True,
    change_nickname=True,
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    create_private_threads=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    use_external_emojis=True,
    use_external_stickers=True,
    mention_everyone=True,
    read_message_history=True,
    use_application_commands=True,
    connect=True,
    speak=True,
    stream=True,
    use_voice_activation=True,
    use_embedded_activities=True,
    request_to_speak=True,
).value

#: Permissions of a typical server manager / game master (no administrator bit).
MANAGER_PERMISSIONS: int = DEFAULT_MEMBER_PERMISSIONS | discord.Permissions(manage_guild=True).value
ADMINISTRATOR_PERMISSIONS: int = discord.Permissions.all().value

#: What the bot itself may do in the channel of an interaction (``app_permissions``).
DEFAULT_APP_PERMISSIONS: int = DEFAULT_MEMBER_PERMISSIONS | discord.Permissions(manage_messages=True).value

#: Attachment bytes by URL: what ``attachment()`` options and files the bot sent hold. The in-process
#: door serves them to ``discord.Attachment.read()``; URLs carry fresh snowflakes, so they never clash.
CDN: dict[str, bytes] = {}

_counter = itertools.count(1)
_counter_lock = threading.Lock()


_T = TypeVar("_T")


def clone(value: _T) -> _T:
    """A deep copy of JSON-shaped data (dicts, lists, tuples, scalars): what ``copy.deepcopy`` does for
    it, several times faster (no memo), since the fake copies every payload and message it keeps."""
    if isinstance(value, Mapping):
        copied: Any = {key: clone(item) for key, item in value.items()}
    elif isinstance(value, list):
        copied = [clone(item) for item in value]
    elif isinstance(value, tuple):
        copied = tuple(clone(item) for item in value)
    else:
        copied = value
    return copied  # type: ignore[no-any-return]


def snowflake(when: datetime.datetime | None = None) -> int:
    """A fresh, unique, valid snowflake (its timestamp is ``when`` or now)."""
    moment = when or datetime.datetime.now(datetime.UTC)
    ms = int(moment.timestamp() * 1000) - DISCORD_EPOCH_MS
    with _counter_lock:
        n = next(_counter)
    return (ms << 22) | (n & 0x3FFFFF)


def iso(moment: datetime.datetime | None = None) -> str:
    return (moment or datetime.datetime.now(datetime.UTC)).isoformat()


def snowflake_iso(snowflake_id: int) -> str:
    return discord.utils.snowflake_time(snowflake_id).isoformat()


# --------------------------------------------------------------------------------------------------
# Objects
# --------------------------------------------------------------------------------------------------


def user_payload(
    user_id: int,
    *,
    username: str | None = None,
    global_name: str | None = None,
    bot: bool = False,
    avatar: str | None = None,
) -> Payload:
    data: Payload = {
        "id": str(user_id),
        "username": username or f"user{user_id % 100000}",
        "discriminator": "0",
        "global_name": global_name,
        "avatar": avatar,
        "public_flags": 0,
        "flags": 0,
        "banner": None,
        "accent_color": None,
        "avatar_decoration_data": None,
        "collectibles": None,
        "primary_guild": None,
    }
    if bot:
        data["bot"] = True
    return data


def member_payload(
    user: Payload | int,
    *,
    roles: Iterable[int] = (),
    nick: str | None = None,
    permissions: int | None = None,
    joined_at: str | None = None,
) -> Payload:
    """A guild member object (with its ``user``). ``permissions`` is only set inside interactions."""
    user_data = user if isinstance(user, dict) else user_payload(user)
    data: Payload = {
        "user": user_data,
        "roles": [str(r) for r in roles],
        "nick": nick,
        "avatar": None,
        "banner": None,
        "joined_at": joined_at or "2024-01-01T00:00:00+00:00",
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,
        "communication_disabled_until": None,
    }
    if permissions is not None:
        data["permissions"] = str(permissions)
    return data


def role_payload(
    role_id: int,
    name: str,
    *,
    permissions: int = 0,
    position: int = 1,
    color: int = 0,
    managed: bool = False,
) -> Payload:
    return {
        "id": str(role_id),
        "name": name,
        "color": color,
        "colors": {"primary_color": color, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "position": position,
        "permissions": str(permissions),
        "managed": managed,
        "mentionable": True,
        "flags": 0,
    }


def text_channel_payload(
    channel_id: int = DEFAULT_CHANNEL_ID,
    *,
    guild_id: int | None = DEFAULT_GUILD_ID,
    name: str = "general",
    position: int = 0,
    permissions: int | None = None,
) -> Payload:
    data: Payload = {
        "id": str(channel_id),
        "type": 0,
        "name": name,
        "position": position,
        "permission_overwrites": [],
        "nsfw": False,
        "parent_id": None,
        "topic": None,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "flags": 0,
    }
    if guild_id is not None:
        data["guild_id"] = str(guild_id)
    if permissions is not None:
        data["permissions"] = str(permissions)
    return data


def guild_payload(
    guild_id: int = DEFAULT_GUILD_ID,
    *,
    name: str | None = None,
    owner_id: int = DEFAULT_OWNER_ID,
    roles: Sequence[Payload] = (),
    members: Sequence[Payload] = (),
    channels: Sequence[Payload] | None = None,
    preferred_locale: str = "en-US",
    everyone_permissions: int = DEFAULT_MEMBER_PERMISSIONS,
) -> Payload:
    """A complete GUILD_CREATE payload. The @everyone role (id == guild id) is added unless ``roles`` has
    it; both doors add the bot's own member when they deliver it (``FakeDiscord.guild_create``)."""
    role_list = [dict(r) for r in roles]
    if not any(int(r["id"]) == guild_id for r in role_list):
        role_list.insert(0, role_payload(guild_id, "@everyone", permissions=everyone_permissions, position=0))
    channel_list = (
        [dict(c) for c in channels]
        if channels is not None
        else [text_channel_payload(DEFAULT_CHANNEL_ID, guild_id=guild_id)]
    )
    for channel in channel_list:
        channel.setdefault("guild_id", str(guild_id))
    member_list = [dict(m) for m in members]
    return {
        "id": str(guild_id),
        "name": name or f"guild-{guild_id % 100000}",
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": str(owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": role_list,
        "emojis": [],
        "stickers": [],
        "features": [],
        "mfa_level": 0,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "vanity_url_code": None,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": preferred_locale,
        "nsfw_level": 0,
        "premium_progress_bar_enabled": False,
        "large": False,
        "unavailable": False,
        "member_count": len(member_list),
        "members": member_list,
        "channels": channel_list,
        "threads": [],
        "voice_states": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
        "joined_at": "2024-01-01T00:00:00+00:00",
    }


def as_guild_payload(spec: Mapping[str, Any] | int) -> Payload:
    """Accept a guild id, a ``guild_payload(...)`` result, or keyword-style dict (``{"id": ..., ...}``)."""
    if isinstance(spec, int):
        return guild_payload(spec)
    if "member_count" in spec and "roles" in spec and "channels" in spec:
        return dict(spec)
    kwargs = dict(spec)
    guild_id = int(kwargs.pop("id", DEFAULT_GUILD_ID))
    return guild_payload(guild_id, **kwargs)


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


def stripped_member(member: Payload) -> Payload:
    """A member as ``resolved.members`` holds it: without ``user``, ``deaf`` and ``mute``."""
    return {k: v for k, v in member.items() if k not in ("user", "deaf", "mute")}


def _resolve_value(
    value: Any, resolved: dict[str, dict[str, Payload]], guild_id: int | None, permissions: int
) -> tuple[int, Any]:
    if isinstance(value, Opt):
        return value.type, value.value
    for kind, option_type in ((bool, 5), (int, 4), (float, 10), (str, 3)):
        if isinstance(value, kind):
            return option_type, value
    key = str(getattr(value, "id", ""))
    if isinstance(value, UserArg):
        data = user_payload(value.id, username=value.username, global_name=value.global_name, bot=value.bot)
        resolved.setdefault("users", {})[key] = data
        if value.member and guild_id is not None:
            member = member_payload(data, roles=value.roles, nick=value.nick, permissions=permissions)
            resolved.setdefault("members", {})[key] = stripped_member(member)
        return 6, key
    if isinstance(value, RoleArg):
        resolved.setdefault("roles", {})[key] = role_payload(
            value.id, value.name, permissions=value.permissions
        )
        return 8, key
    if isinstance(value, ChannelArg):
        resolved.setdefault("channels", {})[key] = resolved_channel(
            value.id, value.name, value.type, permissions, guild_id
        )
        return 7, key
    if isinstance(value, AttachmentArg):
        url = f"{CDN_BASE}/ephemeral-attachments/{value.id}/{value.id}/{value.filename}"
        CDN[url] = value.data
        data = {
            "id": key,
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
        resolved.setdefault("attachments", {})[key] = data
        return 11, key
    raise TypeError(f"cannot infer the option type of {value!r}: use Opt(type, value)")


def resolved_channel(
    channel_id: int, name: str, channel_type: int, permissions: int, guild_id: int | str | None
) -> Payload:
    data: Payload = {
        "id": str(channel_id),
        "name": name,
        "type": channel_type,
        "permissions": str(permissions),
    }
    if guild_id is not None:
        data["guild_id"] = str(guild_id)
    return data


# --------------------------------------------------------------------------------------------------
# INTERACTION_CREATE payloads
# --------------------------------------------------------------------------------------------------


def _envelope(
    interaction_type: int,
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
) -> Payload:
    interaction_id = snowflake()
    invoker = user_payload(user_id, username=username, global_name=global_name)
    payload: Payload = {
        "id": str(interaction_id),
        "application_id": str(application_id),
        "type": interaction_type,
        "token": f"fake-token-{interaction_id}",
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
        payload["channel"] = {"id": str(channel_id), "type": 1, "flags": 0, "recipients": [invoker]}
        payload["user"] = invoker
        payload["authorizing_integration_owners"] = {"0": "0"}
        payload["context"] = 1
    return payload


def _options(
    options: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None,
    resolved: dict[str, dict[str, Payload]],
    payload: Payload,
    focused: str | None = None,
) -> list[Payload]:
    if options is None:
        return []
    if not isinstance(options, Mapping):
        return [clone(dict(o)) for o in options]
    guild_id = int(payload["guild_id"]) if payload.get("guild_id") else None
    permissions = int(payload.get("member", {}).get("permissions") or DEFAULT_MEMBER_PERMISSIONS)
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


def _command(
    kind: int,
    name: str,
    options: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None,
    focused: str | None,
    command_id: int | None,
    command_guild_id: int | None,
    context: dict[str, Any],
) -> Payload:
    payload = _envelope(kind, **context)
    resolved: dict[str, dict[str, Payload]] = {}
    path = name.split()
    if not 1 <= len(path) <= 3:
        raise ValueError(f"a command path has 1 to 3 words, not {name!r}")
    tree = _options(options, resolved, payload, focused)
    for depth, part in reversed(list(enumerate(path[1:], start=1))):
        tree = [{"name": part, "type": 1 if depth == len(path) - 1 else 2, "options": tree}]
    data: Payload = {"id": str(command_id or snowflake()), "name": path[0], "type": 1, "options": tree}
    if resolved:
        data["resolved"] = resolved
    if command_guild_id is not None:
        data["guild_id"] = str(command_guild_id)
    payload["data"] = data
    return payload


def slash(
    name: str,
    options: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None = None,
    *,
    command_id: int | None = None,
    command_guild_id: int | None = None,
    **context: Any,
) -> Payload:
    """An INTERACTION_CREATE payload for ``/name`` (``name`` may be a path: ``"character create"``).

    ``options``: ``{"name": value}`` with the type inferred (str, int, float, bool, ``user()``, ``role()``,
    ``channel()``, ``attachment()``, ``Opt(type, value)``), or a list of raw option dicts. Both doors then
    align the payload with the bot's commands as Discord would (``data.id``, ``data.guild_id``, option
    types). ``context``: who and where, for every builder here: ``guild_id`` (None: a DM),
    ``channel_id``, ``user_id``, ``username``, ``global_name``, ``nick``, ``permissions``, ``roles``,
    ``locale``, ``guild_locale``, ``app_permissions``, ``application_id``.
    """
    return _command(APPLICATION_COMMAND, name, options, None, command_id, command_guild_id, context)


def autocomplete(
    name: str,
    options: Mapping[str, Any] | None = None,
    *,
    focused: str,
    command_id: int | None = None,
    command_guild_id: int | None = None,
    **context: Any,
) -> Payload:
    """An APPLICATION_COMMAND_AUTOCOMPLETE payload: the user is typing ``options[focused]`` (a string)."""
    return _command(AUTOCOMPLETE, name, options or {}, focused, command_id, command_guild_id, context)


def _message_of(message: Any, custom_id: str, channel_id: int) -> Payload:
    """The message a component sits on: a ``Reply``/``SentMessage`` (``.message``), a dict, or None for a
    bot message holding just that button (enough for persistent views)."""
    if message is not None and not isinstance(message, Mapping):
        message = message.message
        if message is None:
            raise ValueError("that reply has no message to click on")
    if message is not None:
        return clone(dict(message))
    mid = snowflake()
    button = {"type": 2, "style": 1, "custom_id": custom_id, "label": "?"}
    return {
        "id": str(mid),
        "channel_id": str(channel_id),
        "type": 0,
        "content": "",
        "author": user_payload(DEFAULT_APP_ID, bot=True),
        "timestamp": snowflake_iso(mid),
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": [],
        "pinned": False,
        "flags": 0,
        "components": [{"type": 1, "components": [button]}],
    }


def component(
    custom_id: str,
    *,
    message: Any = None,
    component_type: int = 2,
    values: Sequence[str] | None = None,
    **context: Any,
) -> Payload:
    """A MESSAGE_COMPONENT payload: a click on ``custom_id`` (a button by default; ``values`` for selects).

    ``message`` is the message carrying the component: a ``Reply`` (its original response), a
    ``SentMessage`` (e.g. ``reply.followups[0]``) or a message dict; without it, a bot message holding just
    that button (fine for persistent views registered without a message id).
    """
    payload = _envelope(MESSAGE_COMPONENT, **context)
    msg = _message_of(message, custom_id, int(payload["channel_id"]))
    payload["message"] = msg
    payload["channel_id"] = msg.get("channel_id", payload["channel_id"])
    payload["channel"]["id"] = payload["channel_id"]
    data: Payload = {"custom_id": custom_id, "component_type": component_type}
    if values is not None:
        data["values"] = list(values)
    payload["data"] = data
    return payload


def modal_submit(
    custom_id: str, fields: Mapping[str, str], *, message: Any = None, **context: Any
) -> Payload:
    """A MODAL_SUBMIT payload: the modal ``custom_id`` submitted with text inputs ``{custom_id: value}``."""
    payload = _envelope(MODAL_SUBMIT, **context)
    payload["data"] = {
        "custom_id": custom_id,
        "components": [
            {"type": 1, "components": [{"type": 4, "custom_id": key, "value": value}]}
            for key, value in fields.items()
        ],
    }
    if message is not None:
        payload["message"] = _message_of(message, custom_id, int(payload["channel_id"]))
    return payload
