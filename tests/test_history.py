"""The event log's typed records and their JSON: every record reads back as written, and details that do
not fit read as Unreadable. (Rows as earlier versions wrote them are rewritten once by migration 0006:
tests/storage/test_migrations.py.)"""

from __future__ import annotations

import json as jsonlib
from typing import Any

import pytest

from bot.history import (
    Blow,
    Configured,
    Created,
    DamageRolled,
    Deleted,
    Edited,
    Event,
    EventKind,
    HealRolled,
    HealRollStep,
    Hit,
    Imported,
    Lowered,
    Record,
    Recordable,
    Rested,
    Selected,
    Struck,
    Undid,
    Unreadable,
    Wounded,
    details_json,
    record_of,
)
from bot.rules import Severity, Track
from bot.rules.damage import Harm

LOW, MID, HIGH = Severity.LOW, Severity.MID, Severity.HIGH


def stored(kind: str, details: dict[str, Any], **extra: Any) -> Event:
    return Event(
        id=5, guild_id=1, kind=kind, actor_id=7, at="2024-05-01T10:00:00+00:00", details=details, **extra
    )


# Each record with the JSON it is written as (the one the code before typed records wrote for it, but
# for a settings change and an import: migration 0006 rewrote those).
AS_WRITTEN: list[tuple[Recordable, dict[str, Any]]] = [
    (Created(42), {"owner_id": 42}),
    (Created(None), {"owner_id": None}),
    (Edited(name="Arya", corps=2), {"name": "Arya", "corps": 2}),
    (Edited(preset="giant"), {"preset": "giant"}),
    (Deleted(), {}),
    (Selected(), {}),
    (
        Wounded(Track.PHYSICAL, LOW, 3, "arrow", (LOW, MID, None), 0),
        {
            "severity": "light",
            "count": 3,
            "note": "arrow",
            "became": ["light", "serious", None],
            "not_applied": 0,
        },
    ),
    (
        Wounded(Track.MENTAL, HIGH, 2, "", (None,), 1),
        {"severity": "psychosis", "count": 2, "note": "", "became": [None], "not_applied": 1},
    ),
    (
        HealRolled(
            Track.PHYSICAL,
            MID,
            (HealRollStep(True, False, LOW, 4), HealRollStep(False, True, HIGH, -12)),
        ),
        {
            "track": "physical",
            "severity": "serious",
            "rolls": [
                {"margin": 4, "success": True, "became": "light", "worsened": False},
                {"margin": -12, "success": False, "became": "critical", "worsened": True},
            ],
        },
    ),
    (
        HealRolled(Track.MENTAL, LOW, (HealRollStep(True, False, None, 0),)),
        {
            "track": "mental",
            "severity": "shock",
            "rolls": [{"margin": 0, "success": True, "became": None, "worsened": False}],
        },
    ),
    (
        DamageRolled(
            Track.PHYSICAL,
            25,
            3,
            "ogre",
            (Blow(Harm.NONE, 9, 16, True), Blow(Harm.LOW, 19, 6, True), Blow(Harm.FATAL, 45, -2, False)),
            (MID, None),
            0,
        ),
        {
            "damage": 25,
            "count": 3,
            "note": "ogre",
            "rolls": [
                {"margin": 16, "success": True, "effective": 9, "harm": "none"},
                {"margin": 6, "success": True, "effective": 19, "harm": "light"},
                {"margin": -2, "success": False, "effective": 45, "harm": "fatal"},
            ],
            "became": ["serious", None],
            "not_applied": 0,
        },
    ),
    (
        DamageRolled(Track.MENTAL, 30, 2, "", (Blow(Harm.MID, 30, -1, False),), (None,), 1),
        {
            "damage": 30,
            "count": 2,
            "note": "",
            "rolls": [{"margin": -1, "success": False, "effective": 30, "harm": "trauma"}],
            "became": [None],
            "not_applied": 1,
        },
    ),
    (Lowered(Track.PHYSICAL, MID, LOW), {"severity": "serious", "became": "light"}),
    (Lowered(Track.MENTAL, LOW, None), {"severity": "shock", "became": None}),
    (Rested(3, 4), {"days": 3, "characters": 4}),
    (
        Configured("penalties", {"physical": {"penalties": [-1, -2, -5]}}),
        {"setting": "penalties", "changes": {"physical": {"penalties": [-1, -2, -5]}}},
    ),
    (Configured("dice", {"open_rolls": True}), {"setting": "dice", "changes": {"open_rolls": True}}),
    (
        Imported({"characters": 3, "wounds": 7, "replaced": 1}),
        {"counts": {"characters": 3, "wounds": 7, "replaced": 1}},
    ),
    (Created(None, band=("Goblin 1", "Goblin 2")), {"owner_id": None, "band": ["Goblin 1", "Goblin 2"]}),
    (
        Struck(Track.PHYSICAL, LOW, None, (Hit(3, "Aria", (MID,)), Hit(4, "Goblin 1", (None,))), ("Brann",)),
        {
            "track": "physical",
            "severity": "light",
            "hits": [
                {"character_id": 3, "name": "Aria", "became": ["serious"]},
                {"character_id": 4, "name": "Goblin 1", "became": [None]},
            ],
            "skipped": ["Brann"],
        },
    ),
    (
        Struck(
            Track.MENTAL, None, 30, (Hit(3, "Aria", (), Harm.NONE, 12), Hit(4, "Nyx", (HIGH,), Harm.MID, -3))
        ),
        {
            "track": "mental",
            "damage": 30,
            "hits": [
                {"character_id": 3, "name": "Aria", "became": [], "harm": "none", "margin": 12},
                {"character_id": 4, "name": "Nyx", "became": ["psychosis"], "harm": "trauma", "margin": -3},
            ],
            "skipped": [],
        },
    ),
]


