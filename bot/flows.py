"""Command flows shared by a slash command and a button (so both behave the same)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.actions import characters, healing, wounds
from bot.permissions import actor_of
from bot.replies import public_lang, send_public
from bot.rules import Character, Ruleset, Track, can_roll_healing, parse_severity
from bot.ui.card import character_card
from bot.ui.i18n import Lang, tn
from bot.ui.messages import character_deleted_embed, healing_embed, lowering_embed, wound_embed

if TYPE_CHECKING:
    from bot.client import HarmoniesBot


def card_view(character: Character, ruleset: Ruleset, lang: Lang) -> discord.ui.View | None:
    """The 'roll healing' button, offered on a card when a healing session is available."""
    from bot.views import HealButton

    tracks = [t for t in (Track.PHYSICAL, Track.MENTAL) if can_roll_healing(character, ruleset, t)]
    if not tracks or character.id is None:
        return None
    view = discord.ui.View(timeout=None)
    for track in tracks:
        view.add_item(HealButton(character.id, track, lang))
    return view


def card(character: Character, ruleset: Ruleset, lang: Lang) -> tuple[discord.Embed, discord.ui.View | None]:
    """A character's card and, when a healing session is available, its Heal button."""
    embed = character_card(character, ruleset, lang, can_heal=can_roll_healing(character, ruleset))
    return embed, card_view(character, ruleset, lang)


async def send_card(
    interaction: discord.Interaction[HarmoniesBot],
    character: Character,
    ruleset: Ruleset,
    *,
    mention: bool = False,
) -> None:
    embed, view = card(character, ruleset, public_lang(interaction, ruleset))
    await send_public(interaction, embeds=[embed], view=view, mention=character.owner_id if mention else None)


async def heal_and_reply(
    interaction: discord.Interaction[HarmoniesBot],
    *,
    ref: str | None = None,
    character_id: int | None = None,
    dice: str | None = None,
    track: Track = Track.PHYSICAL,
) -> None:
    bot = interaction.client
    healed = await healing.heal_roll(
        bot.store, actor_of(interaction), bot.rng, ref=ref, character_id=character_id, dice=dice, track=track
    )
    lang = public_lang(interaction, healed.ruleset)
    result = healing_embed(healed.session, healed.ruleset, lang)
    if healed.unused_dice:
        # The player typed more dice than the session needed: say so rather than drop them silently.
        result.set_footer(text=tn(lang, "dice_unused", healed.unused_dice))
    embed, view = card(healed.character, healed.ruleset, lang)
    await send_public(interaction, embeds=[result, embed], view=view)


async def wound_and_reply(
    interaction: discord.Interaction[HarmoniesBot],
    *,
    track: Track,
    severity: str,
    target: discord.abc.User | None,
    character: str | None,
    count: int,
    note: str | None,
) -> None:
    """/wound and /mental: inflict, then post the result and the new card, pinging the player."""
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
        at=bot.clock(),
    )
    lang = public_lang(interaction, wounded.ruleset)
    embed, view = card(wounded.character, wounded.ruleset, lang)
    result = wound_embed(wounded.infliction, wounded.character, wounded.ruleset, lang, note=note or "")
    embeds = [result, embed]
    await send_public(interaction, embeds=embeds, view=view, mention=wounded.character.owner_id)


async def lower_and_reply(
    interaction: discord.Interaction[HarmoniesBot],
    *,
    track: Track,
    severity: str,
    target: discord.abc.User | None,
    character: str | None,
) -> None:
    """/heal wound and /heal mental: a GM lowers one wound one rank."""
    bot = interaction.client
    lowered = await wounds.lower(
        bot.store,
        actor_of(interaction),
        track=track,
        severity=parse_severity(track, severity),
        player_id=target.id if target else None,
        ref=character,
    )
    lang = public_lang(interaction, lowered.ruleset)
    embed, view = card(lowered.character, lowered.ruleset, lang)
    embeds = [lowering_embed(lowered.lowering, lowered.ruleset, lang), embed]
    await send_public(interaction, embeds=embeds, view=view, mention=lowered.character.owner_id)


async def delete_and_reply(
    interaction: discord.Interaction[HarmoniesBot], character_id: int, *, answered: discord.ui.View
) -> None:
    """The deletion, once confirmed: the private question loses its buttons (``answered``), the
    deletion is announced in the channel (pinging the player when it was not their own doing)."""
    bot = interaction.client
    actor = actor_of(interaction)
    deleted = await characters.delete(bot.store, actor, character_id)
    await interaction.response.edit_message(view=answered)
    lang = public_lang(interaction, await bot.store.ruleset(actor.guild_id))
    mention = None if actor.owns(deleted) else deleted.owner_id
    await send_public(interaction, embeds=[character_deleted_embed(deleted, lang)], mention=mention)
