"""/character create|show|list|select|edit|delete"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.actions import characters
from bot.actions.actor import active_of, own_or_named
from bot.actions.characters import Create
from bot.actions.fight import BAND_MAX, Band
from bot.errors import UserError
from bot.history import Edited
from bot.interface import autocomplete
from bot.interface.replies import (
    CARD_ID,
    actor_of,
    caller_lang,
    card_button,
    public_lang,
    respond,
    send_card,
    send_card_privately,
    send_public,
    update,
)
from bot.interface.views import CANCEL, CANCELLED, CONFIRM, Lasting, Pager, refuse_stranger
from bot.rules import Character, Ruleset
from bot.rules.character import ATTRIBUTE_MAX, ATTRIBUTE_MIN, NAME_MAX
from bot.storage.store import Reader
from bot.ui.card import character_card
from bot.ui.i18n import Lang, t
from bot.ui.settings import character_deleted_embed, character_list_embeds
from bot.ui.text import t_name

# Relative: cogs/ is the package bot.cogs once installed (pyproject's package-dir), "cogs" to mypy.
from .fight import add_band

if TYPE_CHECKING:
    from bot.interface.client import HarmoniesBot

Attribute = app_commands.Range[int, ATTRIBUTE_MIN, ATTRIBUTE_MAX]
Name = app_commands.Range[str, 1, NAME_MAX]


ATTRIBUTES = {  # /character create and edit: the three attributes
    "corps": locale_str("Corps (Cp)"),
    "resistance": locale_str("Résistance (Rs)"),
    "intuition": locale_str("Intuition (It)"),
}


character_group = app_commands.guild_only(
    app_commands.Group(name="character", description=locale_str("Create, show and manage characters"))
)


@character_group.command(
    name="create",
    description=locale_str("Create a character (a GM for anyone, a player for themself)"),
)
@app_commands.describe(
    name=locale_str("The character's name"),
    player=locale_str(
        "Who plays it (leave empty: a GM makes an NPC, a player makes their own)",
    ),
    **ATTRIBUTES,
    preset=locale_str("Maxima preset (default: humanoid)"),
    count=locale_str("A band of NPCs (GM): that many, numbered (Goblin 1, Goblin 2…)"),
)
async def create(
    interaction: discord.Interaction[HarmoniesBot],
    name: Name,
    player: discord.User | None = None,
    corps: Attribute = 0,
    resistance: Attribute = 0,
    intuition: Attribute = 0,
    preset: app_commands.Range[str, 1, 32] = "humanoid",
    count: app_commands.Range[int, 1, BAND_MAX] | None = None,
) -> None:
    if count is not None:
        if player is not None:
            raise UserError("A band is of NPCs: leave out player, or leave out count.")
        band = Band(
            name=name,
            count=count,
            corps=corps,
            resistance=resistance,
            intuition=intuition,
            preset=preset,
            channel_id=interaction.channel_id,
        )
        await add_band(interaction, band)
        return
    asked = Create(
        name=name,
        player_id=player.id if player else None,
        corps=corps,
        resistance=resistance,
        intuition=intuition,
        preset=preset,
    )
    created, ruleset = await characters.create(interaction.client.store, actor_of(interaction), asked)
    await send_card(interaction, created, ruleset, mention=player is not None)


@character_group.command(name="show", description=locale_str("Show a character's card"))
@app_commands.describe(
    character=locale_str("Which character (default: your active one)"),
    player=locale_str("That player's active character"),
)
@app_commands.autocomplete(character=autocomplete.characters)
async def show(
    interaction: discord.Interaction[HarmoniesBot],
    character: str | None = None,
    player: discord.User | None = None,
) -> None:
    actor = actor_of(interaction)

    def look(reader: Reader) -> tuple[Character, Ruleset]:  # one read, one snapshot
        if character is None and player is not None:
            return active_of(reader, player.id), reader.ruleset()
        return own_or_named(reader, caller_id=actor.user_id, ref=character), reader.ruleset()

    found, ruleset = await interaction.client.store.read(actor.guild_id, look)
    await send_card(interaction, found, ruleset)


@character_group.command(name="list", description=locale_str("Every character of this server"))
async def list_(interaction: discord.Interaction[HarmoniesBot]) -> None:
    actor = actor_of(interaction)
    ruleset, everyone = await interaction.client.store.read(
        actor.guild_id, lambda r: (r.ruleset(), r.characters())
    )
    pages = character_list_embeds(everyone, ruleset, public_lang(interaction, ruleset))

    async def render(number: int) -> tuple[discord.Embed, int]:
        return pages[number - 1], len(pages)

    view = Pager(render, 1, len(pages)) if len(pages) > 1 else None
    await send_public(interaction, embeds=pages[:1], view=view)


@character_group.command(name="select", description=locale_str("Choose your active character"))
@app_commands.describe(character=locale_str("One of your characters"))
@app_commands.autocomplete(character=autocomplete.own_characters)
async def select(interaction: discord.Interaction[HarmoniesBot], character: str) -> None:
    chosen = await characters.select(interaction.client.store, actor_of(interaction), character)
    ruleset = await interaction.client.store.read(chosen.guild_id, Reader.ruleset)
    await send_card(interaction, chosen, ruleset)


@character_group.command(
    name="edit",
    description=locale_str("Change a character (GM; the owner may rename)"),
)
@app_commands.describe(
    character=locale_str("Which character"),
    name=locale_str("New name"),
    **ATTRIBUTES,
    preset=locale_str("Maxima preset"),
)
@app_commands.autocomplete(character=autocomplete.characters)
async def edit(
    interaction: discord.Interaction[HarmoniesBot],
    character: str,
    name: Name | None = None,
    corps: Attribute | None = None,
    resistance: Attribute | None = None,
    intuition: Attribute | None = None,
    preset: app_commands.Range[str, 1, 32] | None = None,
) -> None:
    edits = Edited(name=name, corps=corps, resistance=resistance, intuition=intuition, preset=preset)
    actor = actor_of(interaction)
    saved, ruleset = await characters.edit(interaction.client.store, actor, character, edits)
    # A GM's change to a player's character mentions that player.
    await send_card(interaction, saved, ruleset, mention=not actor.owns(saved))


@character_group.command(
    name="delete",
    description=locale_str("Delete a character (asks for confirmation; /undo restores it)"),
)
@app_commands.describe(character=locale_str("Which character"))
@app_commands.autocomplete(character=autocomplete.characters)
async def delete(interaction: discord.Interaction[HarmoniesBot], character: str) -> None:
    actor = actor_of(interaction)
    found = await characters.check_delete(interaction.client.store, actor, character)
    ruleset = await interaction.client.store.read(actor.guild_id, Reader.ruleset)
    asking = caller_lang(interaction)
    assert found.id is not None
    # The question is the caller's alone (ephemeral); the deletion itself is announced publicly.
    # Its buttons carry everything they need: they still work after a restart.
    await respond(
        interaction,
        t_name(
            asking,
            "Delete {name}? Its wounds go with it; a GM can bring it back with /undo.",
            found.name,
            2000,
        ),
        embed=character_card(found, ruleset, asking),
        view=delete_question(found.id, actor.user_id, asking),
        ephemeral=True,
        allowed_mentions=discord.AllowedMentions.none(),
    )


class CardButton(Lasting, discord.ui.DynamicItem[discord.ui.Button[Any]], template=CARD_ID):
    """On every short result: shows the full card, privately, to whoever clicks, in their language.
    Survives restarts."""

    def __init__(self, character_id: int) -> None:
        super().__init__(card_button(character_id, "en"))  # only its custom_id is read
        self.character_id = character_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CardButton:
        return cls(int(match["cid"]))

    async def clicked(self, interaction: discord.Interaction[HarmoniesBot]) -> None:
        actor = actor_of(interaction)
        ruleset, character = await interaction.client.store.read(
            actor.guild_id, lambda r: (r.ruleset(), r.character(self.character_id))
        )
        await send_card_privately(interaction, character, ruleset)


class DeleteChoice(
    Lasting,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"delete:(?P<cid>\d{1,19}):(?P<author>\d{1,20}):(?P<answer>[yn])",
):
    """Confirm or Cancel under a deletion question. Survives restarts like the Heal button: the
    character, who asked and the answer are all in its custom_id. Only who asked may answer."""

    def __init__(
        self, character_id: int, author_id: int, confirm: bool, lang: Lang = "en", *, disabled: bool = False
    ) -> None:
        super().__init__(
            discord.ui.Button(
                style=discord.ButtonStyle.danger if confirm else discord.ButtonStyle.secondary,
                label=t(lang, CONFIRM if confirm else CANCEL),
                custom_id=f"delete:{character_id}:{author_id}:{'y' if confirm else 'n'}",
                disabled=disabled,
            )
        )
        self.character_id = character_id
        self.author_id = author_id
        self.confirm = confirm

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> DeleteChoice:
        return cls(int(match["cid"]), int(match["author"]), match["answer"] == "y")

    async def clicked(self, interaction: discord.Interaction[HarmoniesBot]) -> None:
        if await refuse_stranger(interaction, self.author_id):
            return
        lang = caller_lang(interaction)  # the language of whoever clicked
        answered = delete_question(self.character_id, self.author_id, lang, disabled=True)
        if not self.confirm:
            await update(interaction, content=t(lang, CANCELLED), view=answered)
            return
        # The private question loses its buttons; the deletion is announced in the channel (pinging
        # the player when it was not their own doing).
        bot = interaction.client
        actor = actor_of(interaction)
        deleted = await characters.delete(bot.store, actor, self.character_id)
        await update(interaction, view=answered)
        lang = public_lang(interaction, await bot.store.read(actor.guild_id, Reader.ruleset))
        mention = None if actor.owns(deleted) else deleted.owner_id
        await send_public(interaction, embeds=[character_deleted_embed(deleted, lang)], mention=mention)


def delete_question(
    character_id: int, author_id: int, lang: Lang, *, disabled: bool = False
) -> discord.ui.View:
    """The Confirm and Cancel buttons of a deletion question (disabled once answered)."""
    view = discord.ui.View(timeout=None)
    for confirm in (True, False):
        view.add_item(DeleteChoice(character_id, author_id, confirm, lang, disabled=disabled))
    return view


async def setup(bot: HarmoniesBot) -> None:
    bot.add_dynamic_items(DeleteChoice, CardButton)
    bot.tree.add_command(character_group)
