"""Issue 11: ways a hostile or unlucky world could lose, corrupt or silently drop state, each driven
through the real dispatch (only the HTTP transport faked)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bot.rules import Track
from tests import fakediscord as harness
from tests.databases import characters_of, history_of
from tests.fakediscord import check_requests
from tests.table import (
    ALICE,
    BOB,
    GM,
    GM_ROLE,
    GUILD,
    OWNER,
    Table,
    open_table,
    public,
    refused,
    shown,
)


def custom_ids(reply: harness.Reply) -> list[str]:
    return [button["custom_id"] for row in reply.components for button in row["components"]]


async def delete_by_command(table: Table, name: str) -> None:
    ask = await table.run("character delete", {"character": name})
    done = await table.click(custom_ids(ask)[0], ask, user=GM)
    assert done.errors == [] and not done.followups[-1].ephemeral


# ---- 5: an id chosen from autocomplete only ever means that id ----------------------------------


async def test_a_stale_autocomplete_id_never_falls_back_to_a_character_named_that_number(
    table: Table,
) -> None:
    aria = await table.create("Aria", ALICE)
    stale = str(aria.id)
    await delete_by_command(table, "Aria")
    namesake = await table.create(stale, BOB)  # a character literally named like the stale id
    cases: list[tuple[str, dict[str, Any]]] = [
        ("wound", {"severity": "light"}),
        ("mental", {"severity": "shock"}),
        ("heal wound", {"severity": "light"}),
        ("rest", {"days": 2}),
        ("character show", {}),
    ]
    for command, options in cases:
        text = refused(await table.run(command, {"character": stale, **options}))
        assert "does not exist" in text, (command, text)
    assert await table.character(stale) == namesake


# ---- 6: a fractional value in an integer option --------------------------------------------------


async def test_a_fractional_value_in_an_integer_option_is_refused_unchanged(table: Table) -> None:
    aria = await table.create("Aria", ALICE)
    for command, options in [
        ("wound", {"severity": "light", "character": "Aria", "count": harness.Opt(10, 1.5)}),
        ("wound", {"severity": "light", "character": "Aria", "count": harness.Opt(10, 2.0)}),
        ("rest", {"days": harness.Opt(10, 0.5), "character": "Aria"}),
        ("character edit", {"character": "Aria", "corps": harness.Opt(10, 1.25)}),
    ]:
        payload = harness.slash(command, options, guild_id=GUILD, user_id=GM, roles=(GM_ROLE,), locale="fr")
        reply = await harness.dispatch(table.fake, table.bot, payload, discord_checks=False)
        assert "Cette valeur n'est pas valide" in refused(reply), (command, reply.text)
    assert await table.character("Aria") == aria


# ---- 7: whatever a payload breaks ends in the error funnel --------------------------------------


async def test_a_malformed_user_id_in_a_payload_gets_a_private_answer(table: Table) -> None:
    before = await characters_of(table.store, GUILD)
    payload = harness.slash(
        "character create",
        {"name": "Bob", "player": harness.user(BOB)},
        guild_id=GUILD,
        user_id=GM,
        roles=(GM_ROLE,),
    )
    resolved = payload["data"]["resolved"]
    for kind in ("users", "members"):
        resolved[kind] = {"not-a-snowflake": {**resolved[kind][str(BOB)]}}
    resolved["users"]["not-a-snowflake"]["id"] = "not-a-snowflake"
    payload["data"]["options"][0]["options"][1]["value"] = "not-a-snowflake"
    reply = await harness.dispatch(table.fake, table.bot, payload, discord_checks=False)
    assert "Discord sent this command in a form" in refused(reply)
    assert await characters_of(table.store, GUILD) == before


# ---- 8: Confirm / Cancel after a restart -----------------------------------------------------------


async def test_a_deletion_can_be_confirmed_or_cancelled_after_a_restart(database_url: str) -> None:
    path = database_url
    async with open_table(path) as table:
        await table.create("Aria", ALICE)
        await table.create("Nyx", ALICE)
        ask_aria = await table.run("character delete", {"character": "Aria"}, user=ALICE)
        ask_nyx = await table.run("character delete", {"character": "Nyx"}, user=ALICE, locale="fr")
        check_requests(table.fake.requests)
    async with open_table(path) as table:
        intruder = await table.click(custom_ids(ask_aria)[0], ask_aria.message, user=BOB)
        assert "Only the person who ran the command" in refused(intruder)
        done = await table.click(custom_ids(ask_aria)[0], ask_aria.message, user=ALICE)
        assert done.errors == [] and done.callback_type == 7
        assert all(button["disabled"] for row in done.components for button in row["components"])
        assert "Deleted: Aria" in done.followups[-1].text and not done.followups[-1].ephemeral
        cancelled = await table.click(custom_ids(ask_nyx)[1], ask_nyx.message, user=ALICE, locale="fr")
        assert cancelled.callback_type == 7 and "Annulé" in (cancelled.content or "")
        assert [c.name for c in await characters_of(table.store, GUILD)] == ["Nyx"]
        check_requests(table.fake.requests)


async def test_a_question_kept_in_memory_answers_privately_after_a_restart(database_url: str) -> None:
    path = database_url
    async with open_table(path) as table:
        await table.create("Aria", ALICE)
        ask = await table.run("wound", {"damage": 25, "character": "Aria", "preview": True})
        assert ask.ephemeral and len(custom_ids(ask)) == 2
        check_requests(table.fake.requests)
    async with open_table(path) as table:
        before = await table.character("Aria")
        for custom_id, locale, words in (
            (custom_ids(ask)[0], "en-US", "asked before the bot restarted"),
            (custom_ids(ask)[1], "fr", "avant un redémarrage du bot"),
        ):
            late = await table.click(custom_id, ask.message, user=GM, locale=locale)
            assert words in refused(late)
        assert await table.character("Aria") == before
        # In the run that asked, the question itself answers, once.
        ask = await table.run("wound", {"damage": 25, "character": "Aria", "preview": True})
        cancelled = await table.click(custom_ids(ask)[1], ask.message, user=GM)
        assert cancelled.callback_type == 7 and cancelled.followups == [] and cancelled.errors == []
        check_requests(table.fake.requests)


# ---- 2: imports the rules could never reach -------------------------------------------------------


def exported(character: dict[str, Any]) -> bytes:
    document = {
        "format": "harmonies-wounds",
        "version": 1,
        "guild_id": GUILD,
        "ruleset": {},
        "characters": [character],
    }
    return json.dumps(document).encode()


RANK = {"light": 0, "serious": 1, "critical": 2, "shock": 0, "trauma": 1, "psychosis": 2}


def wounds(track: str, severity: str, count: int) -> list[dict[str, Any]]:
    return [{"track": track, "inflicted": RANK[severity], "current": RANK[severity]}] * count


FATAL = {"track": "physical", "inflicted": 2, "current": None, "fatal": True}
FULL = wounds("physical", "light", 4) + wounds("physical", "serious", 2) + wounds("physical", "critical", 1)


async def test_an_import_the_rules_cannot_reach_is_refused_with_every_problem(table: Table) -> None:
    await table.create("Aria", ALICE)
    before = await characters_of(table.store, GUILD)
    cases: list[tuple[dict[str, Any], list[str]]] = [
        ({"name": "Ten", "wounds": wounds("physical", "light", 10)}, ["light", "10", "4"]),
        ({"name": "Mad", "wounds": wounds("mental", "psychosis", 2)}, ["psychoses", "2", "1"]),
        ({"name": "Undead", "dead": False, "wounds": [*FULL, FATAL]}, ["fatal", "not dead"]),
        ({"name": "Ghost", "dead": True, "wounds": []}, ["dead", "no fatal"]),
        ({"name": "Twice", "dead": True, "wounds": [*FULL, FATAL, FATAL]}, ["2 fatal wounds"]),
        ({"name": "Lost", "incoherent": True, "wounds": []}, ["incoherent", "no fatal"]),
    ]
    for character, words in cases:
        sent = harness.attachment("import.json", exported(character))
        text = refused(await table.run("config import", {"file": sent}))
        assert all(word in text for word in words), (character["name"], text)
    # Every problem is listed, not only the first.
    both = {"name": "Both", "dead": True, "wounds": wounds("physical", "serious", 3)}
    text = refused(await table.run("config import", {"file": harness.attachment("x.json", exported(both))}))
    assert "serious" in text and "no fatal" in text
    assert await characters_of(table.store, GUILD) == before


async def test_an_import_of_a_reachable_dead_character_is_accepted(table: Table) -> None:
    dead = {"name": "Fallen", "dead": True, "wounds": [*FULL, FATAL]}
    public(await table.run("config import", {"file": harness.attachment("x.json", exported(dead))}))
    fallen = await table.character("Fallen")
    assert fallen.dead and fallen.counts(Track.PHYSICAL) == (4, 2, 1)


# ---- extras ----------------------------------------------------------------------------------------


async def test_zero_width_characters_are_dropped_from_names_and_refused_in_imports(table: Table) -> None:
    public(await table.run("character create", {"name": "Ar\u200bia\u2060\ufeff"}))
    assert [c.name for c in await characters_of(table.store, GUILD)] == ["Aria"]
    for invisible in ("\u200b", "\u2060\ufeff"):
        refused(await table.run("character create", {"name": invisible}))
    sent = harness.attachment("x.json", exported({"name": "Zo\u200bé"}))
    assert "name" in refused(await table.run("config import", {"file": sent}))


async def test_selecting_a_character_is_recorded_and_undone(table: Table) -> None:
    aria = await table.create("Aria", ALICE)
    nyx = await table.create("Nyx", ALICE)
    public(await table.run("character select", {"character": "Nyx"}, user=ALICE))
    history, _ = await history_of(table.store, GUILD, character_id=nyx.id)
    assert history[0].kind == "character_select" and history[0].actor_id == ALICE
    shown = public(await table.run("history", {}))
    assert "Nyx" in shown and "active" in shown
    # Choosing the one already active changes nothing, so nothing is recorded.
    public(await table.run("character select", {"character": "Nyx"}, user=ALICE))
    history, _ = await history_of(table.store, GUILD, character_id=nyx.id)
    assert [e.kind for e in history].count("character_select") == 1
    public(await table.run("undo"))
    active = await table.store.read(GUILD, lambda r: r.active_character(ALICE))
    assert active is not None and active.id == aria.id


def sqlite_pragma(table: Table, pragma: str) -> Any:
    """``pragma`` on the bot's SQLite writer connection (through a unit of work: on its thread)."""
    return table.store.database.write(None, lambda sql: sql.rows(pragma))


