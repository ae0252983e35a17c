"""/heal roll|wound|mental, /rest and /roll."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.actions import healing
from bot.interface import autocomplete
from bot.interface.flows import HealButton, heal_and_reply, lower_and_reply
from bot.interface.options import MENTAL, PHYSICAL, TRACKS, WHO
from bot.interface.permissions import actor_of
from bot.interface.replies import public_lang, send_public
from bot.rules import Track
from bot.rules.healing import MAX_REST_GRANT
from bot.ui.messages import rest_embed, rest_mentions, roll_embed

if TYPE_CHECKING:
    from bot.interface.client import HarmoniesBot

DICE_HELP = "Your own dice as luck-unluck pairs in order, e.g. 7-3 10-2 (the bot rolls the rest)"


@app_commands.guild_only()
class Healing(commands.GroupCog, group_name="heal", group_description="Heal wounds"):
    def __init__(self, bot: HarmoniesBot) -> None:
        self.bot = bot

    @app_commands.command(name="roll", description="Roll one healing session (after the rest period)")
    @app_commands.describe(
        character="Which character (default: your active one)",
        dice=DICE_HELP,
        track="Physical wounds (default), or mental ones when the server allows healing rolls for them",
    )
    @app_commands.choices(track=TRACKS)
    @app_commands.autocomplete(character=autocomplete.characters)
    async def roll(
        self,
        interaction: discord.Interaction[HarmoniesBot],
        character: str | None = None,
        dice: app_commands.Range[str, 1, 200] | None = None,
        track: str = Track.PHYSICAL.value,
    ) -> None:
        await heal_and_reply(interaction, ref=character, dice=dice, track=Track(track))

    @app_commands.command(name="wound", description="Lower one physical wound one rank, no roll (GM)")
    @app_commands.describe(severity="Which severity", **WHO)
    @app_commands.choices(severity=PHYSICAL)
    @app_commands.autocomplete(character=autocomplete.characters)
    async def wound(
        self,
        interaction: discord.Interaction[HarmoniesBot],
        severity: str,
        target: discord.User | None = None,
        character: str | None = None,
    ) -> None:
        await lower_and_reply(
            interaction, track=Track.PHYSICAL, severity=severity, target=target, character=character
        )

    @app_commands.command(name="mental", description="Lower one mental wound one rank (GM)")
    @app_commands.describe(severity="Which severity", **WHO)
    @app_commands.choices(severity=MENTAL)
    @app_commands.autocomplete(character=autocomplete.characters)
    async def mental(
        self,
        interaction: discord.Interaction[HarmoniesBot],
        severity: str,
        target: discord.User | None = None,
        character: str | None = None,
    ) -> None:
        await lower_and_reply(
            interaction, track=Track.MENTAL, severity=severity, target=target, character=character
        )


class Resting(commands.Cog):
    def __init__(self, bot: HarmoniesBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="rest", description="Grant in-game rest (GM): to everyone alive, or to one character"
    )
    @app_commands.guild_only()
    @app_commands.describe(days="In-game days of rest", **WHO)
    @app_commands.autocomplete(character=autocomplete.characters)
    async def rest(
        self,
        interaction: discord.Interaction[HarmoniesBot],
        days: app_commands.Range[int, 1, MAX_REST_GRANT],
        target: discord.User | None = None,
        character: str | None = None,
    ) -> None:
        # A server-wide rest may take a while: think privately, so that a refusal stays private.
        await interaction.response.defer(ephemeral=True, thinking=True)
        rested = await healing.rest(
            self.bot.store,
            actor_of(interaction),
            days=days,
            player_id=target.id if target else None,
            ref=character,
        )
        lang = public_lang(interaction, rested.ruleset)
        # Rest for one player's character mentions that player; any rest mentions the players whose
        # characters can now heal (and nobody else).
        mentions = rest_mentions(rested.characters, rested.ruleset)
        if (target or character) and rested.characters and (owner := rested.characters[0].owner_id):
            mentions = [owner, *[m for m in mentions if m != owner]]
        await interaction.delete_original_response()
        embed = rest_embed(rested.characters, rested.ruleset, rested.days, lang)
        await send_public(interaction, embeds=[embed], mentions=mentions)

    @app_commands.command(name="roll", description="A ±d10 roll with your character's wound penalty applied")
    @app_commands.guild_only()
    @app_commands.describe(
        modifier="Attributes and skill you add",
        difficulty="Difficulty: positive makes it easier, negative harder (as in Harmonies)",
        character="Which character (default: your active one)",
        dice="Your own dice as luck-unluck, e.g. 7-3 (the bot rolls if empty)",
    )
    @app_commands.autocomplete(character=autocomplete.characters)
    async def roll(
        self,
        interaction: discord.Interaction[HarmoniesBot],
        modifier: app_commands.Range[int, -100, 100] = 0,
        difficulty: app_commands.Range[int, -100, 100] = 0,
        character: str | None = None,
        dice: app_commands.Range[str, 1, 20] | None = None,
    ) -> None:
        rolled = await healing.roll(
            self.bot.store,
            actor_of(interaction),
            self.bot.rng,
            ref=character,
            modifier=modifier,
            difficulty=difficulty,
            dice=dice,
        )
        lang = public_lang(interaction, rolled.ruleset)
        await send_public(
            interaction, embeds=[roll_embed(rolled.roll, lang, character_name=rolled.character.name)]
        )


async def setup(bot: HarmoniesBot) -> None:
    bot.add_dynamic_items(HealButton)
    await bot.add_cog(Healing(bot))
    await bot.add_cog(Resting(bot))
