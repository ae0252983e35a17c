"""Escaping user text, clipping at Discord's limits, signed numbers, mentions."""

from __future__ import annotations

import discord
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.ui.text import ELLIPSIS, clip, escape, fit_total, signed
from tests.ui.builders import NASTY, PING, nasty


@pytest.mark.parametrize(
    "text", ["@everyone", "@here", "<@&123>", "<@456>", "<@!456>", "<#789>", "hi @everyone and <@&1> <@2>"]
)
def test_escaped_text_never_pings(text: str) -> None:
    assert not PING.search(escape(text))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("**x**", "\\*\\*x\\*\\*"),
        ("`code`", "\\`code\\`"),
        ("__u__", "\\_\\_u\\_\\_"),
        ("||spoiler||", "\\|\\|spoiler\\|\\|"),
        ("~~s~~", "\\~\\~s\\~\\~"),
        ("a\\b", "a\\\\b"),
        ("# title", "\\# title"),
        ("> quote", "\\> quote"),
        ("1. item", "1\\. item"),
        ("Aria", "Aria"),
        ("Élodie d'Arc", "Élodie d'Arc"),
    ],
)
def test_escaped_text_never_formats(text: str, expected: str) -> None:
    assert escape(text) == expected


def test_links_and_custom_tokens_are_inert() -> None:
    assert escape("[link](http://e.x)").startswith("\\[link]")  # no masked link
    for token in ("<t:1700000000:R>", "<:smile:123>", "</undo:123>", "<https://e.x>"):
        assert token not in escape(token)


def test_whitespace_control_and_bidi_characters_cannot_break_a_layout() -> None:
    assert escape("a\n\nb\t c") == "a b c"
    assert escape("a\u202eb\u0000c") == "abc"
    assert escape("a\nb", multiline=True) == "a\nb"


def test_clip() -> None:
    assert clip("abc", 3) == "abc"
    assert clip("abcd", 3) == "ab" + ELLIPSIS
    assert clip("abcd", 0) == ""
    assert len(clip("x" * 10_000, 256)) == 256


def test_clip_never_leaves_a_dangling_backslash() -> None:
    assert escape("a*b") == "a\\*b"
    assert clip(escape("a*b"), 3) == "a" + ELLIPSIS  # not "a\\…", which would escape the ellipsis
    assert clip("ab\\\\cd", 5) == "ab\\\\" + ELLIPSIS  # an escaped backslash stays whole


def test_a_ten_thousand_character_name_is_cut_and_inert() -> None:
    shown = clip(escape(nasty(10_000)), 256)
    assert len(shown) <= 256
    assert not PING.search(shown)


def trailing_backslashes(text: str) -> int:
    body = text[:-1] if text.endswith(ELLIPSIS) else text
    return len(body) - len(body.rstrip("\\"))


@given(st.text(alphabet=st.sampled_from([*NASTY, "a", " ", "\n", "é"]), max_size=400), st.integers(1, 300))
def test_escape_then_clip_holds_for_any_text(text: str, limit: int) -> None:
    shown = clip(escape(text), limit)
    assert len(shown) <= limit
    assert not PING.search(shown)
    assert trailing_backslashes(shown) % 2 == 0


@given(st.text(max_size=300))
def test_escape_never_pings_on_arbitrary_unicode(text: str) -> None:
    assert not PING.search(escape(text))


def test_signed_uses_a_real_minus_sign() -> None:
    assert signed(4) == "+4"
    assert signed(0) == "+0"
    assert signed(-4) == "\u22124"


def test_fit_total_shortens_the_longest_texts() -> None:
    embed = discord.Embed(title="t", description="d" * 4000)
    embed.add_field(name="n", value="v" * 1000)
    embed.add_field(name="m", value="w" * 1000)
    fit_total(embed, 3000)
    assert len(embed) <= 3000
