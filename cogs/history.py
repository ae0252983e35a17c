"""/history and /undo: what was recorded, and taking the latest change back."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.actions import admin, undoing
from bot.interface import autocomplete
from bot.interface.replies import actor_of, buttons_view, card_button, public_lang, send_public
from bot.interface.views import Pager
from bot.rules import Ruleset
from bot.storage.store import Reader, Store
from bot.ui.events import history_embed, undo_embed
from bot.ui.results import MAX_MENTIONS

if TYPE_CHECKING:
    from bot.interface.client import HarmoniesBot

UNDO_CARDS = 5
"""Card buttons under an undo's answer, at most (one row)."""


@app_commands.command(name="history", description=locale_str("Recorded changes, newest first"))
@app_commands.guild_only()
@app_commands.describe(
    character=locale_str("Only this character's events"),
    page=locale_str("Page number"),
)
@app_commands.autocomplete(character=autocomplete.characters_even_deleted)
async def history(
    interaction: discord.Interaction[HarmoniesBot],
    character: str | None = None,
    page: app_commands.Range[int, 1, 100000] = 1,
) -> None:
    actor = actor_of(interaction)
    found = await admin.history(interaction.client.store, actor, ref=character, page=page)
    lang = public_lang(interaction, found.ruleset)
    hidden = await secret_ids(interaction.client.store, actor.guild_id, found.ruleset)
    name = found.character_name
    embed = history_embed(found.events, page, found.pages, lang, character_name=name, hidden=hidden)

    async def render(number: int) -> tuple[discord.Embed, int]:
        # Read afresh: the log may have grown (or the last page gone) since the command.
        fresh = await admin.history(
            interaction.client.store, actor, ref=character, page=min(number, found.pages)
        )
        shown = history_embed(
            fresh.events, number, fresh.pages, lang, character_name=fresh.character_name, hidden=hidden
        )
        return shown, fresh.pages

    view = Pager(render, page, found.pages, author_id=actor.user_id, lang=lang) if found.pages > 1 else None
    await send_public(interaction, embeds=[embed], view=view)


@app_commands.command(name="undo", description=locale_str("Revert the latest change (GM)"))
@app_commands.guild_only()
@app_commands.describe(character=locale_str("Revert the latest change touching this character"))
@app_commands.autocomplete(character=autocomplete.characters_even_deleted)
async def undo(interaction: discord.Interaction[HarmoniesBot], character: str | None = None) -> None:
    actor = actor_of(interaction)
    undone = await undoing.undo(interaction.client.store, actor, ref=character)
    lang = public_lang(interaction, undone.ruleset)
    hidden = await secret_ids(interaction.client.store, actor.guild_id, undone.ruleset)
    # What came back, in a few lines, the cards behind Card buttons (a secret NPC's card is its
    # word there too); the players whose characters it changed are mentioned.
    restored = undone.restored
    owners = list(dict.fromkeys(c.owner_id for c in restored if c.owner_id is not None))
    embed = undo_embed(undone.event, lang, restored, hidden, undone.back_in_play, undone.ruleset)
    buttons = [card_button(c.id, lang) for c in restored[:UNDO_CARDS] if c.id is not None]
    if len(buttons) > 1:  # each button names its character
        for button, one in zip(buttons, restored, strict=False):
            button.label = f"{button.label} — {one.name}"[:80]
    await send_public(
        interaction,
        embeds=[embed],
        view=buttons_view(*buttons) if buttons else None,
        mentions=owners[:MAX_MENTIONS],
    )


async def secret_ids(store: Store, guild_id: int, ruleset: Ruleset) -> frozenset[int]:
    """The characters of the server whose state players see only as a word."""
    if not ruleset.secret_npcs:
        return frozenset(ruleset.secret_characters)
    # Deleted NPCs too: their history stays readable, and stays secret.
    return frozenset(await store.read(guild_id, Reader.npc_ids)) | ruleset.secret_characters


async def setup(bot: HarmoniesBot) -> None:
    bot.tree.add_command(history)
    bot.tree.add_command(undo)
