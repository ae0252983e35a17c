"""Names as typed and as stored: control characters, bidirectional controls and invisible-only names
(within Discord's 1–64 characters), shown, searched, exported and imported back the same."""

from __future__ import annotations

import pytest

from bot.ui.text import clip, escape
from tests import fakediscord as harness
from tests.hardening.support import Hardened
from tests.table import ALICE, GUILD

#: (typed, stored): what is kept of a typed name.
KEPT = [
    ("Ar\x00ia", "Aria"),
    ("\x07Bell\x7f", "Bell"),
    ("Line\nbreak\ttab", "Line break tab"),
    ("\u202eesrever", "esrever"),
    ("Iso\u2066late\u2069", "Isolate"),
    ("  Zo\u200bé   ", "Zoé"),
    ("Zo\u2060é\ufeff", "Zoé"),
    ("👩\u200d👩\u200d👧", "👩\u200d👩\u200d👧"),
]
#: Names with nothing left to show.
INVISIBLE = ["\x00", "\u202e", "\u200b", "\u200b \u200b", "\x1b\u2066\u2069", " \u00a0 "]


@pytest.mark.parametrize(("typed", "stored"), KEPT)
async def test_a_name_is_stored_as_shown(hard: Hardened, typed: str, stored: str) -> None:
    created = await hard.run("character create", {"name": typed, "player": harness.user(ALICE)})
    card = created.public().embeds[-1]
    assert card["title"] == clip(escape(stored), 256) != ""
    assert (await hard.table.store.read(GUILD, lambda r: r.character_by_name(stored))).name == stored
    renamed = await hard.run("character edit", {"character": stored, "name": typed.strip() + "2"})
    assert renamed.public().embeds[-1]["title"] == clip(escape(stored + "2"), 256)
    # What the bot accepted, it exports, and imports back.
    [file] = (await hard.run("config export", {})).public().files
    (await hard.run("config import", {"file": harness.attachment("x.json", file.data)})).public()
    assert (await hard.table.store.read(GUILD, lambda r: r.character_by_name(stored + "2"))).owner_id == ALICE


@pytest.mark.parametrize("typed", INVISIBLE)
async def test_a_name_with_nothing_to_show_is_refused(hard: Hardened, typed: str) -> None:
    (await hard.run("character create", {"name": typed}, locale="fr")).refused_with(
        "A name must have 1 to {max} characters. Choose another name."
    )
    await hard.create("Visible")
    outcome = await hard.run("character edit", {"character": "Visible", "name": typed})
    outcome.refused_with("A name must have 1 to {max} characters. Choose another name.")
