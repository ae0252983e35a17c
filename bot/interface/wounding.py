"""Inflicting wounds, what /wound (cogs/combat.py), /mental (cogs/mental.py) and the right-click
"Wound…" menu (cogs/menus.py) share: each fills a :class:`~bot.actions.wounds.Inflict` and calls
:func:`inflict`."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.actions import wounds
from bot.errors import UserError
from bot.interface.permissions import actor_of
from bot.interface.replies import caller_lang, public_lang, respond, update
from bot.interface.results import send_result
from bot.interface.views import Question
from bot.rules import Character, Ruleset, Track
from bot.ui.card import with_status
from bot.ui.damage import damage_embed, preview_embed
from bot.ui.i18n import t, tn
from bot.ui.results import wound_embed

if TYPE_CHECKING:
    from bot.interface.client import HarmoniesBot


async def inflict(
    interaction: discord.Interaction[HarmoniesBot], asked: wounds.Inflict, *, preview: bool = False
) -> None:
    """Inflict, then post the short result (the card behind a button), pinging the player.

    With a damage level instead of a severity the target rolls against each blow (rules.md §8); with
    ``preview`` the GM first sees the odds privately and confirms."""
    if (asked.severity is None) == (asked.damage is None):
        raise UserError("severity_or_damage")
    if asked.damage is not None:
        if preview:
            await preview_damage(interaction, asked)
        else:
            await _post(interaction, *await _roll_damage(interaction, asked), asked.track)
        return
    if asked.dice is not None or preview:
        raise UserError("damage_option_alone")
    wounded = await wounds.wound(interaction.client.store, actor_of(interaction), asked)
    lang = public_lang(interaction, wounded.ruleset)
    result = wound_embed(wounded.result, wounded.character, wounded.ruleset, lang, note=asked.note)
    await _post(interaction, wounded.character, wounded.ruleset, result, asked.track)


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


async def _roll_damage(
    interaction: discord.Interaction[HarmoniesBot], asked: wounds.Inflict
) -> tuple[Character, Ruleset, discord.Embed]:
    """The blows rolled and committed; the character after them, and the short result to post."""
    bot = interaction.client
    damaged = await wounds.damage(bot.store, actor_of(interaction), bot.rng, asked)
    lang = public_lang(interaction, damaged.ruleset)
    result = damage_embed(damaged.result, damaged.ruleset, lang, note=asked.note)
    if damaged.unused_dice:
        result.set_footer(text=tn(lang, "dice_unused", damaged.unused_dice))
    return damaged.character, damaged.ruleset, with_status(result, damaged.character, damaged.ruleset, lang)


async def preview_damage(interaction: discord.Interaction[HarmoniesBot], asked: wounds.Inflict) -> None:
    """The GM sees the odds of the first blow privately; only they may confirm, which rolls for real.
    Cancelling or letting it time out changes nothing."""
    assert asked.damage is not None
    bot = interaction.client
    actor = actor_of(interaction)
    seen = await wounds.preview_damage(bot.store, actor, asked)
    asking = caller_lang(interaction)
    odds, first = seen.result
    shown = preview_embed(
        seen.character, seen.ruleset, asked.track, asked.damage, odds, asking, count=asked.count, dice=first
    )

    async def confirmed(click: discord.Interaction[HarmoniesBot]) -> None:
        # The question's buttons are spent, whether the roll went through or was refused; when it was
        # refused, the question says that nothing was rolled (the follow-up says why).
        try:
            rolled = await _roll_damage(click, asked)
        except UserError:
            await update(click, content=t(asking, "question_not_rolled"), view=view)
            raise
        except Exception:
            await update(click, view=view)
            raise
        await update(click, view=view)
        await _post(click, *rolled, asked.track)

    view = Question(actor.user_id, asking, go="button_confirm", run=bot.run_id, on_go=confirmed)
    view.message = await respond(
        interaction, embed=shown, view=view, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
    )
