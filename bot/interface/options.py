"""Choices and option descriptions shared by several cogs, one cog's own living in it (in English:
the French is in bot/locale/fr/LC_MESSAGES/harmonies.po)."""

from __future__ import annotations

from discord import app_commands
from discord.app_commands import locale_str

from bot.rules import Track
from bot.rules.severity import SEVERITY_NAMES


def choice(value: str) -> app_commands.Choice[str]:
    """A choice named by its value (``light``, ``physical``…), translated in the context ``choice``."""
    return app_commands.Choice(name=locale_str(value), value=value)


PHYSICAL = [choice(n) for n in SEVERITY_NAMES[Track.PHYSICAL]]
MENTAL = [choice(n) for n in SEVERITY_NAMES[Track.MENTAL]]
TRACKS = [choice(track.value) for track in Track]

WHO = {
    "target": locale_str("A player: their active character"),
    "character": locale_str("Any character"),
}
"""The two ways a GM command names its character: a tagged player, or any character."""
