"""A checker of Discord's documented message and embed limits, for the tests of every renderer and of
every answer the fake Discord records."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.ui.text import CONTENT, DESCRIPTION, FIELD_VALUE, TITLE, TOTAL

FIELD_NAME = 256
FIELDS = 25
FOOTER = 2048
AUTHOR = 256
EMBEDS_PER_MESSAGE = 10
BUTTON_LABEL = 80
COLOUR_MAX = 0xFFFFFF


def _check(violations: list[str], what: str, text: str | None, limit: int) -> None:
    if text is not None and len(text) > limit:
        violations.append(f"{what}: {len(text)} > {limit}")


def embed_within_limits(embed: discord.Embed) -> list[str]:
    """Every way ``embed`` breaks Discord's limits (an empty list when it is fine to send)."""
    violations: list[str] = []
    _check(violations, "title", embed.title, TITLE)
    _check(violations, "description", embed.description, DESCRIPTION)
    _check(violations, "footer", embed.footer.text, FOOTER)
    _check(violations, "author", embed.author.name, AUTHOR)
    if len(embed.fields) > FIELDS:
        violations.append(f"fields: {len(embed.fields)} > {FIELDS}")
    for index, field in enumerate(embed.fields):
        name, value = field.name or "", field.value or ""
        _check(violations, f"field {index} name", name, FIELD_NAME)
        _check(violations, f"field {index} value", value, FIELD_VALUE)
        if not name.strip():
            violations.append(f"field {index} name: empty")
        if not value.strip():
            violations.append(f"field {index} value: empty")
    if len(embed) > TOTAL:
        violations.append(f"total: {len(embed)} > {TOTAL}")
    colour = embed.colour
    if colour is not None and not 0 <= colour.value <= COLOUR_MAX:
        violations.append(f"colour: {colour.value:#x} out of range")
    if not (embed.title or embed.description or embed.fields):
        violations.append("embed: nothing to show")
    return violations


def message_within_limits(content: str | None, embeds: Sequence[discord.Embed]) -> list[str]:
    """The limits of one whole message: its content, its embeds, and 6000 characters across them."""
    violations: list[str] = []
    _check(violations, "content", content, CONTENT)
    if len(embeds) > EMBEDS_PER_MESSAGE:
        violations.append(f"embeds: {len(embeds)} > {EMBEDS_PER_MESSAGE}")
    for index, embed in enumerate(embeds):
        violations.extend(f"embed {index} {problem}" for problem in embed_within_limits(embed))
    total = sum(len(embed) for embed in embeds)
    if total > TOTAL:
        violations.append(f"embeds total: {total} > {TOTAL}")
    return violations
