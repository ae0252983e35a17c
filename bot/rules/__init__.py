"""The wound rules of Harmonies as pure functions: no Discord, no database, no clock, no global RNG."""

from bot.rules.character import Character, Wound, new_character
from bot.rules.dice import Dice, DiceFeed, RandomSource, Roll, parse_dice, roll_dice
from bot.rules.healing import (
    HealingSession,
    HealStep,
    RestStatus,
    can_roll_healing,
    grant_rest,
    heal_session,
    rest_status,
)
from bot.rules.ruleset import HUMANOID, Preset, Ruleset, TrackNumbers
from bot.rules.severity import SEVERITIES, Severity, Track, parse_severity, severity_name
from bot.rules.wounds import (
    EscalationWarning,
    Inflicted,
    Infliction,
    Lowering,
    escalate,
    gm_lower,
    inflict,
    total_penalty,
    warnings,
)

__all__ = [
    "HUMANOID",
    "SEVERITIES",
    "Character",
    "Dice",
    "DiceFeed",
    "EscalationWarning",
    "HealStep",
    "HealingSession",
    "Inflicted",
    "Infliction",
    "Lowering",
    "Preset",
    "RandomSource",
    "RestStatus",
    "Roll",
    "Ruleset",
    "Severity",
    "Track",
    "TrackNumbers",
    "Wound",
    "can_roll_healing",
    "escalate",
    "gm_lower",
    "grant_rest",
    "heal_session",
    "inflict",
    "new_character",
    "parse_dice",
    "parse_severity",
    "rest_status",
    "roll_dice",
    "severity_name",
    "total_penalty",
    "warnings",
]
