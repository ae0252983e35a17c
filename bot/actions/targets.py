"""Finding the character a command is about."""

from __future__ import annotations

from typing import Protocol

from bot.errors import UserError
from bot.rules import Character

MAX_REF = 100


class CharacterSource(Protocol):
    """Both the read-only Store (bound to a guild) and a Transaction can answer these."""

    async def character(self, character_id: int) -> Character: ...
    async def character_by_name(self, name: str) -> Character: ...
    async def active_character(self, user_id: int) -> Character | None: ...


async def by_ref(source: CharacterSource, ref: str) -> Character:
    """A character option: an id chosen from autocomplete, or a name typed by hand."""
    ref = ref.strip()
    if not ref or len(ref) > MAX_REF:
        raise UserError("character_not_found", ref=ref[:MAX_REF])
    # ASCII digits only: str.isdigit() also accepts "²" or "١", which int() refuses or reads oddly.
    if ref.isascii() and ref.isdigit() and len(ref) <= 19:
        # What autocomplete sends: that id and nothing else. Were the character deleted meanwhile, a
        # fallback to names would hit whichever character is literally named that number.
        return await source.character(int(ref))
    return await source.character_by_name(ref)


async def active_of(source: CharacterSource, user_id: int) -> Character:
    found = await source.active_character(user_id)
    if found is None:
        raise UserError("no_active_character", user=user_id)
    return found


async def target(source: CharacterSource, *, player_id: int | None, ref: str | None) -> Character:
    """``target`` (a player: their active character) and/or ``character``; one is required."""
    if ref is not None:
        found = await by_ref(source, ref)
        if player_id is not None and found.owner_id != player_id:
            raise UserError("character_not_targets", name=found.name, user=player_id)
        return found
    if player_id is not None:
        return await active_of(source, player_id)
    raise UserError("target_or_character")


async def own_or_named(source: CharacterSource, *, caller_id: int, ref: str | None) -> Character:
    """``character`` when given, else the caller's active character."""
    if ref is not None:
        return await by_ref(source, ref)
    return await active_of(source, caller_id)


class GuildReader:
    """The read side of the Store, bound to one guild (so it fits :class:`CharacterSource`)."""

    def __init__(self, store: StoreReads, guild_id: int) -> None:
        self._store = store
        self._guild_id = guild_id

    async def character(self, character_id: int) -> Character:
        return await self._store.character(self._guild_id, character_id)

    async def character_by_name(self, name: str) -> Character:
        return await self._store.character_by_name(self._guild_id, name)

    async def active_character(self, user_id: int) -> Character | None:
        return await self._store.active_character(self._guild_id, user_id)


class StoreReads(Protocol):
    async def character(self, guild_id: int, character_id: int) -> Character: ...
    async def character_by_name(self, guild_id: int, name: str) -> Character: ...
    async def active_character(self, guild_id: int, user_id: int) -> Character | None: ...
