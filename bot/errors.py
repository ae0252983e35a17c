"""Errors meant for the person who typed the command.

A :class:`UserError` carries a message key and its parameters, never a sentence: the UI layer turns
it into French or English (``bot.ui.i18n``). The parameters are exactly the message's placeholders
(plus the ``track`` its severities belong to); a value shown in words says so by its type
(:class:`Mention`, :class:`RestDays`…). Anything below the cogs may raise it; the command tree's
error funnel answers it ephemerally and nothing is changed.
"""

from __future__ import annotations

from dataclasses import dataclass


class UserError(Exception):
    """A refusal the user can act on. ``key`` names a message in the catalogue."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params: dict[str, object] = params

    def __repr__(self) -> str:
        return f"UserError({self.key!r}, **{self.params!r})"


class Mention(int):
    """A Discord user among a refusal's parameters: shown as a mention."""


class Possessive(str):
    """A character's name among a refusal's parameters, shown possessive: "Aélis's" / "d'Aélis"."""


class EventKind(str):
    """A kind of change (``wound``, ``rest``…) among a refusal's parameters: shown in words."""


@dataclass(frozen=True)
class RestDays:
    """Days of rest among a refusal's parameters: "2/7 days" / "2 jours sur 7"."""

    rested: int
    needed: int


@dataclass(frozen=True)
class ImportProblem:
    """One problem of a refused import (``UserError("import_invalid", errors=(ImportProblem, ...))``),
    as data: the UI words it in the reader's language. Never holds the file's text."""

    where: tuple[str | int, ...]
    """Where in the file: ``("characters", 3, "name")``; empty for the whole file."""
    what: str
    """What is wrong: a key, ``import_<what>`` in the catalogue."""
    values: tuple[tuple[str, object], ...] = ()
    """The numbers (and severities, tracks) the message needs, as ``(name, value)`` pairs."""


def import_too_large(limit_bytes: int) -> UserError:
    """The refusal of an import file larger than ``limit_bytes``."""
    problem = ImportProblem((), "too_large", (("mb", limit_bytes // (1024 * 1024)),))
    return UserError("import_invalid", errors=(problem,))
