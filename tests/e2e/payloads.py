"""Minimal Discord payload builders for the end-to-end stand-in (plain JSON, snowflakes as strings).

Self-contained on purpose: the stand-in runs in the test process and the bot in another, so nothing here
touches discord.py objects. The shapes follow Discord's documented payloads closely enough for discord.py's
own parsers (READY, GUILD_CREATE, INTERACTION_CREATE, messages).
"""

from __future__ import annotations

import datetime
import itertools
import secrets
import threading
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

Payload = dict[str, Any]

DISCORD_EPOCH_MS = 1420070400000

# The same ids as tests/harness/payloads.py, so that harness builders and these mix freely.
APP_ID = 1100000000000000001  # the application; the bot user has the same id, as on Discord
GUILD_ID = 1100000000000000100
CHANNEL_ID = 1100000000000000200
USER_ID = 1100000000000000300
OWNER_ID = 1100000000000000400
BOT_NAME = "standin-bot"

#: Discord's defaults for @everyone in a new server (view channel, send messages, embed links, attach
#: files, read history, use application commands, connect, speak...).
EVERYONE_PERMISSIONS = 0xF9_8637_CE41
#: What the bot may do in the interaction's channel (``app_permissions``).
APP_PERMISSIONS = EVERYONE_PERMISSIONS | 0x2000  # + manage messages

#: Interaction types.
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
#: Application command option types.
OPTION_TYPES = {
    "subcommand": 1,
    "group": 2,
    "string": 3,
    "integer": 4,
    "boolean": 5,
    "user": 6,
    "channel": 7,
    "role": 8,
    "mentionable": 9,
    "number": 10,
    "attachment": 11,
}

_counter = itertools.count(1)
_lock = threading.Lock()


def snowflake(when: datetime.datetime | None = None) -> int:
    """A fresh, unique snowflake whose timestamp is ``when`` (default: now)."""
    moment = when or datetime.datetime.now(datetime.UTC)
    ms = int(moment.timestamp() * 1000) - DISCORD_EPOCH_MS
    with _lock:
        n = next(_counter)
    return (ms << 22) | (n & 0x3FFFFF)


def now_iso() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat()


def interaction_token() -> str:
    """Interaction tokens are long opaque strings; the prefix makes them easy to spot in logs."""
    return "aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48)


