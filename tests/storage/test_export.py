from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from bot import export_file
from bot.actions import admin
from bot.actions.actor import Actor
from bot.actions.undoing import revert
from bot.errors import ImportProblem, UserError
from bot.rules import Preset, Ruleset, Severity, Track, inflict
from bot.rules.character import Character
from bot.storage import Store, Transaction
from bot.ui.i18n import LANGS
from bot.ui.refusals import error_text
from tests.databases import characters_of, dump, export_of, history_of, ruleset_of
from tests.storage.conftest import ALICE, BOB, GM, GUILD, OTHER_GUILD, create


def bare(character: Character) -> Character:
    return replace(character, id=None, wounds=tuple(replace(w, id=None) for w in character.wounds))


def configure(tx: Transaction) -> None:
    ruleset = Ruleset(
        gm_role_id=5555,
        presets={"humanoid": Preset(), "dragon": Preset(physical=(8, 4, 2), mental=(2, 1, 1))},
        language="fr",
    )
    tx.save_ruleset(ruleset)
    tx.record("config", GM)


async def import_(store: Store, data: bytes, guild_id: int = GUILD) -> dict[str, int]:
    """/config import, by the server's owner."""
    return await admin.import_(store, Actor(user_id=GM, guild_id=guild_id, owns_guild=True), data)


async def populate(store: Store) -> None:
    await store.run(GUILD, configure)
    aria = await create(store, "Aria")
    await create(store, "Zoé la Grande", BOB)
    npc = await create(store, "Gobelin <@&123> **gras**", None)
    aria_id, npc_id = aria.id, npc.id
    assert aria_id is not None and npc_id is not None

    def hurt_them(tx: Transaction) -> None:
        hurt = inflict(
            tx.character(aria_id),
            Track.PHYSICAL,
            Severity.LOW,
            5,
            note="chute",
            by=GM,
            at="2024-05-01T10:00:00+00:00",
        )
        hurt = inflict(hurt.character, Track.MENTAL, Severity.MID, note="vision", by=GM)
        healed = hurt.character
        healed = replace(
            healed, wounds=(replace(healed.wounds[0], current=None), *healed.wounds[1:]), rest_days=2
        )
        tx.save_character(healed)
        dead = inflict(tx.character(npc_id), Track.PHYSICAL, Severity.HIGH, 3).character
        tx.save_character(replace(dead, preset="dragon", physical_max=(8, 4, 2), corps=-4))
        tx.record("wound", GM)

    await store.run(GUILD, hurt_them)


def strip(document: bytes) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(document)
    del data["exported_at"]
    return data


async def test_export_then_import_round_trips(store: Store) -> None:
    await populate(store)
    before = await characters_of(store, GUILD)
    actives = await store.read(GUILD, lambda r: {user: r.active_character(user) for user in (ALICE, BOB)})
    exported = await export_of(store, GUILD)
    data = json.loads(exported)
    assert data["format"] == "harmonies-wounds" and data["version"] == 1 and data["guild_id"] == GUILD
    assert len(data["characters"]) == 3

    exported_wounds = [w for c in data["characters"] for w in c["wounds"]]
    healed = [w for w in exported_wounds if w["current"] is None and not w["fatal"]]
    # A loaded character holds the wounds that count; the export keeps the healed ones too.
    assert healed and len(exported_wounds) == sum(len(c.wounds) for c in before) + len(healed)

    counts = await import_(store, exported)
    assert counts == {"characters": 3, "wounds": len(exported_wounds), "replaced": 3}
    after = await characters_of(store, GUILD)
    assert [bare(c) for c in after] == [bare(c) for c in before]
    assert {c.id for c in after}.isdisjoint({c.id for c in before})  # new rows, the old ones kept for undo
    now_active = await store.read(GUILD, lambda r: {user: r.active_character(user) for user in actives})
    for user, character in actives.items():
        found = now_active[user]
        assert character is not None and found is not None and found.name == character.name
    assert strip(await export_of(store, GUILD)) == strip(exported)
    assert await ruleset_of(store, GUILD) == Ruleset.model_validate(data["ruleset"])
    events, _ = await history_of(store, GUILD, per_page=1)
    assert events[0].kind == "import" and events[0].details == {"counts": counts}


