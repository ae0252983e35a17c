"""/fight: the GM's private panel of this channel's fight (its combatants: the board's party). Every
component is a DynamicItem whose custom_id holds the panel's state (the channel, the page, the targets
chosen), so the panel works after a restart and on any shard process. A click answers by editing the
panel; once Discord's 15 minutes for editing a private message are over, with a fresh panel."""

from __future__ import annotations

import re
import zlib
from collections.abc import Container
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.actions import fight
from bot.actions.fight import Band, Blow
from bot.errors import UserError
from bot.interface.replies import (
    actor_of,
    answer_error,
    caller_lang,
    public_lang,
    respond,
    send_public,
    update,
)
from bot.interface.views import Lasting
from bot.rules import SEVERITIES, Character, Ruleset, Severity, Track
from bot.rules.character import ATTRIBUTE_MAX, ATTRIBUTE_MIN, NAME_MAX
from bot.rules.ruleset import MAX_DAMAGE
from bot.storage.store import Reader
from bot.ui.fight import (
    band_embed,
    blow_embed,
    blow_lines,
    combatant_label,
    panel_embed,
    severity_button_label,
    what_blow,
)
from bot.ui.i18n import Lang, t

if TYPE_CHECKING:
    from bot.interface.client import HarmoniesBot

PAGE = 25
"""Discord's most options in a select: the living combatants beyond are on further pages."""
MAX_COMBATANTS = 200
"""The panel's choice is a bit per combatant in each custom_id (at most 100 characters): beyond this
many, the board's others are not in the panel."""
EDIT_WINDOW = timedelta(minutes=14)
"""Discord lets a private message be edited for 15 minutes: older panels are answered anew."""
_B36 = "0123456789abcdefghijklmnopqrstuvwxyz"
_TRACK = {track.value[0]: track for track in Track}
_ID = (
    r"fight:(?P<do>[spwdnx]):(?P<ch>\d{1,20}):(?P<page>\d{1,3}):(?P<mask>[0-9a-z]{1,50}):(?P<fp>[0-9a-z]{1,6})"
    r"(?::(?P<arg>[0-9a-z]{1,4}))?"
)
"""What a component does (s: the list; the buttons: page, wound, damage, new NPCs, the dead off the
board: x), then the panel's state."""


def _b36(number: int) -> str:
    digits = ""
    while True:
        number, digit = divmod(number, 36)
        digits = _B36[digit] + digits
        if not number:
            return digits


@dataclass(frozen=True)
class Panel:
    """What a panel shows, as its custom_ids carry it: the channel, the page of the list, and the
    targets chosen (a bit per combatant, in the board's order; ``fp``, the fingerprint of that order,
    tells a click on a panel of another cast of combatants, which gets a fresh panel)."""

    channel_id: int
    page: int = 1
    mask: int = 0
    fp: str = "0"

    def custom_id(self, do: str, arg: str = "") -> str:
        tail = f":{arg}" if arg else ""
        return f"fight:{do}:{self.channel_id}:{self.page}:{_b36(self.mask)}:{self.fp}{tail}"


@dataclass(frozen=True)
class Cast:
    """The fight of a channel as it is now: its combatants (the board's characters) and rules."""

    combatants: list[Character]
    ruleset: Ruleset

    @property
    def fp(self) -> str:
        ids = ",".join(str(c.id) for c in self.combatants)
        return _b36(zlib.crc32(ids.encode()) % 36**4)

    @property
    def living(self) -> list[Character]:
        return [c for c in self.combatants if not c.out_of_play]

    def chosen(self, panel: Panel) -> list[Character]:
        """The targets a panel's custom_id names; none when the cast changed since it was drawn."""
        if panel.fp != self.fp:
            return []
        return [c for i, c in enumerate(self.combatants) if panel.mask >> i & 1]

    def mask(self, ids: Container[int | None]) -> int:
        return sum(1 << i for i, c in enumerate(self.combatants) if c.id in ids)


async def cast_of(bot: HarmoniesBot, guild_id: int, channel_id: int) -> Cast:
    board = await bot.boards.board(guild_id, channel_id)
    if board is None:
        raise UserError(
            "There is no board in this channel: post one with /board first. Its party are the "
            "fight's combatants (/board add: for NPCs, or /character create count: for a band)."
        )
    npcs = set(board.npc_ids)

    def look(reader: Reader) -> Cast:
        everyone = reader.characters()
        shown = [c for c in everyone if c.owner_id is not None or c.id in npcs]
        return Cast(shown[:MAX_COMBATANTS], reader.ruleset())

    return await bot.store.read(guild_id, look)


