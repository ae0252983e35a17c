"""Errors meant for the person who typed the command.

A :class:`UserError` carries a message key and its parameters, never a sentence: the UI layer turns
it into French or English (``bot.ui.i18n``). Anything below the cogs may raise it; the command tree's
error funnel answers it ephemerally and nothing is changed.
"""

from __future__ import annotations


class UserError(Exception):
    """A refusal the user can act on. ``key`` names a message in the catalogue."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params: dict[str, object] = params

    def __repr__(self) -> str:
        return f"UserError({self.key!r}, **{self.params!r})"
