"""The per-server ruleset: every number of the wound rules, with the defaults of rules.md.

Numbers that come from the Harmonies text: the humanoid maxima 4/2/1 (physical and mental), the
escalation, the failure margin of 10 that worsens a wound. Everything else is our default and a GM
may change it (``/config``).
"""

from __future__ import annotations

import re
from itertools import pairwise
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic_core import PydanticCustomError

from bot.rules.severity import Severity, Track

HUMANOID = "humanoid"
MAX_PER_SEVERITY = 20
MAX_PRESETS = 25
PRESET_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")

Count = Annotated[int, Field(ge=0, le=MAX_PER_SEVERITY)]
Penalty = Annotated[int, Field(ge=-50, le=0)]
RestDays = Annotated[int, Field(ge=0, le=3650)]
Difficulty = Annotated[int, Field(ge=-50, le=50)]
MAX_DAMAGE = 999
DamageLevel = Annotated[int, Field(ge=1, le=MAX_DAMAGE)]

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
    confirm_risky_healing: bool = True
    """Ask the roller to confirm a healing session the bot rolls when its first roll may worsen."""
    players_create: bool = True
    language: Literal["en", "fr"] | None = None
    """Language of public messages; ``None`` follows the server's locale."""
    damage: DamageTable = DamageTable()

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

    def numbers(self, track: Track) -> TrackNumbers:
        return self.physical if track is Track.PHYSICAL else self.mental

    def penalty(self, track: Track, severity: Severity) -> int:
        return self.numbers(track).penalty(severity)
