"""Sending answers: public results in the server's language, refusals ephemeral in the caller's."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Sequence

import discord
from discord import app_commands
from discord.utils import MISSING

from bot.errors import UserError
from bot.rules import Ruleset
from bot.storage.errors import file_fault
from bot.ui.i18n import Lang, error_text, lang_of
from bot.ui.text import clip

log = logging.getLogger(__name__)
CONTENT_LIMIT = 2000


def caller_lang(interaction: discord.Interaction) -> Lang:
    return lang_of(interaction.locale)


def public_lang(interaction: discord.Interaction, ruleset: Ruleset) -> Lang:
    if ruleset.language is not None:
        return ruleset.language
    return lang_of(interaction.guild_locale)


def mentions_for(user_id: int | None) -> discord.AllowedMentions:
    """Nothing may ping but the one player a message is about."""
    if user_id is None:
        return discord.AllowedMentions.none()
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False, users=[discord.Object(user_id)]
    )


async def send_public(
    interaction: discord.Interaction,
    *,
    embeds: Sequence[discord.Embed],
    mention: int | None = None,
    view: discord.ui.View | None = None,
    file: discord.File | None = None,
) -> None:
    """Post a result in the channel; ``mention`` pings that player (and nobody else)."""
    content = f"<@{mention}>" if mention is not None else MISSING
    allowed = mentions_for(mention)
    files = [file] if file is not None else []
    if interaction.response.is_done():
        await interaction.followup.send(
            content, embeds=list(embeds), allowed_mentions=allowed, files=files, view=view or MISSING
        )
    else:
        await interaction.response.send_message(
            content, embeds=list(embeds), allowed_mentions=allowed, files=files, view=view or MISSING
        )


async def send_private(interaction: discord.Interaction, text: str) -> None:
    """An ephemeral answer (refusals, errors) to the caller only."""
    content = clip(text, CONTENT_LIMIT)
    allowed = discord.AllowedMentions.none()
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=True, allowed_mentions=allowed)
    else:
        await interaction.response.send_message(content, ephemeral=True, allowed_mentions=allowed)


def explain(interaction: discord.Interaction, error: BaseException) -> str:
    """The caller-language text for an error; logs unexpected ones with a short id."""
    lang = caller_lang(interaction)
    original: BaseException = error
    if isinstance(original, app_commands.CommandInvokeError | app_commands.TransformerError):
        original = original.__cause__ or original
    if isinstance(original, app_commands.CommandInvokeError):
        original = original.original
    if isinstance(original, app_commands.AppCommandError) and isinstance(original.__cause__, UserError):
        original = original.__cause__  # a refusal raised before the command ran (bot.tree)
    if isinstance(original, UserError):
        return error_text(lang, original)
    if isinstance(original, app_commands.NoPrivateMessage):
        return error_text(lang, UserError("guild_only"))
    if isinstance(original, app_commands.TransformerError):
        return error_text(lang, UserError("option_invalid", value=str(original.value)))
    if isinstance(original, app_commands.CheckFailure):
        return error_text(lang, UserError("not_gm"))
    fault = file_fault(original)
    if fault is not None:
        # Nothing was saved (the transaction rolled back); the admins must act, the user can only wait.
        log.error("The database cannot be written (%s): %s", fault, original)
        return error_text(lang, UserError(f"storage_{fault}"))
    error_id = secrets.token_hex(4)
    command = interaction.command.qualified_name if interaction.command else "?"
    log.error("Error %s in command %s", error_id, command, exc_info=original)
    return error_text(lang, UserError("internal_error", error_id=error_id))


async def answer_error(interaction: discord.Interaction, error: BaseException) -> None:
    if interaction.client.is_closed():
        # Shutting down: the HTTP session is closed (which is likely what failed), nobody can be told.
        log.warning("Interaction %s left unanswered: the bot is shutting down (%r)", interaction.id, error)
        return
    text = explain(interaction, error)
    try:
        await send_private(interaction, text)
    except discord.HTTPException:
        log.warning("Could not tell the user about an error (interaction %s)", interaction.id)
