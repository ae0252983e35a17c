"""GM actions on wounds: inflicting (both tracks) and lowering one wound without a roll."""

from __future__ import annotations

from dataclasses import dataclass

from bot.actions import targets
from bot.actions.actor import Actor
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
from bot.rules.damage import DamageInfliction, Harm, HarmOdds, check_damage, damage_odds, inflict_damage
from bot.rules.severity import severity_name
from bot.storage.store import Store, Transaction


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
    at: str,
) -> Wounded:

    async def work(tx: Transaction) -> Wounded:
        ruleset = await tx.ruleset()
        actor.require_gm(ruleset)
        character = await targets.target(tx, player_id=player_id, ref=ref)
        outcome = inflict(character, track, severity, count, note=note, by=actor.user_id, at=at)
        saved = await tx.save_character(outcome.character)
        await tx.record(
            "wound" if track is Track.PHYSICAL else "mental",
            actor.user_id,
            character=saved,
            details={
                "severity": severity_name(track, severity),
                "count": count,
                "note": note,
                "became": [
                    None if r.became is None else severity_name(track, r.became) for r in outcome.results
                ],
                "not_applied": outcome.not_applied,
            },
        )
        return Wounded(outcome, saved, ruleset)

    return await store.run(actor.guild_id, work)


@dataclass(frozen=True)
class Damaged:
    infliction: DamageInfliction
    character: Character
    ruleset: Ruleset
    unused_dice: int


HARM_NAMES = {Harm.NONE: "none", Harm.FATAL: "fatal"}


def harm_name(track: Track, harm: Harm) -> str:
    """How history records a blow's outcome by the table: ``none``, a severity's name, ``fatal``."""
    severity = harm.severity
    return HARM_NAMES[harm] if severity is None else severity_name(track, severity)


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
    at: str,
) -> Damaged:
    """A GM states a damage level; the target rolls against each blow (rules.md §8)."""

    async def work(tx: Transaction) -> Damaged:
        ruleset = await tx.ruleset()
        actor.require_gm(ruleset)
        character = await targets.target(tx, player_id=player_id, ref=ref)
        feed = DiceFeed(rng, ruleset.open_rolls, parse_dice(dice, ruleset.open_rolls) if dice else [])
        outcome = inflict_damage(
            character, ruleset, track, level, feed, count, note=note, by=actor.user_id, at=at
        )
        saved = await tx.save_character(outcome.character)
        await tx.record(
            "wound" if track is Track.PHYSICAL else "mental",
            actor.user_id,
            character=saved,
            details={
                "damage": level,
                "count": count,
                "note": note,
                "rolls": [
                    {
                        "dice": blow.roll.dice.value,
                        "margin": blow.roll.margin,
                        "success": blow.roll.success,
                        "effective": blow.effective,
                        "harm": harm_name(track, blow.harm),
                    }
                    for blow in outcome.blows
                ],
                "became": [
                    None if r.became is None else severity_name(track, r.became) for r in outcome.results
                ],
                "not_applied": outcome.not_applied,
            },
        )
        return Damaged(outcome, saved, ruleset, feed.unused_manual)

    return await store.run(actor.guild_id, work)


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
    ruleset = await store.ruleset(actor.guild_id)
    actor.require_gm(ruleset)
    check_damage(level)
    character = await targets.target(targets.GuildReader(store, actor.guild_id), player_id=player_id, ref=ref)
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

    async def work(tx: Transaction) -> Lowered:
        ruleset = await tx.ruleset()
        actor.require_gm(ruleset)
        character = await targets.target(tx, player_id=player_id, ref=ref)
        lowering = gm_lower(character, track, severity)
        saved = await tx.save_character(lowering.character)
        after = lowering.after.current
        await tx.record(
            "heal_wound" if track is Track.PHYSICAL else "heal_mental",
            actor.user_id,
            character=saved,
            details={
                "severity": severity_name(track, severity),
                "became": None if after is None else severity_name(track, after),
            },
        )
        return Lowered(lowering, saved, ruleset)

    return await store.run(actor.guild_id, work)