@pytest.mark.parametrize(("record", "json"), AS_WRITTEN, ids=lambda v: type(v).__name__)
def test_the_json_is_the_one_written(record: Recordable, json: dict[str, Any]) -> None:
    assert jsonlib.loads(details_json(record)) == json


@pytest.mark.parametrize(("record", "json"), AS_WRITTEN, ids=lambda v: type(v).__name__)
def test_rows_read_back_as_written(record: Recordable, json: dict[str, Any]) -> None:
    assert record_of(stored(record.kind, json)) == record
    assert record_of(stored(record.kind, jsonlib.loads(details_json(record)))) == record


def test_kinds_follow_the_track() -> None:
    assert Wounded(Track.PHYSICAL, LOW).kind is EventKind.WOUND
    assert Wounded(Track.MENTAL, LOW).kind is EventKind.MENTAL
    assert DamageRolled(Track.PHYSICAL, 20).kind is EventKind.WOUND
    assert DamageRolled(Track.MENTAL, 20).kind is EventKind.MENTAL
    assert Lowered(Track.PHYSICAL, LOW).kind is EventKind.HEAL_WOUND
    assert Lowered(Track.MENTAL, LOW).kind is EventKind.HEAL_MENTAL


def test_an_undo_reads_with_what_it_reverted() -> None:
    # As Transaction.record_undo writes it.
    row = stored(
        "undo",
        {
            "kind": "heal_wound",
            "character_name": "Bob",
            "event_details": {"severity": "serious", "became": "light"},
            "event_id": 8,
            "event_at": "2024-05-01T10:00:00+00:00",
        },
        undoes=8,
    )
    assert record_of(row) == Undid(8, Lowered(Track.PHYSICAL, MID, LOW), "Bob")
    assert record_of(stored("undo", {}, undoes=9)) == Undid(9)


@pytest.mark.parametrize(
    ("kind", "details", "expected"),
    [
        # Keys an older row may lack take the value that row meant.
        (
            "mental",
            {"severity": "shock", "count": 1, "became": ["shock"]},
            Wounded(Track.MENTAL, LOW, 1, "", (LOW,)),
        ),
        (
            "heal_roll",
            {"severity": "light", "rolls": [{"success": True}]},
            HealRolled(Track.PHYSICAL, LOW, (HealRollStep(True),)),
        ),
        ("rest", {"days": 2}, Rested(2, 0)),
        ("character_create", {}, Created(None)),
        # Keys it does not know are left alone.
        ("character_edit", {"name": "Arya", "colour": "red"}, Edited(name="Arya")),
    ],
)
def test_rows_of_older_versions_read(kind: str, details: dict[str, Any], expected: Record) -> None:
    assert record_of(stored(kind, details)) == expected


@pytest.mark.parametrize(
    ("kind", "details"),
    [
        ("something_new", {"x": 1}),
        ("wound", {}),
        ("wound", {"severity": "shock"}),  # a mental severity on the physical track
        ("wound", {"severity": "light", "count": "many"}),
        ("wound", {"severity": "light", "count": True}),
        ("wound", {"severity": "light", "became": "light"}),
        ("wound", {"damage": "25"}),
        ("wound", {"damage": 25, "rolls": [{"harm": "shock"}]}),  # a mental outcome on the physical track
        ("mental", {"damage": 25, "rolls": ["fatal"]}),
        ("heal_roll", {"severity": "light", "track": "astral"}),
        ("heal_roll", {"severity": "light", "rolls": [1]}),
        ("heal_wound", {"severity": 1}),
        ("character_create", {"owner_id": "x"}),
        ("rest", {"days": "3"}),
        ("import", {"counts": {"characters": "3"}}),
        ("undo", {"kind": "rest", "event_details": []}),
    ],
)
def test_details_that_do_not_fit_read_as_unreadable(kind: str, details: dict[str, Any]) -> None:
    assert record_of(stored(kind, details)) == Unreadable(kind)


def test_an_undo_of_an_unreadable_change_still_reads() -> None:
    row = stored("undo", {"kind": "wound", "event_details": {"severity": 99}, "event_id": 3}, undoes=3)
    assert record_of(row) == Undid(3, Unreadable("wound"))


RULES = {"open_rolls": False, "physical": {"penalties": [-1, -3, -5]}}
CHANGED = {"open_rolls": True, "physical": {"penalties": [-1, -3, -5]}}


def test_a_settings_change_writes_the_settings_after_but_not_before() -> None:
    # The settings before are in the event's undo snapshot; storage reads them back from there
    # (tests/storage/test_store.py).
    record = Configured("dice", {"open_rolls": True}, RULES, CHANGED)
    assert jsonlib.loads(details_json(record)) == {
        "setting": "dice",
        "changes": {"open_rolls": True},
        "after": CHANGED,
    }
