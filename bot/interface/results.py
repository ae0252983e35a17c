"""What the results of several cogs share: posting a short result or a card (a secret NPC's figures
to the GM alone), and the Heal and Card buttons under them. The buttons are answered by their custom_id:
``HEAL_ID`` by the healing cog, ``CARD_ID`` by the characters cog."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.errors import N_
from bot.interface.permissions import actor_of
from bot.interface.replies import caller_lang, public_lang, respond, send_public
from bot.rules import Character, Ruleset, Track, can_roll_healing
from bot.rules.odds import HealingOdds, healing_odds
from bot.ui.card import character_card, secret_card, secret_result
from bot.ui.i18n import Lang, t
from bot.ui.results import only_hurts, stakes

if TYPE_CHECKING:
    from bot.interface.client import HarmoniesBot

HEAL_ID = r"heal:(?P<cid>\d{1,19}):(?P<track>[pm])"
CARD_ID = r"card:(?P<cid>\d{1,19})"


def heal_button(
    character_id: int, track: Track, lang: Lang, odds: HealingOdds | None = None
) -> discord.ui.Button[Any]:
    """Roll one healing session of ``track`` (answered by the healing cog). With ``odds``, the button
    says what is at stake ("Heal · success 36%", "Heal · success impossible · ☠️ 64%"): red when the
    first roll can kill, grey when it cannot succeed, blue otherwise."""
    label = t(lang, N_("Heal") if track is Track.PHYSICAL else N_("Heal (mental)"))
    style = discord.ButtonStyle.primary
    if odds is not None:
        label = f"{label} · {stakes(odds, lang)}"
        if odds.death > 0:
            style = discord.ButtonStyle.danger
        elif only_hurts(odds):
            style = discord.ButtonStyle.secondary
    return discord.ui.Button(
        style=style,
        emoji="🩹",
        label=label[:80],
        custom_id=f"heal:{character_id}:{'p' if track is Track.PHYSICAL else 'm'}",
    )


def card_button(character_id: int, lang: Lang) -> discord.ui.Button[Any]:
    """Show the full card privately to whoever clicks (answered by the characters cog)."""
    return discord.ui.Button(
        style=discord.ButtonStyle.secondary,
        emoji="📋",
        label=t(lang, "Card"),
        custom_id=f"card:{character_id}",
    )


def card_view(character: Character, ruleset: Ruleset, lang: Lang) -> discord.ui.View | None:
    """Under a card: the Heal buttons when a healing session is available."""
    heal = _heal_buttons(character, ruleset, lang)
    return buttons_view(*heal) if heal else None


def result_view(character: Character, ruleset: Ruleset, lang: Lang) -> discord.ui.View | None:
    """Under a short result: the "Card" button, and the Heal buttons when a session is available."""
    if character.id is None:
        return None
    return buttons_view(*_heal_buttons(character, ruleset, lang), card_button(character.id, lang))


def _heal_buttons(character: Character, ruleset: Ruleset, lang: Lang) -> list[discord.ui.Button[Any]]:
    if character.id is None:
        return []
    secret = ruleset.is_secret(character.owner_id, character.id)  # the odds would tell its wounds
    return [
        heal_button(character.id, track, lang, None if secret else odds)
        for track in Track
        if (odds := healing_odds(character, ruleset, track)) is not None
    ]


def buttons_view(*buttons: discord.ui.Item[Any]) -> discord.ui.View:
    """A view of buttons that the healing and characters cogs answer by their custom_id (registered
    once at start-up, they survive restarts): stopped, so that discord.py keeps nothing per message
    sent."""
    view = discord.ui.View(timeout=None)
    for button in buttons:
        view.add_item(button)
    view.stop()
    return view


async def send_result(
    interaction: discord.Interaction[HarmoniesBot],
    character: Character,
    ruleset: Ruleset,
    result: discord.Embed,
    *,
    title_key: str,
    mention: int | None = None,
) -> None:
    """Post a short result in the channel, with its Card (and Heal) buttons. Of a secret NPC, the
    channel reads only its state as a word, and the GM who acted gets the result privately."""
    lang = public_lang(interaction, ruleset)
    view = result_view(character, ruleset, lang)
    if not ruleset.is_secret(character.owner_id, character.id):
        await send_public(interaction, embeds=[result], view=view, mention=mention)
        return
    await send_public(interaction, embeds=[secret_result(character, lang, title_key)], view=view)
    await send_gm_only(interaction, result, ruleset)


async def send_gm_only(
    interaction: discord.Interaction[HarmoniesBot], embed: discord.Embed, ruleset: Ruleset
) -> None:
    """The exact figures of a secret NPC, privately to the GM who acted (nobody else ever)."""
    if not actor_of(interaction).is_gm(ruleset):
        return
    embed.set_author(
        name=t(caller_lang(interaction), "For you only: this NPC is secret, the channel saw one word")
    )
    await interaction.followup.send(
        embed=embed, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
    )


def full_card(character: Character, ruleset: Ruleset, lang: Lang) -> discord.Embed:
    return character_card(character, ruleset, lang, can_heal=can_roll_healing(character, ruleset))


async def send_card(
    interaction: discord.Interaction[HarmoniesBot],
    character: Character,
    ruleset: Ruleset,
    *,
    mention: bool = False,
) -> None:
    """A character's card in the channel, with its Heal button when a healing session is available."""
    lang = public_lang(interaction, ruleset)
    embed, view = full_card(character, ruleset, lang), card_view(character, ruleset, lang)
    if ruleset.is_secret(character.owner_id, character.id):
        await send_public(interaction, embeds=[secret_card(character, lang)], view=view)
        await send_gm_only(interaction, embed, ruleset)
        return
    await send_public(interaction, embeds=[embed], view=view, mention=character.owner_id if mention else None)


async def send_card_privately(
    interaction: discord.Interaction[HarmoniesBot], character: Character, ruleset: Ruleset
) -> None:
    """The full card to the caller alone, in their language (a secret NPC's as a word, but to a GM)."""
    lang = caller_lang(interaction)
    if ruleset.is_secret(character.owner_id, character.id) and not actor_of(interaction).is_gm(ruleset):
        embed = secret_card(character, lang)
    else:
        embed = full_card(character, ruleset, lang)
    await respond(interaction, embed=embed, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())
