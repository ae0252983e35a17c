"""The database fails over: a primary and its synchronous standby (two clusters this test starts), the
bot as its own process on libpq's multi-host URL (``target_session_attrs=read-write``), a burst of
/wound, the primary stopped in the middle of it, the standby promoted at once or after 4 s (a failover
manager's usual delay), with a wound sent every half second meanwhile.

Asserted, on the new primary: the bot writes again within :data:`BACK_WITHIN` seconds of the promotion,
without a restart; every wound it answered is stored exactly once; every interaction got an answer
within Discord's rules (a first answer within 3 s, so a deferral for longer work, then the result or
a private "nothing was changed", and then nothing of it is stored); none got the catch-all error.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

from tests.bot.test_health import free_port
from tests.e2e.burst import GIANTS, Outcomes, final_answer, seat_giants, send_burst, stored_notes
from tests.e2e.process import BotProcess
from tests.e2e.running import BOT_ARGV, bot_env, read_db, server_payload, wait_ready_after
from tests.fakediscord import DiscordStandin, Interaction
from tests.postgres import Unavailable, unavailable
from tests.replication import Pair, primary_and_standby
from tests.table import GUILD, Table

pytestmark = pytest.mark.slow

BURST = 60
ANSWERED_BEFORE_STOP = 10
EVERY = 0.5  # seconds between two wounds during the switch
BACK_WITHIN = 15.0  # seconds after the promotion within which a wound must be applied again
ANSWER_WITHIN = 15.0  # seconds every interaction has to end with an answer


@pytest.fixture
def pair() -> Iterator[Pair]:
    with ExitStack() as stack:
        try:
            found = stack.enter_context(primary_and_standby())
        except Unavailable as exc:
            unavailable(str(exc))
        yield found


async def wound(table: Table, note: str) -> Interaction:
    options = {"severity": "light", "character": GIANTS[len(note) % len(GIANTS)], "note": note}
    return await table.send("wound", options, wait=False)


async def answered(standin: DiscordStandin, exchange: Interaction, within: float) -> None:
    """Until ``exchange`` has its final answer; returns without one after ``within`` seconds (the
    assertions say what happened)."""
    with contextlib.suppress(AssertionError):  # timed out
        await standin.wait_for(lambda: final_answer(exchange), within=max(within, 0.0), watched=False)


@pytest.mark.parametrize("delay", [0.0, 4.0], ids=["promoted-at-once", "promoted-after-4s"])
async def test_failover_to_a_synchronous_standby_loses_nothing_answered(
    tmp_path: Path, pair: Pair, delay: float
) -> None:
    sent: dict[str, Interaction] = {}
    async with DiscordStandin(guilds=[server_payload(GUILD)]) as standin:
        standin.callback_deadline = 3.0  # as on Discord: a first answer after 3 s is refused
        table = Table.over(standin, GUILD)
        env = bot_env(standin, pair.url, HEALTH_PORT=str(free_port()))
        bot = await BotProcess.start(BOT_ARGV, env=env, log_path=tmp_path / "bot.log")
        standin.watch(bot.unexpected_exit)
        try:
            await wait_ready_after(standin, bot)
            await seat_giants(table)
            sent |= await send_burst(table, BURST)
            await standin.wait_for(
                lambda: sum(1 for e in sent.values() if e.acknowledged) >= ANSWERED_BEFORE_STOP,
                within=20,
                what=f"{ANSWERED_BEFORE_STOP} answers",
            )
            await asyncio.to_thread(pair.stop_primary)
            switch_ends = time.monotonic() + delay
            while time.monotonic() < switch_ends:
                note = f"switch {len(sent)}"
                sent[note] = await wound(table, note)
                await asyncio.sleep(EVERY)
            await asyncio.to_thread(pair.promote_standby)
            promoted = time.monotonic()
            back_after = None
            while back_after is None and time.monotonic() - promoted < BACK_WITHIN:
                note = f"after {len(sent)}"
                sent[note] = await wound(table, note)
                await answered(standin, sent[note], BACK_WITHIN)
                if note in Outcomes.of({note: sent[note]}).applied:
                    back_after = time.monotonic() - promoted
                else:
                    await asyncio.sleep(EVERY)
            last = time.monotonic() + ANSWER_WITHIN
            for exchange in sent.values():
                await answered(standin, exchange, last - time.monotonic())
            code = await bot.stop(grace=10)
        finally:
            await bot.stop()
            print(f"---- bot output (exit {bot.returncode}) ----\n{bot.output()}")

    outcomes = Outcomes.of(sent)
    with read_db(pair.url_of(pair.standby_port)) as conn:
        stored_list = [n for prefix in ("burst", "switch", "after") for n in stored_notes(conn, prefix)]
    stored = set(stored_list)
    context = f"promoted after {delay:g} s: {outcomes.describe()} of {len(sent)}, {len(stored)} stored"
    print(context)
    assert back_after is not None, f"no wound applied within {BACK_WITHIN:g} s of the promotion ({context})"
    assert len(stored_list) == len(stored), f"a wound was stored twice ({context})"
    assert outcomes.applied <= stored, f"answered but lost: {sorted(outcomes.applied - stored)} ({context})"
    assert not outcomes.unanswered, f"never answered: {sorted(outcomes.unanswered)} ({context})"
    internal = {n: t for n, t in outcomes.refused.items() if "Something went wrong" in t}
    assert not internal, f"the catch-all error: {internal} ({context})"
    unchanged = {n for n, t in outcomes.refused.items() if "nothing was changed" in t.lower()}
    assert not unchanged & stored, (
        f"told nothing changed, but stored: {sorted(unchanged & stored)} ({context})"
    )
    # Told "did not confirm the change" (the commit itself may have landed): stored or not.
    maybe = set(outcomes.refused) - unchanged
    assert stored <= outcomes.applied | maybe, f"stored, never answered: {sorted(stored - outcomes.applied)}"
    assert code == 0, f"exit {code}"
    print(f"{context}; writing again {back_after:.1f} s after the promotion")
