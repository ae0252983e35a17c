"""Choices and option descriptions shared by several slash commands (English defaults; the French
ones are in bot/ui/translator.py)."""

from __future__ import annotations

from discord import app_commands

from bot.rules import Track
from bot.rules.severity import SEVERITY_NAMES

PHYSICAL = [app_commands.Choice(name=n, value=n) for n in SEVERITY_NAMES[Track.PHYSICAL]]
MENTAL = [app_commands.Choice(name=n, value=n) for n in SEVERITY_NAMES[Track.MENTAL]]
TRACKS = [app_commands.Choice(name=track.value, value=track.value) for track in Track]

WHO = {"target": "A player: their active character", "character": "Any character"}
"""The two ways a GM command names its character: a tagged player, or any character."""

WOUNDING = {
    "severity": "How bad each wound is (or give damage instead)",
    "damage": "Damage level instead of a severity: the target rolls to resist it",
    "target": WHO["target"],
    "character": "Any character (NPCs too)",
    "count": "How many wounds (each one escalates on its own)",
    "note": "What happened (shown in history)",
    "dice": "With damage: the target's own dice as luck-unluck pairs, one per wound (the bot rolls the rest)",
    "preview": "With damage: see the odds privately first, then confirm",
}

DAMAGE_TABLE = {
    "light": "Least effective damage for a light wound (mental: shock)",
    "serious": "Least effective damage for a serious wound (mental: trauma)",
    "critical": "Least effective damage for a critical wound (mental: psychosis)",
    "fatal": "Least effective damage that kills (mental: incoherent)",
}
"""/config damage: the thresholds of the damage table (rules.md §8)."""

PER_SEVERITY = {
    "track": "Physical or mental",
    "light": "Light wound (mental: shock)",
    "serious": "Serious wound (mental: trauma)",
    "critical": "Critical wound (mental: psychosis)",
}
