"""Turn a Discord interaction into an :class:`~bot.actions.actor.Actor` (the only Discord-aware part)."""

from __future__ import annotations

import discord

from bot.actions.actor import Actor
from bot.errors import UserError


def actor_of(interaction: discord.Interaction) -> Actor:
    if interaction.guild_id is None:
        raise UserError("This command only works in a server, not in direct messages.")
    user = interaction.user
    guild = interaction.guild
    owner_id = guild.owner_id if guild is not None else None
    role_ids: frozenset[int] = frozenset()
    if isinstance(user, discord.Member):
        # Role ids come straight from the interaction payload, whether or not the guild is cached.
        role_ids = frozenset(int(r) for r in user._roles)
    return Actor(
        user_id=user.id,
        guild_id=interaction.guild_id,
        owns_guild=owner_id == user.id,
        manages_guild=interaction.permissions.manage_guild,
        role_ids=role_ids,
        interaction_id=interaction.id,
    )