async def test_a_full_disk_is_named_in_the_private_answer_and_nothing_is_half_saved(tmp_path: Path) -> None:
    async with open_table(f"sqlite:///{tmp_path / 'bot.db'}") as table:
        await table.create("Aria", ALICE)

        async def state() -> tuple[object, int]:
            return await table.character("Aria"), (await history_of(table.store, GUILD))[1]

        [(pages,)] = await sqlite_pragma(table, "PRAGMA page_count")
        await sqlite_pragma(table, f"PRAGMA max_page_count = {pages}")  # the file may not grow: disk full
        note = "n" * 200
        # Wound and undo in turn (the database grows with its history) until the disk is full.
        for attempt in range(400):
            command: tuple[str, dict[str, Any]] = (
                ("wound", {"severity": "light", "character": "Aria", "note": f"{attempt}{note}"[:200]})
                if attempt % 2 == 0
                else ("undo", {})
            )
            before = await state()
            reply = await table.run(*command)
            if reply.ephemeral:
                break
        assert "disk" in refused(reply) and "error id" not in reply.text
        assert await state() == before  # the refused change left nothing behind
        assert "disque" in refused(await table.run(*command, locale="fr"))
        assert await state() == before
        check_requests(table.fake.requests)


async def test_a_read_only_database_is_named_in_the_private_answer(tmp_path: Path) -> None:
    async with open_table(f"sqlite:///{tmp_path / 'bot.db'}") as table:
        aria = await table.create("Aria", ALICE)
        await sqlite_pragma(table, "PRAGMA query_only = 1")
        text = refused(await table.run("wound", {"severity": "light", "character": "Aria"}))
        assert "read-only" in text and "error id" not in text
        assert await table.character("Aria") == aria
        check_requests(table.fake.requests)


