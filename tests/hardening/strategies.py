"""Hypothesis strategies for hostile option values, within what Discord itself delivers."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st

from tests.hardening.support import DEPARTED, HOSTILE_ROLE, LOCALES, NOBODY, STRANGER
from tests.table import ALICE, BOB, GM, GM_ROLE, OWNER

#: Pieces of text that have broken chat bots: pings, markdown, Discord's own markup, odd Unicode.
FRAGMENTS = (
    "@everyone",
    "@here",
    "@\u200beveryone",
    f"<@&{HOSTILE_ROLE}>",
    f"<@&{GM_ROLE}>",
    f"<@{STRANGER}>",
    f"<@!{STRANGER}>",
    "**bold**",
    "__under__",
    "~~strike~~",
    "*",
    "_",
    "`code`",
    "```py\nx\n```",
    "||spoiler||",
    "> quote",
    "# Title",
    "-# small",
    "- item",
    "1. item",
    "[link](https://example.com)",
    "https://discord.gg/x",
    "<#700000000000000001>",
    "<t:0:R>",
    "</wound:1>",
    "<:emoji:1>",
    "<a:emoji:1>",
    "\\",
    "\\\\",
    "\n",
    "\r\n",
    "\t",
    "\u202e",
    "\u2066",
    "\u200b",
    "\ufeff",
    "\x00",
    "\x07",
    "\x7f",
    "\x85",
    "é",
    "É",
    "ß",
    "İ",
    "ﬁ",
    "🩹",
    "👩‍👩‍👧",
    "Z\u0351\u0352\u0353",
    "١٢٣",
    "²",
    "0",
    "-1",
    "9999999999999999999",
    "9223372036854775808",
    "1e9",
    "%",
    "_%",
    "' OR 1=1 --",
    '"; DROP TABLE characters; --',
    "{name}",
    "{0}",
    "%s",
    " ",
    "…",
)

fragment = st.sampled_from(FRAGMENTS)
#: Free text mixing the fragments with arbitrary Unicode (no lone surrogates: Discord's JSON is UTF-8).
free_text = st.lists(st.one_of(fragment, st.text(max_size=10)), max_size=8).map("".join)


def text_within(min_size: int, max_size: int) -> st.SearchStrategy[str]:
    """Free text of a length Discord allows for an option declared ``min_size..max_size``."""
    longest = st.text(min_size=max_size, max_size=max_size)
    some = st.lists(st.one_of(fragment, st.text(min_size=1, max_size=10)), min_size=1, max_size=8)
    cut = some.map(lambda parts: "".join(parts)[:max_size]).filter(lambda s: len(s) >= min_size)
    return st.one_of(
        cut, cut, cut, longest, st.just("x" * max_size), fragment.filter(lambda s: len(s) >= min_size)
    )


#: Callers: the GM (by role, most often), the server owner, players, someone with no character at all.
callers = st.sampled_from([GM, GM, GM, OWNER, ALICE, BOB, NOBODY])
locales = st.sampled_from(LOCALES)
#: Players an option may name (never STRANGER, whom hostile text tries to ping).
players = st.sampled_from([ALICE, BOB, GM, OWNER, DEPARTED])


@dataclass(frozen=True)
class Ref:
    """A ``character`` option value to resolve once the world exists: ``kind`` names what it points at."""

    kind: str
    text: str = ""


REF_KINDS = (
    "name",  # a character of this server, by name
    "id",  # a character of this server, by id (what autocomplete sends)
    "name_case",  # by name, in another case and with extra blanks
    "other_name",  # a character of the other server, by name
    "other_id",  # a character of the other server, by id
    "deleted_name",
    "deleted_id",
    "departed",  # the character of a player who left the server
)

#: The free-text ``character`` option (autocomplete does not constrain what is sent).
ref_text = st.one_of(
    free_text,
    st.text(min_size=1, max_size=1),
    st.just("x" * 10_000),
    st.text(min_size=1, max_size=50).map(lambda s: (s * 10_000)[:10_000]),
    st.integers(min_value=-(10**25), max_value=10**25).map(str),
    st.integers(min_value=2**63 - 2, max_value=2**64).map(str),
    st.sampled_from(["", " ", "0", "00001", " 1 ", "+1", "1_000", "١", "²", "𝟙"]),
)
refs: st.SearchStrategy[Ref | str] = st.one_of(st.sampled_from(REF_KINDS).map(Ref), ref_text)
