"""Sending answers: public results in the server's language, refusals ephemeral in the caller's."""

from __future__ import annotations

import contextlib
import logging
import secrets
from collections.abc import Sequence

import discord
from discord import app_commands
from discord.utils import MISSING

from bot.errors import UserError
from bot.rules import Ruleset
from bot.storage.errors import AlreadyHandled, file_fault
from bot.ui import limits
from bot.ui.i18n import Lang, error_text, lang_of
from bot.ui.text import clip

log = logging.getLogger(__name__)


def caller_lang(interaction: discord.Interaction) -> Lang:
    return lang_of(interaction.locale)


def public_lang(interaction: discord.Interaction, ruleset: Ruleset) -> Lang:
    if ruleset.language is not None:
        return ruleset.language
    return lang_of(interaction.guild_locale)


def mentions_for(user_id: int | None, *others: int) -> discord.AllowedMentions:
    """Nothing may ping but the players a message is about."""
    users = [u for u in (user_id, *others) if u is not None]
    if not users:
        return discord.AllowedMentions.none()
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False, users=[discord.Object(u) for u in users]
    )


async def send_public(
    interaction: discord.Interaction,
    *,
    embeds: Sequence[discord.Embed],
    mention: int | None = None,
    view: discord.ui.View | None = None,
    file: discord.File | None = None,
    mentions: Sequence[int] = (),
) -> None:
    """Post a result in the channel; ``mention`` (or ``mentions``) pings those players, nobody else."""
    users = ([mention] if mention is not None else []) + [m for m in mentions if m != mention]
    content = " ".join(f"<@{user}>" for user in users) or MISSING
    allowed = mentions_for(None, *users)
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
    content = clip(text, limits.CONTENT)
    allowed = discord.AllowedMentions.none()
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=True, allowed_mentions=allowed)
    else:
        await interaction.response.send_message(content, ephemeral=True, allowed_mentions=allowed)


def root_of(error: BaseException) -> BaseException:
    """The error that started it, under discord.py's wrappers (a command's or a transformer's)."""
    while isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError):
        if error.__cause__ is None:
            break
        error = error.__cause__
    return error


def refusal_for(interaction: discord.Interaction, error: BaseException) -> UserError:
    """What to tell the caller about an error; an unexpected one is logged with a short id."""
    match root_of(error):
        case UserError() as refusal:
            return refusal
        case app_commands.NoPrivateMessage():
            return UserError("guild_only")
        case app_commands.TransformerError() as bad:
            return UserError("option_invalid", value=str(bad.value))
        case app_commands.CheckFailure():
            return UserError("not_gm")
        case root if (fault := file_fault(root)) is not None:
            # Nothing was saved (the transaction rolled back); the admins must act, the user can wait.
            log.error("The database cannot be written (%s): %s", fault, root)
            return UserError(f"storage_{fault}")
        case root:
            error_id = secrets.token_hex(4)
            command = interaction.command.qualified_name if interaction.command else "?"
            log.error("Error %s in command %s", error_id, command, exc_info=root)
            return UserError("internal_error", error_id=error_id)


async def answer_error(interaction: discord.Interaction, error: BaseException) -> None:
    """The error funnel: every error of a command, a check or a button ends here, and is answered
    privately in the caller's language."""
    if isinstance(root_of(error), AlreadyHandled):
        interaction.extras["error"] = "replayed"  # what the metrics count (bot/interface/metrics.py)
        # A second delivery of an interaction whose change is committed (a gateway replay): Discord
        # has the first answer already, and would refuse a second one.
        log.info("Interaction %s delivered again: already applied, not answered", interaction.id)
        if interaction.response.is_done():  # it had deferred: take its "thinking…" message back
            with contextlib.suppress(discord.HTTPException):
                await interaction.delete_original_response()
        return
    if interaction.client.is_closed():
        interaction.extras["error"] = "unanswered"
        # Shutting down: the HTTP session is closed (which is likely what failed), nobody can be told.
        log.warning("Interaction %s left unanswered: the bot is shutting down (%r)", interaction.id, error)
        return
    refusal = refusal_for(interaction, error)
    interaction.extras["error"] = refusal.key
    text = error_text(caller_lang(interaction), refusal)
    try:
        await send_private(interaction, text)
    except discord.HTTPException:
        log.warning("Could not tell the user about an error (interaction %s)", interaction.id)
