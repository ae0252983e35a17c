"""Store.run: one plain unit of work (check -> load -> rules -> save -> record), run once, whole, in
one transaction; never retried, so nothing it draws (the dice of /heal roll) is drawn twice."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from bot.actions.actor import Actor
from bot.actions.healing import Heal, heal_roll
from bot.rules import Severity, Track, Wound, grant_rest
from bot.storage import Store, Transaction
from tests.databases import character_of
from tests.storage.conftest import ALICE, GM, GUILD, create


class CountingDice:
    """A random source that counts its calls (every d10 is a 6)."""

    def __init__(self) -> None:
        self.calls = 0

    def randint(self, a: int, b: int) -> int:
        self.calls += 1
        return 6


async def test_work_runs_once_each_even_with_many_in_flight(store: Store) -> None:
    aria = await create(store, "Aria")
    character_id = aria.id or 0
    runs = 0

    def add(tx: Transaction) -> int:
        nonlocal runs
        runs += 1
        current = tx.character(character_id)
        saved = tx.save_character(
            replace(current, wounds=(*current.wounds, Wound(Track.MENTAL, Severity.LOW, Severity.LOW)))
        )
        tx.record("mental", GM, character=saved)
        return len(saved.wounds)

    counts = await asyncio.gather(*(store.run(GUILD, add) for _ in range(50)))
    assert runs == 50
    assert sorted(counts) == list(range(1, 51))  # each saw every commit before its own
    ids = [w.id or 0 for w in (await character_of(store, GUILD, character_id)).wounds]
    assert len(set(ids)) == 50 and ids == sorted(ids)  # ids from the database, in order


async def test_the_dice_of_a_heal_roll_are_drawn_once(store: Store) -> None:
    aria = await create(store, "Aria")
    character_id = aria.id or 0

    def hurt_and_rest(tx: Transaction) -> None:
        current = tx.character(character_id)
        wounds = tuple(Wound(Track.PHYSICAL, Severity.LOW, Severity.LOW) for _ in range(2))
        tx.save_character(grant_rest(replace(current, wounds=wounds), 30))
        tx.record("wound", GM, character=current)

    await store.run(GUILD, hurt_and_rest)
    dice = CountingDice()
    actor = Actor(user_id=ALICE, guild_id=GUILD)
    others = [store.run(GUILD, lambda tx: tx.characters()) for _ in range(20)]  # units all around
    healing = asyncio.ensure_future(heal_roll(store, actor, dice, Heal(character_id=character_id)))
    await asyncio.gather(healing, *others)
    healed = healing.result()
    rolls = len(healed.result.steps)
    assert rolls >= 1
    assert dice.calls == 2 * rolls  # one luck and one unluck d10 per roll, never again
