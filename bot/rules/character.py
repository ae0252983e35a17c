"""A character and its wounds, as plain immutable records."""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cached_property

from bot.errors import UserError
from bot.rules.ruleset import Maxima, Preset, Ruleset, preset_key
from bot.rules.severity import Severity, Track

NAME_MAX = 64
NOTE_MAX = 200
ATTRIBUTE_MIN, ATTRIBUTE_MAX = -10, 10


@dataclass(frozen=True)
class Wound:
    """One wound with its history: what it was inflicted as and what it is now.

    ``current is None`` means the wound no longer counts: healed, or (``fatal``) the wound that went
    beyond the top of its track, which kills (physical) or makes incoherent (mental) for good.
    ``at`` is a timestamp given by the caller (the rules have no clock).
    """

    track: Track
    inflicted: Severity
    current: Severity | None
    note: str = ""
    inflicted_by: int | None = None
    at: str = ""
    fatal: bool = False
    id: int | None = None

    @property
    def held(self) -> bool:
        return self.current is not None


@dataclass(frozen=True)
class Character:
    name: str
    corps: int = 0
    resistance: int = 0
    intuition: int = 0
    preset: str = "humanoid"
    physical_max: Maxima = (4, 2, 1)
    mental_max: Maxima = (4, 2, 1)
    wounds: tuple[Wound, ...] = ()
    rest_days: int = 0
    owner_id: int | None = None
    id: int | None = None
    guild_id: int = 0
    created_at: str = ""

    # Cached: read many times per command (rules, storage, rendering); a Character never changes.
    @cached_property
    def dead(self) -> bool:
        """Holds a fatal wound on the physical track."""
        return any(w.fatal and w.track is Track.PHYSICAL for w in self.wounds)

    @cached_property
    def incoherent(self) -> bool:
        """Holds a fatal wound on the mental track."""
        return any(w.fatal and w.track is Track.MENTAL for w in self.wounds)

    @cached_property
    def out_of_play(self) -> bool:
        """Dead or incoherent: no wounds, no healing rolls, no rest; only a GM's undo changes it."""
        return self.dead or self.incoherent

    def maxima(self, track: Track) -> Maxima:
        return self.physical_max if track is Track.PHYSICAL else self.mental_max

    def held(self, track: Track) -> list[Wound]:
        """Wounds that count now on ``track``, oldest first."""
        return [w for w in self.wounds if w.track is track and w.held]

    def counts(self, track: Track) -> tuple[int, int, int]:
        tally = [0, 0, 0]
        for wound in self.wounds:
            if wound.track is track and wound.current is not None:
                tally[wound.current] += 1
        return tally[0], tally[1], tally[2]

    def is_wounded(self) -> bool:
        return any(w.held for w in self.wounds)

    def worst(self, track: Track) -> Severity | None:
        held = [w.current for w in self.wounds if w.track is track and w.current is not None]
        return max(held) if held else None


# Bidirectional embeddings, overrides and isolates: never shown (bot.ui.text.escape drops them too).
_BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Zero-width characters that show nothing and join nothing: zero-width space, word joiner, invisible
# operators, byte order mark, Mongolian vowel separator. (The zero-width joiner and non-joiner stay:
# they shape what is around them, in emoji sequences and in Persian, for instance.)
_ZERO_WIDTH = frozenset("\u200b\u2060\u2061\u2062\u2063\u2064\ufeff\u180e")
_DROPPED = _BIDI_CONTROLS | _ZERO_WIDTH


def clean_name(name: str) -> str:
    """A typed name as stored: blanks (line breaks included) collapsed to single spaces, other control
    characters, bidirectional controls and zero-width characters dropped. Names are shown, searched and
    exported as this text. Raises ``name_length`` unless it keeps 1 to ``NAME_MAX`` characters, one of
    them visible."""
    kept = "".join(
        ch
        for ch in name
        if ch.isspace() or (unicodedata.category(ch) not in ("Cc", "Cs") and ch not in _DROPPED)
    )
    clean = " ".join(kept.split())
    if not 1 <= len(clean) <= NAME_MAX or not any(ch.isprintable() and not ch.isspace() for ch in clean):
        raise UserError("A name must have 1 to {max} characters. Choose another name.", max=NAME_MAX)
    return clean


