"""What several cogs' options share (in English: the French is in bot/locale/fr/LC_MESSAGES/harmonies.po):
choices, descriptions, and the characters suggested (a cheap query, at most 25, this server's only)."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.interface.replies import actor_of
from bot.rules import Character, Ruleset, Track
from bot.rules.severity import SEVERITY_NAMES
from bot.storage.store import Reader
from bot.ui.board import choice_label
from bot.ui.i18n import lang_of, t
from bot.ui.text import CHOICE_NAME, clip

if TYPE_CHECKING:
    from bot.interface.client import HarmoniesBot

CHOICE_LIMIT = 25


def choice(value: str) -> app_commands.Choice[str]:
    """A choice named by its value (``light``, ``physical``…), translated in the context ``choice``."""
    return app_commands.Choice(name=locale_str(value), value=value)


PHYSICAL = [choice(n) for n in SEVERITY_NAMES[Track.PHYSICAL]]
MENTAL = [choice(n) for n in SEVERITY_NAMES[Track.MENTAL]]
TRACKS = [choice(track.value) for track in Track]
WHO = {  # the two ways a GM command names its character
    "target": locale_str("A player: their active character"),
    "character": locale_str("Any character"),
}


async def _choices(
    interaction: discord.Interaction[HarmoniesBot], current: str, owner_id: int | None, *, npcs: bool = False
) -> list[app_commands.Choice[str]]:
    """Each choice says whose character it is and its state: "Aélis (Léa) — −3"."""
    guild_id = interaction.guild_id
    if guild_id is None:
        return []
    bot = interaction.client

    def look(reader: Reader) -> tuple[Ruleset, list[Character]]:
        found = reader.matching(current[:100], owner_id=owner_id, limit=CHOICE_LIMIT, npcs=npcs)
        return reader.ruleset(), found

    ruleset, found = await bot.store.read(guild_id, look)  # one read, one snapshot
    if not found:
        return []
    lang = lang_of(interaction.locale)
    gm = actor_of(interaction).is_gm(ruleset)
    choices = []
    for character in found:
        owner = None if character.owner_id is None else bot.names.get(guild_id, character.owner_id)
        label = choice_label(character, ruleset, lang, owner=owner, reveal=gm)
        choices.append(app_commands.Choice(name=label, value=str(character.id)))
    return choices


def _suggesting(
    *, own: bool = False, npcs: bool = False
) -> Callable[[discord.Interaction[Any], str], Coroutine[Any, Any, list[app_commands.Choice[str]]]]:
    async def suggest(
        interaction: discord.Interaction[HarmoniesBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return await _choices(interaction, current, interaction.user.id if own else None, npcs=npcs)

    return suggest


characters = _suggesting()  # any character of this server
own_characters = _suggesting(own=True)  # the caller's own characters in this server
npcs = _suggesting(npcs=True)  # this server's NPCs


async def characters_even_deleted(
    interaction: discord.Interaction[HarmoniesBot], current: str
) -> list[app_commands.Choice[str]]:
    """Any character of this server, then deleted ones, marked so (for /history and /undo)."""
    kept = await _choices(interaction, current, None)  # not deleted (the dead included)
    if interaction.guild_id is None or len(kept) >= CHOICE_LIMIT:
        return kept
    limit = CHOICE_LIMIT - len(kept)
    gone = await interaction.client.store.read(
        interaction.guild_id, lambda r: r.deleted_characters(current[:100], limit=limit)
    )
    lang = lang_of(interaction.locale)
    marked = [
        app_commands.Choice(
            name=clip(t(lang, "{name} — deleted character", name=name), CHOICE_NAME), value=str(cid)
        )
        for cid, name in gone
    ]
    return kept + marked
