"""The wound commands, one implementation for both tracks: /wound (cogs/combat.py) and /mental
(cogs/mental.py) are each a :class:`WoundCog` with the command :func:`inflict_command` makes; the
right-click "Wound…" menu (cogs/menus.py) runs the same flow."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str
from discord.ext import commands

from bot.actions import wounds
from bot.errors import UserError
from bot.interface import autocomplete
from bot.interface.options import WOUNDING
from bot.interface.permissions import actor_of
from bot.interface.replies import caller_lang, public_lang, respond, update
from bot.interface.results import send_result
from bot.interface.views import Confirm
from bot.rules import Character, Ruleset, Track, parse_severity
from bot.rules.character import NOTE_MAX
from bot.rules.ruleset import MAX_DAMAGE
from bot.rules.wounds import MAX_COUNT
from bot.ui.card import with_status
from bot.ui.damage import damage_embed, preview_embed
from bot.ui.i18n import t, tn
from bot.ui.results import wound_embed

if TYPE_CHECKING:
    from bot.interface.client import HarmoniesBot


class WoundCog(commands.Cog):
    """The cog of one wound track."""

    track: ClassVar[Track]

    def __init__(self, bot: HarmoniesBot) -> None:
        self.bot = bot

    async def inflict(
        self,
        interaction: discord.Interaction[HarmoniesBot],
        severity: str | None = None,
        damage: app_commands.Range[int, 0, MAX_DAMAGE] | None = None,
        target: discord.User | None = None,
        character: str | None = None,
        count: app_commands.Range[int, 1, MAX_COUNT] = 1,
        note: app_commands.Range[str, 1, NOTE_MAX] | None = None,
        dice: app_commands.Range[str, 1, 200] | None = None,
        preview: bool = False,
    ) -> None:
        await wound_and_reply(
            interaction,
            track=self.track,
            severity=severity,
            damage=damage,
            dice=dice,
            preview=preview,
            target=target,
            character=character,
            count=count,
            note=note,
        )


def inflict_command(
    name: str, description: locale_str, severities: list[Choice[str]]
) -> app_commands.Command[Any, ..., None]:
    """The slash command of a :class:`WoundCog` (a class attribute of the cog)."""
    command: app_commands.Command[Any, ..., None] = app_commands.Command(
        name=name, description=description, callback=WoundCog.inflict
    )
    app_commands.guild_only()(command)  # sets allowed_contexts too (the attribute alone does not)
    app_commands.describe(**WOUNDING)(command)
    app_commands.choices(severity=severities)(command)
    app_commands.autocomplete(character=autocomplete.characters)(command)
    return command


async def wound_and_reply(
    interaction: discord.Interaction[HarmoniesBot],
    *,
    track: Track,
    severity: str | None,
    target: discord.abc.User | None,
    character: str | None,
    count: int,
    note: str | None,
    damage: int | None = None,
    dice: str | None = None,
    preview: bool = False,
) -> None:
    """/wound and /mental: inflict, then post the short result (the card behind a button),
    pinging the player.

    With ``damage`` instead of ``severity`` the target rolls against each blow (rules.md §8); with
    ``preview`` the GM first sees the odds privately and confirms."""
    if (severity is None) == (damage is None):
        raise UserError("severity_or_damage")
    if damage is not None:
        blows = Blows(track, damage, target.id if target else None, character, count, note or "", dice)
        if preview:
            await preview_damage(interaction, blows)
        else:
            await _post(interaction, *await _roll_damage(interaction, blows), track)
        return
    if dice is not None or preview:
        raise UserError("damage_option_alone")
    assert severity is not None
    bot = interaction.client
    wounded = await wounds.wound(
        bot.store,
        actor_of(interaction),
        track=track,
        severity=parse_severity(track, severity),
        player_id=target.id if target else None,
        ref=character,
        count=count,
        note=note or "",
    )
    lang = public_lang(interaction, wounded.ruleset)
    result = wound_embed(wounded.infliction, wounded.character, wounded.ruleset, lang, note=note or "")
    await _post(interaction, wounded.character, wounded.ruleset, result, track)


async def _post(
    interaction: discord.Interaction[HarmoniesBot],
    character: Character,
    ruleset: Ruleset,
    result: discord.Embed,
    track: Track,
) -> None:
    """The short result in the channel, pinging the player."""
    key = "wound_title" if track is Track.PHYSICAL else "wound_title_mental"
    await send_result(interaction, character, ruleset, result, title_key=key, mention=character.owner_id)


@dataclass(frozen=True)
class Blows:
    """What a GM asked of /wound damage: or /mental damage:."""

    track: Track
    damage: int
    player_id: int | None
    ref: str | None
    count: int
    note: str
    dice: str | None


async def _roll_damage(
    interaction: discord.Interaction[HarmoniesBot], blows: Blows
) -> tuple[Character, Ruleset, discord.Embed]:
    """The blows rolled and committed; the character after them, and the short result to post."""
    bot = interaction.client
    damaged = await wounds.damage(
        bot.store,
        actor_of(interaction),
        bot.rng,
        track=blows.track,
        level=blows.damage,
        dice=blows.dice,
        player_id=blows.player_id,
        ref=blows.ref,
        count=blows.count,
        note=blows.note,
    )
    lang = public_lang(interaction, damaged.ruleset)
    result = damage_embed(damaged.infliction, damaged.ruleset, lang, note=blows.note)
    if damaged.unused_dice:
        result.set_footer(text=tn(lang, "dice_unused", damaged.unused_dice))
    return damaged.character, damaged.ruleset, with_status(result, damaged.character, damaged.ruleset, lang)


async def preview_damage(interaction: discord.Interaction[HarmoniesBot], blows: Blows) -> None:
    """The GM sees the odds of the first blow privately; only they may confirm, which rolls for real.
    Cancelling or letting it time out changes nothing."""
    bot = interaction.client
    actor = actor_of(interaction)
    seen = await wounds.preview_damage(
        bot.store,
        actor,
        track=blows.track,
        level=blows.damage,
        dice=blows.dice,
        player_id=blows.player_id,
        ref=blows.ref,
    )
    asking = caller_lang(interaction)
    odds = preview_embed(
        seen.character,
        seen.ruleset,
        blows.track,
        blows.damage,
        seen.odds,
        asking,
        count=blows.count,
        dice=seen.dice,
    )

    async def confirmed(click: discord.Interaction[HarmoniesBot]) -> None:
        # The question's buttons are spent, whether the roll went through or was refused; when it was
        # refused, the question says that nothing was rolled (the follow-up says why).
        try:
            rolled = await _roll_damage(click, blows)
        except UserError:
            await update(click, content=t(asking, "question_not_rolled"), view=view)
            raise
        except Exception:
            await update(click, view=view)
            raise
        await update(click, view=view)
        await _post(click, *rolled, blows.track)

    view = Confirm(actor.user_id, asking, confirmed, run=bot.run_id)
    view.message = await respond(
        interaction, embed=odds, view=view, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
    )
