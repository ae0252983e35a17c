"""GM actions on wounds: inflicting (both tracks) and lowering one wound without a roll."""

from __future__ import annotations

from dataclasses import dataclass

from bot import history
from bot.actions.actor import Actor, Outcome, record, target
from bot.errors import N_, UserError
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


@dataclass(frozen=True, kw_only=True)
class Inflict:
    """/wound, /mental, the Wound… menu: wounds of a ``severity``, or a ``damage`` level the target
    rolls against for each blow (rules.md §8; ``dice``: its own), on ``player_id``'s active character
    and/or the one ``ref`` names."""

    track: Track
    severity: Severity | None = None
    damage: int | None = None
    player_id: int | None = None
    ref: str | None = None
    count: int = 1
    note: str = ""
    dice: str | None = None


@dataclass(frozen=True, kw_only=True)
class Lower:
    """/heal wound and /heal mental: a GM lowers one wound of ``severity`` one rank, without a roll."""

    track: Track
    severity: Severity
    player_id: int | None = None
    ref: str | None = None


async def wound(store: Store, actor: Actor, asked: Inflict) -> Outcome[Infliction]:
    """Wounds of the severity asked, each escalating on its own."""
    assert asked.severity is not None
    severity, track, count, note = asked.severity, asked.track, asked.count, asked.note

    def work(tx: Transaction) -> Outcome[Infliction]:
        ruleset = tx.ruleset()
        actor.require_gm(ruleset)
        character = target(tx, player_id=asked.player_id, ref=asked.ref)
        outcome = inflict(character, track, severity, count, note=note, by=actor.user_id, at=tx.now)
        saved = tx.save_character(outcome.character)
        became = tuple(r.became for r in outcome.results)
        maxima = saved.maxima(track)  # why a wound escalated, for history
        inflicted = history.Wounded(track, severity, count, note, became, outcome.not_applied, maxima)
        record(tx, actor, inflicted, character=saved)
        return Outcome(outcome, saved, ruleset)

    return await store.run(actor.guild_id, work, interaction=actor.interaction_id)


async def damage(store: Store, actor: Actor, rng: RandomSource, asked: Inflict) -> Outcome[DamageInfliction]:
    """A GM states a damage level; the target rolls against each blow (rules.md §8)."""
    assert asked.damage is not None
    track, level, count, note, dice = asked.track, asked.damage, asked.count, asked.note, asked.dice

    def work(tx: Transaction) -> Outcome[DamageInfliction]:
        ruleset = tx.ruleset()
        actor.require_gm(ruleset)
        character = target(tx, player_id=asked.player_id, ref=asked.ref)
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
        return Outcome(outcome, saved, ruleset, feed.unused_manual)

    return await store.run(actor.guild_id, work, interaction=actor.interaction_id)


async def preview_damage(
    store: Store, actor: Actor, asked: Inflict
) -> Outcome[tuple[list[HarmOdds], Dice | None]]:
    """The odds of each outcome of the next blow, shown to the GM before confirming, and the first of
    the typed dice (which decide the first roll), if any. Reads only."""
    assert asked.damage is not None
    level = asked.damage

    def look(reader: Reader) -> tuple[Ruleset, Character]:
        ruleset = reader.ruleset()
        actor.require_gm(ruleset)
        check_damage(level)
        return ruleset, target(reader, player_id=asked.player_id, ref=asked.ref)

    ruleset, character = await store.read(actor.guild_id, look)
    first = parse_dice(asked.dice, ruleset.open_rolls)[0] if asked.dice else None
    odds = damage_odds(character, ruleset, asked.track, level, first)
    return Outcome((odds, first), character, ruleset)


async def lower(store: Store, actor: Actor, asked: Lower) -> Outcome[Lowering]:
    track = asked.track

    def work(tx: Transaction) -> Outcome[Lowering]:
        ruleset = tx.ruleset()
        if not actor.is_gm(ruleset):  # a player looking for healing: point to the roll
            raise UserError(
                N_(
                    "Only a GM lowers a wound without a roll (surgery, magic). To heal your "
                    "character, roll for it with /heal roll once the rest period is over."
                )
                if track is Track.PHYSICAL
                else N_(
                    "Only a GM lowers a mental wound by command. Ask a GM; when this server "
                    "allows mental healing rolls, roll with /heal roll track:mental once the "
                    "rest period is over."
                )
            )
        character = target(tx, player_id=asked.player_id, ref=asked.ref)
        lowering = gm_lower(character, track, asked.severity)
        saved = tx.save_character(lowering.character)
        lowered = history.Lowered(track, asked.severity, lowering.after.current)
        record(tx, actor, lowered, character=saved)
        return Outcome(lowering, saved, ruleset)

    return await store.run(actor.guild_id, work, interaction=actor.interaction_id)
