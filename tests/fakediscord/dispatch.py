"""``dispatch``: deliver one INTERACTION_CREATE to an in-process client and collect what it answered.

The payload goes to ``ConnectionState.parse_interaction_create`` - what the gateway reader does - so
discord.py builds the ``Interaction`` and the CommandTree / view store route it (checks, transformers,
autocomplete, error handlers). ``dispatch`` waits for the tasks that call started and summarises the
interaction as the REST model holds it (``Reply``). Before that, ``conform`` makes the payload what
Discord would send for the client's commands, and refuses what it would never send.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands

from .inprocess import (
    FakeSession,
    HarnessError,
    new_dispatch_id,
    pop_logs,
    record_exceptions,
    start_in_context,
    wait_tasks,
)
from .payloads import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    DEFAULT_MEMBER_PERMISSIONS,
    Payload,
    clone,
    member_payload,
    resolved_channel,
    role_payload,
    stripped_member,
    user_payload,
)
from .rest import EPHEMERAL, FakeDiscord, Interaction, RecordedFile, RecordedRequest

_NUMBER, _INTEGER, _STRING = 10, 4, 3
_USER, _CHANNEL, _ROLE, _MENTIONABLE, _ATTACHMENT = 6, 7, 8, 9, 11
ADMINISTRATOR = discord.Permissions(administrator=True).value

AnyCommand = app_commands.Command[Any, ..., Any] | app_commands.Group | app_commands.ContextMenu


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
            body = request.json if isinstance(request.json, dict) else {}
            if request.path.endswith("/callback"):
                body = body.get("data") or {}
            if isinstance(body, dict) and body.get("allowed_mentions") is not None:
                found = body["allowed_mentions"]
        return found

    @property
    def text(self) -> str:
        """Content and every embed's visible text, one piece per line (handy for wording assertions)."""
        return message_text(self.message)


def message_text(message: Mapping[str, Any]) -> str:
    """A message's content and every embed's visible text, one piece per line."""
    embeds = message.get("embeds") or []
    return "\n".join([str(message.get("content") or ""), *(_embed_text(e) for e in embeds)]).strip()


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
    response message in its final state (after any edit; for ``edit_message`` on a component, the updated
    message). ``followups`` lists the follow-up messages (the first after a deferred response replaces
    the "thinking" message, as on Discord, so it is also the original). ``errors``: exceptions discord.py
    caught and logged (``app_commands.CommandInvokeError``...) plus those of the tasks; ``logs``: every
    WARNING+ record emitted meanwhile. ``delivered`` is False when Discord would not have sent the
    interaction at all (``default_member_permissions``, a guild-only command in DMs); nothing ran then.
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
    #: Names of the tasks discord.py started ("CommandTree-invoker", "discord-ui-view-dispatch-...");
    #: empty for a component nobody listens to (discord.py drops those silently).
    tasks: list[str] = field(default_factory=list)

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
        return list((self.callback or {}).get("choices") or []) if self.callback_type == 8 else None

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
            raise HarnessError(
                f"the interaction failed: {getattr(error, 'original', None) or error!r}"
            ) from error

    def __repr__(self) -> str:
        return (
            f"<Reply callback={self.callback_type} content={self.content!r} embeds={len(self.embeds)} "
            f"ephemeral={self.ephemeral} followups={len(self.followups)} errors={self.errors!r}>"
        )


def build_reply(
    fake: FakeDiscord,
    interaction: Interaction,
    *,
    errors: Sequence[BaseException] = (),
    logs: Sequence[logging.LogRecord] = (),
    tasks: Sequence[str] = (),
) -> Reply:
    """Summarise what the fake knows about ``interaction`` now (``dispatch`` calls it when all ran)."""

    def sent(message_id: int) -> SentMessage | None:
        message = fake.messages.get(message_id)
        if message is None:
            return None
        touching = [r for r in interaction.requests if r.ok and r.message_id == message_id]
        deleted = message_id == interaction.original_id and interaction.original_deleted
        return SentMessage(message_id, clone(message), touching, deleted)

    dispatch_id = interaction.dispatch_id
    mine = set(map(id, interaction.requests))
    others = [
        r
        for r in fake.requests
        if dispatch_id is not None and r.dispatch_id == dispatch_id and id(r) not in mine
    ]
    return Reply(
        interaction_id=interaction.id,
        token=interaction.token,
        payload=interaction.payload,
        dispatch_id=dispatch_id,
        requests=list(interaction.requests),
        other_requests=others,
        callback_type=interaction.callback_type,
        callback=clone(interaction.callback_data),
        original=sent(interaction.original_id) if interaction.original_id is not None else None,
        followups=[m for m in map(sent, interaction.followup_ids) if m is not None],
        errors=list(errors),
        logs=list(logs),
        tasks=list(tasks),
    )


