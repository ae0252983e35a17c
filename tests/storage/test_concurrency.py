"""Lost updates: many writes in flight at once on one character."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from functools import partial

import pytest

from bot.errors import UserError
from bot.rules import Preset, Ruleset, Severity, Track, Wound, inflict
from bot.rules.character import Character
from bot.storage import Store, Transaction
from tests.databases import character_of, history_of
from tests.storage.conftest import GM, GUILD, create

N = 200


def _bare(character: Character) -> Character:
    return replace(
        character,
        id=None,
        guild_id=0,
        created_at="",
        wounds=tuple(replace(w, id=None) for w in character.wounds),
    )


@pytest.mark.slow
async def test_concurrent_wounds_are_all_applied_in_some_order(store: Store) -> None:
    aria = await create(store, "Aria")
    assert aria.id is not None
    character_id = aria.id

    def add_one(tx: Transaction, i: int) -> None:
        current = tx.character(character_id)
        wound = Wound(Track.PHYSICAL, Severity.LOW, Severity.LOW, note=f"w{i}", inflicted_by=GM)
        saved = tx.save_character(replace(current, wounds=(*current.wounds, wound)))
        tx.record("wound", GM, character=saved, details={"i": i})

    results = await asyncio.gather(
        *(store.run(GUILD, partial(add_one, i=i)) for i in range(N)), return_exceptions=True
    )
    assert [r for r in results if r is not None] == []

    final = await character_of(store, GUILD, character_id)
    events, total = [], 0
    for page in (1, 2, 3):
        found, total = await history_of(store, GUILD, character_id=character_id, page=page, per_page=100)
        events.extend(found)
    assert total == len(events) == N + 1  # the creation, then every wound
    # Applying the same wounds one by one, in the order they were committed, gives the same character.
    order = [int(str(e.details["i"])) for e in reversed(events) if e.kind == "wound"]
    assert sorted(order) == list(range(N))
    expected = replace(
        aria,
        wounds=tuple(
            Wound(Track.PHYSICAL, Severity.LOW, Severity.LOW, note=f"w{i}", inflicted_by=GM) for i in order
        ),
    )
    assert _bare(final) == _bare(expected)
    assert len({w.id for w in final.wounds}) == N


@pytest.mark.slow
async def test_concurrent_inflictions_equal_sequential_application(store: Store) -> None:
    roomy = Ruleset(
        presets={"humanoid": Preset(), "giant": Preset(physical=(20, 20, 20), mental=(20, 20, 20))}
    )

    def configure(tx: Transaction) -> None:
        tx.save_ruleset(roomy)
        tx.record("config", GM)

    await store.run(GUILD, configure)
    aria = await create(store, "Aria")
    assert aria.id is not None
    character_id = aria.id
    aria = await store.run(
        GUILD,
        lambda tx: tx.save_character(
            replace(tx.character(character_id), preset="giant", physical_max=(20, 20, 20))
        ),
    )

    def wound(tx: Transaction, i: int) -> None:
        result = inflict(tx.character(character_id), Track.PHYSICAL, Severity.LOW, note="hit", by=GM)
        saved = tx.save_character(result.character)
        tx.record("wound", GM, character=saved, details={"i": i})

    async def wound_once(i: int) -> str:
        try:
            await store.run(GUILD, partial(wound, i=i))
            return "ok"
        except UserError as refused:
            return refused.message

    outcomes = await asyncio.gather(*(wound_once(i) for i in range(N)))

    sequential: list[str] = []
    expected = aria
    for _ in range(N):
        try:
            expected = inflict(expected, Track.PHYSICAL, Severity.LOW, note="hit", by=GM).character
            sequential.append("ok")
        except UserError as refused:
            sequential.append(refused.message)
    assert sorted(outcomes) == sorted(sequential)
    assert outcomes.count("ok") == 61  # 20 light, 20 serious, 20 critical, then the fatal one
    final = await character_of(store, GUILD, character_id)
    assert _bare(final) == _bare(expected)
    assert final.dead


async def test_reads_during_writes_see_whole_commits(store: Store) -> None:
    aria = await create(store, "Aria")
    assert aria.id is not None
    character_id = aria.id

    def add_two(tx: Transaction) -> None:
        current = tx.character(character_id)
        pair = (Wound(Track.MENTAL, Severity.LOW, None), Wound(Track.MENTAL, Severity.LOW, None))
        tx.save_character(replace(current, wounds=current.wounds + pair))

    async def read() -> int:
        return len((await character_of(store, GUILD, character_id)).wounds)

    seen = await asyncio.gather(*(store.run(GUILD, add_two) if i % 2 else read() for i in range(100)))
    assert all(n is None or n % 2 == 0 for n in seen)
