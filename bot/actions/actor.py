"""What every action shares: who asks (:class:`Actor`: what decides what they may do), the character a
command is about, the record of a change, and the :class:`Outcome` an action gives back."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, TypeVar

from bot.errors import Mention, Possessive, UserError
from bot.history import Recordable
from bot.rules import Character, Ruleset
from bot.rules.character import not_found
from bot.storage.store import Reader, Transaction

T = TypeVar("T")
MAX_REF = 100


def gm_only() -> UserError:
    """The refusal of what only a GM may do."""
    return UserError("Only a GM (the GM role, Manage Server, or the server owner) can do this. Ask a GM.")


@dataclass(frozen=True)
class Actor:
    user_id: int
    guild_id: int
    owns_guild: bool = False
    manages_guild: bool = False
    role_ids: frozenset[int] = field(default_factory=frozenset)
    interaction_id: int | None = None  # recorded with its change: a replay of it is not applied again

    def is_gm(self, ruleset: Ruleset) -> bool:
        """A GM has the server's GM role, or the Manage Server permission, or owns the server."""
        if self.owns_guild or self.manages_guild:
            return True
        return ruleset.gm_role_id is not None and ruleset.gm_role_id in self.role_ids

    def require_gm(self, ruleset: Ruleset) -> None:
        if not self.is_gm(ruleset):
            raise gm_only()

    def owns(self, character: Character) -> bool:
        return character.owner_id is not None and character.owner_id == self.user_id

    def require_owner_or_gm_for_npc(self, character: Character, ruleset: Ruleset) -> None:
        """Healing rolls: the owner rolls for their character; a GM rolls for NPCs."""
        if self.owns(character):
            return
        if character.owner_id is None:
            if self.is_gm(ruleset):
                return
            raise UserError(
                "{name} is an NPC: a GM rolls its healing (/heal roll), or heals it "
                "without a roll (/heal wound).",
                name=character.name,
            )
        raise UserError(
            "{of_name} healing rolls are rolled by {player}; a GM can heal without a roll with /heal wound.",
            of_name=Possessive(character.name),
            player=Mention(character.owner_id),
        )

    def require_owner_or_gm(self, character: Character, ruleset: Ruleset) -> None:
        if self.owns(character) or self.is_gm(ruleset):
            return
        if character.owner_id is None:
            raise UserError("{name} is an NPC: only a GM can do this.", name=character.name)
        raise UserError(
            "{name} is played by {player}: only that person (or a GM) can do this. Use your own character.",
            name=character.name,
            player=Mention(character.owner_id),
        )


def by_ref(source: Reader, ref: str) -> Character:
    """A character option: an id chosen from autocomplete, or a name typed by hand."""
    ref = ref.strip()
    if not ref:  # a blank option is refused, never read as "no character given"
        raise UserError(
            "The character option is blank. Pick a character from the suggestions, or leave the option out."
        )
    if len(ref) > MAX_REF:
        raise not_found(ref[:MAX_REF])
    # ASCII digits only: str.isdigit() also accepts "²" or "١", which int() refuses or reads oddly.
    if ref.isascii() and ref.isdigit() and len(ref) <= 19:
        # What autocomplete sends: that id and nothing else. Were the character deleted meanwhile, a
        # fallback to names would hit whichever character is literally named that number.
        return source.character(int(ref))
    return source.character_by_name(ref)


def active_of(source: Reader, user_id: int) -> Character:
    found = source.active_character(user_id)
    if found is None:
        raise UserError(
            "No active character for {user}. Name one with the character option, "
            "create one with /character create, or choose one with /character select.",
            user=Mention(user_id),
        )
    return found


def target(source: Reader, *, player_id: int | None, ref: str | None) -> Character:
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


def own_or_named(source: Reader, *, caller_id: int, ref: str | None) -> Character:
    """``character`` when given, else the caller's active character."""
    if ref is not None:
        return by_ref(source, ref)
    return active_of(source, caller_id)


def record(tx: Transaction, actor: Actor, change: Recordable, *, character: Character | None = None) -> None:
    """Record ``change``, made by ``actor`` (to ``character``), with the before-state undo needs."""
    tx.record(change.kind, actor.user_id, character=character, details=change)


@dataclass(frozen=True)
class Outcome(Generic[T]):
    """The rules' answer (an infliction, a healing session, a roll, odds…), the character as it is
    now, the server's rules, and how many of the dice the user typed went unused."""

    result: T
    character: Character
    ruleset: Ruleset
    unused_dice: int = 0
