"""/heal roll|wound|mental, /rest and /roll."""

from __future__ import annotations

import contextlib
import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import Choice, Command, locale_str

from bot.actions import healing, wounds
from bot.actions.actor import Outcome
from bot.actions.healing import Heal, PlainRoll, Rest
from bot.actions.wounds import Lower
from bot.errors import N_, UserError
from bot.interface import autocomplete
from bot.interface.autocomplete import MENTAL, PHYSICAL, TRACKS, WHO
from bot.interface.replies import (
    HEAL_ID,
    actor_of,
    caller_lang,
    heal_button,
    note_unused_dice,
    public_lang,
    respond,
    send_gm_only,
    send_public,
    send_result,
    think_privately,
)
from bot.interface.views import NOTHING_ROLLED, Lasting, Question
from bot.rules import Track, parse_severity
from bot.rules.healing import MAX_REST_GRANT
from bot.rules.odds import HealingOdds
from bot.ui.i18n import t
from bot.ui.results import (
    GM_HEALING_TITLE,
    SESSION_TITLE,
    healing_embed,
    lowering_embed,
    odds_embed,
    odds_question,
    rest_embed,
    rest_mentions,
    roll_embed,
)

if TYPE_CHECKING:
    from bot.interface.client import HarmoniesBot


heal = app_commands.guild_only(app_commands.Group(name="heal", description=locale_str("Heal wounds")))


@heal.command(
    name="roll",
    description=locale_str("Roll one healing session (after the rest period)"),
)
@app_commands.describe(
    character=locale_str("Which character (default: your active one)"),
    dice=locale_str(
        "Your own dice as luck-unluck pairs in order, e.g. 7-3 10-2 (the bot rolls the rest)",
    ),
    track=locale_str(
        "Physical wounds (default), or mental ones when the server allows healing rolls for them",
    ),
)
@app_commands.choices(track=TRACKS)
@app_commands.autocomplete(character=autocomplete.characters)
async def heal_roll(
    interaction: discord.Interaction[HarmoniesBot],
    character: str | None = None,
    dice: app_commands.Range[str, 1, 200] | None = None,
    track: str = Track.PHYSICAL.value,
) -> None:
    await heal_and_reply(interaction, Heal(track=Track(track), ref=character, dice=dice))


def lowering(
    name: str, description: locale_str, track: Track, severities: list[Choice[str]]
) -> Command[Any, ..., None]:
    """/heal wound or /heal mental (``track``): lower a wound one rank, post the short result pinging
    the player."""

    @app_commands.command(name=name, description=description)
    @app_commands.describe(severity=locale_str("Which severity"), **WHO)
    @app_commands.choices(severity=severities)
    @app_commands.autocomplete(character=autocomplete.characters)
    async def command(
        interaction: discord.Interaction[HarmoniesBot],
        severity: str,
        target: discord.User | None = None,
        character: str | None = None,
    ) -> None:
        player_id = target.id if target else None
        asked = Lower(
            track=track, severity=parse_severity(track, severity), player_id=player_id, ref=character
        )
        lowered = await wounds.lower(interaction.client.store, actor_of(interaction), asked)
        lang = public_lang(interaction, lowered.ruleset)
        result = lowering_embed(lowered.result, lowered.ruleset, lang)
        owner = lowered.character.owner_id
        await send_result(
            interaction, lowered.character, lowered.ruleset, result, title_key=GM_HEALING_TITLE, mention=owner
        )

    return command


heal.add_command(
    lowering("wound", locale_str("Lower one physical wound one rank, no roll (GM)"), Track.PHYSICAL, PHYSICAL)
)
heal.add_command(lowering("mental", locale_str("Lower one mental wound one rank (GM)"), Track.MENTAL, MENTAL))


@app_commands.command(
    name="rest",
    description=locale_str("Grant in-game rest (GM): to everyone alive, or to one character"),
)
@app_commands.guild_only()
@app_commands.describe(days=locale_str("In-game days of rest"), **WHO)
@app_commands.autocomplete(character=autocomplete.characters)
async def rest(
    interaction: discord.Interaction[HarmoniesBot],
    days: app_commands.Range[int, 1, MAX_REST_GRANT],
    target: discord.User | None = None,
    character: str | None = None,
) -> None:
    # A server-wide rest may take a while: think privately, so that a refusal stays private.
    await think_privately(interaction)
    asked = Rest(days=days, player_id=target.id if target else None, ref=character)
    rested, ruleset = await healing.rest(interaction.client.store, actor_of(interaction), asked)
    lang = public_lang(interaction, ruleset)
    # A rest pings exactly the players the summary lists under who can roll healing now (a ping
    # invites to roll: never to a session that can kill or cannot succeed), for one character too.
    mentions = rest_mentions(rested, ruleset)
    await interaction.delete_original_response()
    embed = rest_embed(rested, ruleset, days, lang)
    await send_public(interaction, embeds=[embed], mentions=mentions)


