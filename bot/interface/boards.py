"""Keeps the live party boards edited: after a committed change of a server, each of its boards is
edited at once, or, when edited less than ``interval`` seconds ago, once that time is up, with the state
of then (a burst of changes costs two edits). A board whose message the bot may no longer see is dropped."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import discord
from discord.http import MultipartParameters

from bot.storage.store import Board, Reader, Store
from bot.ui.board import board_embed
from bot.ui.i18n import lang_of

log = logging.getLogger(__name__)

EDIT_INTERVAL = 2.0  # at most one edit per board in this many seconds


@dataclass
class _Pace:
    last_edit: float = float("-inf")
    dirty: bool = False
    task: asyncio.Task[None] | None = None


class BoardKeeper:
    """The boards of ``store``, edited through ``client`` (the bot: its HTTP session, its servers'
    locales); the tests set ``interval``, ``now`` and ``sleep``."""

    def __init__(self, store: Store, client: discord.Client) -> None:
        self.store = store
        self.client = client
        self.interval, self.now = EDIT_INTERVAL, time.monotonic
        self.sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
        self._boards: dict[int, dict[int, Board]] = {}  # by server, then channel
        # After start(), every stored board is known: a server with none costs nothing. Before, a
        # server's boards load on its first change.
        self._all_known = False
        self._paces: dict[int, _Pace] = {}  # by channel
        self._loading: dict[int, asyncio.Task[None]] = {}
        self.edits = 0  # board edits sent (/metrics)

    def changed(self, guild_id: int) -> None:
        """A change was committed in the server (a Store listener: synchronous, never blocks)."""
        known = self._boards.get(guild_id)
        if known is None:
            if not self._all_known and guild_id not in self._loading:
                self._loading[guild_id] = asyncio.get_running_loop().create_task(self._load(guild_id))
            return
        for board in known.values():
            self._schedule(board)

    async def start(self) -> None:
        """At start-up: every stored board is edited once (changes made while the bot was away)."""
        for board in await self.store.all_boards():
            self._boards.setdefault(board.guild_id, {})[board.channel_id] = board
        self._all_known = True
        for guild_id in list(self._boards):
            self.changed(guild_id)

    async def posted(self, board: Board, *, fresh: bool) -> None:
        """A board was posted or moved (``fresh``: its message shows the state of now), or its NPCs
        changed: remember it, and edit it when needed."""
        await self._known(board.guild_id)
        self._boards[board.guild_id][board.channel_id] = board
        if fresh:
            self._paces.setdefault(board.channel_id, _Pace()).last_edit = self.now()
        else:
            self._schedule(board)

    async def board(self, guild_id: int, channel_id: int) -> Board | None:
        return (await self._known(guild_id)).get(channel_id)

    async def settled(self) -> None:
        """Wait until no edit is pending (tests)."""
        while True:
            busy = [t for t in self._loading.values() if not t.done()]
            busy += [p.task for p in self._paces.values() if p.task is not None and not p.task.done()]
            if not busy:
                return
            await asyncio.gather(*busy, return_exceptions=True)

    async def close(self) -> None:
        tasks = list(self._loading.values()) + [p.task for p in self._paces.values() if p.task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _known(self, guild_id: int) -> dict[int, Board]:
        if guild_id not in self._boards:
            found = [] if self._all_known else await self.store.read(guild_id, Reader.boards)
            self._boards.setdefault(guild_id, {b.channel_id: b for b in found})
        return self._boards[guild_id]

    async def _load(self, guild_id: int) -> None:
        try:
            await self._known(guild_id)
        except Exception:
            log.exception("Could not load the boards of server %s", guild_id)
            return
        finally:
            self._loading.pop(guild_id, None)
        self.changed(guild_id)

    def _schedule(self, board: Board) -> None:
        pace = self._paces.setdefault(board.channel_id, _Pace())
        pace.dirty = True
        if pace.task is None or pace.task.done():
            pace.task = asyncio.get_running_loop().create_task(self._keep(board.guild_id, board.channel_id))

    async def _keep(self, guild_id: int, channel_id: int) -> None:
        """Edit the board until no change waits, at most once per ``interval``."""
        pace = self._paces[channel_id]
        while pace.dirty:
            wait = pace.last_edit + self.interval - self.now()
            if wait > 0:
                await self.sleep(wait)
            board = self._boards.get(guild_id, {}).get(channel_id)
            if board is None:
                break
            pace.dirty = False  # a change committed from now on is either read below or edited next
            try:
                await self._edit(board)
            except Exception:
                log.exception("Could not edit the board of channel %s", channel_id)
            pace.last_edit = self.now()

    async def render(self, board: Board) -> discord.Embed:
        """The board as it is now: the server's player characters, and the NPCs added to it."""
        ruleset, everyone = await self.store.read(board.guild_id, lambda r: (r.ruleset(), r.characters()))
        npcs = set(board.npc_ids)
        shown = [c for c in everyone if c.owner_id is not None or c.id in npcs]
        guild = self.client.get_guild(board.guild_id)
        lang = ruleset.language or lang_of(guild.preferred_locale if guild is not None else None)
        return board_embed(shown, ruleset, lang, updated=discord.utils.utcnow())

    async def _edit(self, board: Board) -> None:
        embed = await self.render(board)
        # Only the embed and the mentions (none): what a message edit takes, nothing more.
        body = {"embeds": [embed.to_dict()], "allowed_mentions": {"parse": []}}
        params = MultipartParameters(payload=body, multipart=None, files=None)
        try:
            await self.client.http.edit_message(board.channel_id, board.message_id, params=params)
            self.edits += 1
        except (discord.NotFound, discord.Forbidden) as error:
            # The message or the channel is gone, or the bot may no longer see or edit it: for good.
            log.info(
                "The board of channel %s is no longer kept (%s %s)",
                board.channel_id,
                error.status,
                error.code,
            )
            await self.forget(board)

    async def forget(self, board: Board) -> None:
        """Stop keeping ``board`` (its message is gone). Only that message: a board posted again in the
        channel meanwhile (a new message) is kept, in memory and in the database alike."""
        known = self._boards.get(board.guild_id, {})
        if (current := known.get(board.channel_id)) is not None and current.message_id == board.message_id:
            del known[board.channel_id]
        await self.store.drop_board(board.guild_id, board.channel_id, board.message_id)
