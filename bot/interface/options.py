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
    "severity": "How bad each wound is",
    "target": WHO["target"],
    "character": "Any character (NPCs too)",
    "count": "How many wounds (each one escalates on its own)",
    "note": "What happened (shown in history)",
}

PER_SEVERITY = {
    "track": "Physical or mental",
    "light": "Light wound (mental: shock)",
    "serious": "Serious wound (mental: trauma)",
    "critical": "Critical wound (mental: psychosis)",
}
