"""Healing sessions, in-game rest and plain rolls."""

from __future__ import annotations

from dataclasses import dataclass

from bot import history
from bot.actions import targets
from bot.actions.actor import Actor
from bot.actions.record import record
from bot.errors import UserError
from bot.rules import (
    Character,
    DiceFeed,
    HealingSession,
    RandomSource,
    Roll,
    Ruleset,
    Track,
    grant_rest,
    heal_session,
    parse_dice,
    total_penalty,
)
from bot.rules.healing import session_severity
from bot.rules.odds import HealingOdds, healing_odds
from bot.rules.wounds import ensure_in_play
from bot.storage.store import Store, Transaction

MODIFIER_LIMIT = 100


@dataclass(frozen=True)
class Prospect:
    """A healing session about to start: the character, the server's rules, the first roll's odds."""

    character: Character
    ruleset: Ruleset
    odds: HealingOdds


def _healer_target(
    tx: targets.CharacterSource, actor: Actor, ref: str | None, character_id: int | None
) -> Character:
    if character_id is not None:
        return tx.character(character_id)
    return targets.own_or_named(tx, caller_id=actor.user_id, ref=ref)


async def heal_prospect(
    store: Store, actor: Actor, *, ref: str | None, character_id: int | None = None, track: Track
) -> Prospect:
    """What a healing session would risk, read before asking the roller (nothing is changed). Refuses
    as the session itself would (permission, rest not over, nothing to heal…)."""
    ruleset, character = await store.read(
        actor.guild_id, lambda reader: (reader.ruleset(), _healer_target(reader, actor, ref, character_id))
    )
    actor.require_owner_or_gm_for_npc(character, ruleset)
    session_severity(character, ruleset, track)
    odds = healing_odds(character, ruleset, track)
    assert odds is not None  # a session may start, so it has odds
    return Prospect(character, ruleset, odds)


@dataclass(frozen=True)
class Healed:
    session: HealingSession
    character: Character
    ruleset: Ruleset
    unused_dice: int


async def heal_roll(
    store: Store,
    actor: Actor,
    rng: RandomSource,
    *,
    ref: str | None,
    character_id: int | None = None,
    dice: str | None,
    track: Track = Track.PHYSICAL,
    confirmed: HealingOdds | None = None,
) -> Healed:
    """The owner (or a GM, for an NPC) runs one healing session. ``confirmed``: the odds the roller
    accepted; when the character or the rules changed since, nothing is rolled."""

    def work(tx: Transaction) -> Healed:
        ruleset = tx.ruleset()
        character = _healer_target(tx, actor, ref, character_id)
        actor.require_owner_or_gm_for_npc(character, ruleset)
        if confirmed is not None and healing_odds(character, ruleset, track) != confirmed:
            raise UserError("heal_odds_changed", name=character.name)
        manual = parse_dice(dice, ruleset.open_rolls) if dice else []
        feed = DiceFeed(rng, ruleset.open_rolls, manual)
        session = heal_session(character, ruleset, feed, track)
        saved = tx.save_character(session.character)
        steps = tuple(
            history.HealRollStep(
                success=step.roll.success, worsened=step.worsened, became=step.became, margin=step.roll.margin
            )
            for step in session.steps
        )
        maxima = saved.maxima(track)  # why a worsened wound went further up, for history
        record(tx, actor, history.HealRolled(track, session.severity, steps, maxima), character=saved)
        return Healed(session, saved, ruleset, feed.unused_manual)

    return await store.run(actor.guild_id, work, interaction=actor.interaction_id)


@dataclass(frozen=True)
class Rested:
    days: int
    characters: list[Character]
    ruleset: Ruleset


async def rest(store: Store, actor: Actor, *, days: int, player_id: int | None, ref: str | None) -> Rested:
    """The GM grants in-game rest to one character, or to every living character of the server."""

    def work(tx: Transaction) -> Rested:
        ruleset = tx.ruleset()
        actor.require_gm(ruleset)
        if player_id is None and ref is None:
            chosen = [c for c in tx.characters() if not c.out_of_play]
        else:
            chosen = [targets.target(tx, player_id=player_id, ref=ref)]
        if not chosen:
            raise UserError("rest_nobody")
        rested = [tx.save_character(grant_rest(c, days)) for c in chosen]
        single = rested[0] if len(rested) == 1 and (player_id or ref) else None
        record(tx, actor, history.Rested(days, len(rested)), character=single)
        return Rested(days, rested, ruleset)

    return await store.run(actor.guild_id, work, interaction=actor.interaction_id)


@dataclass(frozen=True)
class Rolled:
    roll: Roll
    character: Character
    ruleset: Ruleset


async def roll(
    store: Store,
    actor: Actor,
    rng: RandomSource,
    *,
    ref: str | None,
    modifier: int,
    difficulty: int,
    dice: str | None,
) -> Rolled:
    """A general ±d10 roll with the character's wound penalty applied (nothing is stored)."""
    if abs(modifier) > MODIFIER_LIMIT or abs(difficulty) > MODIFIER_LIMIT:
        raise UserError("modifier_range", max=MODIFIER_LIMIT)
    ruleset, character = await store.read(
        actor.guild_id,
        lambda reader: (reader.ruleset(), targets.own_or_named(reader, caller_id=actor.user_id, ref=ref)),
    )
    actor.require_owner_or_gm(character, ruleset)
    ensure_in_play(character)  # rules.md §5: incoherence is treated like death, and the dead roll nothing
    manual = parse_dice(dice, ruleset.open_rolls) if dice else []
    if len(manual) > 1:  # one roll takes one pair: more is a typing mistake, not something to drop
        raise UserError("dice_invalid", text=dice)
    feed = DiceFeed(rng, ruleset.open_rolls, manual)
    result = Roll(feed(), modifier, difficulty, total_penalty(character, ruleset), ruleset.tie_succeeds)
    return Rolled(result, character, ruleset)
