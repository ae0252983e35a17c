"""History lines for every kind of event, in both languages, whatever the details hold."""

from __future__ import annotations

from typing import Any

import pytest

from bot.history import Event
from bot.rules.ruleset import Ruleset
from bot.ui.events import describe_event, history_embed, undo_embed
from bot.ui.i18n import LANGS, Lang
from tests.ui.builders import PING, embed_text, nasty
from tests.ui.limits import embed_within_limits


def event(kind: str, details: dict[str, Any] | None = None, **extra: Any) -> Event:
    fields: dict[str, Any] = {"id": 12, "character_id": 3, "character_name": "Aria"} | extra
    return Event(
        guild_id=1,
        kind=kind,
        actor_id=7,
        at="2024-05-01T10:00:00+00:00",
        details=details or {},
        **fields,
    )


WOUND = {"severity": "light", "count": 2, "note": "arrow", "became": ["light", "serious"], "not_applied": 0}
CASES: list[tuple[Event, str, str]] = [
    (
        event("character_create", {"owner_id": 42}),
        "character **Aria** created (<@42>)",
        "personnage **Aria** créé (<@42>)",
    ),
    (event("character_create", {"owner_id": None}), "created (NPC)", "créé (PNJ)"),
    (
        event("character_edit", {"name": "Arya", "corps": 2}),
        "edited: name: Arya, corps: 2",
        "modifié\u202f: nom\u202f: Arya, corps\u202f: 2",
    ),
    (event("character_delete"), "character **Aria** deleted", "personnage **Aria** supprimé"),
    (
        event("character_select"),
        "**Aria** became the active character",
        "**Aria** devient le personnage actif",
    ),
    (
        event("wound", WOUND),
        "**Aria**: 2 × light wound → light wound, serious wound — “arrow”",
        "**Aria**\u202f: 2 × blessure légère → blessure légère, blessure grave — «\u202farrow\u202f»",
    ),
    (
        event("wound", {"severity": "critical", "count": 3, "became": [None], "not_applied": 2}),
        "3 × critical wound → ☠️ FATAL (2 not applied)",
        "3 × blessure critique → ☠️ MORTELLE (2 non appliquées)",
    ),
    (
        event("mental", {"severity": "shock", "count": 1, "became": ["shock"]}),
        "**Aria**: shock",  # not "1 × shock"
        "**Aria**\u202f: choc",
    ),
    (
        event(
            "heal_roll",
            {"track": "physical", "severity": "light", "rolls": [{"success": True}, {"success": False}]},
        ),
        "healing session (light wound), 1/2 successful rolls",
        "séance de guérison (blessure légère), 1/2 jets réussis",
    ),
    (
        event(
            "heal_roll",
            {"severity": "serious", "rolls": [{"success": False, "worsened": True, "became": "critical"}]},
        ),
        "— worsened: critical wound",
        "— aggravation\u202f: blessure critique",
    ),
    (
        event(
            "heal_roll",
            {"severity": "critical", "rolls": [{"success": False, "worsened": True, "became": None}]},
        ),
        "→ ☠️ FATAL",
        "→ ☠️ MORTELLE",
    ),
    (
        event("heal_wound", {"severity": "serious", "became": "light"}),
        "GM healing, serious wound → light wound",
        "soin du MJ, blessure grave → blessure légère",
    ),
    (event("heal_mental", {"severity": "shock", "became": None}), "shock → healed", "choc → soigné"),
    (
        event("rest", {"days": 3, "characters": 4}, character_id=None, character_name=None),
        "rest of 3 days for 4 characters",
        "repos de 3 jours pour 4 personnages",
    ),
    (event("rest", {"days": 1, "characters": 1}), "rest of 1 day for Aria", "repos de 1 jour pour Aria"),
    (
        event("config", {"setting": "dice", "changes": {"open_rolls": True}}),
        "setting **dice** changed: open\\_rolls: True",
        "réglage **dice** modifié\u202f: open\\_rolls\u202f: True",
    ),
    (
        event("import", {"counts": {"characters": 3}}),
        "server data imported: characters: 3",
        "données du serveur importées\u202f: characters\u202f: 3",
    ),
    (event("undo", {}, undoes=9), "undid change #9", "annulation du changement n°9"),
    (
        event(
            "undo",
            {"kind": "rest", "event_details": {"days": 2, "characters": 5}},
            undoes=9,
            character_name=None,
        ),
        "undid change #9 — rest of 2 days for 5 characters",
        "repos de 2 jours pour 5 personnages",
    ),
    (event("something_new", {"x": 1}), "something\\_new", "something\\_new"),
]