def name_key(name: str) -> str:
    """The key names are unique by, per server: blanks collapsed, NFKC, case-folded."""
    return unicodedata.normalize("NFKC", " ".join(name.split())).casefold()


def loose_key(name: str) -> str:
    """:func:`name_key` without accents ("aelis" finds "Aélis" when no name has its exact key)."""
    decomposed = unicodedata.normalize("NFKD", name_key(name))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def closest(typed: str, names: Iterable[str]) -> str | None:
    """The name ``typed`` most likely meant: the only one it starts (without accents or case), else
    the nearest by spelling."""
    by_key: dict[str, str] = {}
    for name in names:
        by_key.setdefault(loose_key(name), name)
    key = loose_key(typed)
    started = [name for k, name in by_key.items() if k.startswith(key)] if key else []
    if len(started) == 1:
        return started[0]
    near = difflib.get_close_matches(key, list(by_key), n=1, cutoff=0.6)
    return by_key[near[0]] if near else None


def not_found(name: str | None = None, close: str | None = None) -> UserError:
    """No such character in the server: named when the caller typed a name (with the ``close`` one
    it may have meant), else gone (an id)."""
    if name is not None and close is not None:
        return UserError(
            "No character called {ref} in this server. Did you mean {close}? Pick one from the "
            "suggestions, or see /character list.",
            ref=name,
            close=close,
        )
    if name is None:
        return UserError(
            "That character does not exist in this server (any more). Pick one from "
            "the suggestions, or see /character list."
        )
    return UserError(
        "No character called {ref} in this server. Pick one from the suggestions, or see /character list.",
        ref=name,
    )


def name_taken(name: str) -> UserError:
    return UserError(
        "There is already a character called {name} in this server. Choose another name.", name=name
    )


def new_character(
    name: str,
    *,
    ruleset: Ruleset,
    preset: str = "humanoid",
    corps: int = 0,
    resistance: int = 0,
    intuition: int = 0,
    owner_id: int | None = None,
    guild_id: int = 0,
    created_at: str = "",
) -> Character:
    """A fresh, unhurt character with the maxima of ``preset``. Validates what a user typed."""
    clean = clean_name(name)
    for value in (corps, resistance, intuition):
        check_attribute(value)
    chosen = preset_of(ruleset, preset)
    return Character(
        name=clean,
        corps=corps,
        resistance=resistance,
        intuition=intuition,
        preset=preset_key(preset),
        physical_max=chosen.physical,
        mental_max=chosen.mental,
        owner_id=owner_id,
        guild_id=guild_id,
        created_at=created_at,
    )


def check_attribute(value: int) -> None:
    """Corps, Résistance or Intuition as a user typed it."""
    if not ATTRIBUTE_MIN <= value <= ATTRIBUTE_MAX:
        raise UserError(
            "Corps, Résistance and Intuition must be between {min} and {max}. Type a value in that range.",
            min=ATTRIBUTE_MIN,
            max=ATTRIBUTE_MAX,
        )


def preset_of(ruleset: Ruleset, name: str) -> Preset:
    """The preset ``name`` (as typed: see :func:`preset_key`)."""
    try:
        return ruleset.presets[preset_key(name)]
    except KeyError:
        raise UserError(
            "There is no preset called {preset}. Known presets: {known}. A GM can "
            "add one with /config preset.",
            preset=name,
            known=tuple(sorted(ruleset.presets)),
        ) from None


def with_wound_replaced(character: Character, old: Wound, new: Wound) -> Character:
    """The character with ``old`` (matched by identity) replaced by ``new``.

    Only the first occurrence is replaced: a tuple may hold the very same (frozen) ``Wound`` object
    several times, e.g. ``(wound,) * 3``, and each of them is a wound of its own.
    """
    for index, wound in enumerate(character.wounds):
        if wound is old:
            wounds = (*character.wounds[:index], new, *character.wounds[index + 1 :])
            return replace(character, wounds=wounds)
    raise ValueError("the wound to replace is not one of the character's wounds")