# ---- 1: the same interaction delivered twice ------------------------------------------------------


async def test_the_same_interaction_delivered_twice_is_applied_once(table: Table) -> None:
    await table.create("Aria", ALICE)
    await table.create("Brann", BOB)

    def gm(command: str, options: dict[str, Any]) -> dict[str, Any]:
        return harness.slash(command, options, guild_id=GUILD, user_id=GM, roles=(GM_ROLE,))

    wound = gm("wound", {"severity": "light", "character": "Aria"})
    rest = gm("rest", {"days": 3})
    public(await table.run("wound", {"severity": "serious", "character": "Brann"}))
    undo = gm("undo", {})
    for payload in (wound, rest, undo):
        public(await harness.dispatch(table.fake, table.bot, payload))
        replayed = await harness.dispatch(table.fake, table.bot, payload)  # a gateway replay
        assert replayed.errors == [] and shown(replayed) == [], replayed.text
    aria, brann = await table.character("Aria"), await table.character("Brann")
    assert aria.counts(Track.PHYSICAL) == (1, 0, 0) and aria.rest_days == 0  # the rest was undone once
    assert brann.counts(Track.PHYSICAL) == (0, 1, 0)
    events, _ = await history_of(table.store, GUILD, per_page=100)
    assert [e.kind for e in events].count("wound") == 2 and [e.kind for e in events].count("undo") == 1


