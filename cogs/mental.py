"""/mental: a GM inflicts mental wounds, through the flow of /wound (cogs/combat.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord.app_commands import locale_str

from bot.interface.autocomplete import MENTAL
from bot.rules import Track

# Relative: cogs/ is the package bot.cogs once installed (pyproject's package-dir), "cogs" to mypy.
from .combat import wounding

if TYPE_CHECKING:
    from bot.interface.client import HarmoniesBot


async def setup(bot: HarmoniesBot) -> None:
    bot.tree.add_command(wounding("mental", locale_str("Inflict mental wounds (GM)"), Track.MENTAL, MENTAL))
