"""Command flows shared by a slash command and a button (so both behave the same), and the persistent
'roll healing' and 'card' buttons themselves (they run these flows and are shown on what they post),
and the Confirm/Cancel of a deletion."""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import discord

from bot.actions import characters, healing, targets, wounds
from bot.errors import UserError
from bot.interface.permissions import actor_of
from bot.interface.replies import answer_error, caller_lang, public_lang, send_private, send_public
from bot.interface.views import Ask, Confirm
from bot.rules import Character, Ruleset, Track, can_roll_healing, parse_severity
from bot.storage.boards import Board
from bot.storage.store import Store
from bot.ui.card import character_card
from bot.ui.damage import damage_embed, preview_embed
from bot.ui.i18n import Lang, t, t_name, tn
from bot.ui.messages import character_deleted_embed, healing_embed, lowering_embed, wound_embed
from bot.ui.odds import odds_embed, odds_question
from bot.ui.status import secret_card, secret_result, with_status

if TYPE_CHECKING:
    from bot.interface.client import HarmoniesBot


def card_view(character: Character, ruleset: Ruleset, lang: Lang) -> discord.ui.View | None:
    """The 'roll healing' button, offered on a card when a healing session is available."""
    heal = _heal_buttons(character, ruleset, lang)
    return _buttons(*heal) if heal else None


def result_view(character: Character, ruleset: Ruleset, lang: Lang) -> discord.ui.View | None:
    """Under a short result: the "Card" button, and the Heal buttons when a session is available."""
    if character.id is None:
        return None
    return _buttons(*_heal_buttons(character, ruleset, lang), CardButton.button(character.id, lang))


def _heal_buttons(character: Character, ruleset: Ruleset, lang: Lang) -> list[discord.ui.Button[Any]]:
    if character.id is None:
        return []
    tracks = (Track.PHYSICAL, Track.MENTAL)
    return [
        HealButton.button(character.id, t, lang) for t in tracks if can_roll_healing(character, ruleset, t)
    ]


def _buttons(*buttons: discord.ui.Item[Any]) -> discord.ui.View:
    """A view of buttons that :class:`HealButton` and :class:`CardButton` answer by their custom_id
    (registered once at start-up, they survive restarts): stopped, so that discord.py keeps nothing
    per message sent."""
    view = discord.ui.View(timeout=None)
    for button in buttons:
        view.add_item(button)
    view.stop()
    return view


async def show_card_privately(interaction: discord.Interaction[HarmoniesBot], character_id: int) -> None:
    """The "Card" button: the full card, to the one who clicked, in their language."""
    bot = interaction.client
    actor = actor_of(interaction)
    ruleset = await bot.store.ruleset(actor.guild_id)
    character = await bot.store.character(actor.guild_id, character_id)
    lang = caller_lang(interaction)
    if ruleset.is_secret(character.owner_id, character.id) and not actor.is_gm(ruleset):
        embed = secret_card(character, lang)
    else:
        embed = character_card(character, ruleset, lang, can_heal=can_roll_healing(character, ruleset))
    await interaction.response.send_message(
        embed=embed, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
    )


async def secret_ids(store: Store, guild_id: int, ruleset: Ruleset) -> frozenset[int]:
    """The characters of the server whose state players see only as a word."""
    if not ruleset.secret_npcs:
        return frozenset(ruleset.secret_characters)
    # Deleted NPCs too: their history stays readable, and stays secret.
    return frozenset(await store.npc_ids(guild_id)) | ruleset.secret_characters


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
    embed.set_author(name=t(caller_lang(interaction), "secret_gm_only"))
    await interaction.followup.send(
        embed=embed, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
    )


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
    lang = public_lang(interaction, ruleset)
    embed, view = card(character, ruleset, lang)
    if ruleset.is_secret(character.owner_id, character.id):
        await send_public(interaction, embeds=[secret_card(character, lang)], view=view)
        await send_gm_only(interaction, embed, ruleset)
        return
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
    key = "heal_title" if track is Track.PHYSICAL else "heal_title_mental"
    await send_result(interaction, healed.character, healed.ruleset, result, title_key=key)


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
    result = wound_embed(wounded.infliction, wounded.character, wounded.ruleset, lang, note=note or "")
    key = "wound_title" if track is Track.PHYSICAL else "wound_title_mental"
    character_after = wounded.character
    await send_result(
        interaction, character_after, wounded.ruleset, result, title_key=key, mention=character_after.owner_id
    )


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
    """Roll every blow, inflict what the table gives, then post the rolls in a short result."""
    await _post_damage(interaction, *await _roll_damage(interaction, blows), blows.track)


