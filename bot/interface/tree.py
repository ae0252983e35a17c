"""The command tree: it refuses options Discord would never send, and hands every error of every
command to the one error funnel (:func:`bot.interface.replies.answer_error`)."""

from __future__ import annotations

import contextlib
import logging
import time
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NoReturn, Protocol

import discord
from discord import AppCommandOptionType as OptionType
from discord import app_commands

from bot.errors import UserError
from bot.interface.metrics import Metrics
from bot.interface.names import NameBook
from bot.interface.replies import answer_error

log = logging.getLogger(__name__)
_NUMBERS = (OptionType.integer, OptionType.number)


class Served(Protocol):
    """What the tree needs of the bot it serves (:class:`~bot.interface.client.HarmoniesBot`)."""

    names: NameBook
    metrics: Metrics

    def handling(self) -> None: ...


class HarmoniesTree(app_commands.CommandTree[Any]):
    """Every error of every command ends here: user errors are answered privately in the caller's
    language; anything else is logged with a short id that the user is shown."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        bot: Served = interaction.client
        bot.names.seen(interaction)  # for autocomplete choices ("Aélis (Léa)")
        if interaction.type is discord.InteractionType.application_command:
            command = interaction.command
            if isinstance(command, app_commands.Command):
                try:
                    check_options(command, vars(interaction.namespace))
                except UserError as refusal:
                    await answer_error(interaction, refusal)
                    return False
        return True

    async def _call(self, interaction: discord.Interaction[Any]) -> None:
        """discord.py's dispatch, with one more guarantee: whatever a malformed payload breaks while it
        is read (the command's name, an option, a resolved user's id, here or in interaction_check)
        ends in the error funnel as a refusal, instead of ending the task with no answer at all.
        (discord.py sends only its own AppCommandError subclasses to on_error.) Every command is
        counted, with its outcome and its time (:mod:`bot.interface.metrics`), and in flight until it
        ends (:meth:`~bot.interface.client.HarmoniesBot.drain`)."""
        bot: Served = interaction.client
        bot.handling()
        began = time.perf_counter()
        try:
            await super()._call(interaction)
        except app_commands.AppCommandError:
            interaction.extras.setdefault("error", "internal_error")  # answered after this call
            raise
        except Exception as error:
            log.warning("Malformed interaction %s refused: %r", interaction.id, error)
            if interaction.type is discord.InteractionType.autocomplete:
                with contextlib.suppress(discord.HTTPException):
                    await interaction.response.autocomplete([])
                return
            await answer_error(
                interaction,
                UserError(
                    "Discord sent this command in a form the bot cannot read (it may have "
                    "just been updated). Nothing was changed: try again in a minute."
                ),
            )
        finally:
            if interaction.type is discord.InteractionType.application_command:
                bot.metrics.command_done(interaction, time.perf_counter() - began)

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError, /
    ) -> None:
        await answer_error(interaction, error)


@dataclass(frozen=True)
class _Option:
    """What Discord's client allows for one option of a command (read once per command)."""

    name: str
    required: bool
    choices: tuple[object, ...]
    type: OptionType
    low: float | None
    high: float | None


@lru_cache(maxsize=512)  # per command: a definition never changes once the tree is built
def _options(command: app_commands.Command[Any, ..., Any]) -> tuple[_Option, ...]:
    return tuple(
        _Option(
            p.display_name,
            p.required,
            tuple(choice.value for choice in p.choices),
            p.type,
            p.min_value,
            p.max_value,
        )
        for p in command.parameters
    )


def check_options(command: app_commands.Command[Any, ..., Any], given: dict[str, Any]) -> None:
    """Refuse what Discord's own client never sends for this command's definition: a missing required
    option, a value outside its choices, its range or its length, or of another type. Only a stale
    command definition (the bot updated, Discord not yet) or a forged payload does; it gets a refusal
    instead of reaching the command."""
    for option in _options(command):
        if option.name not in given:
            if option.required:
                refuse(option.name)
            continue
        value = given[option.name]
        if option.choices and value not in option.choices:
            refuse(value)
        if option.type in _NUMBERS:
            # An integer option must hold an integer: a stale definition may still send 1.5 (or 2.0).
            wanted = int if option.type is OptionType.integer else int | float
            if isinstance(value, bool) or not isinstance(value, wanted):
                refuse(value)
            size = value
        elif option.type is OptionType.string:
            if not isinstance(value, str):
                refuse(value)
            size = len(value)  # discord.py keeps a string's min/max length in min_value/max_value
        elif option.type is OptionType.boolean:
            if not isinstance(value, bool):
                refuse(value)
            continue
        else:
            continue
        if (option.low is not None and size < option.low) or (option.high is not None and size > option.high):
            refuse(value)


def refuse(value: object) -> NoReturn:
    raise UserError(
        "This value is not valid: {value}. Check the option and try again.", value=str(value)[:100]
    )
