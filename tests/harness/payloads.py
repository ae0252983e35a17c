"""Discord object payloads (users, members, roles, channels, guilds) as the gateway/REST API sends them.

Everything here is plain JSON-like data (``dict[str, Any]``) shaped like Discord's own payloads, with
snowflakes as strings, so it goes through discord.py's real parsers unchanged.
"""

from __future__ import annotations

import datetime
import itertools
import threading
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import discord

Payload = dict[str, Any]

DISCORD_EPOCH_MS = 1420070400000

#: The fake application's id; as for real bots, the bot user has the same id.
DEFAULT_APP_ID = 1100000000000000001
DEFAULT_GUILD_ID = 1100000000000000100
DEFAULT_CHANNEL_ID = 1100000000000000200
DEFAULT_USER_ID = 1100000000000000300
DEFAULT_OWNER_ID = 1100000000000000400
DEFAULT_BOT_NAME = "harness-bot"

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

_counter = itertools.count(1)
_counter_lock = threading.Lock()


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
    channel_id: int,
    *,
    guild_id: int | None,
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


def dm_channel_payload(channel_id: int, recipient: Payload) -> Payload:
    return {"id": str(channel_id), "type": 1, "last_message_id": None, "flags": 0, "recipients": [recipient]}


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
    bot_user: Payload | None = None,
    bot_roles: Iterable[int] = (),
) -> Payload:
    """A complete GUILD_CREATE payload.

    The @everyone role (id == guild id) is added unless ``roles`` has it; the bot's own member is added when
    ``bot_user`` is given (``connect`` does that) and ``member_count`` matches the members, so discord.py
    considers the guild chunked and never asks the gateway for members.
    """
    role_list = [dict(r) for r in roles]
    if not any(int(r["id"]) == guild_id for r in role_list):
        role_list.insert(0, role_payload(guild_id, "@everyone", permissions=everyone_permissions, position=0))
    member_list = [dict(m) for m in members]
    if bot_user is not None and not any(m["user"]["id"] == bot_user["id"] for m in member_list):
        member_list.append(member_payload(bot_user, roles=bot_roles))
    channel_list = (
        [dict(c) for c in channels]
        if channels is not None
        else [text_channel_payload(DEFAULT_CHANNEL_ID, guild_id=guild_id)]
    )
    for channel in channel_list:
        channel.setdefault("guild_id", str(guild_id))
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