def panel_view(cast: Cast, panel: Panel, lang: Lang) -> discord.ui.View:
    """The panel's components: the list of living combatants (a page), a button per severity of both
    tracks, Damage…, Add NPCs…, the dead NPCs off the board, and the pages."""
    living = cast.living
    pages = max(1, -(-len(living) // PAGE))
    page = min(max(panel.page, 1), pages)
    panel = replace(panel, page=page)
    chosen = {c.id for c in cast.chosen(panel)}
    view = discord.ui.View(timeout=None)
    shown = living[(page - 1) * PAGE : page * PAGE]
    if shown:
        options = [
            discord.SelectOption(
                label=combatant_label(c, cast.ruleset, lang), value=str(c.id), default=c.id in chosen
            )
            for c in shown
        ]
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=panel.custom_id("s"),
            placeholder=t(lang, "Choose the targets"),
            min_values=0,
            max_values=len(options),
            options=options,
            row=0,
        )
        view.add_item(FightItem(select))
    for row, (track, style) in enumerate(
        ((Track.PHYSICAL, discord.ButtonStyle.danger), (Track.MENTAL, discord.ButtonStyle.primary)), 1
    ):
        for severity in SEVERITIES:
            code = f"{track.value[0]}{int(severity)}"
            label = severity_button_label(lang, track, severity)
            view.add_item(_button(panel.custom_id("w", code), label, style, row, disabled=not chosen))
    secondary = discord.ButtonStyle.secondary
    view.add_item(_button(panel.custom_id("d"), t(lang, "Damage…"), secondary, 3, disabled=not chosen))
    view.add_item(_button(panel.custom_id("n"), t(lang, "Add NPCs…"), secondary, 3))
    dead = any(c.out_of_play and c.owner_id is None for c in cast.combatants)
    view.add_item(
        _button(panel.custom_id("x"), t(lang, "Dead NPCs off the board"), secondary, 3, disabled=not dead)
    )
    if pages > 1:
        view.add_item(_button(panel.custom_id("p", str(page - 1)), "◀️", secondary, 4, disabled=page <= 1))
        view.add_item(_button(panel.custom_id("p", str(page + 1)), "▶️", secondary, 4, disabled=page >= pages))
    view.stop()  # answered by the DynamicItems' classes: discord.py keeps nothing per panel
    return view


def _button(
    custom_id: str, label: str, style: discord.ButtonStyle, row: int, *, disabled: bool = False
) -> FightItem:
    return FightItem(
        discord.ui.Button(custom_id=custom_id, label=label, style=style, row=row, disabled=disabled)
    )


async def show_panel(
    interaction: discord.Interaction[HarmoniesBot], panel: Panel, *, last: list[str] | None = None
) -> None:
    """Draw the panel: a new private message (for /fight, or a panel too old to edit), else the
    clicked one edited."""
    actor = actor_of(interaction)
    cast = await cast_of(interaction.client, actor.guild_id, panel.channel_id)
    if panel.fp != cast.fp:  # drawn for other combatants (some added or taken off): nothing chosen
        panel = replace(panel, mask=0, fp=cast.fp)
    lang = caller_lang(interaction)
    view = panel_view(cast, panel, lang)
    chosen = len(cast.chosen(panel))
    embed = panel_embed(cast.combatants, chosen, cast.ruleset, lang, last=last or ())
    message = interaction.message
    too_old = message is not None and discord.utils.utcnow() - message.created_at > EDIT_WINDOW
    if too_old or interaction.type is discord.InteractionType.application_command:
        await respond(
            interaction,
            embed=embed,
            view=view,
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )
    else:
        await update(interaction, embed=embed, view=view)


@app_commands.command(
    name="fight", description=locale_str("Open this channel's fight panel: many targets, one blow (GM)")
)
@app_commands.guild_only()
async def open_fight(interaction: discord.Interaction[HarmoniesBot]) -> None:
    actor = actor_of(interaction)
    actor.require_gm(await interaction.client.store.read(actor.guild_id, Reader.ruleset))
    assert interaction.channel_id is not None
    await show_panel(interaction, Panel(interaction.channel_id))


class FightItem(Lasting, discord.ui.DynamicItem[discord.ui.Item[Any]], template=_ID):
    """The panel's list and buttons: what each does, and the panel's state, are in its custom_id."""

    def __init__(self, item: discord.ui.Button[Any] | discord.ui.Select[Any]) -> None:
        super().__init__(item)
        match = re.fullmatch(_ID, self.custom_id)
        assert match is not None
        self.match = match
        self.panel = Panel(int(match["ch"]), int(match["page"]), int(match["mask"], 36), match["fp"])

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> FightItem:
        assert isinstance(item, discord.ui.Button | discord.ui.Select)
        return cls(item)

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        actor = actor_of(interaction)
        bot: HarmoniesBot = interaction.client
        actor.require_gm(await bot.store.read(actor.guild_id, Reader.ruleset))
        panel, do, arg = self.panel, self.match["do"], self.match["arg"]
        if do == "s":  # the list: the ids of the targets chosen on its page
            cast = await cast_of(bot, actor.guild_id, panel.channel_id)
            page_ids = {c.id for c in cast.living[(panel.page - 1) * PAGE : panel.page * PAGE]}
            kept = {c.id for c in cast.chosen(panel) if c.id not in page_ids}
            assert isinstance(self.item, discord.ui.Select)
            picked = {int(v) for v in self.item.values}
            await show_panel(interaction, replace(panel, mask=cast.mask(kept | picked), fp=cast.fp))
        elif do == "p":
            await show_panel(interaction, replace(panel, page=int(arg or 1)))
        elif do == "w":
            assert arg is not None
            await blow(interaction, panel, track=_TRACK[arg[0]], severity=Severity(int(arg[1])))
        elif do in ("d", "n"):
            form = DamageForm if do == "d" else NpcForm
            await interaction.response.send_modal(form(panel, caller_lang(interaction)))
        elif do == "x":
            await drop_dead(interaction, panel)


async def blow(
    interaction: discord.Interaction[HarmoniesBot],
    panel: Panel,
    *,
    track: Track,
    severity: Severity | None = None,
    damage: int | None = None,
) -> None:
    """One blow on the targets chosen: the public result (one short line per target, the players of
    hit characters mentioned), and the panel again with the exact figures."""
    bot = interaction.client
    actor = actor_of(interaction)
    cast = await cast_of(bot, actor.guild_id, panel.channel_id)
    targets = cast.chosen(panel)
    if not targets:
        if panel.fp != cast.fp:  # another cast since the panel was drawn: draw it again
            await show_panel(interaction, replace(panel, mask=0))
            return
        raise UserError("Choose the targets first, in the list above the buttons.")
    ids = tuple(c.id for c in targets if c.id is not None)
    asked = Blow(track=track, targets=ids, severity=severity, damage=damage)
    struck = await fight.strike(bot.store, actor, bot.rng, asked)
    public = public_lang(interaction, struck.ruleset)
    result = blow_embed(
        what_blow(track, severity, damage, public), struck.hit, struck.skipped, struck.ruleset, public
    )
    exact = blow_lines(struck.hit, struck.skipped, struck.ruleset, caller_lang(interaction), public=False)
    # The dead leave the choice.
    standing = {c.id for c, _ in struck.hit if not c.out_of_play}
    await show_panel(interaction, replace(panel, mask=cast.mask(standing)), last=exact)
    owners = [c.owner_id for c, _ in struck.hit if c.owner_id is not None]
    await send_public(interaction, embeds=[result], mentions=list(dict.fromkeys(owners)))


async def drop_dead(interaction: discord.Interaction[HarmoniesBot], panel: Panel) -> None:
    """The dead and incoherent NPCs off this channel's board (the end of a fight)."""
    bot = interaction.client
    actor = actor_of(interaction)
    board = await bot.boards.board(actor.guild_id, panel.channel_id)
    if board is None:
        await show_panel(interaction, panel)
        return
    gone = await bot.store.run(
        actor.guild_id, lambda tx: fight.drop_the_dead(tx, panel.channel_id, board.npc_ids)
    )
    dropped = {c.id for c in gone}
    await bot.boards.posted(
        replace(board, npc_ids=tuple(i for i in board.npc_ids if i not in dropped)), fresh=False
    )
    lang = caller_lang(interaction)
    names = ", ".join(c.name for c in gone)
    said = [t(lang, "Off the board: {names}", names=names)] if gone else []
    await show_panel(interaction, replace(panel, mask=0), last=said)


async def add_band(
    interaction: discord.Interaction[HarmoniesBot], asked: Band, *, announce: bool = True
) -> list[Character]:
    """``/character create count:`` (``announce``: said in the channel) and the panel's Add NPCs…
    (the panel says it): the band created, on this channel's board when it has one."""
    bot = interaction.client
    actor = actor_of(interaction)
    band, ruleset = await fight.create_band(bot.store, actor, asked)
    board = None if asked.channel_id is None else await bot.boards.board(actor.guild_id, asked.channel_id)
    if board is not None:
        new = tuple(c.id for c in band if c.id is not None)
        await bot.boards.posted(replace(board, npc_ids=(*board.npc_ids, *new)), fresh=False)
    if announce:
        lang = public_lang(interaction, ruleset)
        await send_public(interaction, embeds=[band_embed(band, lang, on_board=board is not None)])
    return band


class _Form(discord.ui.Modal):
    """A form of the panel: its errors answered like a command's."""

    def __init__(self, panel: Panel, title: str) -> None:
        super().__init__(title=title, timeout=600)
        self.panel = panel

    async def on_error(self, interaction: discord.Interaction[Any], error: Exception, /) -> None:  # type: ignore[override]
        await answer_error(interaction, error)


class DamageForm(_Form):
    """Damage…: the level and the track; each target rolls its own resistance."""

    def __init__(self, panel: Panel, lang: Lang) -> None:
        super().__init__(panel, t(lang, "Damage"))
        self.level: discord.ui.TextInput[DamageForm] = discord.ui.TextInput(
            label=t(lang, "Damage level (0 to {max})", max=MAX_DAMAGE), max_length=4
        )
        self.track: discord.ui.TextInput[DamageForm] = discord.ui.TextInput(
            label=t(lang, "Track: physical or mental"), default=t(lang, "physical"), max_length=20
        )
        self.add_item(self.level)
        self.add_item(self.track)

    async def on_submit(self, interaction: discord.Interaction[Any], /) -> None:
        interaction.client.handling()
        lang = caller_lang(interaction)
        level = self.level.value.strip()
        if not level.isascii() or not level.isdigit() or int(level) > MAX_DAMAGE:
            raise UserError("The damage level is a number from 0 to {max}.", max=MAX_DAMAGE)
        word = self.track.value.strip().casefold()
        mental = {"mental", "mentale", t(lang, "mental").casefold(), "m"}
        track = Track.MENTAL if word in mental else Track.PHYSICAL
        await blow(interaction, self.panel, track=track, damage=int(level))


class NpcForm(_Form):
    """Add NPCs…: a name, how many, their attributes; they join this channel's board."""

    def __init__(self, panel: Panel, lang: Lang) -> None:
        super().__init__(panel, t(lang, "Add NPCs"))
        self.name: discord.ui.TextInput[NpcForm] = discord.ui.TextInput(
            label=t(lang, "Name (numbered: Goblin 1, Goblin 2…)"), max_length=NAME_MAX
        )
        self.count: discord.ui.TextInput[NpcForm] = discord.ui.TextInput(
            label=t(lang, "How many (1 to {max})", max=fight.BAND_MAX), default="1", max_length=2
        )
        self.attributes: discord.ui.TextInput[NpcForm] = discord.ui.TextInput(
            label=t(lang, "Corps, Résistance, Intuition"), default="0 0 0", required=False, max_length=20
        )
        for item in (self.name, self.count, self.attributes):
            self.add_item(item)

    async def on_submit(self, interaction: discord.Interaction[Any], /) -> None:
        interaction.client.handling()
        count = self.count.value.strip()
        if not count.isascii() or not count.isdigit():
            raise UserError("A band has 1 to {max} NPCs.", max=fight.BAND_MAX)
        numbers = (self.attributes.value or "").replace(",", " ").split()
        values = []
        for number in [*numbers, "0", "0", "0"][:3]:
            try:
                values.append(int(number.replace("−", "-")))
            except ValueError:
                raise UserError(
                    "Attributes are three numbers from {low} to {high}: Corps, Résistance, "
                    "Intuition (2 1 0).",
                    low=ATTRIBUTE_MIN,
                    high=ATTRIBUTE_MAX,
                ) from None
        asked = Band(
            name=self.name.value,
            count=int(count),
            corps=values[0],
            resistance=values[1],
            intuition=values[2],
            channel_id=self.panel.channel_id,
        )
        band = await add_band(interaction, asked, announce=False)
        lang = caller_lang(interaction)
        said = [t(lang, "On the board now: {names}", names=", ".join(c.name for c in band))]
        await show_panel(interaction, replace(self.panel, mask=0), last=said)


async def setup(bot: HarmoniesBot) -> None:
    bot.tree.add_command(open_fight)
    bot.add_dynamic_items(FightItem)