@app_commands.command(
    name="roll",
    description=locale_str("A ±d10 roll with your character's wound penalty applied"),
)
@app_commands.guild_only()
@app_commands.describe(
    modifier=locale_str("Attributes and skill you add"),
    difficulty=locale_str("Difficulty: positive makes it easier, negative harder (as in Harmonies)"),
    character=locale_str("Which character (default: your active one)"),
    dice=locale_str("Your own dice as luck-unluck, e.g. 7-3 (the bot rolls if empty)"),
)
@app_commands.autocomplete(character=autocomplete.characters)
async def roll(
    interaction: discord.Interaction[HarmoniesBot],
    modifier: app_commands.Range[int, -100, 100] = 0,
    difficulty: app_commands.Range[int, -100, 100] | None = None,
    character: str | None = None,
    dice: app_commands.Range[str, 1, 20] | None = None,
) -> None:
    asked = PlainRoll(ref=character, modifier=modifier, difficulty=difficulty or 0, dice=dice)
    rolled = await healing.roll(
        interaction.client.store, actor_of(interaction), interaction.client.rng, asked
    )
    lang = public_lang(interaction, rolled.ruleset)
    who, typed = rolled.character, difficulty is not None
    embed = roll_embed(rolled.result, lang, character_name=who.name, difficulty_typed=typed)
    if not rolled.ruleset.is_secret(who.owner_id, who.id):
        await send_public(interaction, embeds=[embed])
        return
    # A secret NPC's penalty shows in the terms: the channel reads the verdict only.
    verdict = roll_embed(rolled.result, lang, character_name=who.name, terms=False)
    await send_public(interaction, embeds=[verdict])
    await send_gm_only(interaction, embed, rolled.ruleset)


async def heal_and_reply(interaction: discord.Interaction[HarmoniesBot], asked: Heal) -> None:
    """/heal roll and the Heal button: one healing session. When the bot rolls a session not worth
    offering (its first roll may kill or make incoherent, or cannot reasonably succeed), the roller
    confirms privately first (the server may ask before any worsening, or never:
    ``Ruleset.ask_before_healing``)."""
    bot = interaction.client
    actor = actor_of(interaction)
    confirmed = None
    if not asked.dice:
        prospect = await healing.heal_prospect(bot.store, actor, asked)
        odds = prospect.result
        if prospect.ruleset.asks_before(worth_offering=odds.worth_offering, worsening=odds.risky):
            if not await ask_before_healing(interaction, prospect):
                return
            confirmed, asked = odds, replace(asked, character_id=prospect.character.id, ref=None)
    try:
        healed = await healing.heal_roll(bot.store, actor, bot.rng, asked, confirmed=confirmed)
    except UserError:
        if confirmed is not None:  # the question said "Rolling…": it must not stay so (why: a follow-up)
            with contextlib.suppress(discord.HTTPException):
                said = t(caller_lang(interaction), NOTHING_ROLLED)
                await interaction.edit_original_response(content=said)
        raise
    lang = public_lang(interaction, healed.ruleset)
    result = healing_embed(healed.result, healed.ruleset, lang)
    note_unused_dice(result, healed.unused_dice, lang)
    title = SESSION_TITLE[asked.track]
    await send_result(interaction, healed.character, healed.ruleset, result, title_key=title)


async def ask_before_healing(
    interaction: discord.Interaction[HarmoniesBot], prospect: Outcome[HealingOdds]
) -> bool:
    """Ask the roller, privately, whether to go on with a risky session: the odds, then Cancel / Roll.
    True when they said go on; False after a cancel or when nobody answered in time (then the question
    says so, and nothing changed). The result is then posted as a follow-up of ``interaction``."""
    lang = caller_lang(interaction)
    view = Question(
        interaction.user.id,
        lang,
        go=N_("Roll"),
        going=N_("Rolling…"),
        run=interaction.client.run_id,
        cancel_first=True,
    )
    sent = await respond(
        interaction,
        odds_question(prospect.character, prospect.result, lang),
        embed=odds_embed(prospect.character, prospect.result, lang),
        view=view,
        ephemeral=True,
        allowed_mentions=discord.AllowedMentions.none(),
    )
    if await view.wait():  # timed out
        view.disable()
        with contextlib.suppress(discord.HTTPException):
            if sent is not None:
                await sent.edit(content=t(lang, "No answer in time: nothing was changed."), view=view)
        return False
    return bool(view.value)


class HealButton(Lasting, discord.ui.DynamicItem[discord.ui.Button[Any]], template=HEAL_ID):
    """Survives restarts: everything it needs is in its custom_id. The guild comes from the click."""

    def __init__(self, character_id: int, track: Track) -> None:
        super().__init__(heal_button(character_id, track, "en"))  # only its custom_id is read
        self.character_id = character_id
        self.track = track

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HealButton:
        return cls(int(match["cid"]), Track.PHYSICAL if match["track"] == "p" else Track.MENTAL)

    async def clicked(self, interaction: discord.Interaction[HarmoniesBot]) -> None:
        await heal_and_reply(interaction, Heal(track=self.track, character_id=self.character_id))


async def setup(bot: HarmoniesBot) -> None:
    bot.add_dynamic_items(HealButton)
    bot.tree.add_command(heal)
    bot.tree.add_command(rest)
    bot.tree.add_command(roll)