# --------------------------------------------------------------------------------------------------
# dispatch
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

    The payload is copied, ``conform``-ed to the client's tree and completed by the fake (the client's
    application id, synced command ids). Raises ``HarnessError`` when the handling tasks still run after
    ``max_wait`` seconds. With ``discord_checks`` an interaction Discord would not deliver returns
    ``Reply(delivered=False)``. Safe to run many at once: requests are told apart by interaction token.
    """
    if not client.is_ready() or client.is_closed():
        raise HarnessError("the client is not connected: await connect(client) first")
    session = getattr(client.http, "_HTTPClient__session", None)
    if not isinstance(session, FakeSession) or session.fake is not fake:
        raise HarnessError("this client does not talk to that FakeDiscord (use the one connect() returned)")
    data = clone(dict(payload))
    conform(client, data, discord_checks=discord_checks)
    fake.complete_interaction(data)
    if discord_checks:
        reason = undeliverable_reason(client, data)
        if reason is not None:
            return Reply(
                int(data["id"]), str(data["token"]), data, delivered=False, undelivered_reason=reason
            )
    dispatch_id = new_dispatch_id()
    interaction = fake.register_interaction(data, dispatch_id=dispatch_id)
    state = client._connection
    try:
        tasks = start_in_context(dispatch_id, lambda: state.parse_interaction_create(interaction.payload))  # type: ignore[arg-type]
        inner = data.get("data") or {}
        what = f"interaction {inner.get('name') or inner.get('custom_id')!r}"
        task_errors = await wait_tasks(tasks, max_wait, what)
    finally:
        logs = pop_logs(dispatch_id)
    errors = record_exceptions(logs) + task_errors
    return build_reply(fake, interaction, errors=errors, logs=logs, tasks=sorted(t.get_name() for t in tasks))


# --------------------------------------------------------------------------------------------------
# Making the payload what Discord would send for the client's commands
# --------------------------------------------------------------------------------------------------


def find_command(client: discord.Client, payload: Mapping[str, Any]) -> AnyCommand | None:
    """The root command of the client's tree that an application command payload designates."""
    tree = client._connection._command_tree
    data = payload.get("data") or {}
    if tree is None or "name" not in data:
        return None
    scope = discord.Object(int(data["guild_id"])) if data.get("guild_id") else None
    return tree.get_command(data["name"], guild=scope, type=discord.AppCommandType(int(data.get("type", 1))))


