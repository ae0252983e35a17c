"""Nothing of another server is ever shown or changed, whatever id is given."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from bot.actions.admin import named_even_deleted
from bot.actions.undoing import revert
from bot.errors import UserError
from bot.rules import Severity, Track, inflict
from bot.rules.character import Character
from bot.storage import Store, Transaction
from tests.databases import character_of, characters_of, dump, export_of, history_of
from tests.storage.conftest import ALICE, GM, GUILD, OTHER_GUILD, create


async def _setup(store: Store) -> Character:
    aria = await create(store, "Aria", ALICE, guild_id=GUILD)
    aria_id = aria.id
    assert aria_id is not None

    def work(tx: Transaction) -> Character:
        saved = tx.save_character(inflict(tx.character(aria_id), Track.PHYSICAL, Severity.MID).character)
        tx.record("wound", GM, character=saved)
        return saved

    return await store.run(GUILD, work)


async def test_reads_of_another_server_find_nothing(store: Store) -> None:
    aria = await _setup(store)
    assert aria.id is not None
    with pytest.raises(UserError) as refused:
        await character_of(store, OTHER_GUILD, aria.id)
    assert refused.value.message == (
        "That character does not exist in this server (any more). Pick one from "
        "the suggestions, or see /character list."
    )
    with pytest.raises(UserError):
        await store.read(OTHER_GUILD, lambda r: r.character_by_name("Aria"))
    with pytest.raises(UserError):  # what /history looks a character up with
        await store.read(OTHER_GUILD, lambda r: named_even_deleted(r, str(aria.id)))
    assert await store.read(OTHER_GUILD, lambda r: r.active_character(ALICE)) is None
    assert await characters_of(store, OTHER_GUILD) == []
    assert await store.read(OTHER_GUILD, lambda r: r.matching("")) == []
    assert await store.read(OTHER_GUILD, lambda r: r.matching("ari")) == []
    assert await history_of(store, OTHER_GUILD) == ([], 0)
    exported = await export_of(store, OTHER_GUILD)
    assert b"Aria" not in exported


TxAction = Callable[[Transaction, Character], object]


def _set_active(tx: Transaction, c: Character) -> None:
    assert c.id is not None
    tx.set_active(ALICE, c.id)


def _undo_character(tx: Transaction, c: Character) -> None:
    revert(tx, GM, str(c.id))


def _load(tx: Transaction, c: Character) -> None:
    assert c.id is not None
    tx.character(c.id)


@pytest.mark.parametrize(
    "action",
    [
        _load,
        lambda tx, c: tx.character_by_name(c.name),
        lambda tx, c: tx.save_character(replace(c, name="Stolen")),
        lambda tx, c: tx.save_character(replace(c, guild_id=OTHER_GUILD, rest_days=9)),
        lambda tx, c: tx.delete_characters([c]),
        _set_active,
        _undo_character,
    ],
)
async def test_writes_with_another_servers_ids_are_refused_and_change_nothing(
    store: Store, database_url: str, action: TxAction
) -> None:
    aria = await _setup(store)
    before = dump(database_url)

    def work(tx: Transaction) -> None:
        action(tx, aria)
        tx.record("character_edit", GM, character=aria)

    with pytest.raises(UserError) as refused:
        await store.run(OTHER_GUILD, work)
    assert refused.value.message in {
        (
            "That character does not exist in this server (any more). Pick one from "
            "the suggestions, or see /character list."
        ),
        ("No character called {ref} in this server. Pick one from the suggestions, or see /character list."),
    }  # by id, or by name
    assert dump(database_url) == before


async def test_undo_in_another_server_does_not_see_these_events(store: Store, database_url: str) -> None:
    await _setup(store)
    before = dump(database_url)
    with pytest.raises(UserError) as refused:
        await store.run(OTHER_GUILD, lambda tx: revert(tx, GM))
    assert refused.value.message == "There is nothing left to undo here. See /history for what was recorded."
    assert dump(database_url) == before


async def test_same_names_in_two_servers_are_two_characters(store: Store) -> None:
    a = await create(store, "Aria", ALICE, guild_id=GUILD)
    b = await create(store, "aria", ALICE, guild_id=OTHER_GUILD)
    assert a.id != b.id
    assert (await store.read(GUILD, lambda r: r.character_by_name("ARIA"))).id == a.id
    assert (await store.read(OTHER_GUILD, lambda r: r.character_by_name("ARIA"))).id == b.id
    assert (await store.read(GUILD, lambda r: r.active_character(ALICE))) == a
    assert (await store.read(OTHER_GUILD, lambda r: r.active_character(ALICE))) == b
    await store.run(OTHER_GUILD, lambda tx: revert(tx, GM))
    assert (await character_of(store, GUILD, a.id or 0)) == a
    assert await characters_of(store, OTHER_GUILD) == []