async def test_import_replaces_and_undo_of_an_import_restores_everything(store: Store) -> None:
    await populate(store)
    before = await characters_of(store, GUILD)
    ruleset = await ruleset_of(store, GUILD)
    active = await store.read(GUILD, lambda r: r.active_character(ALICE))
    document = {
        "format": "harmonies-wounds",
        "version": 1,
        "guild_id": GUILD,
        "ruleset": {},
        "characters": [{"name": "Solo", "owner_id": BOB}],
        "active": [{"user_id": BOB, "character": "solo"}],
    }
    await import_(store, json.dumps(document).encode())
    assert [c.name for c in await characters_of(store, GUILD)] == ["Solo"]
    assert await ruleset_of(store, GUILD) == Ruleset()
    assert await store.read(GUILD, lambda r: r.active_character(ALICE)) is None
    assert (await store.read(GUILD, lambda r: r.active_character(BOB))) is not None

    event = await store.run(GUILD, lambda tx: revert(tx, GM))
    assert event.details["kind"] == "import"
    assert await characters_of(store, GUILD) == before  # same ids, same wounds
    assert await ruleset_of(store, GUILD) == ruleset
    assert await store.read(GUILD, lambda r: r.active_character(ALICE)) == active
    assert await store.read(GUILD, lambda r: r.active_character(BOB)) == next(
        c for c in before if c.name == "Zoé la Grande"
    )


def valid() -> dict[str, Any]:
    return {
        "format": "harmonies-wounds",
        "version": 1,
        "guild_id": GUILD,
        "exported_at": "2024-01-01T00:00:00+00:00",
        "ruleset": {},
        "characters": [
            {
                "name": "Aria",
                "owner_id": ALICE,
                "wounds": [{"track": "physical", "inflicted": 0, "current": 0}],
            }
        ],
        "active": [{"user_id": ALICE, "character": "Aria"}],
    }


def mutate(change: Callable[[dict[str, Any]], object]) -> bytes:
    data = valid()
    change(data)
    return json.dumps(data).encode()


def _char(data: dict[str, Any]) -> dict[str, Any]:
    character: dict[str, Any] = data["characters"][0]
    return character


HOSTILE: dict[str, bytes] = {
    "not json": b"{ this is not json",
    "empty": b"",
    "not utf-8": b'{"format": "\xff\xfe"}',
    "a list": b"[1, 2, 3]",
    "wrong version": mutate(lambda d: d.update(version=2)),
    "wrong format": mutate(lambda d: d.update(format="something-else")),
    "other server": mutate(lambda d: d.update(guild_id=OTHER_GUILD)),
    "negative guild": mutate(lambda d: d.update(guild_id=-5)),
    "negative maxima": mutate(lambda d: _char(d).update(physical_max=[-1, 2, 1])),
    "huge maxima": mutate(lambda d: _char(d).update(mental_max=[10**12, 2, 1])),
    "negative rest": mutate(lambda d: _char(d).update(rest_days=-3)),
    "attribute out of range": mutate(lambda d: _char(d).update(corps=11)),
    "10 000-char name": mutate(lambda d: _char(d).update(name="A" * 10_000)),
    "empty name": mutate(lambda d: _char(d).update(name="")),
    "name with a newline": mutate(lambda d: _char(d).update(name="A\nB")),
    "name with a NUL": mutate(lambda d: _char(d).update(name="A\x00B")),
    "10 000-char note": mutate(lambda d: _char(d)["wounds"][0].update(note="n" * 10_000)),
    "bad severity": mutate(lambda d: _char(d)["wounds"][0].update(current=3)),
    "bad track": mutate(lambda d: _char(d)["wounds"][0].update(track="spiritual")),
    "fatal yet held": mutate(lambda d: _char(d)["wounds"][0].update(fatal=True)),
    "negative owner": mutate(lambda d: _char(d).update(owner_id=-1)),
    "owner too big": mutate(lambda d: _char(d).update(owner_id=2**64)),
    "extra field": mutate(lambda d: _char(d).update(id=1, guild_id=OTHER_GUILD)),
    "bad preset name": mutate(lambda d: _char(d).update(preset="../../etc")),
    "bad ruleset": mutate(lambda d: d.update(ruleset={"presets": {}})),
    "bad timestamp": mutate(lambda d: _char(d).update(created_at="yesterday")),
    "duplicate names": mutate(lambda d: d["characters"].append({"name": "ARIA"})),
    "active of an unknown character": mutate(
        lambda d: d["active"].append({"user_id": BOB, "character": "Nobody"})
    ),
    "active of someone else's character": mutate(
        lambda d: d["active"].append({"user_id": BOB, "character": "Aria"})
    ),
    "too many characters": mutate(lambda d: d.update(characters=[{"name": f"C{i}"} for i in range(10_001)])),
    "too large": b" " * (export_file.MAX_BYTES + 1),
    "many problems": mutate(
        lambda d: d.update(characters=[{"name": "x" * 100, "corps": 99} for _ in range(500)])
    ),
}


