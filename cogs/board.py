"""/board: the live party board of a channel."""

from __future__ import annotations

import contextlib
from dataclasses import replace
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.actions import admin
from bot.actions.actor import Actor, by_ref
from bot.errors import N_, UserError
from bot.interface import autocomplete
from bot.interface.replies import actor_of, caller_lang, respond, send_private
from bot.storage.store import Board, Reader
from bot.ui.i18n import lang_of, t
from bot.ui.text import t_name

if TYPE_CHECKING:
    from bot.interface.client import HarmoniesBot


@app_commands.command(
    name="board",
    description=locale_str("Post the live party board in this channel, or move it here (GM)"),
)
@app_commands.guild_only()
@app_commands.describe(
    add=locale_str("Show this NPC on the board too"),
    drop=locale_str("Take this NPC off the board"),
    link=locale_str(
        "Get the link of the live web page of the party, for phones, a TV or a stream (GM)",
    ),
    revoke=locale_str("With link: the links given before stop working, and a new one is given"),
)
@app_commands.autocomplete(add=autocomplete.npcs, drop=autocomplete.npcs)
async def board(
    interaction: discord.Interaction[HarmoniesBot],
    add: str | None = None,
    drop: str | None = None,
    link: bool = False,
    revoke: bool = False,
) -> None:
    if revoke and not link:
        raise UserError("revoke:True goes with link:True: /board link:True revoke:True.")
    if link and (add is not None or drop is not None):
        raise UserError("link:True goes alone (or with revoke:True): add or drop NPCs in another /board.")
    if add is not None and drop is not None:
        raise UserError("Add or drop one NPC at a time: run /board twice.")
    if link:
        await give_link(interaction, revoke=revoke)
        return
    actor = actor_of(interaction)
    actor.require_gm(await interaction.client.store.read(actor.guild_id, Reader.ruleset))
    channel_id = interaction.channel_id
    assert channel_id is not None, "a guild interaction comes from a channel"
    npc = add if add is not None else drop
    if npc is None:
        await post_board(interaction, actor, channel_id)
    else:
        await show_on_board(interaction, actor, channel_id, npc, shown=add is not None)


async def post_board(interaction: discord.Interaction[HarmoniesBot], actor: Actor, channel_id: int) -> None:
    """/board: post the live board in this channel; a board already there is moved (the old message
    deleted, a new one posted at the bottom)."""
    bot = interaction.client
    old = await bot.boards.board(actor.guild_id, channel_id)
    board = Board(actor.guild_id, channel_id, 0, old.npc_ids if old else ())
    sent = await respond(
        interaction, embed=await bot.boards.render(board), allowed_mentions=discord.AllowedMentions.none()
    )
    if sent is None:
        raise RuntimeError("Discord did not say which message the board is")
    board = replace(board, message_id=sent.id)
    await bot.store.save_board(actor.guild_id, channel_id, board.message_id)
    await bot.boards.posted(board, fresh=True)
    if old is not None:
        with contextlib.suppress(discord.NotFound, discord.Forbidden):
            await bot.get_partial_messageable(channel_id).get_partial_message(old.message_id).delete()


async def show_on_board(
    interaction: discord.Interaction[HarmoniesBot], actor: Actor, channel_id: int, ref: str, *, shown: bool
) -> None:
    """/board add: or drop: an NPC on this channel's board (player characters are always on it)."""
    bot = interaction.client
    board = await bot.boards.board(actor.guild_id, channel_id)
    if board is None:
        raise UserError("There is no board in this channel: post one with /board first.")
    character = await bot.store.read(actor.guild_id, lambda r: by_ref(r, ref))
    if character.owner_id is not None:
        raise UserError(
            "{name} is a player character: player characters are always on the "
            "board. Only NPCs are added or taken off.",
            name=character.name,
        )
    assert character.id is not None
    if (character.id in board.npc_ids) == shown:
        raise UserError(
            N_("{name} is already on this channel's board.")
            if shown
            else N_("{name} is not on this channel's board: nothing to take off."),
            name=character.name,
        )
    npc_id = character.id
    await bot.store.run(actor.guild_id, lambda tx: tx.show_on_board(channel_id, npc_id, shown=shown))
    ids = (*board.npc_ids, character.id) if shown else tuple(i for i in board.npc_ids if i != character.id)
    await bot.boards.posted(replace(board, npc_ids=ids), fresh=False)
    lang = caller_lang(interaction)
    await send_private(
        interaction,
        t_name(
            lang,
            N_("{name} is on the board now.") if shown else N_("{name} is off the board."),
            character.name,
            300,
        ),
    )


async def give_link(interaction: discord.Interaction[HarmoniesBot], *, revoke: bool) -> None:
    """/board link:True: the server's player-view link, privately (``revoke``: the others stop)."""
    bot = interaction.client
    url = await admin.give_link(
        bot.store,
        actor_of(interaction),
        base_url=bot.settings.web_base_url,
        language=lang_of(interaction.guild_locale),
        revoke=revoke,
    )
    key = (
        N_(
            "Every player-view link given before stopped working. The new one: "
            "{url}\nShare it again with the table (`?overlay=1` for a stream overlay)."
        )
        if revoke
        else N_(
            "The player view of this server: {url}\nAnyone with this link sees the "
            "party's wounds, live: characters only, secret NPCs as a word. Share it "
            "with the table; add `?overlay=1` for a stream overlay. Links given "
            "before still work; /board link:True revoke:True stops them all."
        )
    )
    await send_private(interaction, t(caller_lang(interaction), key, url=url))


async def setup(bot: HarmoniesBot) -> None:
    bot.tree.add_command(board)
