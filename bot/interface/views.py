"""Views: a confirmation kept in memory (and the answer to its buttons after a restart), and list
paging (the persistent buttons, Heal and the deletion's, live with their flows, in flows.py)."""

from __future__ import annotations

import contextlib
import re
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.interface.replies import answer_error, caller_lang, send_private
from bot.ui.i18n import Lang, t

CONFIRM_TIMEOUT = 60.0
PAGER_TIMEOUT = 300.0


class Confirm(discord.ui.View):
    """Asks the caller (and only the caller) to confirm; buttons disabled after use or timeout.

    It lives in memory: its buttons name the run of the bot that asked (``run``, the bot's
    :attr:`~bot.interface.client.HarmoniesBot.run_id`), so that a click after a restart gets a private
    answer (:class:`ExpiredQuestion`) instead of none."""

    def __init__(
        self,
        author_id: int,
        lang: Lang,
        on_confirm: Callable[[discord.Interaction[Any]], Awaitable[None]],
        *,
        run: str,
    ) -> None:
        super().__init__(timeout=CONFIRM_TIMEOUT)
        self.author_id = author_id
        self.lang = lang
        self.on_confirm = on_confirm
        self.message: discord.InteractionMessage | None = None
        self.confirm.label = t(lang, "button_confirm")
        self.cancel.label = t(lang, "button_cancel")
        question = secrets.token_hex(4)
        self.confirm.custom_id = f"ask:{run}:{question}:y"
        self.cancel.custom_id = f"ask:{run}:{question}:n"

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        if interaction.user.id != self.author_id:
            # A refusal: in the language of whoever clicked, not of the author.
            await send_private(interaction, t(caller_lang(interaction), "not_your_button"))
            return False
        return True

    def _disable(self) -> None:
        for item in self.children:
            if isinstance(item, discord.ui.Button):
                item.disabled = True

    @discord.ui.button(style=discord.ButtonStyle.danger, label="Confirm")
    async def confirm(self, interaction: discord.Interaction[Any], button: discord.ui.Button[Any]) -> None:
        self._disable()
        self.stop()
        await self.on_confirm(interaction)

    @discord.ui.button(style=discord.ButtonStyle.secondary, label="Cancel")
    async def cancel(self, interaction: discord.Interaction[Any], button: discord.ui.Button[Any]) -> None:
        self._disable()
        self.stop()
        await interaction.response.edit_message(content=t(self.lang, "cancelled"), view=self)

    async def on_timeout(self) -> None:
        self._disable()
        if self.message is not None:
            with contextlib.suppress(discord.HTTPException):
                await self.message.edit(view=self)

    async def on_error(self, interaction: discord.Interaction[Any], error: Exception, item: Any, /) -> None:
        await answer_error(interaction, error)


class ExpiredQuestion(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ask:(?P<run>[0-9a-f]{8}):[0-9a-f]{8}:[yn]"
):
    """Any click on a :class:`Confirm` button. When it was asked by an earlier run of the bot (before
    a restart), nothing in memory waits for it any more: say so privately. (In the run that asked,
    the live view answers, and this does nothing.)"""

    def __init__(self, custom_id: str, run: str) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id))
        self.run = run

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ExpiredQuestion:
        return cls(match.string, match["run"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if self.run == interaction.client.run_id:
            return
        with contextlib.suppress(discord.HTTPException):
            await send_private(interaction, t(caller_lang(interaction), "question_expired"))


class Pager(discord.ui.View):
    """Previous / next over pre-rendered embeds."""

    def __init__(self, pages: list[discord.Embed]) -> None:
        super().__init__(timeout=PAGER_TIMEOUT)
        self.pages = pages
        self.index = 0
        self._sync()

    def _sync(self) -> None:
        self.previous.disabled = self.index == 0
        self.next.disabled = self.index >= len(self.pages) - 1

    @discord.ui.button(emoji="◀️", style=discord.ButtonStyle.secondary)
    async def previous(self, interaction: discord.Interaction[Any], button: discord.ui.Button[Any]) -> None:
        self.index = max(0, self.index - 1)
        self._sync()
        await interaction.response.edit_message(embed=self.pages[self.index], view=self)

    @discord.ui.button(emoji="▶️", style=discord.ButtonStyle.secondary)
    async def next(self, interaction: discord.Interaction[Any], button: discord.ui.Button[Any]) -> None:
        self.index = min(len(self.pages) - 1, self.index + 1)
        self._sync()
        await interaction.response.edit_message(embed=self.pages[self.index], view=self)
