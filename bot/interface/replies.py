"""Answers: the caller (an :class:`~bot.actions.actor.Actor`, their language); results in the server's
language with their Heal and Card buttons (``HEAL_ID``: the healing cog's, ``CARD_ID``: the characters
cog's), a secret NPC's figures to the GM alone; deferral, retries, and the error funnel."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.utils import MISSING

from bot.actions.actor import Actor, gm_only
from bot.errors import N_, Failure, UserError
from bot.rules import Character, Ruleset, Track, can_roll_healing
from bot.rules.odds import HealingOdds, healing_odds
from bot.storage.errors import AlreadyHandled, Unavailable, Unconfirmed, file_fault
from bot.ui.card import character_card, secret_card, secret_result
from bot.ui.i18n import Lang, lang_of, t, tn
from bot.ui.refusals import error_text
from bot.ui.results import offer_sign, stakes
from bot.ui.text import CONTENT, clip

log = logging.getLogger(__name__)

SLOW_S = 1.5  # unanswered after this long: deferred ("thinking…"), then answered by a follow-up
DISCORD_DEADLINE_S = 3.0  # Discord takes an interaction's first answer this long after it was sent
RETRY_S = 0.2  # between two tries of an answer that failed on an OS error (issue 36)
FOLLOW_UP_RETRY_S = 10.0  # how long a follow-up or an edit is tried (its token lasts 15 minutes)
# In Interaction.extras: the lock held while the first answer is sent, a "thinking…" not replaced yet
# ("public" or "private"), left unanswered on purpose (a replay), the deferral's timer, the arrival time.
_LOCK, _THINKING, _SETTLED = "harmonies.answering", "harmonies.thinking", "harmonies.settled"
_TIMER, _ARRIVED = "harmonies.timer", "harmonies.arrived"
HEAL_ID = r"heal:(?P<cid>\d{1,19}):(?P<track>[pm])"
CARD_ID = r"card:(?P<cid>\d{1,19})"


def not_in_server() -> UserError:
    return UserError("This command only works in a server, not in direct messages.")


def invalid(value: str) -> UserError:
    return UserError("This value is not valid: {value}. Check the option and try again.", value=value)


def actor_of(interaction: discord.Interaction) -> Actor:
    if interaction.guild_id is None:
        raise not_in_server()
    user, guild = interaction.user, interaction.guild
    return Actor(
        user_id=user.id,
        guild_id=interaction.guild_id,
        owns_guild=guild is not None and guild.owner_id == user.id,
        manages_guild=interaction.permissions.manage_guild,
        # From the interaction payload, whether or not the guild is cached.
        role_ids=frozenset(int(r) for r in user._roles) if isinstance(user, discord.Member) else frozenset(),
        interaction_id=interaction.id,
    )


def caller_lang(interaction: discord.Interaction) -> Lang:
    return lang_of(interaction.locale)


def public_lang(interaction: discord.Interaction, ruleset: Ruleset) -> Lang:
    return ruleset.language or lang_of(interaction.guild_locale)


def mentions_for(*users: int) -> discord.AllowedMentions:
    """Nothing may ping but the players a message is about."""
    if not users:
        return discord.AllowedMentions.none()
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False, users=[discord.Object(u) for u in users]
    )


def _answering(interaction: discord.Interaction) -> asyncio.Lock:
    lock: asyncio.Lock = interaction.extras.setdefault(_LOCK, asyncio.Lock())
    return lock


_deferring: set[asyncio.Task[None]] = set()  # referenced until done (the loop keeps weak references)
_DEFERRABLE = (
    discord.InteractionType.application_command,
    discord.InteractionType.component,
    discord.InteractionType.modal_submit,
)


def defer_when_slow(interaction: discord.Interaction) -> None:
    """Called for every interaction as it arrives: still unanswered after :data:`SLOW_S`, it is
    deferred (a command shows "thinking…"; a click nothing), and answered by a follow-up (:func:`respond`)."""
    if interaction.type not in _DEFERRABLE:
        return
    loop = asyncio.get_running_loop()
    arrived = interaction.extras[_ARRIVED] = loop.time()

    def slow() -> None:
        if (
            interaction.response.is_done()
            or interaction.extras.get(_SETTLED)
            or interaction.client.is_closed()
        ):
            return
        task = loop.create_task(_defer(interaction, arrived), name=f"defer-{interaction.id}")
        _deferring.add(task)
        task.add_done_callback(_deferring.discard)

    interaction.extras[_TIMER] = loop.call_later(SLOW_S, slow)


def _answered(interaction: discord.Interaction) -> None:
    """The first answer is sent: the loop drops the deferral's timer now, not in 1.5 s."""
    if (timer := interaction.extras.pop(_TIMER, None)) is not None:
        timer.cancel()


