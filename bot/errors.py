"""Errors meant for the person who typed the command: a :class:`UserError` carries its English message
and exactly its placeholders' values (plus the ``track`` its severities belong to); a value shown in
words says so by its type (:class:`Mention`, :class:`RestDays`…). The UI words it in the reader's
language. Anything below the cogs may raise it; the error funnel answers it and nothing is changed.
"""

from __future__ import annotations

from dataclasses import dataclass


def N_(message: str) -> str:
    """Marks an English ``message`` for extraction (``scripts/messages.py``) where it is not written in a
    call that renders it (a table of texts, a choice between two); it is translated where it is shown."""
    return message


class UserError(Exception):
    """A refusal the user can act on: ``UserError("No character named {name}.", name=...)``."""

    outcome = "refused"  # what the metrics count it as

    def __init__(self, message: str, **params: object) -> None:
        super().__init__(message)
        self.message = message
        self.params: dict[str, object] = params

    def __repr__(self) -> str:
        return f"UserError({self.message!r}, **{self.params!r})"


class Failure(UserError):
    """The bot or its database failed, not the user: answered like a refusal, counted as a failure."""

    outcome = "failed"


class Mention(int):
    """A Discord user among a refusal's parameters: shown as a mention."""


class Possessive(str):
    """A character's name among a refusal's parameters, shown possessive: "Aélis's" / "d'Aélis"."""


class EventKind(str):
    """A kind of change (``wound``, ``rest``…) among a refusal's parameters: shown in words."""


@dataclass(frozen=True)
class Change:
    """A recorded change among a refusal's parameters: its kind in words (an ``EventKind`` value), with
    how many characters it touched when more than one, or when it was made for the whole server (a
    /rest of everyone, an import: "rest of the whole server, 6 characters")."""

    kind: str
    characters: int = 1
    server_wide: bool = False


@dataclass(frozen=True)
class RestDays:
    """Days of rest among a refusal's parameters: "2/7 days" / "2 jours sur 7"."""

    rested: int
    needed: int


@dataclass(frozen=True)
class ImportProblem:
    """One problem of a refused import (``UserError(..., errors=(ImportProblem, ...))``), as data: the UI
    words it in the reader's language. Never holds the file's text."""

    where: tuple[str | int, ...]
    """Where in the file: ``("characters", 3, "name")``; empty for the whole file."""
    what: str
    """What is wrong, in English, with its placeholders' ``(name, value)`` pairs in ``values``."""
    values: tuple[tuple[str, object], ...] = ()


def cannot_import(*problems: ImportProblem) -> UserError:
    return UserError(
        "This file cannot be imported: {errors}. Nothing was changed; use a file made by /config export.",
        errors=problems,
    )


def import_too_large(limit_bytes: int) -> UserError:
    return cannot_import(
        ImportProblem((), "the file is larger than {mb} MB", (("mb", limit_bytes // (1024 * 1024)),))
    )
