"""One fake Discord for the tests: one REST model, two doors, one payload builder.

In process (the command tests: discord.py's real dispatch, only the HTTP transport faked)::

    fake = await fakediscord.connect(bot, guilds=[fakediscord.guild_payload(GUILD, owner_id=GM)])
    reply = await fakediscord.dispatch(fake, bot, fakediscord.slash("wound", {"severity": "light"}))
    assert reply.embeds[0]["title"] == "..."
    fakediscord.assert_valid(fake.requests)  # every body against Discord's OpenAPI spec
    await fakediscord.close(bot)

Over HTTP + gateway (a bot in its own process)::

    async with fakediscord.DiscordStandin(guilds=[...]) as standin:
        ...  # start the bot with standin.bot_env(); await standin.wait_ready()
        exchange = await standin.interaction(fakediscord.slash("ping"))

Both doors hand every request to ``FakeDiscord`` (``rest.py``): the recorded requests, the faults
(``fail``/``hang``), interactions and their messages, the synced commands. See README.md.
"""

from .checks import assert_all_valid, assert_never_pings, check_requests, sent_messages
from .dispatch import Reply, SentMessage, build_reply, conform, dispatch, message_text, undeliverable_reason
from .inprocess import HarnessError, close, connect, fake_of, running
from .openapi import OpenAPIValidator, Violation, assert_valid, discord_openapi, validator, violations
from .payloads import (
    ADMINISTRATOR_PERMISSIONS,
    DEFAULT_APP_ID,
    DEFAULT_APP_PERMISSIONS,
    DEFAULT_CHANNEL_ID,
    DEFAULT_GUILD_ID,
    DEFAULT_MEMBER_PERMISSIONS,
    DEFAULT_OWNER_ID,
    DEFAULT_USER_ID,
    MANAGER_PERMISSIONS,
    AttachmentArg,
    ChannelArg,
    Opt,
    RoleArg,
    UserArg,
    attachment,
    autocomplete,
    channel,
    component,
    guild_payload,
    member_payload,
    modal_submit,
    role,
    role_payload,
    slash,
    snowflake,
    text_channel_payload,
    user,
    user_payload,
)
from .rest import (
    EPHEMERAL,
    ROUTE_CALLBACK,
    ROUTE_GLOBAL_COMMANDS,
    ROUTE_GUILD_COMMANDS,
    ROUTE_ORIGINAL,
    ROUTE_WEBHOOK,
    ROUTE_WEBHOOK_MESSAGE,
    FakeDiscord,
    Fault,
    Interaction,
    RecordedFile,
    RecordedRequest,
)
from .server import DiscordStandin

__all__ = [
    "ADMINISTRATOR_PERMISSIONS",
    "DEFAULT_APP_ID",
    "DEFAULT_APP_PERMISSIONS",
    "DEFAULT_CHANNEL_ID",
    "DEFAULT_GUILD_ID",
    "DEFAULT_MEMBER_PERMISSIONS",
    "DEFAULT_OWNER_ID",
    "DEFAULT_USER_ID",
    "EPHEMERAL",
    "MANAGER_PERMISSIONS",
    "ROUTE_CALLBACK",
    "ROUTE_GLOBAL_COMMANDS",
    "ROUTE_GUILD_COMMANDS",
    "ROUTE_ORIGINAL",
    "ROUTE_WEBHOOK",
    "ROUTE_WEBHOOK_MESSAGE",
    "AttachmentArg",
    "ChannelArg",
    "DiscordStandin",
    "FakeDiscord",
    "Fault",
    "HarnessError",
    "Interaction",
    "OpenAPIValidator",
    "Opt",
    "RecordedFile",
    "RecordedRequest",
    "Reply",
    "RoleArg",
    "SentMessage",
    "UserArg",
    "Violation",
    "assert_all_valid",
    "assert_never_pings",
    "assert_valid",
    "attachment",
    "autocomplete",
    "build_reply",
    "channel",
    "check_requests",
    "close",
    "component",
    "conform",
    "connect",
    "discord_openapi",
    "dispatch",
    "fake_of",
    "guild_payload",
    "member_payload",
    "message_text",
    "modal_submit",
    "role",
    "role_payload",
    "running",
    "sent_messages",
    "slash",
    "snowflake",
    "text_channel_payload",
    "undeliverable_reason",
    "user",
    "user_payload",
    "validator",
    "violations",
]