@pytest.mark.parametrize("name", list(HOSTILE))
async def test_hostile_imports_are_refused_and_change_nothing(
    name: str, store: Store, database_url: str
) -> None:
    await populate(store)
    before = dump(database_url)
    with pytest.raises(UserError) as refused:
        await import_(store, HOSTILE[name])
    assert refused.value.message == (
        "This file cannot be imported: {errors}. Nothing was changed; use a file made by /config export."
    )
    problems = refused.value.params["errors"]
    assert isinstance(problems, tuple) and problems
    assert all(isinstance(p, ImportProblem) for p in problems)  # data, not English text
    for lang in LANGS:
        text = error_text(lang, refused.value)
        assert 0 < len(text) <= 2000
        assert "x" * 100 not in text and "A" * 100 not in text  # the file's text is not echoed
    assert dump(database_url) == before


async def test_every_problem_is_reported_one_per_line(store: Store) -> None:
    data = valid()
    data["characters"][0].update(name="", corps=50, rest_days=-1)
    data["version"] = 7
    with pytest.raises(UserError) as refused:
        await import_(store, json.dumps(data).encode())
    problems = refused.value.params["errors"]
    assert isinstance(problems, tuple) and len(problems) == 4
    wheres = {p.where for p in problems}
    assert ("version",) in wheres and ("characters", 0, "corps") in wheres
    lines = error_text("fr", refused.value).splitlines()
    assert len(lines) == 4  # the first one follows the header
    assert lines[0].endswith("version\u202f: valeur invalide")
    assert "characters.0.corps\u202f: valeur invalide" in lines


async def test_a_valid_minimal_import_into_an_empty_server(store: Store) -> None:
    counts = await import_(store, json.dumps(valid()).encode())
    assert counts == {"characters": 1, "wounds": 1, "replaced": 0}
    aria = await store.read(GUILD, lambda r: r.character_by_name("aria"))
    assert aria.owner_id == ALICE and aria.counts(Track.PHYSICAL) == (1, 0, 0)
    assert await store.read(GUILD, lambda r: r.active_character(ALICE)) == aria


@pytest.mark.parametrize("name", ["\u202e", "\u202eAria", "Aria\u200f", "Ar\x00ia"])
async def test_an_import_with_invisible_characters_in_a_name_is_refused(store: Store, name: str) -> None:
    data = {
        "format": "harmonies-wounds",
        "version": 1,
        "guild_id": 1,
        "exported_at": "2026-11-30T12:00:00+00:00",
        "ruleset": {},
        "characters": [{"name": name}],
    }
    with pytest.raises(UserError) as refused:
        await import_(store, json.dumps(data).encode(), guild_id=1)
    assert refused.value.message == (
        "This file cannot be imported: {errors}. Nothing was changed; use a file made by /config export."
    )
    assert await characters_of(store, 1) == []


@pytest.mark.parametrize("where", ["note", "at"])
async def test_an_import_with_a_nul_character_is_refused_clearly(store: Store, where: str) -> None:
    data = valid()
    data["characters"][0]["wounds"][0][where] = "2024-01-01\x00" if where == "at" else "a\x00b"
    with pytest.raises(UserError) as refused:
        await import_(store, json.dumps(data).encode())
    assert refused.value.message == (
        "This file cannot be imported: {errors}. Nothing was changed; use a file made by /config export."
    )
    assert any(p.where[-2:] == (0, where) for p in refused.value.params["errors"])  # type: ignore[attr-defined]
    assert f"wounds.0.{where}\u202f: valeur invalide" in error_text("fr", refused.value)
    assert await characters_of(store, GUILD) == []
