"""The names of the players the bot has seen (who ran a command, who was tagged), for autocomplete
choices such as "Aélis (Léa) — −3". The bot asks Discord for no member list (no privileged intent):
a player it has not seen since it started is shown as "player"."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import discord

NAMES_KEPT = 50_000


class NameBook:
    def __init__(self, size: int = NAMES_KEPT) -> None:
        self._size = size
        self._names: OrderedDict[tuple[int, int], str] = OrderedDict()

    def get(self, guild_id: int, user_id: int) -> str | None:
        return self._names.get((guild_id, user_id))

    def put(self, guild_id: int, user_id: int, name: str) -> None:
        key = (guild_id, user_id)
        self._names[key] = name
        self._names.move_to_end(key)
        while len(self._names) > self._size:
            self._names.popitem(last=False)

    def seen(self, interaction: discord.Interaction) -> None:
        """Remember the caller and every user the interaction names, by their name in that server."""
        guild_id = interaction.guild_id
        if guild_id is None:
            return
        self.put(guild_id, interaction.user.id, interaction.user.display_name)
        data: Any = interaction.data or {}
        resolved = data.get("resolved") if isinstance(data, dict) else None
        if not isinstance(resolved, dict):
            return
        members = resolved.get("members") or {}
        for raw_id, user in (resolved.get("users") or {}).items():
            if not isinstance(user, dict) or not str(raw_id).isdigit():
                continue
            member = members.get(raw_id) if isinstance(members, dict) else None
            nick = member.get("nick") if isinstance(member, dict) else None
            name = nick or user.get("global_name") or user.get("username")
            if isinstance(name, str) and name:
                self.put(guild_id, int(raw_id), name)
