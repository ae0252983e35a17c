"""/wound: a GM inflicts physical wounds. The flow of inflicting lives here (:func:`inflict`, with the
damage roll's preview); /mental (cogs/mental.py) and the right-click "Wound…" menu (cogs/menus.py)
use it too, each filling an :class:`~bot.actions.wounds.Inflict`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import Choice, Command, locale_str

from bot.actions import wounds
from bot.actions.wounds import Inflict
from bot.errors import UserError
from bot.interface import autocomplete
from bot.interface.autocomplete import PHYSICAL, WHO
from bot.interface.replies import (
    actor_of,
    caller_lang,
    note_unused_dice,
    public_lang,
    respond,
    send_result,
    update,
)
from bot.interface.views import CONFIRM, NOTHING_ROLLED, Question
from bot.rules import Character, Ruleset, Track, parse_severity
from bot.rules.character import NOTE_MAX
from bot.rules.ruleset import MAX_DAMAGE
from bot.rules.wounds import MAX_COUNT
from bot.ui.damage import damage_embed, preview_embed
from bot.ui.i18n import t
from bot.ui.results import WOUNDS_TITLE, with_status, wound_embed

if TYPE_CHECKING:
    from bot.interface.client import HarmoniesBot


def wounding(
    name: str, description: locale_str, track: Track, severities: list[Choice[str]]
) -> Command[Any, ..., None]:
    """/wound or /mental (``track``): the same options, one Inflict."""

    @app_commands.command(name=name, description=description)
    @app_commands.guild_only()
    @app_commands.describe(
        severity=locale_str("How bad each wound is (or give damage instead)"),
        damage=locale_str("Damage level instead of a severity: the target rolls to resist it"),
        target=WHO["target"],
        character=locale_str("Any character (NPCs too)"),
        count=locale_str("How many wounds (each one escalates on its own)"),
        note=locale_str("What happened (shown in history)"),
        dice=locale_str(
            "With damage: the target's own dice as luck-unluck pairs, one per wound (the bot rolls the rest)",
        ),
        preview=locale_str("With damage: see the odds privately first, then confirm"),
    )
    @app_commands.choices(severity=severities)
    @app_commands.autocomplete(character=autocomplete.characters)
    async def command(
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
        asked = Inflict(
            track=track,
            severity=parse_severity(track, severity) if severity is not None else None,
            damage=damage,
            player_id=target.id if target else None,
            ref=character,
            count=count,
            note=note or "",
            dice=dice,
        )
        await inflict(interaction, asked, preview=preview)

    return command


async def inflict(
    interaction: discord.Interaction[HarmoniesBot], asked: Inflict, *, preview: bool = False
) -> None:
    """Inflict, then post the short result (the card behind a button), pinging the player.

    With a damage level instead of a severity the target rolls against each blow (rules.md §8); with
    ``preview`` the GM first sees the odds privately and confirms."""
    if (asked.severity is None) == (asked.damage is None):
        raise UserError(
            "Give either severity (a wound of that severity) or damage (a damage "
            "level the target rolls against), not both and not neither."
        )
    if asked.damage is not None:
        if preview:
            await preview_damage(interaction, asked)
        else:
            await _post(interaction, *await _roll_damage(interaction, asked), asked.track)
        return
    if asked.dice is not None or preview:
        raise UserError(
            "The dice and preview options only go with damage (a damage level the "
            "target rolls against). Give damage instead of severity, or leave them "
            "out."
        )
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
    title = WOUNDS_TITLE[track]
    await send_result(interaction, character, ruleset, result, title_key=title, mention=character.owner_id)


async def _roll_damage(
    interaction: discord.Interaction[HarmoniesBot], asked: Inflict
) -> tuple[Character, Ruleset, discord.Embed]:
    """The blows rolled and committed; the character after them, and the short result to post."""
    bot = interaction.client
    damaged = await wounds.damage(bot.store, actor_of(interaction), bot.rng, asked)
    lang = public_lang(interaction, damaged.ruleset)
    result = damage_embed(damaged.result, damaged.ruleset, lang, note=asked.note)
    note_unused_dice(result, damaged.unused_dice, lang)
    return damaged.character, damaged.ruleset, with_status(result, damaged.character, damaged.ruleset, lang)


async def preview_damage(interaction: discord.Interaction[HarmoniesBot], asked: Inflict) -> None:
    """The GM sees the odds of the first blow privately; only they may confirm, which rolls for real.
    Cancelling or letting it time out changes nothing."""
    assert asked.damage is not None
    bot = interaction.client
    actor = actor_of(interaction)
    seen = await wounds.preview_damage(bot.store, actor, asked)
    asking = caller_lang(interaction)
    odds, first = seen.result
    damage, character, ruleset = asked.damage, seen.character, seen.ruleset

    def shown(confirmed: bool = False) -> discord.Embed:  # once confirmed, it no longer waits for it
        return preview_embed(
            character,
            ruleset,
            asked.track,
            damage,
            odds,
            asking,
            count=asked.count,
            dice=first,
            confirmed=confirmed,
        )

    async def confirmed(click: discord.Interaction[HarmoniesBot]) -> None:
        # The question's buttons are spent, whether the roll went through or was refused; when it was
        # refused, the question says that nothing was rolled (the follow-up says why).
        try:
            rolled = await _roll_damage(click, asked)
        except UserError:
            await update(click, content=t(asking, NOTHING_ROLLED), view=view)
            raise
        except Exception:
            await update(click, view=view)
            raise
        await update(click, embed=shown(confirmed=True), view=view)
        await _post(click, *rolled, asked.track)

    view = Question(actor.user_id, asking, go=CONFIRM, run=bot.run_id, on_go=confirmed)
    view.message = await respond(
        interaction, embed=shown(), view=view, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
    )


async def setup(bot: HarmoniesBot) -> None:
    bot.tree.add_command(
        wounding("wound", locale_str("Inflict physical wounds (GM)"), Track.PHYSICAL, PHYSICAL)
    )