async def _defer(interaction: discord.Interaction, arrived: float) -> None:
    async with _answering(interaction):  # the command may be sending its answer: wait for it
        if interaction.response.is_done() or interaction.extras.get(_SETTLED):
            return
        if asyncio.get_running_loop().time() - arrived > DISCORD_DEADLINE_S:
            return  # too late for Discord (the command's own answer was tried meanwhile, and failed)
        command = interaction.type is discord.InteractionType.application_command
        try:
            await delivered(interaction, lambda: interaction.response.defer(thinking=command))
        except Undelivered:
            return
        except discord.HTTPException as exc:
            log.warning("Could not defer slow interaction %s: %s", interaction.id, exc)
            return
        if command:
            interaction.extras[_THINKING] = "public"
        log.info("Interaction %s not answered within %g s: deferred", interaction.id, SLOW_S)


async def think_privately(interaction: discord.Interaction) -> None:
    """A private "thinking…" (a command known to take a while, whose refusal must stay private)."""
    async with _answering(interaction):
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
            interaction.extras[_THINKING] = "private"


async def respond(
    interaction: discord.Interaction, content: Any = MISSING, *, ephemeral: bool = False, **kwargs: Any
) -> discord.Message | None:
    """Send a message answering ``interaction``: its response when none was sent yet, else a follow-up
    (the first one replaces a "thinking…"; a private one deletes a public "thinking…" first, so that
    it stays private). The message sent, when Discord says which."""
    async with _answering(interaction):
        if not interaction.response.is_done():
            sent = await delivered(
                interaction,
                lambda: interaction.response.send_message(content, ephemeral=ephemeral, **kwargs),
                files=kwargs.get("files", ()),
            )
            _answered(interaction)
            return sent.resource if isinstance(sent.resource, discord.Message) else None
    if interaction.extras.pop(_THINKING, None) == "public" and ephemeral:
        with contextlib.suppress(discord.HTTPException):
            await interaction.delete_original_response()
    return await delivered(
        interaction,
        lambda: interaction.followup.send(content, ephemeral=ephemeral, wait=True, **kwargs),
        files=kwargs.get("files", ()),
        first=False,
    )


async def update(interaction: discord.Interaction, **kwargs: Any) -> None:
    """Edit the message whose button was clicked: as the click's response, or, once the click was
    deferred, through the original response (the clicked message)."""
    async with _answering(interaction):
        if not interaction.response.is_done():
            await delivered(interaction, lambda: interaction.response.edit_message(**kwargs))
            _answered(interaction)
            return
    await delivered(interaction, lambda: interaction.edit_original_response(**kwargs), first=False)


_T = TypeVar("_T")


class Undelivered(Exception):
    """An answer that never reached Discord before its deadline (logged where it failed); whatever the
    interaction changed stays committed."""


async def delivered(
    interaction: discord.Interaction,
    send: Callable[[], Awaitable[_T]],
    *,
    files: Sequence[discord.File] = (),
    first: bool = True,
) -> _T:
    """``send()`` (an answer of ``interaction``), tried again on an OS error until its deadline: the
    first answer's is Discord's, a follow-up's :data:`FOLLOW_UP_RETRY_S`. Not a time-out: Discord may
    have it."""
    loop = asyncio.get_running_loop()
    began = interaction.extras.get(_ARRIVED, loop.time()) if first else loop.time()
    deadline = began + (DISCORD_DEADLINE_S if first else FOLLOW_UP_RETRY_S)
    tries = 0
    while True:
        tries += 1
        try:
            return await send()
        except OSError as error:
            if isinstance(error, TimeoutError) or loop.time() + RETRY_S >= deadline:
                name = interaction.command.qualified_name if interaction.command else interaction.type.name
                log.error(
                    "The answer to interaction %s (%s) could not reach Discord (%d tries): %s. "
                    "What it changed, if anything, stays committed",
                    interaction.id,
                    name,
                    tries,
                    error,
                )
                if first:  # too late for any answer now: the "thinking…" timer gives up too
                    interaction.extras[_SETTLED] = True
                raise Undelivered(interaction.id) from error
            log.warning(
                "Interaction %s: its answer could not reach Discord (%s); trying again", interaction.id, error
            )
        await asyncio.sleep(RETRY_S)
        for file in files:
            file.reset()


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
    await respond(
        interaction,
        " ".join(f"<@{user}>" for user in users) or MISSING,
        embeds=list(embeds),
        allowed_mentions=mentions_for(*users),
        files=[file] if file is not None else [],
        view=view or MISSING,
    )


