"""A fight: a band of NPCs created at once, and one blow on several characters (the /fight panel), each
one change in the history."""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot import history
from bot.actions.actor import Actor, record
from bot.errors import UserError
from bot.rules import (
    Character,
    DiceFeed,
    Infliction,
    RandomSource,
    Ruleset,
    Severity,
    Track,
    inflict,
    new_character,
)
from bot.rules.character import clean_name
from bot.rules.damage import DamageInfliction, check_damage, inflict_damage
from bot.storage.store import Store, Transaction

BAND_MAX = 10  # NPCs in one band


@dataclass(frozen=True, kw_only=True)
class Band:
    """``/character create name:Goblin count:4`` (or Add NPCs…): *Goblin 1* … *Goblin 4*, numbered on
    from the highest *Goblin N* there is; on the board of ``channel_id`` when it has one."""

    name: str
    count: int
    corps: int = 0
    resistance: int = 0
    intuition: int = 0
    preset: str = "humanoid"
    channel_id: int | None = None


async def create_band(store: Store, actor: Actor, asked: Band) -> tuple[list[Character], Ruleset]:
    """A GM creates ``asked.count`` NPCs in one change (one /undo removes them all)."""
    if not 1 <= asked.count <= BAND_MAX:
        raise UserError("A band has 1 to {max} NPCs.", max=BAND_MAX)
    base = clean_name(asked.name)
    numbered = re.compile(re.escape(base.casefold()) + r" (\d{1,4})")

    def work(tx: Transaction) -> tuple[list[Character], Ruleset]:
        ruleset = tx.ruleset()
        actor.require_gm(ruleset)
        found = (numbered.fullmatch(c.name.casefold()) for c in tx.characters())
        first = max((int(m[1]) for m in found if m), default=0) + 1
        band = [
            new_character(
                f"{base} {n}",
                ruleset=ruleset,
                preset=asked.preset,
                corps=asked.corps,
                resistance=asked.resistance,
                intuition=asked.intuition,
                guild_id=actor.guild_id,
                created_at=tx.now,
            )
            for n in range(first, first + asked.count)
        ]
        created = tx.create_characters(band)
        if asked.channel_id is not None:  # nothing happens in a channel without a board
            for npc in created:
                assert npc.id is not None
                tx.show_on_board(asked.channel_id, npc.id, shown=True)
        names = tuple(c.name for c in created)
        record(tx, actor, history.Created(None, band=names), character=created[0])
        return created, ruleset

    return await store.run(actor.guild_id, work, interaction=actor.interaction_id)


@dataclass(frozen=True, kw_only=True)
class Blow:
    """One blow of the fight panel on ``targets`` (ids): a wound of ``severity`` each, or a ``damage``
    level each rolls against."""

    track: Track
    targets: tuple[int, ...]
    severity: Severity | None = None
    damage: int | None = None


@dataclass(frozen=True)
class Landed:
    """Each target hit as it is now with what the rules did to it, those skipped (out of play already)."""

    hit: list[tuple[Character, Infliction | DamageInfliction]]
    skipped: list[Character]
    ruleset: Ruleset


async def strike(store: Store, actor: Actor, rng: RandomSource, asked: Blow) -> Landed:
    """One wound (or damage roll) on each target, each escalating on its own, as one change: one /undo
    reverts the whole blow. The panel gives one severity or one damage level, and targets chosen."""
    if asked.damage is not None:
        check_damage(asked.damage)

    def work(tx: Transaction) -> Landed:
        ruleset = tx.ruleset()
        actor.require_gm(ruleset)
        track = asked.track
        hit: list[tuple[Character, Infliction | DamageInfliction]] = []
        skipped: list[Character] = []
        hits: list[history.Hit] = []
        for character_id in dict.fromkeys(asked.targets):
            character = tx.character(character_id)
            if character.out_of_play:
                skipped.append(character)
                continue
            assert character.id is not None
            if asked.severity is not None:
                done: Infliction | DamageInfliction = inflict(
                    character, track, asked.severity, 1, by=actor.user_id, at=tx.now
                )
                entry = history.Hit(character.id, character.name, tuple(r.became for r in done.results))
            else:
                assert asked.damage is not None
                feed = DiceFeed(rng, ruleset.open_rolls, [])
                rolled = inflict_damage(
                    character, ruleset, track, asked.damage, feed, 1, by=actor.user_id, at=tx.now
                )
                blow, done = rolled.blows[0], rolled
                became = tuple(r.became for r in rolled.results)
                entry = history.Hit(character.id, character.name, became, blow.harm, blow.roll.margin)
            saved = tx.save_character(done.character)
            hit.append((saved, done))
            hits.append(entry)
        if not hit:
            raise UserError(
                "Every target chosen is dead or incoherent already: nothing was changed. Choose living ones."
            )
        names = tuple(c.name for c in skipped)
        record(tx, actor, history.Struck(track, asked.severity, asked.damage, tuple(hits), names))
        return Landed(hit, skipped, ruleset)

    return await store.run(actor.guild_id, work, interaction=actor.interaction_id)


def drop_the_dead(tx: Transaction, channel_id: int, npc_ids: tuple[int, ...]) -> list[Character]:
    """Take the dead and incoherent NPCs off the channel's board (at the end of a fight); those taken."""
    gone = [c for c in tx.characters() if c.id in set(npc_ids) and c.out_of_play]
    for npc in gone:
        assert npc.id is not None
        tx.show_on_board(channel_id, npc.id, shown=False)
    return gone
