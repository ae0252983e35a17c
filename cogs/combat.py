"""/wound: a GM inflicts physical wounds (the command is shared with /mental: bot/interface/wounding.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord.app_commands import locale_str

from bot.interface.options import PHYSICAL
from bot.interface.wounding import WoundCog, inflict_command
from bot.rules import Track

if TYPE_CHECKING:
    from bot.interface.client import HarmoniesBot


class Combat(WoundCog):
    track = Track.PHYSICAL
    wound = inflict_command("wound", locale_str("Inflict physical wounds (GM)", key="wound"), PHYSICAL)


async def setup(bot: HarmoniesBot) -> None:
    await bot.add_cog(Combat(bot))
