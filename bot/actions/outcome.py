"""What an action gives back about one character: one shape for every such command."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from bot.rules import Character, Ruleset

T = TypeVar("T")


@dataclass(frozen=True)
class Outcome(Generic[T]):
    """The rules' answer (an infliction, a healing session, a roll, odds…), the character as it is
    now, the server's rules, and how many of the dice the user typed went unused."""

    result: T
    character: Character
    ruleset: Ruleset
    unused_dice: int = 0
