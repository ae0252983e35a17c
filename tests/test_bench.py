"""The benchmarks run (on tiny data sets: seconds). Not a timed test: no figure is checked here."""

from __future__ import annotations

import asyncio
import re
import sqlite3
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from bench.data import Shape, character_name, generate, guild_id, player_id
from bench.measure import percentile
from bot.errors import UserError
from bot.rules import Preset, Ruleset, Severity, Track, inflict, new_character
from bot.rules.character import Character
from bot.storage.migrations import latest_version
from bot.storage.store import Store, Transaction

ROOT = Path(__file__).resolve().parents[1]
FIGURES = (
    "durable SQLite commit",
    "floor: trivial command",
    "`/wound` median",
    "`/heal roll` median",
    "`/character show` median",
    "character autocomplete median",
    "throughput capacity",
    "sustained",
    "start-up to ready",
    "resident memory",
)


def test_percentiles() -> None:
    assert percentile([3.0, 1.0, 2.0], 50) == 2.0
    assert percentile([4.0, 1.0, 2.0, 3.0], 50) == 2.5
    assert percentile([float(i) for i in range(1, 101)], 99) == 99.0
    assert percentile([5.0], 99) == 5.0


async def test_generated_data_is_what_the_bot_reads(tmp_path: Path) -> None:
    shape = Shape(servers=3, per_server=4, players=3, events=60)
    path = tmp_path / "bench.db"
    generate(path, shape)
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == latest_version()
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 60
    store = await Store.open(f"sqlite:///{path}")
    try:
        characters = await store.characters(guild_id(1))
        assert sorted(c.name for c in characters) == sorted(character_name(1, k) for k in range(4))
        mine = await store.active_character(guild_id(1), player_id(shape, 1, 2))
        assert mine is not None and mine.name == character_name(1, 2) and len(mine.wounds) == 4
        assert (await store.ruleset(guild_id(1))).physical.rest_days[0] == 0
        events, total = await store.history(guild_id(2))
        assert total == 20 and events[0].kind
    finally:
        await store.close()


def test_the_bench_runs_on_a_tiny_data_set(tmp_path: Path) -> None:
    report_path = tmp_path / "report.md"
    done = subprocess.run(
        [sys.executable, "-m", "bench", "--tiny", "--cpus", "0", "--output", str(report_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    report = report_path.read_text(encoding="utf-8")
    assert report.strip() in done.stdout
    for figure in FIGURES:
        assert figure in report, figure
    rows = [line for line in report.splitlines() if line.startswith("| ") and "---" not in line][1:]
    assert len(rows) >= len(FIGURES)
    assert all(re.search(r"\| (yes|\*\*no\*\*|—) \|$", row) for row in rows), rows
    # Every command of both throughput runs got its answer.
    answered = re.findall(r"(\d+) of [\d,]+ not answered", report)
    assert answered == ["0", "0"], answered


# ---- the optimistic write path the throughput figures rely on (bot/storage/unit.py, Store.run) ------

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
