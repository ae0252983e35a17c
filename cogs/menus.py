"""Right-click a member: "Wound…" (GM; its choices: :class:`WoundChooser`) and "Card" (anyone), on
that member's active character."""

from __future__ import annotations

import contextlib
import functools
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

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

MENU_TIMEOUT = 600.0
"""The "Wound…" menu waits for the next blow this long (a fight's exchange); the interaction that
opened it can edit its message for 15 minutes."""


@app_commands.context_menu(name=locale_str("Wound…"))
@app_commands.guild_only()
async def wound(interaction: discord.Interaction[HarmoniesBot], member: discord.Member) -> None:
    actor = actor_of(interaction)

    def look(reader: Reader) -> Character:
        actor.require_gm(reader.ruleset())  # first: a player is told so, not whether anyone plays
        return active_of(reader, member.id)

    character = await interaction.client.store.read(actor.guild_id, look)
    lang = caller_lang(interaction)

    chooser = WoundChooser(actor.user_id, lang, character)
    await respond(
        interaction,
        t_name(lang, "Wound {name}: choose the severity and how many, then inflict.", character.name, 1000),
        view=chooser,
        ephemeral=True,
        allowed_mentions=discord.AllowedMentions.none(),
    )
    chooser.menu = interaction


@app_commands.context_menu(name=locale_str("Card"))
@app_commands.guild_only()
async def card(interaction: discord.Interaction[HarmoniesBot], member: discord.Member) -> None:
    actor = actor_of(interaction)
    ruleset, character = await interaction.client.store.read(
        actor.guild_id, lambda r: (r.ruleset(), active_of(r, member.id))
    )
    await send_card_privately(interaction, character, ruleset)


class WoundChooser(View):
    """The "Wound…" menu: its GM picks a severity and a count, then inflicts (the result is public).
    It stays live for the next blow: after each one its message says what was inflicted; when it
    times out, its controls are disabled and it says so (``menu`` edits the menu's message)."""

    def __init__(self, author_id: int, lang: Lang, character: Character) -> None:
        super().__init__(timeout=MENU_TIMEOUT, author_id=author_id)
        self.lang = lang
        self.character = character
        self.menu: discord.Interaction[Any] | None = None
        """The right-click that opened the menu: its message is edited after each blow."""
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
        for select in (self.severity, self.how_many):
            select.callback = functools.partial(self._choose, select)  # type: ignore[method-assign]
            self.add_item(select)
        self.inflict_button.label = t(lang, "Inflict")

    async def _choose(
        self, select: discord.ui.Select[WoundChooser], interaction: discord.Interaction[Any]
    ) -> None:
        """The choice is kept as the select's default: every redraw of the menu (after a blow, when it
        closes) shows what the next press inflicts, not the first defaults."""
        for option in select.options:
            option.default = option.value == select.values[0]
        await interaction.response.defer()

    @discord.ui.button(style=discord.ButtonStyle.danger, emoji="🩸", row=2)
    async def inflict_button(
        self, interaction: discord.Interaction[Any], button: discord.ui.Button[Any]
    ) -> None:
        track, _, name = _chosen(self.severity).partition(":")
        count = int(_chosen(self.how_many))
        severity = parse_severity(Track(track), name)
        asked = Inflict(track=Track(track), severity=severity, ref=str(self.character.id), count=count)
        await inflict(interaction, asked)  # a refusal: answered by on_error
        said = severity_label(self.lang, Track(track), severity)
        await self._say(
            t(
                self.lang,
                "✅ Inflicted: {severity} (the result is in the channel). Choose again for the next blow.",
                severity=said,
            )
            if count == 1  # not "1 × light wound"
            else t(
                self.lang,
                "✅ Inflicted: {count} × {severity} (the result is in the channel). "
                "Choose again for the next blow.",
                count=count,
                severity=said,
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


def _chosen(select: discord.ui.Select[WoundChooser]) -> str:
    return next(option.value for option in select.options if option.default)


async def setup(bot: HarmoniesBot) -> None:
    bot.tree.add_command(wound)
    bot.tree.add_command(card)
