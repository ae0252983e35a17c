"""Characters in given states, and nasty user text, for the UI tests."""

from __future__ import annotations

import re

from bot.rules import Character, Severity, Track, Wound
from tests.rules.support import fatal_wounds

NASTY = "**x** __y__ `z` ~~s~~ ||spoiler|| @everyone @here <@&123> <@456> <@!789> <#42> [link](http://e.x) \\"
"""Every kind of user text that could format or ping."""
PING = re.compile(r"@everyone|@here|<@[!&]?\d+>|<#\d+>")
"""What Discord would turn into a ping or a mention."""


def nasty(length: int) -> str:
    return (NASTY * (length // len(NASTY) + 1))[:length]


def wounds_of(track: Track, counts: tuple[int, int, int], note: str = "") -> tuple[Wound, ...]:
    return tuple(
        Wound(track, Severity(level), Severity(level), note=note)
        for level in range(3)
        for _ in range(counts[level])
    )


def character(
    physical: tuple[int, int, int] = (0, 0, 0),
    mental: tuple[int, int, int] = (0, 0, 0),
    *,
    name: str = "Aria",
    owner_id: int | None = 1234,
    physical_max: tuple[int, int, int] = (4, 2, 1),
    mental_max: tuple[int, int, int] = (4, 2, 1),
    note: str = "",
    rest_days: int = 0,
    dead: bool = False,
    incoherent: bool = False,
) -> Character:
    return Character(
        name=name,
        owner_id=owner_id,
        physical_max=physical_max,
        mental_max=mental_max,
        wounds=(
            *wounds_of(Track.PHYSICAL, physical, note),
            *wounds_of(Track.MENTAL, mental, note),
            *fatal_wounds(dead=dead, incoherent=incoherent),
        ),
        rest_days=rest_days,
    )


def embed_text(embed: object) -> str:
    """Every visible text of an embed, joined (for ``in`` assertions)."""
    import discord

    assert isinstance(embed, discord.Embed)
    parts = [embed.title or "", embed.description or "", embed.footer.text or "", embed.author.name or ""]
    for field in embed.fields:
        parts += [field.name or "", field.value or ""]
    return "\n".join(parts)
