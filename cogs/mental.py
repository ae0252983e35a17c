"""/mental: a GM inflicts mental wounds (the command is shared with /wound: bot/interface/wounding.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord.app_commands import locale_str

from bot.interface.options import MENTAL
from bot.interface.wounding import WoundCog, inflict_command
from bot.rules import Track

if TYPE_CHECKING:
    from bot.interface.client import HarmoniesBot


class Mental(WoundCog):
    track = Track.MENTAL
    mental = inflict_command("mental", locale_str("Inflict mental wounds (GM)", key="mental"), MENTAL)


async def setup(bot: HarmoniesBot) -> None:
    await bot.add_cog(Mental(bot))