def user(user_id: int = USER_ID, *, username: str | None = None, bot: bool = False) -> Payload:
    data: Payload = {
        "id": str(user_id),
        "username": username or f"user{user_id % 100000}",
        "discriminator": "0",
        "global_name": None,
        "avatar": None,
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


def bot_user(app_id: int = APP_ID, name: str = BOT_NAME) -> Payload:
    """The bot's own user as GET /users/@me and READY give it."""
    data = user(app_id, username=name, bot=True)
    data.update({"verified": True, "mfa_enabled": False, "email": None, "locale": "en-US"})
    return data


def member(
    user_data: Payload | int = USER_ID,
    *,
    roles: Iterable[int] = (),
    nick: str | None = None,
    permissions: int | None = None,
) -> Payload:
    """A guild member; ``permissions`` (total, in the channel) only appears inside interactions."""
    data: Payload = {
        "user": user_data if isinstance(user_data, dict) else user(user_data),
        "roles": [str(r) for r in roles],
        "nick": nick,
        "avatar": None,
        "banner": None,
        "joined_at": "2024-01-01T00:00:00+00:00",
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


def role(role_id: int, name: str, *, permissions: int = 0, position: int = 1) -> Payload:
    return {
        "id": str(role_id),
        "name": name,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "position": position,
        "permissions": str(permissions),
        "managed": False,
        "mentionable": False,
        "flags": 0,
    }


def text_channel(channel_id: int = CHANNEL_ID, *, guild_id: int = GUILD_ID, name: str = "general") -> Payload:
    return {
        "id": str(channel_id),
        "type": 0,
        "guild_id": str(guild_id),
        "name": name,
        "position": 0,
        "permission_overwrites": [],
        "nsfw": False,
        "parent_id": None,
        "topic": None,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "flags": 0,
    }


def guild(
    guild_id: int = GUILD_ID,
    *,
    name: str | None = None,
    owner_id: int = OWNER_ID,
    preferred_locale: str = "en-US",
    roles: Sequence[Payload] = (),
    channels: Sequence[Payload] | None = None,
    members: Sequence[Payload] = (),
    member_count: int | None = None,
    everyone_permissions: int = EVERYONE_PERMISSIONS,
) -> Payload:
    """A GUILD_CREATE payload. @everyone (id == guild id) is added unless ``roles`` has it.

    The stand-in adds the bot's own member when it sends the guild (as Discord does even without the
    members intent), so ``members`` is normally empty.
    """
    role_list = [dict(r) for r in roles]
    if not any(int(r["id"]) == guild_id for r in role_list):
        role_list.insert(0, role(guild_id, "@everyone", permissions=everyone_permissions, position=0))
    channel_list = [dict(c) for c in channels] if channels is not None else [text_channel(guild_id=guild_id)]
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
        "application_id": None,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "safety_alerts_channel_id": None,
        "vanity_url_code": None,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": preferred_locale,
        "nsfw_level": 0,
        "premium_progress_bar_enabled": False,
        "max_members": 500000,
        "max_video_channel_users": 25,
        "large": False,
        "unavailable": False,
        "lazy": True,
        "joined_at": "2024-01-01T00:00:00+00:00",
        "member_count": member_count if member_count is not None else len(member_list),
        "members": member_list,
        "channels": channel_list,
        "threads": [],
        "voice_states": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
        "incidents_data": None,
    }


def option(name: str, value: Any, kind: str | int | None = None, *, focused: bool = False) -> Payload:
    """One slash-command option value. ``kind`` defaults from the Python type of ``value``."""
    if kind is None:
        kind = (
            "boolean"
            if isinstance(value, bool)
            else "integer"
            if isinstance(value, int)
            else "number"
            if isinstance(value, float)
            else "string"
        )
    data: Payload = {
        "name": name,
        "type": OPTION_TYPES[kind] if isinstance(kind, str) else kind,
        "value": str(value) if kind in ("user", "channel", "role", "mentionable", "attachment") else value,
    }
    if focused:
        data["focused"] = True
    return data


def slash_command(
    name: str,
    options: Mapping[str, Any] | Sequence[Payload] = (),
    *,
    guild_id: int | None = GUILD_ID,
    channel: Payload | None = None,
    invoker: Payload | None = None,
    permissions: int = EVERYONE_PERMISSIONS,
    app_permissions: int = APP_PERMISSIONS,
    locale: str = "en-US",
    guild_locale: str = "en-US",
    command_id: int | None = None,
    command_guild_id: int | None = None,
    app_id: int = APP_ID,
    interaction_type: int = APPLICATION_COMMAND,
) -> Payload:
    """An INTERACTION_CREATE payload for ``/name`` invoked in a guild text channel.

    ``options`` is either ``{"name": value}`` or a list of ``option(...)`` dicts (use the list for
    subcommands). ``command_id`` / ``command_guild_id`` may be left out: the stand-in fills them in from the
    commands the bot synced (``data.guild_id`` is what makes discord.py look the command up among guild
    commands). ``interaction_type=AUTOCOMPLETE`` with one ``focused`` option gives an autocomplete request.
    """
    option_list: list[Payload] = (
        [option(k, v) for k, v in options.items()]
        if isinstance(options, Mapping)
        else [dict(o) for o in options]
    )
    interaction_id = snowflake()
    invoker_member = invoker if invoker is not None else member(USER_ID)
    invoker_member = dict(invoker_member)
    invoker_member.setdefault("permissions", str(permissions))
    data: Payload = {"name": name, "type": 1}
    if command_id is not None:
        data["id"] = str(command_id)
    if command_guild_id is not None:
        data["guild_id"] = str(command_guild_id)
    if option_list:
        data["options"] = option_list
    payload: Payload = {
        "id": str(interaction_id),
        "application_id": str(app_id),
        "type": interaction_type,
        "token": interaction_token(),
        "version": 1,
        "data": data,
        "locale": locale,
        "app_permissions": str(app_permissions),
        "entitlements": [],
        "attachment_size_limit": 10 * 1024 * 1024,
    }
    if guild_id is not None:
        chan = dict(channel) if channel is not None else text_channel(guild_id=guild_id)
        chan.setdefault("permissions", str(permissions))
        payload.update(
            guild_id=str(guild_id),
            guild={"id": str(guild_id), "locale": guild_locale, "features": []},
            guild_locale=guild_locale,
            channel_id=chan["id"],
            channel=chan,
            member=invoker_member,
            authorizing_integration_owners={"0": str(guild_id)},
            context=0,
        )
    else:
        dm_user = invoker_member["user"]
        chan = dict(channel) if channel is not None else {"id": str(snowflake()), "type": 1, "flags": 0}
        chan.setdefault("recipients", [dm_user])
        payload.update(
            channel_id=chan["id"],
            channel=chan,
            user=dm_user,
            authorizing_integration_owners={"0": str(app_id)},
            context=1,
        )
    return payload


def message(
    body: Mapping[str, Any],
    *,
    message_id: int,
    channel_id: int | str | None,
    author: Payload,
    app_id: int,
    message_type: int = 0,
    attachments: Sequence[Payload] = (),
    interaction: Payload | None = None,
) -> Payload:
    """The message Discord would create from a message body the bot sent (a callback's or webhook's).

    Only fields Discord's OpenAPI spec declares (the stand-in's answers pass its strict validation)."""
    data: Payload = {
        "id": str(message_id),
        "type": message_type,
        "channel_id": str(channel_id) if channel_id is not None else str(snowflake()),
        "author": author,
        "content": body.get("content") or "",
        "timestamp": now_iso(),
        "edited_timestamp": None,
        "tts": bool(body.get("tts", False)),
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": list(attachments),
        "embeds": [normalise_embed(e) for e in body.get("embeds") or []],
        "components": components_as_discord_returns(body.get("components") or []),
        "pinned": False,
        "flags": int(body.get("flags") or 0),
        "webhook_id": str(app_id),
        "application_id": str(app_id),
        "position": 0,
    }
    if interaction is not None:
        data["interaction_metadata"] = {
            "id": interaction["id"],
            "type": interaction["type"],
            "user": _invoker(interaction),
            "authorizing_integration_owners": interaction.get("authorizing_integration_owners", {}),
        }
    return data


def normalise_embed(embed: Mapping[str, Any]) -> Payload:
    out = dict(embed)
    out.setdefault("type", "rich")
    return out


def _invoker(interaction: Mapping[str, Any]) -> Payload:
    if "member" in interaction:
        found: Payload = interaction["member"]["user"]
        return found
    found = interaction.get("user") or user()
    return found


def components_as_discord_returns(components: list[Any]) -> list[Any]:
    """Components as Discord shows them back: every one numbered (``id``, depth first, from 1) and a
    unicode emoji without an ``id``."""
    counter = iter(range(1, 1000))

    def walk(items: list[Any]) -> list[Any]:
        out = []
        for item in items:
            item = dict(item)
            if item.get("id") is None:
                item["id"] = next(counter)
            emoji = item.get("emoji")
            if isinstance(emoji, dict) and emoji.get("id") is None:
                item["emoji"] = {k: v for k, v in emoji.items() if k != "id"}
            if isinstance(item.get("components"), list):
                item["components"] = walk(item["components"])
            out.append(item)
        return out

    return walk(list(components))
