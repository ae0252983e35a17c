"""Property-based fuzzing of every command's options through the real dispatch (quality.md, "bad input").

Each example is one interaction on a table shared by the examples of a test (the state grows as they
run: characters get wounded, renamed, deleted, undone…). Whatever is sent, ``Hardened`` checks there
was no unhandled exception, every message is within Discord's limits and pings nobody it should not,
and either the answer is public or it is an ephemeral refusal of the catalogue, in the caller's
language, with the database byte-for-byte unchanged.
"""

from __future__ import annotations

import json
import os
import unicodedata
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bot.rules import Character, Track
from bot.rules.character import NAME_MAX, clean_name, name_key
from bot.rules.ruleset import preset_key
from bot.rules.severity import SEVERITY_NAMES
from bot.ui.text import clip, escape
from tests import fakediscord as harness
from tests.databases import ruleset_of
from tests.hardening.strategies import (
    Ref,
    callers,
    free_text,
    locales,
    players,
    refs,
    text_within,
)
from tests.hardening.support import DEPARTED, Hardened
from tests.hardening.world import guild_rows, living, resolve, world_of
from tests.table import ALICE, BOB, GM, GM_ROLE, GUILD, OTHER_GUILD, OWNER

#: ``HARDENING_FUZZ_SCALE=20 pytest tests/hardening`` fuzzes twenty times deeper (by hand, not in CI).
SCALE = max(1, int(os.environ.get("HARDENING_FUZZ_SCALE", "1")))
FUZZ = settings(
    max_examples=150 * SCALE,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
FEW = settings(FUZZ, max_examples=60 * SCALE)

attribute = st.integers(-10, 10)
#: A user option; the player who left the server comes without member data, as Discord sends them.
user_opt = players.map(lambda user: harness.user(user, member=user != DEPARTED))
physical = st.sampled_from(SEVERITY_NAMES[Track.PHYSICAL])
mental = st.sampled_from(SEVERITY_NAMES[Track.MENTAL])
tracks = st.sampled_from([t.value for t in Track])
preset_names = st.one_of(
    st.sampled_from(["humanoid", "giant", "Humanoid", "HUMANOID", "a" * 32, "humanoid ", "-x", "é"]),
    text_within(1, 32),
)
pairs = st.tuples(st.integers(-3, 40), st.integers(-3, 40)).map(lambda p: f"{p[0]}-{p[1]}")
dice_text = st.one_of(
    st.lists(pairs, min_size=1, max_size=12).map(" ".join),
    st.lists(pairs, min_size=1, max_size=3).map(", ".join),
    free_text,
)


def dice_within(max_size: int) -> st.SearchStrategy[str]:
    return dice_text.map(lambda s: s[:max_size]).filter(bool)


def gm_options(severity: st.SearchStrategy[str], *, count: bool) -> st.SearchStrategy[dict[str, Any]]:
    optional: dict[str, st.SearchStrategy[Any]] = {"target": user_opt, "character": refs}
    if count:
        optional |= {"count": st.integers(1, 7), "note": text_within(1, 200)}
    return st.fixed_dictionaries({"severity": severity}, optional=optional)


def damage_options(severity: st.SearchStrategy[str]) -> st.SearchStrategy[dict[str, Any]]:
    """/wound or /mental with damage: (rules.md §8), and every option that could clash with it."""
    return st.fixed_dictionaries(
        {"damage": st.integers(0, 999)},
        optional={
            "severity": severity,
            "target": user_opt,
            "character": refs,
            "count": st.integers(1, 7),
            "note": text_within(1, 200),
            "dice": dice_within(200),
            "preview": st.booleans(),
        },
    )


OTHER_ROLE = 300000000000000002
numbers = {
    "penalties": st.integers(-50, 50),
    "rest": st.integers(0, 3650),
    "difficulty": st.integers(-50, 50),
}

COMMANDS: dict[str, st.SearchStrategy[dict[str, Any]]] = {
    "character create": st.fixed_dictionaries(
        {"name": text_within(1, NAME_MAX)},
        optional={
            "player": user_opt,
            "corps": attribute,
            "resistance": attribute,
            "intuition": attribute,
            "preset": preset_names,
        },
    ),
    "character show": st.fixed_dictionaries({}, optional={"character": refs, "player": user_opt}),
    "character list": st.just({}),
    "character select": st.fixed_dictionaries({"character": refs}),
    "character edit": st.fixed_dictionaries(
        {"character": refs},
        optional={
            "name": text_within(1, NAME_MAX),
            "corps": attribute,
            "resistance": attribute,
            "intuition": attribute,
            "preset": preset_names,
        },
    ),
    "character delete": st.fixed_dictionaries({"character": refs}),
    "wound": st.one_of(gm_options(physical, count=True), damage_options(physical)),
    "mental": st.one_of(gm_options(mental, count=True), damage_options(mental)),
    "heal roll": st.fixed_dictionaries(
        {}, optional={"character": refs, "dice": dice_within(200), "track": tracks}
    ),
    "heal wound": gm_options(physical, count=False),
    "heal mental": gm_options(mental, count=False),
    "rest": st.fixed_dictionaries(
        {"days": st.integers(1, 365)}, optional={"target": user_opt, "character": refs}
    ),
    "roll": st.fixed_dictionaries(
        {},
        optional={
            "modifier": st.integers(-100, 100),
            "difficulty": st.integers(-100, 100),
            "character": refs,
            "dice": dice_within(20),
        },
    ),
    "history": st.fixed_dictionaries({}, optional={"character": refs, "page": st.integers(1, 100000)}),
    "undo": st.fixed_dictionaries({}, optional={"character": refs}),
    "board": st.fixed_dictionaries({}, optional={"add": refs, "drop": refs}),
    "config show": st.just({}),
    "config gm-role": st.fixed_dictionaries(
        {}, optional={"role": st.sampled_from([GM_ROLE, GM_ROLE, OTHER_ROLE, GUILD]).map(harness.role)}
    ),
    **{
        f"config {setting}": st.fixed_dictionaries(
            {"track": tracks},
            optional={"light": values, "serious": values, "critical": values}
            | ({"mental-healing-rolls": st.booleans()} if setting == "rest" else {}),
        )
        for setting, values in numbers.items()
    },
    "config preset": st.fixed_dictionaries(
        {"name": preset_names},
        optional={
            **{
                key: st.integers(0, 20)
                for key in ("light", "serious", "critical", "shock", "trauma", "psychosis")
            },
            "remove": st.booleans(),
        },
    ),
    "config dice": st.fixed_dictionaries(
        {}, optional={"open-rolls": st.booleans(), "tie-succeeds": st.booleans()}
    ),
    "config damage": st.fixed_dictionaries(
        {}, optional={key: st.integers(1, 999) for key in ("light", "serious", "critical", "fatal")}
    ),
    "config players-create": st.fixed_dictionaries({"allowed": st.booleans()}),
    "config language": st.fixed_dictionaries({"language": st.sampled_from(["auto", "en", "fr"])}),
    "config export": st.just({}),
    "config import": st.fixed_dictionaries(
        {
            "file": st.one_of(
                st.binary(max_size=300),
                st.recursive(
                    st.none() | st.booleans() | st.integers() | free_text,
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(free_text, inner, max_size=4),
                    max_leaves=12,
                ).map(lambda doc: json.dumps(doc).encode()),
            ).map(lambda data: harness.attachment("import.json", data, "application/json"))
        }
    ),
}


WITH_CHARACTER = (
    "character show",
    "character select",
    "character edit",
    "character delete",
    "wound",
    "mental",
    "heal roll",
    "heal wound",
    "heal mental",
    "rest",
    "roll",
    "history",
    "undo",
)


async def resolved(hard: Hardened, options: dict[str, Any], pick: int) -> dict[str, Any]:
    world = await world_of(hard)
    return {
        key: await resolve(hard, world, value, pick) if isinstance(value, Ref) else value
        for key, value in options.items()
    }


@settings(FUZZ, max_examples=300 * SCALE)
@given(data=st.data())
async def test_any_command_with_hostile_options(hard: Hardened, data: st.DataObject) -> None:
    await world_of(hard)
    command = data.draw(st.sampled_from(sorted(COMMANDS)), label="command")
    options = await resolved(
        hard, data.draw(COMMANDS[command], label="options"), data.draw(st.integers(0, 99))
    )
    caller = data.draw(callers, label="caller")
    locale, guild_locale = data.draw(locales, label="locale"), data.draw(locales, label="guild locale")
    other = guild_rows(hard.url, OTHER_GUILD)

    # May ping: only the players whose characters this changed (Hardened works it out from the database).
    outcome = await hard.run(command, options, user=caller, locale=locale, guild_locale=guild_locale)

    event(f"{command}: {outcome.refusal or 'public'}")
    assert guild_rows(hard.url, OTHER_GUILD) == other, "a command in one server changed another"
    if not outcome.refused:
        assert "Zorglub" not in outcome.text, "a character of another server was shown"
    if (await ruleset_of(hard.table.store, GUILD)).gm_role_id != GM_ROLE:
        # Give the GM their role back, or every later example would be refused "not_gm".
        await hard.run("config gm-role", {"role": harness.role(GM_ROLE, "MJ")}, user=OWNER)


@FUZZ
@given(
    name=text_within(1, NAME_MAX),
    player=st.none() | players,
    attributes=st.fixed_dictionaries(
        {}, optional={"corps": attribute, "resistance": attribute, "intuition": attribute}
    ),
    preset=st.none() | preset_names,
    caller=callers,
    locale=locales,
)
async def test_create_stores_exactly_what_it_shows(
    hard: Hardened,
    name: str,
    player: int | None,
    attributes: dict[str, int],
    preset: str | None,
    caller: int,
    locale: str,
) -> None:
    options: dict[str, Any] = {"name": name, **attributes}
    if player is not None:
        options["player"] = harness.user(player)
    if preset is not None:
        options["preset"] = preset
    before = {c.id for c in await living(hard)}

    outcome = await hard.run("character create", options, user=caller, locale=locale)

    if outcome.refused:
        return
    [created] = [c for c in await living(hard) if c.id not in before]
    assert created.name == clean_name(name)
    assert (created.corps, created.resistance, created.intuition) == tuple(
        attributes.get(k, 0) for k in ("corps", "resistance", "intuition")
    )
    assert created.preset == preset_key(preset or "humanoid")  # as typed, case and accents aside
    expected_owner = player if caller in (GM, OWNER) else caller
    assert created.owner_id == expected_owner
    card = outcome.public().embeds[-1]
    assert card["title"] == clip(escape(created.name), 256) != ""
    # The server's data still exports, and imports back as it was.
    exported = await hard.run("config export", {})
    [file] = exported.reply.files
    kept = [summary(c) for c in await living(hard)]
    imported = await hard.run("config import", {"file": harness.attachment("x.json", file.data)})
    imported.public()
    assert [summary(c) for c in await living(hard)] == kept


def summary(character: Character) -> tuple[object, ...]:
    wounds = tuple((w.track, w.inflicted, w.current, w.note) for w in character.wounds)
    return (character.name, character.owner_id, character.preset, character.corps, wounds)


@FUZZ
@given(
    data=st.data(),
    track=st.sampled_from(list(Track)),
    count=st.integers(1, 7),
    note=st.none() | text_within(1, 200),
    locale=locales,
)
async def test_wounds_apply_or_refuse_whole(
    hard: Hardened, data: st.DataObject, track: Track, count: int, note: str | None, locale: str
) -> None:
    world = await world_of(hard)
    severity = data.draw(st.sampled_from(SEVERITY_NAMES[track]))
    ref = await resolve(hard, world, data.draw(refs), data.draw(st.integers(0, 99)))
    options: dict[str, Any] = {"severity": severity, "character": ref, "count": count}
    if note is not None:
        options["note"] = note
    before = {c.id: c for c in await living(hard)}
    command = "wound" if track is Track.PHYSICAL else "mental"

    outcome = await hard.run(command, options, locale=locale)

    if outcome.refused:
        return
    after = {c.id: c for c in await living(hard)}
    changed = [cid for cid in after if after[cid] != before.get(cid)]
    assert len(changed) == 1, changed
    wounded = after[changed[0]]
    fresh = [w for w in wounded.wounds if w.id not in {x.id for x in before[changed[0]].wounds}]
    assert 1 <= len(fresh) <= count and all(w.track is track for w in fresh)
    assert all(w.note == (note or "") for w in fresh)
    reply = outcome.public()
    assert reply.content == ("" if wounded.owner_id is None else f"<@{wounded.owner_id}>")
    users = (reply.allowed_mentions or {}).get("users") or []
    assert [int(u) for u in users] == ([] if wounded.owner_id is None else [wounded.owner_id])


@FEW
@given(
    data=st.data(),
    dice=st.none() | dice_within(200),
    track=st.none() | tracks,
    caller=st.sampled_from([GM, ALICE, BOB, DEPARTED]),
    locale=locales,
)
async def test_healing_rolls_with_any_dice(
    hard: Hardened, data: st.DataObject, dice: str | None, track: str | None, caller: int, locale: str
) -> None:
    world = await world_of(hard)
    if "rested" not in hard.cached:
        await hard.run("config rest", {"track": "mental", "mental-healing-rolls": True})
        for severity in ("light", "serious", "critical"):
            await hard.run("wound", {"severity": severity, "character": "Brann"}, may_ping=(BOB,))
        await hard.run("mental", {"severity": "shock", "character": "Aria", "count": 3}, may_ping=(ALICE,))
        hard.cached["rested"] = True
    await hard.run("rest", {"days": 365}, may_ping=())
    options: dict[str, Any] = {}
    if data.draw(st.booleans()):
        options["character"] = await resolve(hard, world, data.draw(refs), data.draw(st.integers(0, 99)))
    if dice is not None:
        options["dice"] = dice
    if track is not None:
        options["track"] = track

    outcome = await hard.run("heal roll", options, user=caller, locale=locale, may_ping=())

    if not outcome.refused:
        assert outcome.reply.content in (None, "")


@FEW
@given(
    data=st.data(),
    modifier=st.integers(-100, 100),
    difficulty=st.integers(-100, 100),
    dice=st.none() | dice_within(20),
    caller=callers,
    locale=locales,
)
async def test_plain_rolls_with_any_numbers(
    hard: Hardened,
    data: st.DataObject,
    modifier: int,
    difficulty: int,
    dice: str | None,
    caller: int,
    locale: str,
) -> None:
    world = await world_of(hard)
    options: dict[str, Any] = {"modifier": modifier, "difficulty": difficulty}
    if data.draw(st.booleans()):
        options["character"] = await resolve(hard, world, data.draw(refs), data.draw(st.integers(0, 99)))
    if dice is not None:
        options["dice"] = dice

    outcome = await hard.run("roll", options, user=caller, locale=locale)

    assert not outcome.changed, "a plain roll stores nothing"


@FEW
@given(data=st.data(), command=st.sampled_from(WITH_CHARACTER))
async def test_autocomplete_offers_only_this_servers_characters(
    hard: Hardened, data: st.DataObject, command: str
) -> None:
    world = await world_of(hard)
    guild = data.draw(st.sampled_from([GUILD, OTHER_GUILD]))
    typed = await resolve(hard, world, data.draw(refs), data.draw(st.integers(0, 99)))
    caller = data.draw(callers)

    reply = (await hard.complete(command, {"character": typed}, "character", user=caller, guild=guild)).reply

    allowed = {str(c.id) for c in await living(hard, guild)}
    if command in ("history", "undo") and guild == GUILD:  # a deleted character's history stays readable
        allowed.add(str(world.deleted_id))
    choices = reply.choices or []
    assert len(choices) <= 25
    assert {c["value"] for c in choices} <= allowed, "offered a character of another server"
    assert all(1 <= len(c["name"]) <= 100 for c in choices)
    if command == "character select":
        mine = {str(c.id) for c in await living(hard, guild) if c.owner_id == caller}
        assert {c["value"] for c in choices} <= mine


# ---- imports: files the validation accepts, with the oddest contents it lets through ------------------


def export_name(text: str) -> str:
    """Any text as the import's validation accepts a name: no control characters, single spaces."""
    return " ".join("".join(ch for ch in text if unicodedata.category(ch) not in ("Cc", "Cs")).split())


severity_value = st.integers(0, 2)
wounds = st.builds(
    lambda track, inflicted, current, fatal, note: {
        "track": track,
        "inflicted": inflicted,
        "current": None if fatal else current,
        "fatal": fatal,
        "note": note,
    },
    tracks,
    severity_value,
    st.none() | severity_value,
    st.booleans(),
    st.one_of(st.just(""), text_within(1, 200)),
)
rarely = st.sampled_from([False, False, False, False, True])
maxima = st.tuples(st.integers(0, 20), st.integers(0, 20), st.integers(0, 20))
imported_character = st.fixed_dictionaries(
    {
        "name": text_within(1, NAME_MAX).map(export_name).filter(bool),
        "owner_id": st.none() | players,
        "corps": attribute,
        "resistance": attribute,
        "intuition": attribute,
        "physical_max": maxima,
        "mental_max": maxima,
        "rest_days": st.integers(0, 100_000),
        "dead": rarely,
        "incoherent": rarely,
        "wounds": st.lists(wounds, max_size=40),
    }
)


def import_document(characters: list[dict[str, Any]]) -> bytes:
    seen: set[str] = set()
    unique = []
    for character in characters:
        key = name_key(character["name"])
        if key not in seen:
            seen.add(key)
            unique.append(character)
    document = {
        "format": "harmonies-wounds",
        "version": 1,
        "guild_id": GUILD,
        "ruleset": {"gm_role_id": GM_ROLE, "mental_healing_rolls": True, "ask_before_healing": "never"},
        "characters": unique,
        "active": [
            {"user_id": c["owner_id"], "character": c["name"]}
            for c in {c["owner_id"]: c for c in unique if c["owner_id"]}.values()
        ],
    }
    return json.dumps(document).encode()


@FEW
@given(
    characters=st.lists(imported_character, min_size=1, max_size=4),
    after=st.lists(st.sampled_from([*WITH_CHARACTER, "character list", "config show"]), max_size=6),
    locale=locales,
)
async def test_imported_oddities_never_break_a_command(
    hard: Hardened, characters: list[dict[str, Any]], after: list[str], locale: str
) -> None:
    data = import_document(characters)
    outcome = await hard.run(
        "config import", {"file": harness.attachment("odd.json", data)}, user=OWNER, guild_locale=locale
    )
    event(f"import: {outcome.refusal or 'public'}")
    if outcome.refused:
        outcome.refused_with(
            (
                "This file cannot be imported: {errors}. Nothing was changed; use a file "
                "made by /config export."
            ),
            ("There is already a character called {name} in this server. Choose another name."),
        )
        return
    here = await living(hard)
    for index, command in enumerate(after):
        options = dict(EXAMPLES.get(command, {}))
        if command in WITH_CHARACTER and here:
            options["character"] = str(here[index % len(here)].id)
        done = await hard.run(command, options, user=OWNER, locale=locale, guild_locale=locale)
        event(f"after import, {command}: {done.refusal or 'public'}")
    for character in here:
        if character.owner_id is not None:
            await hard.run("heal roll", {"character": character.name}, user=character.owner_id)


#: Options that make each command do something (a severity for wounds, days for rest…).
EXAMPLES: dict[str, dict[str, Any]] = {
    "wound": {"severity": "critical", "count": 7},
    "mental": {"severity": "shock", "count": 3},
    "heal wound": {"severity": "serious"},
    "heal mental": {"severity": "psychosis"},
    "rest": {"days": 365},
    "roll": {"modifier": 100},
    "character edit": {"preset": "humanoid"},
}
