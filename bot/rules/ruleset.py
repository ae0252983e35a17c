"""The per-server ruleset: every number of the wound rules, with the defaults of rules.md.

Numbers that come from the Harmonies text: the humanoid maxima 4/2/1 (physical and mental), the
escalation, the failure margin of 10 that worsens a wound. Everything else is our default and a GM
may change it (``/config``).
"""

from __future__ import annotations

import re
import unicodedata
from itertools import pairwise
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from bot.rules.severity import Severity, Track

HUMANOID = "humanoid"
MAX_PER_SEVERITY = 20
MAX_PRESETS = 25
MAX_SECRET = 1000
PRESET_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")

HUMANOID_NAMES = frozenset({"humanoid", "humanoide"})
"""How the built-in preset may be typed: its stored name, or its French name (accents dropped)."""


def preset_key(typed: str) -> str:
    """The preset a user typed: case and accents do not matter (stored names are lowercase ASCII),
    and the built-in one answers to its shown name in every language ("humanoïde")."""
    folded = unicodedata.normalize("NFKD", typed.strip().lower())
    plain = "".join(c for c in folded if not unicodedata.combining(c))
    return HUMANOID if plain in HUMANOID_NAMES else plain


Count = Annotated[int, Field(ge=0, le=MAX_PER_SEVERITY)]
Penalty = Annotated[int, Field(ge=-50, le=0)]
RestDays = Annotated[int, Field(ge=0, le=3650)]
Difficulty = Annotated[int, Field(ge=-50, le=50)]
MAX_DAMAGE = 999
DamageLevel = Annotated[int, Field(ge=1, le=MAX_DAMAGE)]

AskBeforeHealing = Literal["deadly", "worsening", "never"]
"""When the roller confirms a healing session the bot rolls: only when it is not worth offering (its
first roll can kill or make incoherent, or cannot reasonably succeed: the default, named ``deadly``),
also whenever it can worsen a wound, or never."""

Maxima = tuple[Count, Count, Count]
"""How many wounds of each severity (low, mid, high) a character can hold."""


class Preset(BaseModel):
    """Maxima of one kind of creature, for both tracks."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    physical: Maxima = (4, 2, 1)
    mental: Maxima = (4, 2, 1)

    def maxima(self, track: Track) -> Maxima:
        return self.physical if track is Track.PHYSICAL else self.mental


class TrackNumbers(BaseModel):
    """Penalty, rest period and healing difficulty of each severity (low, mid, high) of a track."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    penalties: tuple[Penalty, Penalty, Penalty] = (-1, -3, -5)
    rest_days: tuple[RestDays, RestDays, RestDays] = (1, 7, 30)
    difficulty: tuple[Difficulty, Difficulty, Difficulty] = (0, 0, 0)

    def penalty(self, severity: Severity) -> int:
        return self.penalties[severity]


class DamageTable(BaseModel):
    """Damage rolls (rules.md §8): the least effective damage that gives a light wound (shock), a
    serious one (trauma), a critical one (psychosis), and death (incoherence). Below the first
    threshold the blow leaves no wound. Defaults: the Harmonies family's published table."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    thresholds: tuple[DamageLevel, DamageLevel, DamageLevel, DamageLevel] = (11, 21, 31, 41)

    @field_validator("thresholds")
    @classmethod
    def _thresholds_increase(cls, thresholds: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
        if any(low >= high for low, high in pairwise(thresholds)):
            raise ValueError("damage thresholds must increase (light < serious < critical < fatal)")
        return thresholds


class Ruleset(BaseModel):
    """Everything a server can tune. Validated on every load and every change."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    gm_role_id: int | None = None
    presets: dict[str, Preset] = Field(default_factory=lambda: {HUMANOID: Preset()})
    physical: TrackNumbers = TrackNumbers()
    mental: TrackNumbers = TrackNumbers()
    open_rolls: bool = False
    tie_succeeds: bool = True
    mental_healing_rolls: bool = False
    ask_before_healing: AskBeforeHealing = "deadly"
    """Ask the roller to confirm a healing session the bot rolls: see :data:`AskBeforeHealing`."""
    players_create: bool = True
    language: Literal["en", "fr"] | None = None
    """Language of public messages; ``None`` follows the server's locale."""
    secret_npcs: bool = False
    """Players see the state of every NPC only as a word (unhurt, wounded…), never the numbers."""
    secret_characters: frozenset[int] = Field(default_factory=frozenset, max_length=MAX_SECRET)
    """NPCs kept secret one by one (their ids), also when ``secret_npcs`` is off. It only ever hides:
    a stale id (a deleted character) can never reveal anything."""
    damage: DamageTable = DamageTable()

    @model_validator(mode="before")
    @classmethod
    def _read_older_settings(cls, data: Any) -> Any:
        """Settings stored before ``ask_before_healing`` said ``confirm_risky_healing``: on (the old
        default, which asked before any worsening and taught players to click through) reads as the
        new default, asking only before a deadly roll; off reads as never."""
        if isinstance(data, dict) and "confirm_risky_healing" in data:
            data = dict(data)
            old = data.pop("confirm_risky_healing")
            data.setdefault("ask_before_healing", "deadly" if old else "never")
        return data

    def asks_before(self, *, worth_offering: bool, worsening: bool) -> bool:
        """Whether a session the bot rolls is asked about first: by default (``deadly``) one not worth
        offering (its first roll can kill, or cannot reasonably succeed: ``HealingOdds``); with
        ``worsening``, that one and any whose first roll can worsen; with ``never``, none."""
        if self.ask_before_healing == "never":
            return False
        return not worth_offering or (self.ask_before_healing == "worsening" and worsening)

    @field_validator("presets")
    @classmethod
    def _presets_are_sane(cls, presets: dict[str, Preset]) -> dict[str, Preset]:
        if HUMANOID not in presets:
            raise PydanticCustomError("humanoid_required", "the humanoid preset must always be present")
        if len(presets) > MAX_PRESETS:
            raise PydanticCustomError("too_many_presets", "at most {limit} presets", {"limit": MAX_PRESETS})
        for name in presets:
            if not PRESET_NAME.match(name):
                raise PydanticCustomError(
                    "preset_name",
                    "preset name '{name}': 1-32 lowercase letters, digits, '-' or '_', starting with a "
                    "letter or digit",
                    {"name": name},
                )
        return presets

    def is_secret(self, owner_id: int | None, character_id: int | None) -> bool:
        """Whether players see this character's state only as a word: NPCs only, all of them when the
        server says so, else those kept secret one by one."""
        if owner_id is not None:
            return False
        return self.secret_npcs or (character_id is not None and character_id in self.secret_characters)

    def numbers(self, track: Track) -> TrackNumbers:
        return self.physical if track is Track.PHYSICAL else self.mental

    def penalty(self, track: Track, severity: Severity) -> int:
        return self.numbers(track).penalty(severity)
