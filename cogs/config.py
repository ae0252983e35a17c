"""/config: the server's settings (changed by a GM), and its export and import."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import Command, locale_str

from bot import export_file
from bot.actions import admin
from bot.actions.actor import by_ref
from bot.errors import UserError, import_too_large
from bot.interface import autocomplete
from bot.interface.autocomplete import TRACKS
from bot.interface.replies import actor_of, public_lang, send_public, think_privately
from bot.rules import Track
from bot.rules.ruleset import MAX_DAMAGE
from bot.storage.store import Reader
from bot.ui.settings import config_embed, import_embed, settings_changed_embed

if TYPE_CHECKING:
    from bot.interface.client import HarmoniesBot

LANGUAGES = [
    app_commands.Choice(name=locale_str("auto (server locale)"), value="auto"),
    app_commands.Choice(name=locale_str("English"), value="en"),
    app_commands.Choice(name=locale_str("Français"), value="fr"),
]
ASK_BEFORE_HEALING = [
    app_commands.Choice(
        name=locale_str("deadly only (first roll can kill or make incoherent)"),
        value="deadly",
    ),
    app_commands.Choice(name=locale_str("any worsening"), value="worsening"),
    app_commands.Choice(name=locale_str("never"), value="never"),
]
PER_SEVERITY = {
    "track": locale_str("Physical or mental"),
    "light": locale_str("Light wound (mental: shock)"),
    "serious": locale_str("Serious wound (mental: trauma)"),
    "critical": locale_str("Critical wound (mental: psychosis)"),
}

Low = app_commands.Range[int, -50, 50]
Threshold = app_commands.Range[int, 1, MAX_DAMAGE]


def given(*values: object) -> None:
    """A settings command run with none of its values says so (not "that is already the setting")."""
    if all(value is None for value in values):
        raise UserError("Nothing to change: give at least one value. /config show lists every setting.")


config = app_commands.guild_only(
    app_commands.Group(name="config", description=locale_str("Server settings (changes: GM)"))
)


async def change_setting(
    interaction: discord.Interaction[HarmoniesBot], setting: str, change: admin.Change
) -> None:
    before, after = await admin.configure(interaction.client.store, actor_of(interaction), setting, change)
    lang = public_lang(interaction, after)
    await send_public(interaction, embeds=[settings_changed_embed(before, after, lang)])


@config.command(name="show", description=locale_str("Show this server's settings"))
async def show(interaction: discord.Interaction[HarmoniesBot]) -> None:
    ruleset = await interaction.client.store.read(actor_of(interaction).guild_id, Reader.ruleset)
    await send_public(interaction, embeds=[config_embed(ruleset, public_lang(interaction, ruleset))])


@config.command(
    name="gm-role",
    description=locale_str("The role whose members are GMs (empty: clear it)"),
)
@app_commands.describe(role=locale_str("The GM role"))
async def gm_role(interaction: discord.Interaction[HarmoniesBot], role: discord.Role | None = None) -> None:
    if role is not None and role.is_default():
        raise UserError(
            "The role every member has cannot be the GM role: create a role for your GMs and choose it."
        )  # it would make every member a GM (or, in fact, none)
    await change_setting(interaction, "gm-role", admin.values(gm_role_id=role.id if role else None))


def per_severity(name: str, description: locale_str) -> Command[Any, ..., None]:
    """/config penalties or /config difficulty (``name``, the setting): one value per severity of a
    track."""

    @app_commands.command(name=name, description=description)
    @app_commands.describe(**PER_SEVERITY)
    @app_commands.choices(track=TRACKS)
    async def command(
        interaction: discord.Interaction[HarmoniesBot],
        track: str,
        light: Low | None = None,
        serious: Low | None = None,
        critical: Low | None = None,
    ) -> None:
        given(light, serious, critical)
        change = admin.per_severity(Track(track), name, (light, serious, critical))
        await change_setting(interaction, name, change)

    return command


config.add_command(
    per_severity("penalties", locale_str("Penalty per wound of each severity (0 or negative)"))
)


@config.command(
    name="rest",
    description=locale_str("Rest period in days before healing, by least severe wound"),
)
@app_commands.describe(
    **PER_SEVERITY,
    mental_healing_rolls=locale_str("Let players roll healing for mental wounds too"),
)
@app_commands.rename(mental_healing_rolls="mental-healing-rolls")
@app_commands.choices(track=TRACKS)
async def rest(
    interaction: discord.Interaction[HarmoniesBot],
    track: str,
    light: app_commands.Range[int, 0, 3650] | None = None,
    serious: app_commands.Range[int, 0, 3650] | None = None,
    critical: app_commands.Range[int, 0, 3650] | None = None,
    mental_healing_rolls: bool | None = None,
) -> None:
    given(light, serious, critical, mental_healing_rolls)
    also = {} if mental_healing_rolls is None else {"mental_healing_rolls": mental_healing_rolls}
    change = admin.per_severity(Track(track), "rest_days", (light, serious, critical), **also)
    await change_setting(interaction, "rest", change)


config.add_command(
    per_severity("difficulty", locale_str("Healing difficulty per severity (positive is easier)"))
)


@config.command(
    name="preset",
    description=locale_str("Add, change or remove a maxima preset (a kind of creature)"),
)
@app_commands.describe(
    name=locale_str("Preset name (lowercase)"),
    light=locale_str("Most light wounds"),
    serious=locale_str("Most serious wounds"),
    critical=locale_str("Most critical wounds"),
    shock=locale_str("Most shocks"),
    trauma=locale_str("Most traumas"),
    psychosis=locale_str("Most psychoses"),
    remove=locale_str("Remove this preset"),
)
async def preset(
    interaction: discord.Interaction[HarmoniesBot],
    name: app_commands.Range[str, 1, 32],
    light: app_commands.Range[int, 0, 20] | None = None,
    serious: app_commands.Range[int, 0, 20] | None = None,
    critical: app_commands.Range[int, 0, 20] | None = None,
    shock: app_commands.Range[int, 0, 20] | None = None,
    trauma: app_commands.Range[int, 0, 20] | None = None,
    psychosis: app_commands.Range[int, 0, 20] | None = None,
    remove: bool = False,
) -> None:
    change = admin.preset(name, (light, serious, critical), (shock, trauma, psychosis), remove=remove)
    await change_setting(interaction, "preset", change)


@config.command(
    name="damage",
    description=locale_str("Damage rolls: the least effective damage for each outcome"),
)
@app_commands.describe(  # the thresholds of the damage table (rules.md §8)
    light=locale_str("Least effective damage for a light wound (mental: shock)"),
    serious=locale_str("Least effective damage for a serious wound (mental: trauma)"),
    critical=locale_str("Least effective damage for a critical wound (mental: psychosis)"),
    fatal=locale_str("Least effective damage that kills (mental: incoherent)"),
)
async def damage(
    interaction: discord.Interaction[HarmoniesBot],
    light: Threshold | None = None,
    serious: Threshold | None = None,
    critical: Threshold | None = None,
    fatal: Threshold | None = None,
) -> None:
    given(light, serious, critical, fatal)
    await change_setting(interaction, "damage", admin.damage_table((light, serious, critical, fatal)))


@config.command(name="dice", description=locale_str("How rolls work on this server"))
@app_commands.describe(
    open_rolls=locale_str("A 10 on either die is rolled again and added"),
    tie_succeeds=locale_str("A margin of exactly 0 is a success"),
    ask_before_healing=locale_str(
        "When to ask before a healing session the bot rolls (default: deadly only)",
    ),
)
@app_commands.rename(
    open_rolls="open-rolls", tie_succeeds="tie-succeeds", ask_before_healing="ask-before-healing"
)
@app_commands.choices(ask_before_healing=ASK_BEFORE_HEALING)
async def dice(
    interaction: discord.Interaction[HarmoniesBot],
    open_rolls: bool | None = None,
    tie_succeeds: bool | None = None,
    ask_before_healing: str | None = None,
) -> None:
    values = {
        "open_rolls": open_rolls,
        "tie_succeeds": tie_succeeds,
        "ask_before_healing": ask_before_healing,
    }
    given(*values.values())
    changes = {k: v for k, v in values.items() if v is not None}
    await change_setting(interaction, "dice", admin.values(**changes))


@config.command(
    name="players-create",
    description=locale_str("Whether players may create their own characters"),
)
@app_commands.describe(allowed=locale_str("Allowed or not"))
async def players_create(interaction: discord.Interaction[HarmoniesBot], allowed: bool) -> None:
    await change_setting(interaction, "players-create", admin.values(players_create=allowed))


@config.command(
    name="secret-npcs",
    description=locale_str("Show players only a word for the state of NPCs (all, or one)"),
)
@app_commands.describe(
    secret=locale_str("Secret or not"),
    character=locale_str(
        "One NPC (empty: every NPC of the server, the default for all)",
    ),
)
@app_commands.autocomplete(character=autocomplete.npcs)
async def secret_npcs(
    interaction: discord.Interaction[HarmoniesBot], secret: bool, character: str | None = None
) -> None:
    if character is None:
        await change_setting(interaction, "secret-npcs", admin.values(secret_npcs=secret))
        return
    actor = actor_of(interaction)
    found = await interaction.client.store.read(actor.guild_id, lambda r: by_ref(r, character))
    if found.owner_id is not None or found.id is None:
        raise UserError("{name} is a player character: only NPCs can be kept secret.", name=found.name)
    await change_setting(interaction, "secret-npcs", admin.secret_npc(found.id, found.name, secret))


@config.command(
    name="language",
    description=locale_str("Language of the bot's public messages"),
)
@app_commands.describe(language=locale_str("auto follows the server's locale"))
@app_commands.choices(language=LANGUAGES)
async def language(interaction: discord.Interaction[HarmoniesBot], language: str) -> None:
    await change_setting(
        interaction, "language", admin.values(language=None if language == "auto" else language)
    )


@config.command(
    name="export",
    description=locale_str("This server's characters, wounds and settings as a JSON file (GM)"),
)
async def export(interaction: discord.Interaction[HarmoniesBot]) -> None:
    actor = actor_of(interaction)
    data = await admin.export(interaction.client.store, actor)
    file = discord.File(io.BytesIO(data), filename=f"harmonies-{actor.guild_id}.json")
    await send_public(interaction, embeds=[], file=file)


@config.command(
    name="import",
    description=locale_str("Replace this server's data from an exported JSON file (GM)"),
)
@app_commands.describe(file=locale_str("A file made by /config export"))
async def import_(interaction: discord.Interaction[HarmoniesBot], file: discord.Attachment) -> None:
    actor = actor_of(interaction)
    if file.size > export_file.MAX_BYTES:
        raise import_too_large(export_file.MAX_BYTES)
    # Reading the attachment may take a while: think privately, so that a refusal stays private.
    await think_privately(interaction)
    counts = await admin.import_(interaction.client.store, actor, await file.read())
    ruleset = await interaction.client.store.read(actor.guild_id, Reader.ruleset)
    await interaction.delete_original_response()
    await send_public(interaction, embeds=[import_embed(counts, public_lang(interaction, ruleset))])


async def setup(bot: HarmoniesBot) -> None:
    bot.tree.add_command(config)
