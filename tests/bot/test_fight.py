"""The fight (issue 35): bands of NPCs, the /fight panel, one blow on many targets as one change."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.rules import Track
from tests import fakediscord as harness
from tests.fakediscord import check_requests
from tests.fakediscord.payloads import snowflake_iso
from tests.table import ALICE, BOB, GM, Table, open_table, public, refused

SELECT = 3


@pytest.fixture
async def any_table(database_url: str) -> AsyncIterator[Table]:
    async with open_table(database_url) as table:
        yield table
        check_requests(table.fake.requests)


class Fight:
    """A GM's panel, driven as Discord would: each select submission and button press is one
    interaction (counted)."""

    def __init__(self, table: Table, locale: str = "en-US", user: int = GM) -> None:
        self.table, self.locale, self.user = table, locale, user
        self.panel: Any = None
        self.interactions = 0

    async def open(self) -> harness.Reply:
        reply = await self.table.run("fight", locale=self.locale, user=self.user)
        self.interactions += 1
        assert reply.ephemeral, reply.text
        self.panel = reply.message
        return reply

    def components(self) -> list[dict[str, Any]]:
        return [c for row in self.panel["components"] for c in row["components"]]

    def button(self, label: str) -> dict[str, Any]:
        (found,) = [c for c in self.components() if c.get("type") == 2 and c.get("label") == label]
        return found

    def options(self) -> list[dict[str, Any]]:
        (select,) = [c for c in self.components() if c.get("type") == SELECT]
        return list(select["options"])

    async def pick(self, *names: str) -> harness.Reply:
        (select,) = [c for c in self.components() if c.get("type") == SELECT]
        ids = [str((await self.table.character(n)).id) for n in names]
        payload = harness.component(
            select["custom_id"], message=self.panel, component_type=SELECT, values=ids,
            **self.table.context(self.user, locale=self.locale),
        )  # fmt: skip
        return await self._send(payload)

    async def press(self, label: str) -> harness.Reply:
        payload = harness.component(
            self.button(label)["custom_id"],
            message=self.panel,
            **self.table.context(self.user, locale=self.locale),
        )
        return await self._send(payload)

    async def _send(self, payload: dict[str, Any]) -> harness.Reply:
        reply = await self.table.deliver(payload)
        self.interactions += 1
        assert reply.errors == [], reply.errors
        if (
            reply.message is not None
            and reply.message.get("flags", 0) & 64
            and reply.message.get("components")
        ):
            self.panel = reply.message
        return reply


def blow_text(reply: harness.Reply) -> str:
    """The public result of a blow (the follow-up after the panel's edit)."""
    (posted,) = [m for m in reply.followups if not m.ephemeral]
    return posted.text


async def fight_table(table: Table) -> None:
    await table.create("Aria", ALICE, corps=1)
    await table.create("Brann", BOB)
    public(await table.run("board"))


async def test_a_band_is_one_change_numbered_on_and_joins_the_board(any_table: Table) -> None:
    table = any_table
    public(await table.run("board"))
    text = public(await table.run("character create", {"name": "Gobelin", "count": 4}))
    assert "4 NPCs created" in text and "Gobelin 4" in text and "board" in text
    text = public(await table.run("character create", {"name": "Gobelin", "count": 2}))
    assert "Gobelin 5" in text and "Gobelin 6" in text
    (board,) = await table.store.read(table.guild, lambda r: r.boards())
    assert len(board.npc_ids) == 6
    public(await table.run("undo"))
    names = {c.name for c in await table.store.read(table.guild, lambda r: r.characters())}
    assert names == {f"Gobelin {n}" for n in range(1, 5)}
    assert "leave out player" in refused(
        await table.run("character create", {"name": "Orc", "count": 2, "player": harness.user(ALICE)})
    )
    assert "1 to 64 characters" in refused(
        await table.run("character create", {"name": "x" * 63, "count": 2})
    )
    assert "2 NPCs created" in public(await table.run("character create", {"name": "x" * 62, "count": 2}))


async def test_a_round_of_blows_in_at_most_ten_interactions_one_change_each(any_table: Table) -> None:
    table = any_table
    await fight_table(table)
    public(await table.run("character create", {"name": "Gobelin", "count": 1}))
    fight = Fight(table)
    await fight.open()
    assert [b["label"] for b in fight.components() if b.get("type") == 2][:6] == [
        "Light", "Serious", "Critical", "Shock", "Trauma", "Psychosis",
    ]  # fmt: skip
    before = len(public(await table.run("history")).split("\n"))
    for name in ("Aria", "Brann", "Gobelin 1"):
        await fight.pick(name)
        blow = await fight.press("Light")
        assert name in blow_text(blow)
    await fight.pick("Aria", "Brann", "Gobelin 1")
    committed: list[int] = []
    table.store.listeners.append(committed.append)  # what the board and the player view follow
    blow = await fight.press("Serious")
    assert committed == [table.guild]  # one change: the board and the player view change once
    text = blow_text(blow)
    assert fight.interactions <= 10, fight.interactions
    assert next(m for m in blow.followups if not m.ephemeral).content == f"<@{ALICE}> <@{BOB}>"
    assert all(n in text for n in ("Aria", "Brann", "Gobelin 1"))
    for name in ("Aria", "Brann", "Gobelin 1"):
        assert (await table.character(name)).counts(Track.PHYSICAL) == (1, 1, 0)
    history = public(await table.run("history"))
    assert "blow (serious wound): **Aria** → serious wound; **Brann** → serious wound" in history
    assert len(history.split("\n")) == before + 4  # one change per blow
    assert "Reverted change" in public(await table.run("undo"))  # the whole blow at once
    for name in ("Aria", "Brann", "Gobelin 1"):
        assert (await table.character(name)).counts(Track.PHYSICAL) == (1, 0, 0)


async def test_each_target_escalates_on_its_own_and_the_dead_are_skipped(table: Table) -> None:
    await fight_table(table)
    await table.run("wound", {"severity": "light", "character": "Aria", "count": 4})
    await table.run("wound", {"severity": "critical", "character": "Brann"})
    await table.run("wound", {"severity": "serious", "character": "Brann", "count": 2})
    await table.run("wound", {"severity": "light", "character": "Brann", "count": 4})
    fight = Fight(table)
    await fight.open()
    await fight.pick("Aria", "Brann")
    blow = await fight.press("Light")
    text = blow_text(blow)
    assert text.index("**Brann** is DEAD") < text.index("Aria")  # deaths first
    assert (await table.character("Aria")).counts(Track.PHYSICAL) == (4, 1, 0)  # escalated
    assert (await table.character("Brann")).dead
    assert [o["label"].split(" — ")[0] for o in fight.options()] == ["Aria"]  # the dead leave the list
    # A dead target chosen by a panel drawn before its death is skipped, and said so.
    await table.run("undo")
    fight2 = Fight(table)
    await fight2.open()
    await fight2.pick("Aria", "Brann")
    await table.run("wound", {"severity": "light", "character": "Brann"})
    assert (await table.character("Brann")).dead
    blow = await fight2.press("Shock")
    assert "Skipped (dead or incoherent already): **Brann**" in blow_text(blow)
    assert (await table.character("Aria")).counts(Track.MENTAL) == (1, 0, 0)


async def test_secret_npcs_stay_a_word_in_public_and_exact_on_the_panel(table: Table) -> None:
    await fight_table(table)
    public(await table.run("character create", {"name": "Ombre", "count": 1}))
    public(await table.run("config secret-npcs", {"secret": True}))
    fight = Fight(table)
    await fight.open()
    await fight.pick("Ombre 1", "Aria")
    blow = await fight.press("Serious")
    text = blow_text(blow)
    assert "**Ombre 1**: wounded" in text or "**Ombre 1**: badly wounded" in text
    assert "serious wound" in text  # Aria's, exact
    assert next(m for m in blow.followups if not m.ephemeral).content == f"<@{ALICE}>"  # nobody else
    assert "**Ombre 1**: serious wound" in fight.panel["embeds"][0]["fields"][0]["value"]


async def test_the_panel_in_french(table: Table) -> None:
    await fight_table(table)
    fight = Fight(table, locale="fr")
    await fight.open()
    labels = [b["label"] for b in fight.components() if b.get("type") == 2]
    assert labels[:6] == ["Légère", "Grave", "Critique", "Choc", "Traumatisme", "Psychose"]
    assert "Dommages…" in labels and "Ajouter des PNJ…" in labels
    await fight.pick("Aria")
    blow = await fight.press("Choc")
    assert "Blow — shock" in blow_text(blow)  # the channel reads the server's language (English)
    assert "Dernier coup" in str(fight.panel["embeds"])  # the GM's panel, the GM's (French)


async def test_the_panel_works_after_a_restart_and_a_replayed_click_applies_once(sqlite_url: str) -> None:
    async with open_table(sqlite_url) as table:
        await fight_table(table)
        fight = Fight(table)
        await fight.open()
        await fight.pick("Aria", "Brann")
        panel, fake = fight.panel, table.fake
    async with open_table(sqlite_url, fake=fake) as table:
        fight = Fight(table)
        fight.panel = panel
        button = fight.button("Light")["custom_id"]
        payload = harness.component(button, message=panel, **table.context(GM))
        first = await table.deliver(payload)
        assert "Aria" in blow_text(first)
        again = await table.deliver(payload)  # Discord delivers the same click twice
        assert again.errors == [] and not [m for m in again.followups if not m.ephemeral]
        assert (await table.character("Aria")).counts(Track.PHYSICAL) == (1, 0, 0)
        assert (await table.character("Brann")).counts(Track.PHYSICAL) == (1, 0, 0)
        check_requests(table.fake.requests)


async def test_two_gms_pressing_at_once_both_apply_one_after_the_other(any_table: Table) -> None:
    table = any_table
    await fight_table(table)
    one, two = Fight(table), Fight(table)
    await one.open()
    await two.open()
    await one.pick("Aria", "Brann")
    await two.pick("Aria", "Brann")
    a, b = await asyncio.gather(one.press("Light"), two.press("Light"))
    assert blow_text(a) and blow_text(b)
    for name in ("Aria", "Brann"):
        assert (await table.character(name)).counts(Track.PHYSICAL) == (2, 0, 0)
    history = public(await table.run("history"))
    assert history.count("blow (light wound)") == 2


async def test_damage_and_add_npcs_forms_and_the_dead_off_the_board(table: Table) -> None:
    await fight_table(table)
    fight = Fight(table)
    await fight.open()
    opened = await fight.press("Add NPCs…")
    assert opened.modal is not None
    form = opened.modal
    fields = [row["components"][0]["custom_id"] for row in form["components"]]
    submit = harness.modal_submit(
        form["custom_id"], dict(zip(fields, ["Gobelin", "3", "1 0 0"], strict=True)), message=fight.panel,
        **table.context(GM),
    )  # fmt: skip
    reply = await table.deliver(submit)
    assert reply.errors == [], reply.errors
    fight.panel = reply.message
    assert len(fight.options()) == 5
    await fight.pick("Gobelin 1", "Gobelin 2")
    table.rng.queue[:] = [1, 10, 1, 10]  # both roll badly
    opened = await fight.press("Damage…")
    assert opened.modal is not None
    form = opened.modal
    fields = [row["components"][0]["custom_id"] for row in form["components"]]
    submit = harness.modal_submit(
        form["custom_id"], dict(zip(fields, ["60", "physical"], strict=True)), message=fight.panel,
        **table.context(GM),
    )  # fmt: skip
    reply = await table.deliver(submit)
    assert reply.errors == [], reply.errors
    assert "**Gobelin 1** is DEAD" in blow_text(reply) and "**Gobelin 2** is DEAD" in blow_text(reply)
    fight.panel = reply.message
    reply = await fight.press("Dead NPCs off the board")
    assert "Off the board: Gobelin 1, Gobelin 2" in str(fight.panel["embeds"])
    board = (await table.store.read(table.guild, lambda r: r.boards()))[0]
    assert len(board.npc_ids) == 1


async def test_fight_needs_a_board_and_a_gm(table: Table) -> None:
    await table.create("Aria", ALICE)
    assert "/board first" in refused(await table.run("fight"))
    assert "Only a GM" in refused(await table.run("fight", user=ALICE))


async def test_beyond_25_combatants_the_list_pages_and_keeps_the_choice(table: Table) -> None:
    await fight_table(table)
    for _ in range(3):
        public(await table.run("character create", {"name": "Gobelin", "count": 10}))
    fight = Fight(table)
    await fight.open()
    assert len(fight.options()) == 25  # Discord's most
    first = fight.options()[0]["label"].split(" — ")[0]
    await fight.pick(first)
    await fight.press("▶️")
    assert len(fight.options()) == 32 - 25
    last = fight.options()[-1]["label"].split(" — ")[0]
    await fight.pick(last)
    blow = await fight.press("Trauma")
    text = blow_text(blow)
    assert first in text and last in text
    for name in (first, last):
        assert (await table.character(name)).counts(Track.MENTAL) == (0, 1, 0)
    assert "2 targets chosen" in str(fight.panel["embeds"])  # both stay chosen for the next blow


async def test_after_discords_15_minutes_a_click_answers_with_a_fresh_panel(table: Table) -> None:
    await fight_table(table)
    fight = Fight(table)
    await fight.open()
    await fight.pick("Aria")
    old = harness.snowflake(datetime.now(UTC) - timedelta(minutes=20))
    fight.panel = {**fight.panel, "id": str(old), "timestamp": snowflake_iso(old)}
    blow = await fight.press("Light")
    assert blow.callback_type == 4 and blow.ephemeral  # a new private panel, not an edit of the old one
    assert blow.message is not None and blow.message["id"] != str(old)
    assert "Aria" in blow_text(blow)


async def test_history_names_a_blows_targets_and_keeps_secret_npcs_secret(table: Table) -> None:
    await fight_table(table)
    public(await table.run("character create", {"name": "Ombre", "count": 1}))
    public(await table.run("config secret-npcs", {"secret": True}))
    fight = Fight(table)
    await fight.open()
    await fight.pick("Aria", "Ombre 1")
    await fight.press("Critical")
    history = public(await table.run("history"))
    assert "blow (critical wound): **Aria** → critical wound; **Ombre 1**: kept secret" in history
    undone = public(await table.run("undo"))
    assert "**Ombre 1**: kept secret" in undone and "**Aria** → critical wound" in undone


async def test_a_panel_drawn_for_other_combatants_is_drawn_again_not_applied(table: Table) -> None:
    await fight_table(table)
    fight = Fight(table)
    await fight.open()
    await fight.pick("Aria")
    public(await table.run("character create", {"name": "Gobelin", "count": 2}))  # they join the fight
    stale = fight.panel
    blow = await fight.press("Critical")  # the choice was a bit per combatant of the old cast
    assert not [m for m in blow.followups if not m.ephemeral]  # no blow
    assert (await table.character("Aria")).counts(Track.PHYSICAL) == (0, 0, 0)
    assert len(fight.options()) == 4 and "Choose the targets" in str(fight.panel["embeds"])
    fight.panel = stale
    turned = await fight.pick("Brann")  # a choice on the old panel starts again from the new cast
    assert turned.errors == []
    assert "1 target chosen" in str(fight.panel["embeds"])
