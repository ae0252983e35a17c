"""What the cogs' views share: their base, :class:`Lasting` for the buttons that survive restarts, the
question kept in memory (and its answer after a restart), the pager. A view one cog uses lives there."""

from __future__ import annotations

import contextlib
import functools
import re
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.errors import N_
from bot.interface.replies import answer_error, caller_lang, send_private, update
from bot.ui.i18n import Lang, t

CONFIRM_TIMEOUT = 60.0
PAGER_TIMEOUT = 300.0
CONFIRM = N_("Confirm")
CANCEL = N_("Cancel")
CANCELLED = N_("Cancelled: nothing was changed.")
NOTHING_ROLLED = N_("Nothing was rolled.")  # a question's roll was refused (a follow-up says why)


async def refuse_stranger(interaction: discord.Interaction[Any], author_id: int | None) -> bool:
    """Whether a click comes from someone else than ``author_id`` (None: anyone may click), told so."""
    if author_id is None or interaction.user.id == author_id:
        return False
    await send_private(
        interaction, t(caller_lang(interaction), "Only the person who ran the command can use these buttons.")
    )
    return True


class View(discord.ui.View):
    """Each click is in flight until it ends (``HarmoniesBot.drain``), its errors end in the error
    funnel; with an ``author_id``, only that user may click."""

    def __init__(self, *, timeout: float, author_id: int | None = None) -> None:
        super().__init__(timeout=timeout)
        self.author_id = author_id

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        interaction.client.handling()
        return not await refuse_stranger(interaction, self.author_id)

    def disable(self) -> None:
        for item in self.children:
            if isinstance(item, discord.ui.Button | discord.ui.Select):
                item.disabled = True

    async def on_error(self, interaction: discord.Interaction[Any], error: Exception, item: Any, /) -> None:
        await answer_error(interaction, error)


class Lasting:
    """The DynamicItems' :class:`View`: in flight, errors to the funnel; ``clicked`` does the work."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        interaction.client.handling()
        return True

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await self.clicked(interaction)
        except Exception as error:
            await answer_error(interaction, error)

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        raise NotImplementedError


class Question(View):
    """A question for ``author_id``: a red go-on button (``go``) and Cancel, disabled once answered.
    Either ``on_go`` runs with the click that went on, or the caller does ``await view.wait()`` and
    reads ``value`` (True, False, or None: no answer in time), the click answered with ``going``.
    ``cancel_first``: the safe choice under the thumb. The buttons name the bot's ``run``, so that a
    click after a restart is answered (:class:`ExpiredQuestion`)."""

    def __init__(
        self,
        author_id: int,
        lang: Lang,
        *,
        go: str,
        run: str,
        on_go: Callable[[discord.Interaction[Any]], Awaitable[None]] | None = None,
        going: str = "",
        cancel_first: bool = False,
    ) -> None:
        super().__init__(timeout=CONFIRM_TIMEOUT, author_id=author_id)
        self.lang = lang
        self.on_go = on_go
        self.going = going
        self.value: bool | None = None
        self.message: discord.Message | None = None  # where to disable the buttons on a time-out
        question = secrets.token_hex(4)
        go_on = discord.ui.Button[Question](
            style=discord.ButtonStyle.danger, label=t(lang, go), custom_id=f"ask:{run}:{question}:y"
        )
        cancel = discord.ui.Button[Question](
            style=discord.ButtonStyle.secondary, label=t(lang, CANCEL), custom_id=f"ask:{run}:{question}:n"
        )
        go_on.callback = functools.partial(self._answer, True)  # type: ignore[method-assign]
        cancel.callback = functools.partial(self._answer, False)  # type: ignore[method-assign]
        for button in (cancel, go_on) if cancel_first else (go_on, cancel):
            self.add_item(button)

    async def _answer(self, value: bool, interaction: discord.Interaction[Any]) -> None:
        if self.is_finished():  # a second click that raced the first one: acknowledged, nothing more
            await interaction.response.defer()
            return
        self.value = value
        self.disable()
        self.stop()
        if value and self.on_go is not None:
            await self.on_go(interaction)
        else:
            await update(interaction, content=t(self.lang, self.going if value else CANCELLED), view=self)

    async def on_timeout(self) -> None:
        self.disable()
        if self.message is not None:
            with contextlib.suppress(discord.HTTPException):
                await self.message.edit(view=self)


class ExpiredQuestion(
    Lasting,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ask:(?P<run>[0-9a-f]{8}):[0-9a-f]{8}:[yn]",
):
    """Any click on a :class:`Question`'s button: asked before a restart, it says so privately (in the
    run that asked, the live view answers)."""

    def __init__(self, custom_id: str, run: str) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id))
        self.run = run

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ExpiredQuestion:
        return cls(match.string, match["run"])

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        if self.run == interaction.client.run_id:
            return
        with contextlib.suppress(discord.HTTPException):
            await send_private(
                interaction,
                t(
                    caller_lang(interaction),
                    "This question was asked before the bot restarted, and no longer waits "
                    "for an answer: nothing was changed. Run the command again.",
                ),
            )


class Pager(View):
    """Turns pages (1-based), each rendered at its click by ``render(page)``, which also says how many
    there are now. With ``lang`` (/history): First, Previous and Next; without: ◀️ and ▶️."""

    def __init__(
        self,
        render: Callable[[int], Awaitable[tuple[discord.Embed, int]]],
        page: int,
        pages: int,
        *,
        author_id: int | None = None,
        lang: Lang | None = None,
    ) -> None:
        super().__init__(timeout=PAGER_TIMEOUT, author_id=author_id)
        self.render = render
        self.page, self.pages = page, pages
        # Each button's step (None: to the first page), label and emoji.
        looks: list[tuple[int | None, str | None, str | None]] = (
            [(-1, None, "◀️"), (1, None, "▶️")]
            if lang is None
            else [(None, t(lang, "First"), None), (-1, t(lang, "Previous"), None), (1, t(lang, "Next"), None)]
        )
        self.steps: dict[discord.ui.Button[Pager], int | None] = {}
        for step, label, emoji in looks:
            button = discord.ui.Button[Pager](label=label, emoji=emoji, style=discord.ButtonStyle.secondary)
            button.callback = functools.partial(self._turn, step)  # type: ignore[method-assign]
            self.steps[button] = step
            self.add_item(button)
        self._sync()

    def _sync(self) -> None:
        for button, step in self.steps.items():
            button.disabled = self.page >= self.pages if step == 1 else self.page <= 1

    async def _turn(self, step: int | None, interaction: discord.Interaction[Any]) -> None:
        """``step`` pages on (None: to the first)."""
        page = 1 if step is None else self.page + step
        embed, self.pages = await self.render(max(1, min(page, self.pages)))
        self.page = max(1, min(page, self.pages))
        self._sync()
        await update(interaction, embed=embed, view=self)
