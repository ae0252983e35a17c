"""Right-click a member: "Wound…" (GM; its choices: :class:`WoundChooser`) and "Card" (anyone), on
that member's active character."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.actions.actor import active_of
from bot.actions.wounds import Inflict
from bot.interface.replies import actor_of, caller_lang, respond, send_card_privately
from bot.interface.views import View
from bot.rules import SEVERITIES, Character, Severity, Track, parse_severity, severity_name
from bot.rules.wounds import MAX_COUNT
from bot.storage.store import Reader
from bot.ui.i18n import Lang, t, tn
from bot.ui.text import severity_label, t_name

# Relative: cogs/ is the package bot.cogs once installed (pyproject's package-dir), "cogs" to mypy.
from .combat import inflict

if TYPE_CHECKING:
    from bot.interface.client import HarmoniesBot

WOUND_MENU = locale_str("Wound…")
CARD_MENU = locale_str("Card")
MENU_TIMEOUT = 600.0
"""The "Wound…" menu waits for the next blow this long (a fight's exchange); the interaction that
opened it can edit its message for 15 minutes."""


class Menus(commands.Cog):
    def __init__(self, bot: HarmoniesBot) -> None:
        self.bot = bot
        in_servers = app_commands.AppCommandContext(guild=True)
        for name, callback in ((WOUND_MENU, self.wound), (CARD_MENU, self.card)):
            menu = app_commands.ContextMenu(name=name, callback=callback, allowed_contexts=in_servers)
            menu.guild_only = True
            bot.tree.add_command(menu)

    async def wound(self, interaction: discord.Interaction[HarmoniesBot], member: discord.Member) -> None:
        actor = actor_of(interaction)
        store = self.bot.store

        def look(reader: Reader) -> Character:
            actor.require_gm(reader.ruleset())  # first: a player is told so, not whether anyone plays
            return active_of(reader, member.id)

        character = await store.read(actor.guild_id, look)
        lang = caller_lang(interaction)

        async def blow(click: discord.Interaction[HarmoniesBot], track: Track, severity: str, n: int) -> None:
            chosen = parse_severity(track, severity)
            await inflict(click, Inflict(track=track, severity=chosen, ref=str(character.id), count=n))

        chooser = WoundChooser(actor.user_id, lang, blow)
        await respond(
            interaction,
            t_name(
                lang, "Wound {name}: choose the severity and how many, then inflict.", character.name, 1000
            ),
            view=chooser,
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        chooser.menu = interaction

    async def card(self, interaction: discord.Interaction[HarmoniesBot], member: discord.Member) -> None:
        actor = actor_of(interaction)
        store = self.bot.store
        ruleset, character = await store.read(
            actor.guild_id, lambda r: (r.ruleset(), active_of(r, member.id))
        )
        await send_card_privately(interaction, character, ruleset)


class WoundChooser(View):
    """The "Wound…" menu: its GM picks a severity and a count, then inflicts (the result is public).
    It stays live for the next blow: after each one its message says what was inflicted; when it
    times out, its controls are disabled and it says so (``menu`` edits the menu's message)."""

    def __init__(
        self,
        author_id: int,
        lang: Lang,
        on_wound: Callable[[discord.Interaction[Any], Track, str, int], Awaitable[None]],
    ) -> None:
        super().__init__(timeout=MENU_TIMEOUT, author_id=author_id)
        self.lang = lang
        self.on_wound = on_wound
        self.menu: discord.Interaction[Any] | None = None
        """The right-click that opened the menu: its message is edited after each blow."""
        self.choice: tuple[Track, str] = (Track.PHYSICAL, "light")
        self.count = 1
        severities = [
            discord.SelectOption(
                label=severity_label(lang, track, severity).capitalize(),
                value=f"{track.value}:{severity_name(track, severity)}",
                default=(track, severity) == (Track.PHYSICAL, Severity.LOW),
            )
            for track in Track
            for severity in SEVERITIES
        ]
        counts = [
            discord.SelectOption(
                label=tn(lang, "{count} wound", "{count} wounds", n), value=str(n), default=n == 1
            )
            for n in range(1, MAX_COUNT + 1)
        ]
        self.severity: discord.ui.Select[WoundChooser] = discord.ui.Select(
            placeholder=t(lang, "Severity"), options=severities, custom_id="wound-menu:severity", row=0
        )
        self.how_many: discord.ui.Select[WoundChooser] = discord.ui.Select(
            options=counts, custom_id="wound-menu:count", row=1
        )
        self.severity.callback = self._severity  # type: ignore[method-assign]
        self.how_many.callback = self._count  # type: ignore[method-assign]
        self.add_item(self.severity)
        self.add_item(self.how_many)
        self.inflict.label = t(lang, "Inflict")

    async def _severity(self, interaction: discord.Interaction[Any]) -> None:
        track, _, name = self.severity.values[0].partition(":")
        self.choice = (Track(track), name)
        self._show_choice()
        await interaction.response.defer()

    async def _count(self, interaction: discord.Interaction[Any]) -> None:
        self.count = int(self.how_many.values[0])
        self._show_choice()
        await interaction.response.defer()

    def _show_choice(self) -> None:
        """Mark the current choice as the selects' defaults: every redraw of the menu (after a blow,
        when it closes) shows what the next press inflicts, not the first defaults."""
        track, name = self.choice
        for option in self.severity.options:
            option.default = option.value == f"{track.value}:{name}"
        for option in self.how_many.options:
            option.default = option.value == str(self.count)

    @discord.ui.button(style=discord.ButtonStyle.danger, emoji="🩸", row=2)
    async def inflict(self, interaction: discord.Interaction[Any], button: discord.ui.Button[Any]) -> None:
        track, severity = self.choice
        await self.on_wound(interaction, track, severity, self.count)  # a refusal: answered by on_error
        chosen = severity_label(self.lang, track, parse_severity(track, severity))
        await self._say(
            t(
                self.lang,
                "✅ Inflicted: {severity} (the result is in the channel). Choose again for the next blow.",
                severity=chosen,
            )
            if self.count == 1  # not "1 × light wound"
            else t(
                self.lang,
                "✅ Inflicted: {count} × {severity} (the result is in the channel). "
                "Choose again for the next blow.",
                count=self.count,
                severity=chosen,
            )
        )

    async def on_timeout(self) -> None:
        self.disable()
        await self._say(t(self.lang, "This menu is closed: right-click the member again for the next blow."))

    async def _say(self, line: str) -> None:
        """Edit the menu's message: its first line (who is wounded), then ``line``."""
        if self.menu is None:
            return
        with contextlib.suppress(discord.HTTPException):
            first = (await self.menu.original_response()).content.split("\n")[0]
            await self.menu.edit_original_response(content=f"{first}\n{line}", view=self)


async def setup(bot: HarmoniesBot) -> None:
    await bot.add_cog(Menus(bot))