def conform(client: discord.Client, payload: Payload, *, discord_checks: bool = True) -> None:
    """Adjust an application command / autocomplete payload in place to what Discord would send.

    Sets ``data.guild_id`` when the tree has the command for the interaction's guild, gives each option
    the type the command declares (NUMBER values become floats, ids strings, missing ``resolved`` entries
    are filled in), and - with ``discord_checks`` - raises ``HarnessError`` for what Discord's client
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
        and tree.get_command(data["name"], guild=discord.Object(int(guild_id)), type=kind)
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
        child = current.get_command(sub["name"]) if sub is not None else None
        if sub is None or child is None:
            known = sorted(c.name for c in current.commands)
            missing = "name a subcommand" if sub is None else f"has no subcommand {sub['name']!r}"
            raise HarnessError(f"/{' '.join(path)} is a group: {missing} ({known})")
        sub["type"] = 2 if isinstance(child, app_commands.Group) else 1
        path.append(child.name)
        current, container = child, sub
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
    for option in options:
        param = params.get(option["name"]) or by_python_name.get(option["name"])
        if param is None:
            if discord_checks:
                raise HarnessError(f"/{path} has no option {option['name']!r} (options: {sorted(params)})")
            continue
        option["name"], option["type"] = param.display_name, param.type.value
        if option.get("focused"):
            option["value"] = str(option.get("value", ""))
            continue
        option["value"] = _coerce(option.get("value"), param.type.value, payload, client)
        if discord_checks:
            _check_value(param, option["value"], path)
    if discord_checks and payload["type"] == APPLICATION_COMMAND:
        given = {o["name"] for o in options}
        missing = [p.display_name for p in command.parameters if p.required and p.display_name not in given]
        if missing:
            raise HarnessError(f"/{path}: Discord would not send it without the required options {missing}")


def _coerce(value: Any, option_type: int, payload: Payload, client: discord.Client) -> Any:
    if option_type == _NUMBER and isinstance(value, int | str) and not isinstance(value, bool):
        return float(value)
    if option_type == _INTEGER and isinstance(value, str) and value.lstrip("-").isdigit():
        return int(value)
    if option_type == _STRING and not isinstance(value, str):
        return str(value)
    if option_type in (_USER, _MENTIONABLE, _ROLE, _CHANNEL, _ATTACHMENT):
        value = str(value)
        resolved = payload["data"].setdefault("resolved", {})
        if not any(value in resolved.get(k, {}) for k in ("users", "roles", "channels", "attachments")):
            _fill_resolved(client, payload, resolved, option_type, int(value))
    return value


def _fill_resolved(
    client: discord.Client, payload: Payload, resolved: Payload, option_type: int, object_id: int
) -> None:
    """Discord sends the objects an id option designates: built from the client's cache when it has them
    (so names, roles, permissions are the real ones), else minimal stand-ins."""
    guild_id = payload.get("guild_id")
    guild = client.get_guild(int(guild_id)) if guild_id else None
    key = str(object_id)
    role = guild.get_role(object_id) if guild is not None else None
    if option_type == _ROLE or (option_type == _MENTIONABLE and role is not None):
        data = role_payload(object_id, "role")
        if role is not None:
            data = role_payload(
                role.id, role.name, permissions=role.permissions.value, position=role.position
            )
            data["color"] = role.colour.value
        resolved.setdefault("roles", {})[key] = data
    elif option_type in (_USER, _MENTIONABLE):
        member = guild.get_member(object_id) if guild is not None else None
        cached = member or client.get_user(object_id)
        user_data = user_payload(object_id)
        if cached is not None:
            user_data = user_payload(
                object_id, username=cached.name, global_name=cached.global_name, bot=cached.bot
            )
        resolved.setdefault("users", {})[key] = user_data
        if guild_id:
            roles = [r.id for r in member.roles if not r.is_default()] if member is not None else []
            nick = member.nick if member is not None else None
            data = member_payload(user_data, roles=roles, nick=nick, permissions=DEFAULT_MEMBER_PERMISSIONS)
            resolved.setdefault("members", {})[key] = stripped_member(data)
    elif option_type == _CHANNEL:
        found = guild.get_channel_or_thread(object_id) if guild is not None else None
        name, channel_type = getattr(found, "name", "channel"), found.type.value if found is not None else 0
        resolved.setdefault("channels", {})[key] = resolved_channel(
            object_id, name, channel_type, DEFAULT_MEMBER_PERMISSIONS, guild_id
        )
    else:
        raise HarnessError("ATTACHMENT options need attachment(...) values")


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

    Models ``default_member_permissions`` (administrators and the guild owner bypass it) and the contexts
    / ``dm_permission`` a command allows. Per-guild permission overrides are not modelled.
    """
    tree = client._connection._command_tree
    if payload.get("type") not in (APPLICATION_COMMAND, AUTOCOMPLETE) or tree is None:
        return None
    command = find_command(client, payload)
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
    required, perms = int(required), int(member.get("permissions") or 0)
    home = client.get_guild(int(payload["guild_id"])) if payload.get("guild_id") else None
    is_owner = home is not None and home.owner_id == int(member["user"]["id"])
    if perms & ADMINISTRATOR or is_owner or (required != 0 and perms & required == required):
        return None
    names = [name for name, value in discord.Permissions(required & ~perms) if value]
    return f"/{command.name} needs default_member_permissions {names or ['(administrators only)']}"