@pytest.mark.parametrize(("item", "en", "fr"), CASES, ids=[c[0].kind for c in CASES])
def test_each_kind_in_both_languages(item: Event, en: str, fr: str) -> None:
    assert en in describe_event(item, "en")
    assert fr in describe_event(item, "fr")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    "details",
    [
        {},
        {"severity": 99, "count": "many", "became": "not a list", "rolls": 5, "days": None},
        {"severity": None, "became": [None, 7, "bogus"], "note": 12, "rolls": [1, "x", None]},
        {"owner_id": "x", "track": [], "characters": ["a", "b"]},
    ],
)
def test_missing_or_odd_details_never_crash(lang: Lang, details: dict[str, Any]) -> None:
    kinds = ["character_create", "character_edit", "character_delete", "character_select", "wound", "mental"]
    kinds += ["heal_roll", "heal_wound", "heal_mental", "rest", "config", "import", "undo", "?"]
    for kind in kinds:
        text = describe_event(event(kind, details, character_name=None), lang)
        assert text and len(text) <= 400


def test_user_text_in_history_is_escaped() -> None:
    item = event(
        "wound", {"severity": "light", "count": 1, "note": "@everyone <@&5>"}, character_name=nasty(300)
    )
    line = describe_event(item, "en")
    assert not PING.search(line)


def test_history_page() -> None:
    events = [event("character_select", id=n) for n in range(3)]
    events.append(
        Event(id=99, guild_id=1, kind="rest", actor_id=None, at="yesterday", details={"days": 2}, undone=True)
    )
    embed = history_embed(events, 2, 5, "fr")
    text = embed.description or ""
    assert embed.title == "Historique" and embed.footer.text == "page 2/5"
    assert text.startswith("`#0` <t:1714557600:R> <@7> — **Aria** devient le personnage actif")
    assert "~~`#99` yesterday — repos de 2 jours pour 0 personnages~~ (annulé)" in text
    assert history_embed([], 1, 1, "en").description == "Nothing recorded yet."
    named = history_embed(events, 1, 1, "en", character_name=nasty(10_000))
    assert embed_within_limits(named) == []


def test_a_page_of_huge_events_fits() -> None:
    huge = {"severity": "light", "count": 7, "note": nasty(200), "became": ["light"] * 7, "x": nasty(5000)}
    events = [
        event(kind, huge, character_name=nasty(10_000)) for kind in ("wound", "config", "character_edit") * 10
    ]
    for lang in LANGS:
        embed = history_embed(events, 1, 1, lang)
        assert embed_within_limits(embed) == []
        assert not PING.search(embed_text(embed).replace("<@7>", ""))


def test_undo_embed_says_what_was_reverted() -> None:
    reverted = event("rest", {"days": 3, "characters": 4}, character_name=None)
    en = undo_embed(reverted, "en", (), (), {}, Ruleset())
    assert en.title == "Undone"
    assert en.description == "Reverted change #12: rest of 3 days for 4 characters"
    assert "/undo" in (en.footer.text or "")
    fr = undo_embed(
        event("undo", {"kind": "wound", "event_details": WOUND}, undoes=8), "fr", (), (), {}, Ruleset()
    )
    assert (fr.description or "").startswith(
        "Changement n°8 annulé\u202f: **Aria**\u202f: 2 × blessure légère"
    )
    assert "/annuler" in (fr.footer.text or "")
    stored = {
        "kind": "heal_wound",
        "character_name": "Bob",
        "event_details": {"severity": "serious", "became": "light"},
        "event_id": 8,
        "event_at": "2024-05-01T10:00:00+00:00",
    }
    as_stored = undo_embed(event("undo", stored, undoes=8), "en", (), (), {}, Ruleset())
    assert as_stored.description == "Reverted change #8: **Bob**: GM healing, serious wound → light wound"
    line = describe_event(event("undo", stored, undoes=8), "fr")
    assert (
        line == "annulation du changement n°8 — **Bob**\u202f: soin du MJ, blessure grave → blessure légère"
    )
    bare = undo_embed(event("undo", {}, undoes=8), "en", (), (), {}, Ruleset())
    assert "#8" in (bare.description or "")