async def _post_damage(
    interaction: discord.Interaction[HarmoniesBot],
    character: Character,
    ruleset: Ruleset,
    result: discord.Embed,
    track: Track,
) -> None:
    key = "wound_title" if track is Track.PHYSICAL else "wound_title_mental"
    await send_result(interaction, character, ruleset, result, title_key=key, mention=character.owner_id)


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
        try:
            rolled = await _roll_damage(click, blows)
        finally:  # the question's buttons are spent, whether the roll went through or was refused
            await click.response.edit_message(view=view)
        await _post_damage(click, *rolled, blows.track)

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
    result = lowering_embed(lowered.lowering, lowered.ruleset, lang)
    owner = lowered.character.owner_id
    await send_result(
        interaction, lowered.character, lowered.ruleset, result, title_key="lower_title", mention=owner
    )


async def post_board(interaction: discord.Interaction[HarmoniesBot]) -> None:
    """/board: post the live board in this channel; a board already there is moved (the old message
    deleted, a new one posted at the bottom)."""
    bot = interaction.client
    actor = actor_of(interaction)
    actor.require_gm(await bot.store.ruleset(actor.guild_id))
    channel_id = interaction.channel_id
    assert channel_id is not None, "a guild interaction comes from a channel"
    old = await bot.boards.board(actor.guild_id, channel_id)
    board = Board(actor.guild_id, channel_id, 0, old.npc_ids if old else ())
    sent = await interaction.response.send_message(
        embed=await bot.boards.render(board), allowed_mentions=discord.AllowedMentions.none()
    )
    if not isinstance(sent.message_id, int):
        raise RuntimeError("Discord did not say which message the board is")
    board = replace(board, message_id=sent.message_id)
    await bot.store.save_board(board)
    await bot.boards.posted(board, fresh=True)
    if old is not None:
        with contextlib.suppress(discord.NotFound, discord.Forbidden):
            await bot.get_partial_messageable(channel_id).get_partial_message(old.message_id).delete()


async def show_on_board(interaction: discord.Interaction[HarmoniesBot], ref: str, *, shown: bool) -> None:
    """/board add: or remove: an NPC on this channel's board (player characters are always on it)."""
    bot = interaction.client
    actor = actor_of(interaction)
    actor.require_gm(await bot.store.ruleset(actor.guild_id))
    channel_id = interaction.channel_id
    assert channel_id is not None, "a guild interaction comes from a channel"
    board = await bot.boards.board(actor.guild_id, channel_id)
    if board is None:
        raise UserError("board_none")
    character = await bot.store.read(actor.guild_id, lambda r: targets.by_ref(r, ref))
    if character.owner_id is not None:
        raise UserError("board_player_character", name=character.name)
    assert character.id is not None
    if (character.id in board.npc_ids) == shown:
        raise UserError("board_npc_already" if shown else "board_npc_absent", name=character.name)
    await bot.store.show_on_board(actor.guild_id, channel_id, character.id, shown=shown)
    ids = (*board.npc_ids, character.id) if shown else tuple(i for i in board.npc_ids if i != character.id)
    await bot.boards.posted(replace(board, npc_ids=ids), fresh=False)
    lang = caller_lang(interaction)
    await send_private(
        interaction, t_name(lang, "board_added" if shown else "board_removed", character.name, 300)
    )


class HealButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"heal:(?P<cid>\d{1,19}):(?P<track>[pm])"
):
    """Survives restarts: everything it needs is in its custom_id. The guild comes from the click."""

    def __init__(self, character_id: int, track: Track = Track.PHYSICAL, lang: Lang = "en") -> None:
        super().__init__(self.button(character_id, track, lang))
        self.character_id = character_id
        self.track = track

    @staticmethod
    def button(character_id: int, track: Track, lang: Lang) -> discord.ui.Button[Any]:
        return discord.ui.Button(
            style=discord.ButtonStyle.primary,
            emoji="🩹",
            label=t(lang, "button_heal" if track is Track.PHYSICAL else "button_heal_mental"),
            custom_id=f"heal:{character_id}:{'p' if track is Track.PHYSICAL else 'm'}",
        )

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


class CardButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"card:(?P<cid>\d{1,19})"):
    """On every short result: shows the full card, privately, to whoever clicks. Survives restarts."""

    def __init__(self, character_id: int, lang: Lang = "en") -> None:
        super().__init__(self.button(character_id, lang))
        self.character_id = character_id

    @staticmethod
    def button(character_id: int, lang: Lang) -> discord.ui.Button[Any]:
        return discord.ui.Button(
            style=discord.ButtonStyle.secondary,
            emoji="📋",
            label=t(lang, "button_card"),
            custom_id=f"card:{character_id}",
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CardButton:
        return cls(int(match["cid"]))

    async def callback(self, interaction: discord.Interaction[HarmoniesBot]) -> None:  # type: ignore[override]
        try:
            await show_card_privately(interaction, self.character_id)
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
