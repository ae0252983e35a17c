"""The French of the slash commands, for Discord's localisation fields, from the commands' catalogue
(:mod:`bot.ui.strings_commands`): a description or a choice by the key it is declared with, a command's
or an option's name by that name (``name.heal.roll``, ``option.severity``)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.ui.strings_commands import COMMANDS

FRENCH_LOCALES = (discord.Locale.french,)


def key_of(string: app_commands.locale_str, context: app_commands.TranslationContextTypes) -> str | None:
    """The catalogue key of ``string``: the one it was declared with, else its name's."""
    if key := string.extras.get("key"):
        return str(key)
    data = context.data
    if context.location in (Where.command_name, Where.group_name) and isinstance(
        data, app_commands.Command | app_commands.Group
    ):
        return "name." + data.qualified_name.replace(" ", ".")
    if context.location is Where.parameter_name:
        return "option." + string.message
    return None


class HarmoniesTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if locale not in FRENCH_LOCALES or (key := key_of(string, context)) is None:
            return None
        entry = COMMANDS.get(key)
        return None if entry is None else entry["fr"]
