"""The limits checker itself, against embeds that break each limit."""

from __future__ import annotations

import discord

from tests.ui.limits import embed_within_limits, message_within_limits


def test_a_plain_embed_is_fine() -> None:
    embed = discord.Embed(title="t", description="d")
    embed.add_field(name="n", value="v")
    embed.set_footer(text="f")
    assert embed_within_limits(embed) == []


def test_each_limit_is_reported() -> None:
    embed = discord.Embed(title="t" * 257, description="d" * 4097)
    embed.set_footer(text="f" * 2049)
    embed.set_author(name="a" * 257)
    for _ in range(26):
        embed.add_field(name="n" * 257, value="v" * 1025)
    embed.add_field(name=" ", value="")
    problems = "\n".join(embed_within_limits(embed))
    for what in (
        "title",
        "description",
        "footer",
        "author",
        "fields: 27 > 25",
        "field 0 name",
        "field 0 value",
    ):
        assert what in problems
    assert "field 26 name: empty" in problems and "field 26 value: empty" in problems
    assert "total" in problems


def test_an_empty_embed_is_reported() -> None:
    assert embed_within_limits(discord.Embed()) == ["embed: nothing to show"]


def test_a_message_counts_6000_characters_across_its_embeds() -> None:
    embeds = [discord.Embed(description="d" * 4000) for _ in range(2)]
    assert [e for e in message_within_limits(None, embeds) if "total" in e]
    assert message_within_limits("c" * 2001, [])[0].startswith("content")
    assert message_within_limits(None, [discord.Embed(title="t")] * 11)[0].startswith("embeds: 11")
