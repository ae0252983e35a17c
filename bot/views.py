"""Buttons: the persistent 'roll healing' button, delete confirmation, and list paging."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.replies import answer_error, send_private
from bot.rules import Track
from bot.ui.i18n import Lang, lang_of, t

if TYPE_CHECKING:
    from bot.client import HarmoniesBot

CONFIRM_TIMEOUT = 60.0
PAGER_TIMEOUT = 300.0


class HealButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"heal:(?P<cid>\d{1,19}):(?P<track>[pm])"
):
    """Survives restarts: everything it needs is in its custom_id. The guild comes from the click."""

    def __init__(self, character_id: int, track: Track = Track.PHYSICAL, lang: Lang = "en") -> None:
        code = "p" if track is Track.PHYSICAL else "m"
        super().__init__(
            discord.ui.Button(
                style=discord.ButtonStyle.primary,
                emoji="🩹",
                label=t(lang, "button_heal" if track is Track.PHYSICAL else "button_heal_mental"),
                custom_id=f"heal:{character_id}:{code}",
            )
        )
        self.character_id = character_id
        self.track = track

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HealButton:
        return cls(int(match["cid"]), Track.PHYSICAL if match["track"] == "p" else Track.MENTAL)

    async def callback(self, interaction: discord.Interaction[HarmoniesBot]) -> None:  # type: ignore[override]
        from bot.flows import heal_and_reply

        try:
            await heal_and_reply(interaction, character_id=self.character_id, track=self.track)
        except Exception as error:
            await answer_error(interaction, error)


class DeleteChoice(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"delete:(?P<cid>\d{1,19}):(?P<author>\d{1,20}):(?P<answer>[yn])",
):
    """Confirm or Cancel under a deletion question. Survives restarts like the Heal button: the
    character, who asked and the answer are all in its custom_id. Only who asked may answer."""

    def __init__(
        self, character_id: int, author_id: int, confirm: bool, lang: Lang = "en", *, disabled: bool = False
    ) -> None:
        super().__init__(
            discord.ui.Button(
                style=discord.ButtonStyle.danger if confirm else discord.ButtonStyle.secondary,
                label=t(lang, "button_confirm" if confirm else "button_cancel"),
                custom_id=f"delete:{character_id}:{author_id}:{'y' if confirm else 'n'}",
                disabled=disabled,
            )
        )
        self.character_id = character_id
        self.author_id = author_id
        self.confirm = confirm

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> DeleteChoice:
        return cls(int(match["cid"]), int(match["author"]), match["answer"] == "y")

    async def callback(self, interaction: discord.Interaction[HarmoniesBot]) -> None:  # type: ignore[override]
        from bot.flows import delete_and_reply

        lang = lang_of(interaction.locale)  # the language of whoever clicked
        try:
            if interaction.user.id != self.author_id:
                await send_private(interaction, t(lang, "not_your_button"))
            elif self.confirm:
                answered = delete_question(self.character_id, self.author_id, lang, disabled=True)
                await delete_and_reply(interaction, self.character_id, answered=answered)
            else:
                answered = delete_question(self.character_id, self.author_id, lang, disabled=True)
                await interaction.response.edit_message(content=t(lang, "cancelled"), view=answered)
        except Exception as error:
            await answer_error(interaction, error)


def delete_question(
    character_id: int, author_id: int, lang: Lang, *, disabled: bool = False
) -> discord.ui.View:
    """The Confirm and Cancel buttons of a deletion question (disabled once answered)."""
    view = discord.ui.View(timeout=None)
    for confirm in (True, False):
        view.add_item(DeleteChoice(character_id, author_id, confirm, lang, disabled=disabled))
    return view


class Confirm(discord.ui.View):
    """Asks the caller (and only the caller) to confirm; buttons disabled after use or timeout."""

    def __init__(
        self, author_id: int, lang: Lang, on_confirm: Callable[[discord.Interaction[Any]], Awaitable[None]]
    ) -> None:
        super().__init__(timeout=CONFIRM_TIMEOUT)
        self.author_id = author_id
        self.lang = lang
        self.on_confirm = on_confirm
        self.message: discord.InteractionMessage | None = None
        self.confirm.label = t(lang, "button_confirm")
        self.cancel.label = t(lang, "button_cancel")

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        if interaction.user.id != self.author_id:
            # A refusal: in the language of whoever clicked, not of the author.
            await interaction.response.send_message(
                t(lang_of(interaction.locale), "not_your_button"),
                ephemeral=True,
                allowed_mentions=discord.AllowedMentions.none(),
            )
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
