"""A burst of /wound, the bot killed with SIGKILL in the middle, restarted on the same database.

Whatever the moment of the kill: the file is intact, every wound the bot had answered (the stand-in
received its callback) is stored with its event, nothing was stored twice or invented, and the
restarted bot neither re-syncs its commands nor refuses to serve.

The moment is random: ``random.Random(seed)`` with a new seed every run (``HARMONIES_E2E_SEED`` replays
one); the seed is in every assertion message.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import signal
import time
from pathlib import Path

import pytest

from tests.e2e.process import BotProcess
from tests.e2e.running import (
    BOT_ARGV,
    COMMANDS_HASH_KEY,
    bot_env,
    character_row,
    meta,
    read_db,
    rows,
    running_bot,
    server_payload,
    wait_ready_after,
    wound_counts,
)
from tests.fakediscord import DiscordStandin, Interaction
from tests.table import GUILD, Table

pytestmark = pytest.mark.slow

BURST = 60
GIANTS = ("Ymir", "Surt", "Hrym")  # 20 light wounds each fit a "giant" (no escalation, no death)


def seed_of_this_run() -> int:
    given = os.environ.get("HARMONIES_E2E_SEED")
    return int(given) if given else random.SystemRandom().randrange(2**32)


async def test_sigkill_during_a_burst_of_wounds_loses_nothing_answered(
    tmp_path: Path, database_url: str
) -> None:
    seed = seed_of_this_run()
    rng = random.Random(seed)
    about = f"seed={seed} (replay with HARMONIES_E2E_SEED={seed})"
    db_path = database_url
    async with DiscordStandin(guilds=[server_payload(GUILD)]) as standin:
        table = Table.over(standin, GUILD)
        first = await BotProcess.start(
            BOT_ARGV, env=bot_env(standin, db_path), log_path=tmp_path / "bot1.log"
        )
        standin.watch(first.unexpected_exit)
        try:
            await wait_ready_after(standin, first)
            await table.setup_gm_role()
            await table.say("config preset", {"name": "giant", "light": 20})
            for name in GIANTS:
                await table.say("character create", {"name": name, "preset": "giant"})
            with read_db(db_path) as conn:
                synced_hash = meta(conn, COMMANDS_HASH_KEY)
            assert synced_hash is not None and len(standin.command_syncs) == 1

            # The burst: every interaction sent at once, each wound with its own note.
            sent: dict[str, Interaction] = {}
            for i in range(BURST):
                note = f"burst {i}"
                options = {"severity": "light", "character": GIANTS[i % len(GIANTS)], "note": note}
                sent[note] = await table.send("wound", options, wait=False)
            # Kill once a random number of them were answered, plus a random few milliseconds.
            answered_before_kill = rng.randrange(BURST)
            extra = rng.uniform(0.0, 0.03)
            began = time.monotonic()
            await standin.wait_for(
                lambda: sum(1 for e in sent.values() if e.callback_type is not None) >= answered_before_kill,
                within=20,
                what=f"{answered_before_kill} answers ({about})",
            )
            await asyncio.sleep(extra)
            assert await first.stop(sig=signal.SIGKILL) == -signal.SIGKILL
            kill_at = time.monotonic() - began
        finally:
            await first.stop()
            print(f"---- first bot output (exit {first.returncode}) ----\n{first.output()}")
        # Give the stand-in a moment to finish answering what already arrived (the answer is lost anyway).
        await asyncio.sleep(0.05)
        answered = {note for note, e in sent.items() if any(r.ok for r in e.callbacks)}
        syncs_before = len(standin.command_syncs)

        # The restart: same database, same Discord.
        async with running_bot(standin, db_path, tmp_path / "bot2.log") as second:
            cards = {name: await table.say("character show", {"character": name}) for name in GIANTS}
            after = await table.say("wound", {"severity": "serious", "character": GIANTS[0], "note": "after"})
            assert "serious 1/2" in after.text, after.text
            assert await second.stop(grace=8) == 0, second.output()
        assert len(standin.command_syncs) == syncs_before, f"the restart re-synced commands ({about})"
        assert "Application commands unchanged" in second.output()
        standin.validate_requests(strict=True)

    context = (
        f"{about}: killed after {kill_at:.3f}s ({answered_before_kill} answers + {extra * 1000:.0f}ms);"
        f" {len(answered)} answered of {BURST} sent"
    )
    with read_db(db_path) as conn:
        assert conn.integrity() == "ok", context
        assert meta(conn, COMMANDS_HASH_KEY) == synced_hash, context
        stored_wounds = [n for (n,) in rows(conn, "SELECT note FROM wounds WHERE note LIKE 'burst %'")]
        stored = set(stored_wounds)
        context += f", {len(stored)} stored"
        assert len(stored_wounds) == len(stored), f"a wound was stored twice ({context})"
        assert answered <= stored, f"answered but lost: {sorted(answered - stored)} ({context})"
        assert stored <= set(sent), f"stored but never sent: {sorted(stored - set(sent))} ({context})"
        # Each wound was committed with its event, never one without the other.
        events = rows(conn, "SELECT COUNT(*) FROM events WHERE kind = 'wound' AND details LIKE '%burst %'")
        assert events == [(len(stored),)], context
        # The restarted bot showed what the file holds.
        for name in GIANTS:
            giant = character_row(conn, GUILD, name)
            light = wound_counts(conn, giant["id"], "physical")[0]
            assert re.search(rf"^Light \S+ {light}/20$", cards[name].text, re.M), (name, light, context)
        assert rows(conn, "SELECT COUNT(*) FROM wounds WHERE note = 'after'") == [(1,)], context
    print(context)
