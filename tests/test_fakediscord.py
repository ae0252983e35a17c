"""Proves the fake Discord's in-process door: real discord.py dispatch, only the HTTP transport faked."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import discord
import pytest
from discord import app_commands

from tests import fakediscord
from tests.fakediscord import RecordedRequest, openapi

GUILD = fakediscord.DEFAULT_GUILD_ID
OWNER = fakediscord.DEFAULT_OWNER_ID
PLAYER = fakediscord.DEFAULT_USER_ID
GM_ROLE = 1100000000000000500
OTHER_USER = 1100000000000000600


class Sheet(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=60)
        self.clicks: list[int] = []

    @discord.ui.button(label="Heal", custom_id="sheet:heal", style=discord.ButtonStyle.success)
    async def heal(self, interaction: discord.Interaction, button: discord.ui.Button[Sheet]) -> None:
        self.clicks.append(interaction.user.id)
        await interaction.response.edit_message(content=f"healed by {interaction.user.id}", view=self)

    @discord.ui.button(label="Rename", custom_id="sheet:rename")
    async def rename(self, interaction: discord.Interaction, button: discord.ui.Button[Sheet]) -> None:
        await interaction.response.send_modal(RenameModal())


class RenameModal(discord.ui.Modal, title="Rename"):
    name: discord.ui.TextInput[RenameModal] = discord.ui.TextInput(label="Name", custom_id="rename:name")

    def __init__(self) -> None:
        super().__init__(custom_id="rename-modal")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"renamed to {self.name.value}", ephemeral=True)


class HarnessBot(discord.Client):
    """A tiny bot exercising each response path the project's cogs use."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)
        self.setup_ran = False
        self.committed: list[int] = []
        self.count = 0
        self.sheet: Sheet | None = None
        self.panel_message: discord.InteractionMessage | None = None
        self._add_commands()

    async def setup_hook(self) -> None:
        self.setup_ran = True

    def _add_commands(self) -> None:
        tree = self.tree

        @tree.command(name="status", description="Show the status", guild=discord.Object(GUILD))
        @app_commands.guild_only()
        async def status(interaction: discord.Interaction) -> None:
            assert interaction.guild is not None
            embed = discord.Embed(title="Status", description=f"{interaction.user.id}", colour=0x3366FF)
            embed.add_field(name="guild", value=interaction.guild.name)
            embed.add_field(name="locale", value=str(interaction.guild_locale))
            embed.set_footer(text=f"owner {interaction.guild.owner_id}")
            await interaction.response.send_message(embed=embed)

        @tree.command(name="boom", description="Fails after answering")
        async def boom(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("about to fail", ephemeral=True)
            raise ValueError("kaboom")

        async def names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            pool = ["Aria", "Arthur", "Bors", "Gawain"]
            return [
                app_commands.Choice(name=n, value=n.lower())
                for n in pool
                if n.lower().startswith(current.lower())
            ]

        @tree.command(name="pick", description="Pick a character")
        @app_commands.autocomplete(name=names)
        async def pick(interaction: discord.Interaction, name: str, bonus: float = 0.0) -> None:
            await interaction.response.send_message(f"picked {name} {bonus!r}")

        @tree.command(name="panel", description="Show a sheet with buttons")
        async def panel(interaction: discord.Interaction) -> None:
            self.sheet = Sheet()
            await interaction.response.send_message("sheet", view=self.sheet)
            self.panel_message = await interaction.original_response()

        @tree.command(name="temp", description="Edits, follows up, deletes")
        async def temp(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("temp")
            await interaction.edit_original_response(content="edited", embed=discord.Embed(title="e"))
            note = await interaction.followup.send("note", wait=True)
            await note.edit(content="note (edited)")
            await interaction.delete_original_response()

        @tree.command(name="slow", description="Defers, then follows up")
        async def slow(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await asyncio.sleep(0)
            file = discord.File(io.BytesIO(b"wounds: 3"), filename="report.txt")
            await interaction.followup.send("done", file=file, ephemeral=True)
            await interaction.followup.send(embed=discord.Embed(title="extra"), wait=True)

        character = app_commands.Group(name="character", description="Characters")

        @character.command(name="create", description="Create a character")
        @app_commands.rename(level_="level")
        async def create(
            interaction: discord.Interaction,
            name: str,
            level_: app_commands.Range[int, 1, 10],
            player: discord.Member,
            sheet: discord.Attachment | None = None,
        ) -> None:
            size = len(await sheet.read()) if sheet is not None else 0
            await interaction.response.send_message(
                f"{name} L{level_} for <@{player.id}> ({player.display_name}) sheet={size}",
                allowed_mentions=discord.AllowedMentions(users=[player]),
            )

        tree.add_command(character)

        @tree.command(name="gm", description="Game master only")
        @app_commands.default_permissions(manage_guild=True)
        async def gm(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("gm ok")

        @tree.command(name="count", description="Counts")
        async def count(interaction: discord.Interaction) -> None:
            self.count += 1
            n = self.count
            await asyncio.sleep(0)
            await interaction.response.send_message(f"#{n} for {interaction.user.id}")

        @tree.command(name="commit", description="Commits, then answers")
        @app_commands.guild_only()
        async def commit(interaction: discord.Interaction) -> None:
            self.committed.append(interaction.user.id)
            await interaction.response.send_message("committed")

        @tree.command(name="tag", description="Role, channel and number options", guild=discord.Object(GUILD))
        async def tag(
            interaction: discord.Interaction, role: discord.Role, where: discord.TextChannel, amount: float
        ) -> None:
            await interaction.response.send_message(f"{role.name} {where.name} {amount}", ephemeral=True)

        @tree.command(name="long", description="Sends a body Discord would refuse")
        async def long(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("x" * 2001)


def the_guild() -> dict[str, object]:
    return fakediscord.guild_payload(
        GUILD,
        name="Harmonies",
        owner_id=OWNER,
        preferred_locale="fr",
        roles=[fakediscord.role_payload(GM_ROLE, "MJ", permissions=fakediscord.MANAGER_PERMISSIONS)],
        members=[
            fakediscord.member_payload(fakediscord.user_payload(OWNER, username="owner")),
            fakediscord.member_payload(fakediscord.user_payload(PLAYER, username="player"), roles=[GM_ROLE]),
        ],
    )


@pytest.fixture
async def bot() -> AsyncIterator[tuple[HarnessBot, fakediscord.FakeDiscord]]:
    client = HarnessBot()
    fake = await fakediscord.connect(client, guilds=[the_guild()])
    yield client, fake
    await fakediscord.close(client)


@pytest.fixture
def spec() -> openapi.OpenAPIValidator:
    return openapi.validator()


# ------------------------------------------------------------------------------------------ connect


async def test_connect_logs_in_runs_setup_hook_and_fills_the_guild_cache(
    bot: tuple[HarnessBot, fakediscord.FakeDiscord],
) -> None:
    client, fake = bot
    assert client.is_ready()
    assert client.setup_ran
    assert client.user is not None and client.user.id == fakediscord.DEFAULT_APP_ID
    assert client.application_id == fakediscord.DEFAULT_APP_ID
    assert [(r.method, r.path) for r in fake.requests[:2]] == [
        ("GET", "/users/@me"),
        ("GET", "/oauth2/applications/@me"),
    ]
    guild = client.get_guild(GUILD)
    assert guild is not None
    assert guild.name == "Harmonies"
    assert guild.owner_id == OWNER
    assert guild.preferred_locale is discord.Locale.french
    assert guild.get_role(GM_ROLE) is not None and guild.default_role.id == GUILD
    assert guild.me is not None and guild.me.id == fakediscord.DEFAULT_APP_ID
    assert guild.get_channel(fakediscord.DEFAULT_CHANNEL_ID) is not None


async def test_close_undoes_the_patches() -> None:
    import discord.http
    import discord.webhook.async_

    client = HarnessBot()
    await fakediscord.connect(client)
    assert getattr(discord.http, "asyncio") is not asyncio  # noqa: B009 - retries are instant meanwhile
    await fakediscord.close(client)
    assert client.is_closed()
    assert getattr(discord.http, "asyncio") is asyncio  # noqa: B009
    assert getattr(discord.webhook.async_, "asyncio") is asyncio  # noqa: B009
    assert getattr(discord.http, "aiohttp") is aiohttp  # noqa: B009


async def test_listener_errors_during_connect_fail_loudly() -> None:
    class Broken(HarnessBot):
        async def on_ready(self) -> None:
            raise RuntimeError("on_ready broke")

    client = Broken()
    with pytest.raises(fakediscord.HarnessError, match="on_ready broke"):
        await fakediscord.connect(client)
    await client.close()


async def test_a_commands_bot_connects_too() -> None:
    from discord.ext import commands

    class Bot(commands.Bot):
        async def setup_hook(self) -> None:
            @self.tree.command(name="ping", description="Ping")
            async def ping(interaction: discord.Interaction) -> None:
                await interaction.response.send_message("pong")

            await self.tree.sync()

    client = Bot(command_prefix="!", intents=discord.Intents.default(), application_id=4242)
    async with fakediscord.running(client) as fake:
        assert fake.application_id == 4242
        assert [c["name"] for c in fake.commands[None]] == ["ping"]
        reply = await fakediscord.dispatch(fake, client, fakediscord.slash("ping"))
        assert reply.content == "pong"


# ------------------------------------------------------------------------------------------ dispatch


async def test_guild_command_replies_with_an_embed(
    bot: tuple[HarnessBot, fakediscord.FakeDiscord], spec: openapi.OpenAPIValidator
) -> None:
    client, fake = bot
    reply = await fakediscord.dispatch(fake, client, fakediscord.slash("status", guild_locale="fr"))
    assert reply.errors == []
    assert reply.callback_type == 4
    assert reply.payload["data"]["guild_id"] == str(GUILD)  # a guild command, as Discord would say
    assert not reply.ephemeral
    assert reply.embed is not None
    assert reply.embed["title"] == "Status"
    assert reply.embed["description"] == str(PLAYER)
    assert reply.embed["color"] == 0x3366FF
    assert {"name": "guild", "value": "Harmonies", "inline": True} in reply.embed["fields"]
    assert "owner 1100000000000000400" in reply.text
    assert [(r.method, r.route) for r in reply.requests] == [
        ("POST", "/interactions/{interaction_id}/{interaction_token}/callback")
    ]
    assert spec.violations(fake.requests) == []
    assert spec.response_violations(fake.requests) == []  # the fake answers like Discord


async def test_an_ephemeral_answer_then_an_exception(bot: tuple[HarnessBot, fakediscord.FakeDiscord]) -> None:
    client, fake = bot
    reply = await fakediscord.dispatch(fake, client, fakediscord.slash("boom"))
    assert reply.content == "about to fail"
    assert reply.ephemeral and reply.flags & 64
    assert len(reply.errors) == 1
    error = reply.errors[0]
    assert isinstance(error, app_commands.CommandInvokeError)
    assert isinstance(error.original, ValueError)
    assert [r.getMessage() for r in reply.logs] == ["Ignoring exception in command 'boom'"]
    with pytest.raises(fakediscord.HarnessError, match="kaboom"):
        reply.raise_errors()
    fakediscord.assert_valid(reply.requests)


async def test_autocomplete_returns_choices(bot: tuple[HarnessBot, fakediscord.FakeDiscord]) -> None:
    client, fake = bot
    reply = await fakediscord.dispatch(
        fake, client, fakediscord.autocomplete("pick", {"name": "ar"}, focused="name")
    )
    assert reply.callback_type == 8
    assert reply.choices == [{"name": "Aria", "value": "aria"}, {"name": "Arthur", "value": "arthur"}]
    assert reply.content is None
    fakediscord.assert_valid(reply.requests)


async def test_option_types_follow_the_command(bot: tuple[HarnessBot, fakediscord.FakeDiscord]) -> None:
    client, fake = bot
    reply = await fakediscord.dispatch(fake, client, fakediscord.slash("pick", {"name": "bors", "bonus": 2}))
    assert reply.content == "picked bors 2.0"  # NUMBER option: Discord sends a float
    with pytest.raises(fakediscord.HarnessError, match="no option 'bonsu'"):
        await fakediscord.dispatch(fake, client, fakediscord.slash("pick", {"name": "bors", "bonsu": 2}))
    with pytest.raises(fakediscord.HarnessError, match="required options"):
        await fakediscord.dispatch(fake, client, fakediscord.slash("pick", {"bonus": 2}))


async def test_a_button_edits_its_message_and_another_opens_a_modal(
    bot: tuple[HarnessBot, fakediscord.FakeDiscord],
) -> None:
    client, fake = bot
    shown = await fakediscord.dispatch(fake, client, fakediscord.slash("panel"))
    assert shown.content == "sheet"
    buttons = shown.components[0]["components"]
    assert [b["custom_id"] for b in buttons] == ["sheet:heal", "sheet:rename"]
    assert client.panel_message is not None and str(client.panel_message.id) == shown.message["id"]  # type: ignore[index]
    assert shown.tasks == ["CommandTree-invoker"]

    click = await fakediscord.dispatch(
        fake, client, fakediscord.component("sheet:heal", message=shown, user_id=OTHER_USER)
    )
    assert click.errors == []
    assert click.callback_type == 7
    assert click.content == f"healed by {OTHER_USER}"
    assert click.message is not None and click.message["id"] == shown.message["id"]  # type: ignore[index]
    assert client.sheet is not None and client.sheet.clicks == [OTHER_USER]
    assert click.tasks == [f"discord-ui-view-dispatch-{client.sheet.id}"]
    nobody = await fakediscord.dispatch(fake, client, fakediscord.component("nobody:listens"))
    assert nobody.tasks == [] and nobody.callback_type is None

    opened = await fakediscord.dispatch(fake, client, fakediscord.component("sheet:rename", message=click))
    assert opened.callback_type == 9
    assert opened.modal is not None and opened.modal["custom_id"] == "rename-modal"
    submitted = await fakediscord.dispatch(
        fake, client, fakediscord.modal_submit("rename-modal", {"rename:name": "Bors"})
    )
    assert submitted.content == "renamed to Bors" and submitted.ephemeral
    fakediscord.assert_valid(fake.requests, strict=True)
    assert openapi.validator().response_violations(fake.requests) == []


async def test_defer_then_followups(
    bot: tuple[HarnessBot, fakediscord.FakeDiscord], spec: openapi.OpenAPIValidator
) -> None:
    client, fake = bot
    reply = await fakediscord.dispatch(fake, client, fakediscord.slash("slow"))
    assert reply.errors == []
    assert reply.callback_type == 5 and reply.deferred
    # The first followup replaces the "thinking" message and keeps the defer's ephemerality.
    assert reply.content == "done" and reply.ephemeral
    assert [f.filename for f in reply.files] == ["report.txt"]
    assert reply.files[0].data == b"wounds: 3"
    assert len(reply.followups) == 2
    assert reply.followups[0].id == reply.original.id  # type: ignore[union-attr]
    assert reply.followups[1].embeds[0]["title"] == "extra" and not reply.followups[1].ephemeral
    assert reply.followups[0].attachments[0]["filename"] == "report.txt"
    assert [r.method for r in reply.requests] == ["POST", "POST", "POST"]
    assert reply.requests[1].json["content"] == "done"  # payload_json of the multipart body
    fakediscord.assert_valid(reply.requests, strict=True)
    assert spec.response_violations(reply.requests) == []


async def test_edit_followup_edit_and_delete(bot: tuple[HarnessBot, fakediscord.FakeDiscord]) -> None:
    client, fake = bot
    reply = await fakediscord.dispatch(fake, client, fakediscord.slash("temp"))
    assert reply.errors == []
    assert reply.original is not None and reply.original.deleted
    assert reply.content == "edited" and reply.embeds[0]["title"] == "e"
    assert reply.message is not None and reply.message["edited_timestamp"] is not None
    assert [m.content for m in reply.followups] == ["note (edited)"]
    assert reply.text == "note (edited)"  # what is still visible
    assert [(r.method, r.route) for r in reply.requests][1:] == [
        ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"),
        ("POST", "/webhooks/{webhook_id}/{webhook_token}"),
        ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"),
        ("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"),
    ]
    fakediscord.assert_valid(reply.requests, strict=True)
    assert openapi.validator().response_violations(reply.requests) == []


async def test_role_channel_and_explicit_options(bot: tuple[HarnessBot, fakediscord.FakeDiscord]) -> None:
    client, fake = bot
    options = {
        "role": fakediscord.role(GM_ROLE, "MJ"),
        "where": fakediscord.channel(fakediscord.DEFAULT_CHANNEL_ID, "general"),
        "amount": fakediscord.Opt(10, 2),
    }
    reply = await fakediscord.dispatch(fake, client, fakediscord.slash("tag", options))
    assert reply.content == "MJ general 2.0" and reply.ephemeral
    raw = [
        {"name": "role", "type": 8, "value": str(GM_ROLE)},
        {"name": "where", "type": 7, "value": str(fakediscord.DEFAULT_CHANNEL_ID)},
    ]
    reply = await fakediscord.dispatch(
        fake, client, fakediscord.slash("tag", [*raw, {"name": "amount", "type": 10, "value": 1}])
    )
    assert reply.content == "MJ general 1.0"  # resolved data is filled in; the guild cache has both


async def test_dispatch_needs_a_connected_client(bot: tuple[HarnessBot, fakediscord.FakeDiscord]) -> None:
    with pytest.raises(fakediscord.HarnessError, match="connect"):
        await fakediscord.dispatch(fakediscord.FakeDiscord(), HarnessBot(), fakediscord.slash("count"))
    client, _ = bot
    with pytest.raises(fakediscord.HarnessError, match="does not talk to that FakeDiscord"):
        await fakediscord.dispatch(fakediscord.FakeDiscord(), client, fakediscord.slash("count"))


async def test_subcommand_with_user_and_attachment_options(
    bot: tuple[HarnessBot, fakediscord.FakeDiscord],
) -> None:
    client, fake = bot
    payload = fakediscord.slash(
        "character create",
        {
            "name": "Aria",
            "level": 3,
            "player": fakediscord.user(OTHER_USER, username="bob", global_name="Bob"),
            "sheet": fakediscord.attachment("aria.json", b'{"wounds": []}', "application/json"),
        },
    )
    reply = await fakediscord.dispatch(fake, client, payload)
    assert reply.errors == []
    assert reply.content == f"Aria L3 for <@{OTHER_USER}> (Bob) sheet=14"
    assert reply.allowed_mentions == {"parse": [], "users": [OTHER_USER], "replied_user": False} or (
        reply.allowed_mentions is not None and reply.allowed_mentions["users"] == [OTHER_USER]
    )
    fakediscord.assert_valid(reply.requests)
    with pytest.raises(fakediscord.HarnessError, match="above max_value"):
        await fakediscord.dispatch(
            fake, client, fakediscord.slash("character create", {**payload_opts(), "level": 11})
        )


def payload_opts() -> dict[str, object]:
    return {"name": "Aria", "level": 3, "player": OTHER_USER}


async def test_default_member_permissions_are_enforced_like_discord(
    bot: tuple[HarnessBot, fakediscord.FakeDiscord],
) -> None:
    client, fake = bot
    refused = await fakediscord.dispatch(fake, client, fakediscord.slash("gm"))
    assert not refused.delivered and refused.requests == []
    assert "manage_guild" in (refused.undelivered_reason or "")
    allowed = await fakediscord.dispatch(
        fake, client, fakediscord.slash("gm", permissions=fakediscord.MANAGER_PERMISSIONS)
    )
    assert allowed.content == "gm ok"
    owner = await fakediscord.dispatch(fake, client, fakediscord.slash("gm", user_id=OWNER))
    assert owner.content == "gm ok"
    dm = await fakediscord.dispatch(fake, client, fakediscord.slash("status", guild_id=None))
    assert not dm.delivered and "guild" in (dm.undelivered_reason or "")
    dm = await fakediscord.dispatch(fake, client, fakediscord.slash("commit", guild_id=None))
    assert not dm.delivered and "context 1" in (dm.undelivered_reason or "")  # guild_only: contexts [0]
    dm = await fakediscord.dispatch(fake, client, fakediscord.slash("pick", {"name": "x"}, guild_id=None))
    assert dm.delivered and dm.content == "picked x 0.0"


async def test_two_hundred_concurrent_dispatches_are_all_answered(
    bot: tuple[HarnessBot, fakediscord.FakeDiscord],
) -> None:
    client, fake = bot
    payloads = [fakediscord.slash("count", user_id=OTHER_USER + i) for i in range(200)]
    replies = await asyncio.gather(*(fakediscord.dispatch(fake, client, p) for p in payloads))
    assert all(r.errors == [] and r.callback_type == 4 for r in replies)
    assert all(len(r.requests) == 1 for r in replies)
    for i, reply in enumerate(replies):
        assert reply.content is not None and reply.content.endswith(f" for {OTHER_USER + i}")
    assert sorted(int(r.content.split()[0][1:]) for r in replies if r.content) == list(range(1, 201))
    fakediscord.assert_valid(fake.requests)


# ------------------------------------------------------------------------------------------ failures


async def test_a_500_on_the_callback_surfaces_after_the_change_was_committed(
    bot: tuple[HarnessBot, fakediscord.FakeDiscord],
) -> None:
    client, fake = bot
    fault = fake.fail("POST", "/interactions/{id}/{token}/callback", status=500, times=5)
    reply = await fakediscord.dispatch(fake, client, fakediscord.slash("commit"))
    assert client.committed == [PLAYER]  # the change happened...
    assert reply.callback_type is None  # ...but Discord never got the answer
    assert len(fault.hits) == 5 and fault.exhausted  # discord.py retried 5 times (instantly)
    error = reply.error
    assert isinstance(error, app_commands.CommandInvokeError)
    assert isinstance(error.original, discord.HTTPException)
    assert isinstance(error.original, discord.DiscordServerError) and error.original.status == 500


async def test_a_transient_500_is_retried_by_discord_py(
    bot: tuple[HarnessBot, fakediscord.FakeDiscord],
) -> None:
    client, fake = bot
    fake.fail("POST", "/interactions/{id}/{token}/callback", status=500, times=1)
    reply = await fakediscord.dispatch(fake, client, fakediscord.slash("commit"))
    assert reply.errors == [] and reply.content == "committed"
    assert [r.status for r in reply.requests] == [500, 200]


async def test_a_timeout_on_the_callback(bot: tuple[HarnessBot, fakediscord.FakeDiscord]) -> None:
    client, fake = bot
    fake.hang("POST", "/interactions/{id}/{token}/callback", delay=0.01, process=True)
    reply = await fakediscord.dispatch(fake, client, fakediscord.slash("commit"))
    assert client.committed == [PLAYER]
    error = reply.error
    assert isinstance(error, app_commands.CommandInvokeError)
    assert isinstance(error.original, aiohttp.ServerTimeoutError)
    assert isinstance(error.original, asyncio.TimeoutError)
    # process=True: Discord did receive it; a retry would be refused as already acknowledged.
    assert reply.callback_type == 4 and reply.content == "committed"


async def test_late_answers_and_the_deadline_come_from_the_shared_rest_model(
    bot: tuple[HarnessBot, fakediscord.FakeDiscord],
) -> None:
    """The REST model behind both doors: what the HTTP door does, the in-process door does too."""
    client, fake = bot
    late = fake.fail("POST", fakediscord.ROUTE_CALLBACK, status=None, delay=0.01)  # answered, late
    reply = await fakediscord.dispatch(fake, client, fakediscord.slash("commit"))
    assert reply.errors == [] and reply.content == "committed"
    (answer,) = reply.requests
    assert answer.fault is late and answer.ok
    fake.callback_deadline = 0.0  # Discord forgets an interaction not answered in time
    reply = await fakediscord.dispatch(fake, client, fakediscord.slash("commit"))
    assert reply.callback_type is None and [r.status for r in reply.requests] == [404]
    assert reply.requests[0].response["code"] == 10062
    assert isinstance(reply.error, app_commands.CommandInvokeError)
    assert isinstance(reply.error.original, discord.NotFound)


async def test_unknown_routes_are_reported(bot: tuple[HarnessBot, fakediscord.FakeDiscord]) -> None:
    client, fake = bot
    with pytest.raises(discord.NotFound):
        await client.fetch_channel(123)
    assert [(r.method, r.path) for r in fake.unhandled] == [("GET", "/channels/123")]


# ------------------------------------------------------------------------------------------ OpenAPI


async def test_the_validator_reports_invalid_bodies(
    bot: tuple[HarnessBot, fakediscord.FakeDiscord], spec: openapi.OpenAPIValidator
) -> None:
    client, fake = bot
    reply = await fakediscord.dispatch(fake, client, fakediscord.slash("long"))
    problems = spec.violations(reply.requests)
    assert len(problems) == 1
    assert problems[0].pointer == "/data/content"
    assert problems[0].message == "is 2001 characters long (maxLength 2000)"
    with pytest.raises(AssertionError, match="break Discord's OpenAPI spec"):
        spec.assert_valid(reply.requests)

    bad = RecordedRequest(
        "POST", "/interactions/1/tok/callback", {"type": 4, "data": {"embeds": {"title": 1}}}, {}
    )
    assert spec.violations([bad]) != []
    typo = RecordedRequest(
        "POST", "/interactions/1/tok/callback", {"type": 4, "data": {"ephemral": True}}, {}
    )
    assert spec.violations([typo]) == []  # Discord ignores unknown fields...
    assert openapi.validator(strict=True).violations([typo]) != []  # ...strict mode does not
    nowhere = RecordedRequest("POST", "/nowhere", {}, {})
    assert "no such operation" in spec.violations([nowhere])[0].message


async def test_synced_command_definitions_match_the_spec(
    bot: tuple[HarnessBot, fakediscord.FakeDiscord], spec: openapi.OpenAPIValidator
) -> None:
    client, fake = bot
    synced = await client.tree.sync()
    synced_guild = await client.tree.sync(guild=discord.Object(GUILD))
    assert {c.name for c in synced} == {
        "boom",
        "pick",
        "panel",
        "slow",
        "temp",
        "character",
        "gm",
        "count",
        "commit",
        "long",
    }
    assert [c.name for c in synced_guild] == ["status", "tag"] and synced_guild[0].guild_id == GUILD
    puts = fake.requests_for("PUT")
    assert [r.path for r in puts] == [
        f"/applications/{fakediscord.DEFAULT_APP_ID}/commands",
        f"/applications/{fakediscord.DEFAULT_APP_ID}/guilds/{GUILD}/commands",
    ]
    assert spec.violations(puts) == []
    assert openapi.validator(strict=True).violations(puts) == []
    assert spec.response_violations(puts) == []
    again = await client.tree.sync()
    assert {c.id for c in again} == {c.id for c in synced}  # ids are stable across syncs
    reply = await fakediscord.dispatch(fake, client, fakediscord.slash("status"))
    assert reply.payload["data"]["id"] == str(synced_guild[0].id)


def test_a_missing_spec_skips_clearly(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(openapi.ENV_VAR, str(tmp_path / "absent.json"))
    with pytest.raises(pytest.skip.Exception, match=r"Discord OpenAPI spec not found at .*absent\.json"):
        openapi.validator()
