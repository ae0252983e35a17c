"""Command flows shared by a slash command and a button (so both behave the same), and the persistent
buttons themselves: 'roll healing' (it runs the healing flow and is shown on the card the flows post)
and the Confirm/Cancel of a deletion."""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.actions import characters, healing, wounds
from bot.errors import UserError
from bot.interface.permissions import actor_of
from bot.interface.replies import answer_error, caller_lang, public_lang, send_private, send_public
from bot.interface.views import Ask, Confirm
from bot.rules import Character, Ruleset, Track, can_roll_healing, parse_severity
from bot.ui.card import character_card
from bot.ui.damage import damage_embed, preview_embed
from bot.ui.i18n import Lang, t, tn
from bot.ui.messages import character_deleted_embed, healing_embed, lowering_embed, wound_embed
from bot.ui.odds import odds_embed, odds_question

if TYPE_CHECKING:
    from bot.interface.client import HarmoniesBot


def card_view(character: Character, ruleset: Ruleset, lang: Lang) -> discord.ui.View | None:
    """The 'roll healing' button, offered on a card when a healing session is available."""
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
    """/heal roll and the Heal button: one healing session. When the bot rolls and the first roll may
    worsen the wound, the roller confirms privately first (unless the server turned that off)."""
    bot = interaction.client
    actor = actor_of(interaction)
    confirmed = None
    if not dice:
        prospect = await healing.heal_prospect(
            bot.store, actor, ref=ref, character_id=character_id, track=track
        )
        if prospect.odds.risky and prospect.ruleset.confirm_risky_healing:
            if not await ask_before_healing(interaction, prospect):
                return
            confirmed, character_id, ref = prospect.odds, prospect.character.id, None
    healed = await healing.heal_roll(
        bot.store,
        actor,
        bot.rng,
        ref=ref,
        character_id=character_id,
        dice=dice,
        track=track,
        confirmed=confirmed,
    )
    lang = public_lang(interaction, healed.ruleset)
    result = healing_embed(healed.session, healed.ruleset, lang)
    if healed.unused_dice:
        # The player typed more dice than the session needed: say so rather than drop them silently.
        result.set_footer(text=tn(lang, "dice_unused", healed.unused_dice))
    embed, view = card(healed.character, healed.ruleset, lang)
    await send_public(interaction, embeds=[result, embed], view=view)


async def ask_before_healing(
    interaction: discord.Interaction[HarmoniesBot], prospect: healing.Prospect
) -> bool:
    """Ask the roller, privately, whether to go on with a risky session: the odds, then Roll / Cancel.
    True when they said go on; False after a cancel or when nobody answered in time (then the question
    says so, and nothing changed). The result is then posted as a follow-up of ``interaction``."""
    lang = caller_lang(interaction)
    view = Ask(
        interaction.user.id, lang, go="button_heal_go", going="heal_going", run=interaction.client.run_id
    )
    await interaction.response.send_message(
        odds_question(prospect.character, prospect.odds, lang),
        embed=odds_embed(prospect.character, prospect.odds, lang),
        view=view,
        ephemeral=True,
        allowed_mentions=discord.AllowedMentions.none(),
    )
    if await view.wait():  # timed out
        view.disable()
        with contextlib.suppress(discord.HTTPException):
            await interaction.edit_original_response(content=t(lang, "expired"), view=view)
        return False
    return bool(view.value)


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
    """/wound and /mental: inflict, then post the result and the new card, pinging the player.

    With ``damage`` instead of ``severity`` the target rolls against each blow (rules.md §8); with
    ``preview`` the GM first sees the odds privately and confirms."""
    if (severity is None) == (damage is None):
        raise UserError("severity_or_damage")
    if damage is not None:
        blows = Blows(track, damage, target.id if target else None, character, count, note or "", dice)
        if preview:
            await preview_damage(interaction, blows)
        else:
            await damage_and_reply(interaction, blows)
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
    embed, view = card(wounded.character, wounded.ruleset, lang)
    result = wound_embed(wounded.infliction, wounded.character, wounded.ruleset, lang, note=note or "")
    embeds = [result, embed]
    await send_public(interaction, embeds=embeds, view=view, mention=wounded.character.owner_id)


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


async def damage_and_reply(interaction: discord.Interaction[HarmoniesBot], blows: Blows) -> None:
    """Roll every blow, inflict what the table gives, then post the rolls and the new card."""
    embeds, view, mention = await _roll_damage(interaction, blows)
    await send_public(interaction, embeds=embeds, view=view, mention=mention)


async def _roll_damage(
    interaction: discord.Interaction[HarmoniesBot], blows: Blows
) -> tuple[list[discord.Embed], discord.ui.View | None, int | None]:
    """The blows rolled and committed; what to post about them (the result, the card, whom to ping)."""
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
    embed, view = card(damaged.character, damaged.ruleset, lang)
    return [result, embed], view, damaged.character.owner_id


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
        try:
            embeds, card_buttons, mention = await _roll_damage(click, blows)
        finally:  # the question's buttons are spent, whether the roll went through or was refused
            await click.response.edit_message(view=view)
        await send_public(click, embeds=embeds, view=card_buttons, mention=mention)

    view = Confirm(actor.user_id, asking, confirmed, run=bot.run_id)
    await interaction.response.send_message(
        embed=odds, view=view, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
    )
    view.message = await interaction.original_response()


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


class HealButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"heal:(?P<cid>\d{1,19}):(?P<track>[pm])"
):
    """Survives restarts: everything it needs is in its custom_id. The guild comes from the click."""

    def __init__(self, character_id: int, track: Track = Track.PHYSICAL, lang: Lang = "en") -> None:
        code = "p" if track is Track.PHYSICAL else "m"
        super().__init__(
            discord.ui.Button(
                style=discord.ButtonStyle.primary,
                emoji="🩹",
                label=t(lang, "button_heal" if track is Track.PHYSICAL else "button_heal_mental"),
                custom_id=f"heal:{character_id}:{code}",
            )
        )
        self.character_id = character_id
        self.track = track

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HealButton:
        return cls(int(match["cid"]), Track.PHYSICAL if match["track"] == "p" else Track.MENTAL)

    async def callback(self, interaction: discord.Interaction[HarmoniesBot]) -> None:  # type: ignore[override]
        try:
            await heal_and_reply(interaction, character_id=self.character_id, track=self.track)
        except Exception as error:
            await answer_error(interaction, error)


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


class DeleteChoice(
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
                label=t(lang, "button_confirm" if confirm else "button_cancel"),
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

    async def callback(self, interaction: discord.Interaction[HarmoniesBot]) -> None:  # type: ignore[override]
        lang = caller_lang(interaction)  # the language of whoever clicked
        try:
            if interaction.user.id != self.author_id:
                await send_private(interaction, t(lang, "not_your_button"))
                return
            answered = delete_question(self.character_id, self.author_id, lang, disabled=True)
            if self.confirm:
                await delete_and_reply(interaction, self.character_id, answered=answered)
            else:
                await interaction.response.edit_message(content=t(lang, "cancelled"), view=answered)
        except Exception as error:
            await answer_error(interaction, error)


def delete_question(
    character_id: int, author_id: int, lang: Lang, *, disabled: bool = False
) -> discord.ui.View:
    """The Confirm and Cancel buttons of a deletion question (disabled once answered)."""
    view = discord.ui.View(timeout=None)
    for confirm in (True, False):
        view.add_item(DeleteChoice(character_id, author_id, confirm, lang, disabled=disabled))
    return view
