"""Creating, editing, selecting and deleting characters."""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot import history
from bot.actions.actor import Actor, by_ref, gm_only, record
from bot.errors import Mention, UserError
from bot.history import Edited
from bot.rules import Character, Ruleset, Track, new_character
from bot.rules.character import check_attribute, clean_name, preset_of
from bot.rules.ruleset import preset_key
from bot.storage.store import Reader, Store, Transaction


@dataclass(frozen=True, kw_only=True)
class Create:
    """/character create: ``name``, played by ``player_id`` (none: an NPC, or a player's own)."""

    name: str
    player_id: int | None = None
    corps: int = 0
    resistance: int = 0
    intuition: int = 0
    preset: str = "humanoid"


async def create(store: Store, actor: Actor, asked: Create) -> tuple[Character, Ruleset]:
    """A GM creates for anyone (no player: an NPC); a player creates for themself when allowed."""
    player_id = asked.player_id

    def work(tx: Transaction) -> tuple[Character, Ruleset]:
        ruleset = tx.ruleset()
        if actor.is_gm(ruleset):
            owner = player_id
        else:
            if player_id not in (None, actor.user_id):
                raise gm_only()
            if not ruleset.players_create:
                raise UserError(
                    "On this server only GMs create characters. Ask a GM to create yours "
                    "(/character create with player)."
                )
            owner = actor.user_id
        fresh = new_character(
            asked.name,
            ruleset=ruleset,
            preset=asked.preset,
            corps=asked.corps,
            resistance=asked.resistance,
            intuition=asked.intuition,
            owner_id=owner,
            guild_id=actor.guild_id,
            created_at=tx.now,
        )
        saved = tx.save_character(fresh)
        assert saved.id is not None
        if owner is not None and tx.active_character(owner) is None:
            tx.set_active(owner, saved.id)
        record(tx, actor, history.Created(owner), character=saved)
        return saved, ruleset

    return await store.run(actor.guild_id, work, interaction=actor.interaction_id)


async def select(store: Store, actor: Actor, ref: str) -> Character:
    """The owner makes a character their active one (the one already active: nothing recorded)."""

    def work(tx: Transaction) -> Character:
        character = by_ref(tx, ref)
        if not actor.owns(character):
            if character.owner_id is None:
                raise UserError(
                    "{name} is an NPC: it is nobody's active character. Choose one of yours.",
                    name=character.name,
                )
            raise UserError(
                "{name} is played by {player}: only that person can make it their active "
                "character. Choose one of yours.",
                name=character.name,
                player=Mention(character.owner_id),
            )
        current = tx.active_character(actor.user_id)
        if current is None or current.id != character.id:
            assert character.id is not None
            tx.set_active(actor.user_id, character.id)
            record(tx, actor, history.Selected(), character=character)
        return character

    return await store.run(actor.guild_id, work, interaction=actor.interaction_id)


async def edit(store: Store, actor: Actor, ref: str, edits: Edited) -> tuple[Character, Ruleset]:
    """A GM changes anything; the owner may rename their character. ``edits`` is also what is recorded."""
    if not edits.changes():
        raise UserError(
            "Nothing to change: give at least one of name, corps, resistance, intuition or preset."
        )

    def work(tx: Transaction) -> tuple[Character, Ruleset]:
        ruleset = tx.ruleset()
        character = by_ref(tx, ref)
        if not actor.is_gm(ruleset) and not (actor.owns(character) and edits.changes().keys() <= {"name"}):
            raise gm_only()
        changed = _apply(character, edits, ruleset)
        if changed == character:
            raise UserError("{name} already is like that: nothing was changed.", name=character.name)
        saved = tx.save_character(changed)
        record(tx, actor, edits, character=saved)
        return saved, ruleset

    return await store.run(actor.guild_id, work, interaction=actor.interaction_id)


def _apply(character: Character, edits: Edited, ruleset: Ruleset) -> Character:
    changed = character
    if edits.name is not None:
        changed = replace(changed, name=clean_name(edits.name))
    for attribute in ("corps", "resistance", "intuition"):
        value = getattr(edits, attribute)
        if value is not None:
            check_attribute(value)
            changed = replace(changed, **{attribute: value})
    if edits.preset is not None:
        chosen = preset_of(ruleset, edits.preset)
        for track, maxima in ((Track.PHYSICAL, chosen.physical), (Track.MENTAL, chosen.mental)):
            if any(held > top for held, top in zip(character.counts(track), maxima, strict=True)):
                raise UserError(
                    "{name} holds more wounds than the preset {preset} allows. Heal some "
                    "first, or choose a larger preset.",
                    name=character.name,
                    preset=edits.preset,
                )
        changed = replace(
            changed, preset=preset_key(edits.preset), physical_max=chosen.physical, mental_max=chosen.mental
        )
    return changed


async def delete(store: Store, actor: Actor, character_id: int) -> Character:
    """Delete after the confirmation button; its owner's active one, the owner's newest takes its place."""

    def work(tx: Transaction) -> Character:
        ruleset = tx.ruleset()
        character = tx.character(character_id)
        actor.require_owner_or_gm(character, ruleset)
        owner = character.owner_id
        playing = None if owner is None else tx.active_character(owner)
        tx.delete_characters([character])
        if owner is not None and playing is not None and playing.id == character.id:
            take_newest(tx, owner)
        record(tx, actor, history.Deleted(), character=character)
        return character

    return await store.run(actor.guild_id, work, interaction=actor.interaction_id)


def take_newest(tx: Transaction, user_id: int) -> None:
    """A player left without an active character takes their most recently created one."""
    if user_id not in tx.actives() and (newest := tx.newest_character(user_id)) is not None:
        tx.set_active(user_id, newest)


async def check_delete(store: Store, actor: Actor, ref: str) -> Character:
    """The refusals of a deletion, before the confirmation is even asked."""

    def look(reader: Reader) -> Character:
        character = by_ref(reader, ref)
        actor.require_owner_or_gm(character, reader.ruleset())
        return character

    return await store.read(actor.guild_id, look)