async def send_private(interaction: discord.Interaction, text: str) -> None:
    """An ephemeral answer (refusals, errors) to the caller only."""
    await respond(
        interaction, clip(text, CONTENT), ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
    )


def root_of(error: BaseException) -> BaseException:
    """The error that started it, under discord.py's wrappers (a command's or a transformer's)."""
    while isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError):
        if error.__cause__ is None:
            break
        error = error.__cause__
    return error


async def answer_error(interaction: discord.Interaction, error: BaseException) -> None:
    """The error funnel: every error of a command, a check or a button ends here, answered privately in
    the caller's language (an unexpected one logged with a short id); ``extras["error"]``: the metrics'."""
    match root_of(error):
        case Undelivered():  # said in the log already, with its interaction
            interaction.extras["error"] = "unanswered"
            return
        case AlreadyHandled():
            # A replay of an interaction whose change is committed: Discord has its first answer already.
            interaction.extras["error"] = "replayed"
            log.info("Interaction %s delivered again: already applied, not answered", interaction.id)
            interaction.extras[_SETTLED] = True
            if interaction.extras.pop(_THINKING, None):  # it had deferred: take its "thinking…" back
                with contextlib.suppress(discord.HTTPException):
                    await interaction.delete_original_response()
            return
        case _ if interaction.client.is_closed():
            # Shutting down: the HTTP session is closed (likely what failed), nobody can be told.
            interaction.extras["error"] = "unanswered"
            log.warning(
                "Interaction %s left unanswered: the bot is shutting down (%r)", interaction.id, error
            )
            return
        case UserError() as refusal:
            pass
        case app_commands.NoPrivateMessage():
            refusal = not_in_server()
        case app_commands.TransformerError() as bad:
            refusal = invalid(str(bad.value))
        case app_commands.CheckFailure():
            refusal = gm_only()
        case Unconfirmed() as lost:  # before Unavailable, its parent: the COMMIT may have landed
            log.error(
                "The database did not confirm a change (interaction %s): %s", interaction.id, lost.cause
            )
            refusal = Failure(
                "The database did not confirm the change: it may have been recorded, or "
                "not. Check /history before trying again."
            )
        case Unavailable() as down:  # rolled back before its COMMIT: nothing was changed
            log.error("The database is unavailable (interaction %s): %s", interaction.id, down.cause)
            refusal = Failure(
                "The database is unavailable right now: nothing was changed. Try again in a moment."
            )
        case root if (fault := file_fault(root)) is not None:
            # Nothing was saved (the transaction rolled back); the admins must act, the user can wait.
            state = getattr(root, "sqlstate", None) or type(root).__name__  # SQLite's errors have none
            log.error("The database cannot be written (%s, SQLSTATE %s): %s", fault, state, root)
            refusal = Failure(
                N_(
                    "The bot's database is full (no space left on its disk): nothing was "
                    "saved. Tell the bot's admins, and try again once they have freed some "
                    "space."
                )
                if fault == "full"
                else N_(
                    "The bot's database is read-only at the moment: nothing was saved. Tell "
                    "the bot's admins, and try again once they have fixed it."
                )
            )
        case root:
            error_id = secrets.token_hex(4)
            command = interaction.command.qualified_name if interaction.command else "?"
            log.error("Error %s in command %s", error_id, command, exc_info=root)
            refusal = Failure(
                "Something went wrong on our side (error id {error_id}). The change may "
                "already be recorded: check /history before trying again. If it keeps "
                "happening, give this id to the bot's admins.",
                error_id=error_id,
            )
    interaction.extras["error"] = refusal.outcome
    try:
        await send_private(interaction, error_text(caller_lang(interaction), refusal))
    except (discord.HTTPException, Undelivered):
        log.warning("Could not tell the user about an error (interaction %s)", interaction.id)


