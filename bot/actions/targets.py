"""Finding the character a command is about."""

from __future__ import annotations

from typing import Protocol

from bot.errors import Mention, UserError
from bot.rules import Character

MAX_REF = 100


class CharacterSource(Protocol):
    """A :class:`~bot.storage.Reader` (a plain read) or a :class:`~bot.storage.Transaction`."""

    def character(self, character_id: int) -> Character: ...
    def character_by_name(self, name: str) -> Character: ...
    def active_character(self, user_id: int) -> Character | None: ...


def by_ref(source: CharacterSource, ref: str) -> Character:
    """A character option: an id chosen from autocomplete, or a name typed by hand."""
    ref = ref.strip()
    if not ref:  # a blank option is refused, never read as "no character given"
        raise UserError(
            "The character option is blank. Pick a character from the suggestions, or leave the option out."
        )
    if len(ref) > MAX_REF:
        raise UserError(
            "No character called {ref} in this server. Pick one from the "
            "suggestions, or see /character list.",
            ref=ref[:MAX_REF],
        )
    # ASCII digits only: str.isdigit() also accepts "²" or "١", which int() refuses or reads oddly.
    if ref.isascii() and ref.isdigit() and len(ref) <= 19:
        # What autocomplete sends: that id and nothing else. Were the character deleted meanwhile, a
        # fallback to names would hit whichever character is literally named that number.
        return source.character(int(ref))
    return source.character_by_name(ref)


def active_of(source: CharacterSource, user_id: int) -> Character:
    found = source.active_character(user_id)
    if found is None:
        raise UserError(
            "No active character for {user}. Name one with the character option, "
            "create one with /character create, or choose one with /character select.",
            user=Mention(user_id),
        )
    return found


def target(source: CharacterSource, *, player_id: int | None, ref: str | None) -> Character:
    """``target`` (a player: their active character) and/or ``character``; one is required."""
    if ref is not None:
        found = by_ref(source, ref)
        if player_id is not None and found.owner_id != player_id:
            raise UserError(
                "{name} is not a character of {user}. Give only target, or only "
                "character, or one of that player's characters.",
                name=found.name,
                user=Mention(player_id),
            )
        return found
    if player_id is not None:
        return active_of(source, player_id)
    raise UserError(
        "Say who: give target (a player, for their active character) or "
        "character (any character, NPCs included)."
    )


def own_or_named(source: CharacterSource, *, caller_id: int, ref: str | None) -> Character:
    """``character`` when given, else the caller's active character."""
    if ref is not None:
        return by_ref(source, ref)
    return active_of(source, caller_id)