async def test_a_button_click_delivered_twice_is_applied_once(table: Table) -> None:
    await table.create("Aria", ALICE)
    ask = await table.run("character delete", {"character": "Aria"}, user=ALICE)
    click = harness.component(custom_ids(ask)[0], message=ask.message, user_id=ALICE, guild_id=GUILD)
    assert not (await harness.dispatch(table.fake, table.bot, click)).followups[-1].ephemeral
    public(await table.run("undo"))
    replayed = await harness.dispatch(table.fake, table.bot, click)
    assert replayed.errors == [] and replayed.messages == [], replayed.text
    assert [c.name for c in await characters_of(table.store, GUILD)] == ["Aria"]


# ---- 3: settings changed through another process --------------------------------------------------


async def test_a_setting_changed_through_another_process_is_never_acted_on_stale(database_url: str) -> None:
    path = database_url
    async with open_table(path) as first, open_table(path) as second:
        await first.create("Aria", ALICE)
        # The second process uses the server's settings (and keeps them at hand).
        public(await second.run("wound", {"severity": "light", "character": "Aria"}))
        public(await second.run("rest", {"days": 1}))
        assert f"<@&{GM_ROLE}>" in public(await second.run("config show"))
        # The owner clears the GM role through the first process: a member of that role is no GM now.
        public(await first.run("config gm-role", {}, user=OWNER))
        assert f"<@&{GM_ROLE}>" not in public(await second.run("config show"))
        attempts: list[tuple[str, dict[str, Any]]] = [
            ("wound", {"severity": "light", "character": "Aria"}),
            ("rest", {"days": 1}),
            ("heal wound", {"severity": "light", "character": "Aria"}),
            ("character create", {"name": "Nyx", "player": harness.user(BOB)}),
            ("undo", {}),
        ]
        for command, options in attempts:
            assert "GM" in refused(await second.run(command, options)), command
        assert f"<@&{GM_ROLE}>" not in public(await second.run("config show"))
        aria = await second.character("Aria")
        assert aria.counts(Track.PHYSICAL) == (1, 0, 0) and aria.rest_days == 1
        check_requests(first.fake.requests)
        check_requests(second.fake.requests)