def heal_button(
    character_id: int, track: Track, lang: Lang, odds: HealingOdds | None = None
) -> discord.ui.Button[Any]:
    """Roll one healing session of ``track``. With ``odds``, it says what is at stake ("Heal · success
    36%"): blue 🩹 when worth offering, red ☠️ (🌀) when the first roll can kill (make incoherent), grey
    ⛔ when it cannot reasonably succeed."""
    label = t(lang, "Heal") if track is Track.PHYSICAL else t(lang, "Heal (mental)")
    style, emoji = discord.ButtonStyle.primary, "🩹"
    if odds is not None:
        label, emoji = f"{label} · {stakes(odds, lang)}", offer_sign(odds)
        if odds.deadly:
            style = discord.ButtonStyle.danger
        elif odds.hopeless:
            style = discord.ButtonStyle.secondary
    return discord.ui.Button(
        style=style,
        emoji=emoji,
        label=label[:80],
        custom_id=f"heal:{character_id}:{'p' if track is Track.PHYSICAL else 'm'}",
    )


def card_button(character_id: int, lang: Lang) -> discord.ui.Button[Any]:
    """Show the full card privately to whoever clicks."""
    return discord.ui.Button(
        style=discord.ButtonStyle.secondary,
        emoji="📋",
        label=t(lang, "Card"),
        custom_id=f"card:{character_id}",
    )


def card_view(character: Character, ruleset: Ruleset, lang: Lang) -> discord.ui.View | None:
    """Under a card: the Heal buttons when a healing session is available; under a short result
    (:func:`result_view`), the Card button too."""
    if character.id is None:
        return None
    secret = ruleset.is_secret(character.owner_id, character.id)  # the odds would tell its wounds
    heal = [
        heal_button(character.id, track, lang, None if secret else odds)
        for track in Track
        if (odds := healing_odds(character, ruleset, track)) is not None
    ]
    return buttons_view(*heal) if heal else None


def result_view(character: Character, ruleset: Ruleset, lang: Lang) -> discord.ui.View | None:
    if character.id is None:
        return None
    view = card_view(character, ruleset, lang) or buttons_view()
    view.add_item(card_button(character.id, lang))
    return view


def buttons_view(*buttons: discord.ui.Item[Any]) -> discord.ui.View:
    """Buttons the cogs answer by their custom_id (they survive restarts): the view is stopped, so
    that discord.py keeps nothing per message sent."""
    view = discord.ui.View(timeout=None)
    for button in buttons:
        view.add_item(button)
    view.stop()
    return view


def note_unused_dice(result: discord.Embed, unused: int, lang: Lang) -> None:
    """The player typed more dice than were needed: the result says so rather than drop them silently."""
    if unused:
        result.set_footer(
            text=tn(
                lang, "{count} of your dice was not needed.", "{count} of your dice were not needed.", unused
            )
        )


async def send_result(
    interaction: discord.Interaction[Any],
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
    if ruleset.is_secret(character.owner_id, character.id):
        await send_public(interaction, embeds=[secret_result(character, lang, title_key)], view=view)
        await send_gm_only(interaction, result, ruleset)
    else:
        await send_public(interaction, embeds=[result], view=view, mention=mention)


async def send_card(
    interaction: discord.Interaction[Any], character: Character, ruleset: Ruleset, *, mention: bool = False
) -> None:
    """A character's card in the channel (as :func:`send_result`), with its Heal buttons."""
    lang = public_lang(interaction, ruleset)
    embed, view = full_card(character, ruleset, lang), card_view(character, ruleset, lang)
    if ruleset.is_secret(character.owner_id, character.id):
        await send_public(interaction, embeds=[secret_card(character, lang)], view=view)
        await send_gm_only(interaction, embed, ruleset)
    else:
        await send_public(
            interaction, embeds=[embed], view=view, mention=character.owner_id if mention else None
        )


async def send_gm_only(interaction: discord.Interaction[Any], embed: discord.Embed, ruleset: Ruleset) -> None:
    """The exact figures of a secret NPC, privately to the GM who acted (nobody else ever)."""
    if actor_of(interaction).is_gm(ruleset):
        lang = caller_lang(interaction)
        embed.set_author(name=t(lang, "For you only: this NPC is secret, the channel saw one word"))
        await interaction.followup.send(
            embed=embed, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )


def full_card(character: Character, ruleset: Ruleset, lang: Lang) -> discord.Embed:
    return character_card(character, ruleset, lang, can_heal=can_roll_healing(character, ruleset))


async def send_card_privately(
    interaction: discord.Interaction[Any], character: Character, ruleset: Ruleset
) -> None:
    """The full card to the caller alone, in their language (a secret NPC's as a word, but to a GM)."""
    lang = caller_lang(interaction)
    if ruleset.is_secret(character.owner_id, character.id) and not actor_of(interaction).is_gm(ruleset):
        embed = secret_card(character, lang)
    else:
        embed = full_card(character, ruleset, lang)
    await respond(interaction, embed=embed, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())
