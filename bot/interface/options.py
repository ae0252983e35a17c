"""Choices and option descriptions shared by several slash commands (English defaults, each with its key
in the commands' catalogue, bot/ui/strings_commands.py, which holds the French)."""

from __future__ import annotations

from discord import app_commands
from discord.app_commands import locale_str

from bot.rules import Track
from bot.rules.severity import SEVERITY_NAMES


def choice(value: str) -> app_commands.Choice[str]:
    """A choice named by its value (``light``, ``physical``…), translated by the key ``choice.<value>``."""
    return app_commands.Choice(name=locale_str(value, key=f"choice.{value}"), value=value)


PHYSICAL = [choice(n) for n in SEVERITY_NAMES[Track.PHYSICAL]]
MENTAL = [choice(n) for n in SEVERITY_NAMES[Track.MENTAL]]
TRACKS = [choice(track.value) for track in Track]

WHO = {
    "target": locale_str("A player: their active character", key="who.target"),
    "character": locale_str("Any character", key="who.character"),
}
"""The two ways a GM command names its character: a tagged player, or any character."""

WOUNDING = {
    "severity": locale_str("How bad each wound is (or give damage instead)", key="wounding.severity"),
    "damage": locale_str(
        "Damage level instead of a severity: the target rolls to resist it", key="wounding.damage"
    ),
    "target": WHO["target"],
    "character": locale_str("Any character (NPCs too)", key="wounding.character"),
    "count": locale_str("How many wounds (each one escalates on its own)", key="wounding.count"),
    "note": locale_str("What happened (shown in history)", key="wounding.note"),
    "dice": locale_str(
        "With damage: the target's own dice as luck-unluck pairs, one per wound (the bot rolls the rest)",
        key="wounding.dice",
    ),
    "preview": locale_str("With damage: see the odds privately first, then confirm", key="wounding.preview"),
}

DAMAGE_TABLE = {
    "light": locale_str(
        "Least effective damage for a light wound (mental: shock)", key="config.damage.light"
    ),
    "serious": locale_str(
        "Least effective damage for a serious wound (mental: trauma)", key="config.damage.serious"
    ),
    "critical": locale_str(
        "Least effective damage for a critical wound (mental: psychosis)", key="config.damage.critical"
    ),
    "fatal": locale_str("Least effective damage that kills (mental: incoherent)", key="config.damage.fatal"),
}
"""/config damage: the thresholds of the damage table (rules.md §8)."""

PER_SEVERITY = {
    "track": locale_str("Physical or mental", key="per-severity.track"),
    "light": locale_str("Light wound (mental: shock)", key="per-severity.light"),
    "serious": locale_str("Serious wound (mental: trauma)", key="per-severity.serious"),
    "critical": locale_str("Critical wound (mental: psychosis)", key="per-severity.critical"),
}
