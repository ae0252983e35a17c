"""The player view (issue 29): a link is kept as the SHA-256 of its token; its page shows a
:class:`Party` (read by :meth:`bot.storage.Store.party`)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from bot.rules.character import Character
from bot.rules.ruleset import Ruleset

CHANGES_CHANNEL = "harmonies_changes"
"""PostgreSQL's ``NOTIFY`` channel of committed changes; the payload is the server's id. Every process
sharing the database says so of its changes, and the processes serving player views listen."""


def digest(token: str) -> str:
    """What is stored of a token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class Party:
    """What one link's page shows: the server's player characters and the NPCs on its boards."""

    guild_id: int
    language: str
    """The server's language when the link was given (for a ruleset whose language is "auto")."""
    ruleset: Ruleset
    characters: list[Character]
