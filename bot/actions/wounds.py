"""GM actions on wounds: inflicting (both tracks) and lowering one wound without a roll."""

from __future__ import annotations

from dataclasses import dataclass

from bot import history
from bot.actions import targets
from bot.actions.actor import Actor
from bot.actions.record import record
from bot.errors import UserError
from bot.rules import (
    Character,
    Dice,
    DiceFeed,
    Infliction,
    Lowering,
    RandomSource,
    Ruleset,
    Severity,
    Track,
    gm_lower,
    inflict,
    parse_dice,
)
from bot.rules.damage import DamageInfliction, HarmOdds, check_damage, damage_odds, inflict_damage
from bot.storage.store import Reader, Store, Transaction


@dataclass(frozen=True)
class Wounded:
    infliction: Infliction
    character: Character
    ruleset: Ruleset


async def wound(
    store: Store,
    actor: Actor,
    *,
    track: Track,
    severity: Severity,
    player_id: int | None,
    ref: str | None,
    count: int,
    note: str,
) -> Wounded:

    def work(tx: Transaction) -> Wounded:
        ruleset = tx.ruleset()
        actor.require_gm(ruleset)
        character = targets.target(tx, player_id=player_id, ref=ref)
        outcome = inflict(character, track, severity, count, note=note, by=actor.user_id, at=tx.now)
        saved = tx.save_character(outcome.character)
        became = tuple(r.became for r in outcome.results)
        maxima = saved.maxima(track)  # why a wound escalated, for history
        inflicted = history.Wounded(track, severity, count, note, became, outcome.not_applied, maxima)
        record(tx, actor, inflicted, character=saved)
        return Wounded(outcome, saved, ruleset)

    return await store.run(actor.guild_id, work, interaction=actor.interaction_id)


@dataclass(frozen=True)
class Damaged:
    infliction: DamageInfliction
    character: Character
    ruleset: Ruleset
    unused_dice: int


async def damage(
    store: Store,
    actor: Actor,
    rng: RandomSource,
    *,
    track: Track,
    level: int,
    dice: str | None,
    player_id: int | None,
    ref: str | None,
    count: int,
    note: str,
) -> Damaged:
    """A GM states a damage level; the target rolls against each blow (rules.md §8)."""

    def work(tx: Transaction) -> Damaged:
        ruleset = tx.ruleset()
        actor.require_gm(ruleset)
        character = targets.target(tx, player_id=player_id, ref=ref)
        feed = DiceFeed(rng, ruleset.open_rolls, parse_dice(dice, ruleset.open_rolls) if dice else [])
        outcome = inflict_damage(
            character, ruleset, track, level, feed, count, note=note, by=actor.user_id, at=tx.now
        )
        saved = tx.save_character(outcome.character)
        blows = tuple(
            history.Blow(blow.harm, blow.effective, blow.roll.margin, blow.roll.success)
            for blow in outcome.blows
        )
        became = tuple(r.became for r in outcome.results)
        rolled = history.DamageRolled(track, level, count, note, blows, became, outcome.not_applied)
        record(tx, actor, rolled, character=saved)
        return Damaged(outcome, saved, ruleset, feed.unused_manual)

    return await store.run(actor.guild_id, work, interaction=actor.interaction_id)


@dataclass(frozen=True)
class DamagePreview:
    character: Character
    ruleset: Ruleset
    odds: list[HarmOdds]
    dice: Dice | None
    """The first of the GM's typed dice (which decide the first roll), if any."""


async def preview_damage(
    store: Store,
    actor: Actor,
    *,
    track: Track,
    level: int,
    dice: str | None,
    player_id: int | None,
    ref: str | None,
) -> DamagePreview:
    """The odds of each outcome of the next blow, for the GM to see before confirming. Reads only."""

    def look(reader: Reader) -> tuple[Ruleset, Character]:
        ruleset = reader.ruleset()
        actor.require_gm(ruleset)
        check_damage(level)
        return ruleset, targets.target(reader, player_id=player_id, ref=ref)

    ruleset, character = await store.read(actor.guild_id, look)
    first = parse_dice(dice, ruleset.open_rolls)[0] if dice else None
    return DamagePreview(character, ruleset, damage_odds(character, ruleset, track, level, first), first)


@dataclass(frozen=True)
class Lowered:
    lowering: Lowering
    character: Character
    ruleset: Ruleset


async def lower(
    store: Store, actor: Actor, *, track: Track, severity: Severity, player_id: int | None, ref: str | None
) -> Lowered:

    def work(tx: Transaction) -> Lowered:
        ruleset = tx.ruleset()
        if not actor.is_gm(ruleset):  # a player looking for healing: point to the roll
            raise UserError("not_gm_lower" if track is Track.PHYSICAL else "not_gm_lower_mental")
        character = targets.target(tx, player_id=player_id, ref=ref)
        lowering = gm_lower(character, track, severity)
        saved = tx.save_character(lowering.character)
        lowered = history.Lowered(track, severity, lowering.after.current)
        record(tx, actor, lowered, character=saved)
        return Lowered(lowering, saved, ruleset)

    return await store.run(actor.guild_id, work, interaction=actor.interaction_id)
