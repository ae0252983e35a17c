"""Store.run: optimistic units of work (read without the lock, re-check, write and commit in one
database-thread call) give the same result as plain transactions."""

from __future__ import annotations

import asyncio
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from bot.errors import UserError
from bot.rules import Preset, Ruleset, Severity, Track, inflict, new_character
from bot.rules.character import Character
from bot.storage.store import Store, Transaction

GUILD = 111_111_111_111
GM = 900
ALICE = 1001


async def _open(path: Path) -> Store:
    return await Store.open(f"sqlite:///{path}")


async def _create(store: Store, name: str, preset: str = "humanoid") -> Character:
    async with store.transaction(GUILD) as tx:
        ruleset = await tx.ruleset()
        character = new_character(name, ruleset=ruleset, owner_id=ALICE, preset=preset)
        saved = await tx.save_character(character)
        await tx.record("character_create", GM, character=saved)
    return saved


def _bare(character: Character) -> Character:
    return replace(
        character,
        id=None,
        guild_id=0,
        created_at="",
        wounds=tuple(replace(w, id=None) for w in character.wounds),
    )


async def test_optimistic_writes_in_flight_equal_sequential_application(tmp_path: Path) -> None:
    store = await _open(tmp_path / "bot.db")
    try:
        roomy = Ruleset(presets={"humanoid": Preset(), "giant": Preset(physical=(20, 20, 20))})
        async with store.transaction(GUILD) as tx:
            await tx.save_ruleset(roomy)
            await tx.record("config", GM)
        aria = await _create(store, "Aria", preset="giant")
        assert aria.id is not None
        character_id = aria.id
        attempts = 0

        async def wound_once(i: int) -> str:
            async def work(tx: Transaction) -> str:
                nonlocal attempts
                attempts += 1
                current = await tx.character(character_id)
                result = inflict(current, Track.PHYSICAL, Severity.LOW, note=f"w{i}", by=GM)
                saved = await tx.save_character(result.character)
                await tx.record("wound", GM, character=saved, details={"i": i})
                return "ok"

            try:
                return await store.run(GUILD, work)
            except UserError as refused:
                return refused.key

        async def rest_once() -> None:  # ordinary transactions on the same character meanwhile
            async with store.transaction(GUILD) as tx:
                current = await tx.character(character_id)
                if not current.out_of_play:
                    await tx.save_character(replace(current, rest_days=current.rest_days + 1))
                    await tx.record("rest", GM, character=current)

        outcomes = await asyncio.gather(
            *(wound_once(i) for i in range(200)), *(rest_once() for _ in range(20))
        )
        wounds = [o for o in outcomes if o is not None]
        assert wounds.count("ok") == 61  # 20 light, 20 serious, 20 critical, then the fatal one
        assert attempts > 200  # conflicts happened, and were run again under the lock
        final = await store.character(GUILD, character_id)
        assert final.dead and final.counts(Track.PHYSICAL) == (20, 20, 20)
        notes = [w.note for w in final.wounds]
        assert len(set(notes)) == len(notes) == 61 and len({w.id for w in final.wounds}) == 61
        with sqlite3.connect(tmp_path / "bot.db") as conn:
            recorded = conn.execute(
                "SELECT COUNT(*) FROM events WHERE kind = 'wound' AND character_id = ?", (character_id,)
            ).fetchone()[0]
        assert recorded == 61
    finally:
        await store.close()


async def test_a_ruleset_changed_meanwhile_makes_the_work_run_again(tmp_path: Path) -> None:
    store = await _open(tmp_path / "bot.db")
    try:
        aria = await _create(store, "Aria")
        assert aria.id is not None and (await store.ruleset(GUILD)).gm_role_id is None  # now cached
        seen: list[int | None] = []

        async def work(tx: Transaction) -> None:
            ruleset = await tx.ruleset()
            seen.append(ruleset.gm_role_id)
            if len(seen) == 1:
                async with store.transaction(GUILD) as other:
                    await other.save_ruleset(Ruleset(gm_role_id=5))
                    await other.record("config", GM)
            current = await tx.character(aria.id or 0)
            saved = await tx.save_character(replace(current, rest_days=current.rest_days + 1))
            await tx.record("rest", GM, character=saved)

        await store.run(GUILD, work)
        assert seen == [None, 5]
        assert (await store.character(GUILD, aria.id)).rest_days == 1
    finally:
        await store.close()


async def test_ids_used_by_another_writer_make_the_work_run_again(tmp_path: Path) -> None:
    store, other = await _open(tmp_path / "bot.db"), await _open(tmp_path / "bot.db")
    try:
        aria = await _create(store, "Aria")
        assert aria.id is not None
        runs = 0

        async def wound(tx: Transaction) -> Character:
            nonlocal runs
            runs += 1
            current = await tx.character(aria.id or 0)
            saved = await tx.save_character(inflict(current, Track.PHYSICAL, Severity.LOW, by=GM).character)
            await tx.record("wound", GM, character=saved)
            return saved

        await store.run(GUILD, wound)  # the store now hands out ids itself
        assert runs == 1
        for _ in range(3):  # another process writes rows with the ids the store would give next
            async with other.transaction(GUILD) as tx:
                current = await tx.character(aria.id)
                await tx.save_character(inflict(current, Track.MENTAL, Severity.LOW, by=GM).character)
                await tx.record("mental", GM, character=current)
        saved = await store.run(GUILD, wound)
        assert runs == 3  # the first try saw the ids taken, the second ran under the lock
        final = await store.character(GUILD, aria.id)
        assert final == saved and final.counts(Track.PHYSICAL) == (2, 0, 0) and len(final.wounds) == 5
    finally:
        await other.close()
        await store.close()


async def test_a_refusal_in_optimistic_work_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    store = await _open(path)
    try:
        aria = await _create(store, "Aria")

        async def refuse(tx: Transaction) -> None:
            current = await tx.character(aria.id or 0)
            await tx.save_character(replace(current, rest_days=3))
            raise UserError("not_gm")

        before = _dump(path)
        with pytest.raises(UserError):
            await store.run(GUILD, refuse)
        assert _dump(path) == before
    finally:
        await store.close()


def _dump(path: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(path) as conn:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return [row for t in sorted(tables) for row in sorted(conn.execute(f'SELECT * FROM "{t}"'), key=repr)]
