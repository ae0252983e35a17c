"""Who is asking: the facts about the caller that decide what they may do."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.errors import Mention, Possessive, UserError
from bot.rules import Character, Ruleset


@dataclass(frozen=True)
class Actor:
    user_id: int
    guild_id: int
    owns_guild: bool = False
    manages_guild: bool = False
    role_ids: frozenset[int] = field(default_factory=frozenset)
    interaction_id: int | None = None
    """The interaction asking: recorded with the change it makes, so that a second delivery of the
    same interaction (a gateway replay) is not applied again."""

    def is_gm(self, ruleset: Ruleset) -> bool:
        """A GM has the server's GM role, or the Manage Server permission, or owns the server."""
        if self.owns_guild or self.manages_guild:
            return True
        return ruleset.gm_role_id is not None and ruleset.gm_role_id in self.role_ids

    def require_gm(self, ruleset: Ruleset) -> None:
        if not self.is_gm(ruleset):
            raise UserError(
                "Only a GM (the GM role, Manage Server, or the server owner) can do this. Ask a GM."
            )

    def owns(self, character: Character) -> bool:
        return character.owner_id is not None and character.owner_id == self.user_id

    def require_owner_or_gm_for_npc(self, character: Character, ruleset: Ruleset) -> None:
        """Healing rolls: the owner rolls for their character; a GM rolls for NPCs. A refusal says who
        rolls, and what a GM may do instead."""
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
        if not (self.owns(character) or self.is_gm(ruleset)):
            refuse_not_owner(character)


def refuse_not_owner(character: Character) -> None:
    """Who may act on ``character`` instead of the caller: the person who plays it (or a GM)."""
    if character.owner_id is None:
        raise UserError("{name} is an NPC: only a GM can do this.", name=character.name)
    raise UserError(
        "{name} is played by {player}: only that person (or a GM) can do this. Use your own character.",
        name=character.name,
        player=Mention(character.owner_id),
    )
