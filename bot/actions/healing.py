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
    RestStatus,
    Roll,
    Ruleset,
    Track,
    grant_rest,
    heal_session,
    parse_dice,
    rest_status,
    total_penalty,
)
from bot.storage.store import Store, Transaction

MODIFIER_LIMIT = 100


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
) -> Healed:
    """The owner (or a GM, for an NPC) runs one healing session."""

    async def work(tx: Transaction) -> Healed:
        ruleset = await tx.ruleset()
        if character_id is not None:
            character = await tx.character(character_id)
        else:
            character = await targets.own_or_named(tx, caller_id=actor.user_id, ref=ref)
        actor.require_owner_or_gm_for_npc(character, ruleset)
        manual = parse_dice(dice, ruleset.open_rolls) if dice else []
        feed = DiceFeed(rng, ruleset.open_rolls, manual)
        session = heal_session(character, ruleset, feed, track)
        saved = await tx.save_character(session.character)
        steps = tuple(
            history.HealRollStep(
                success=step.roll.success, worsened=step.worsened, became=step.became, margin=step.roll.margin
            )
            for step in session.steps
        )
        await record(tx, actor, history.HealRolled(track, session.severity, steps), character=saved)
        return Healed(session, saved, ruleset, feed.unused_manual)

    return await store.run(actor.guild_id, work, interaction=actor.interaction_id)


@dataclass(frozen=True)
class Rested:
    days: int
    entries: list[tuple[Character, RestStatus]]
    ruleset: Ruleset


async def rest(store: Store, actor: Actor, *, days: int, player_id: int | None, ref: str | None) -> Rested:
    """The GM grants in-game rest to one character, or to every living character of the server."""
    async with store.transaction(actor.guild_id, interaction=actor.interaction_id) as tx:
        ruleset = await tx.ruleset()
        actor.require_gm(ruleset)
        if player_id is None and ref is None:
            chosen = [c for c in await tx.characters() if not c.out_of_play]
        else:
            chosen = [await targets.target(tx, player_id=player_id, ref=ref)]
        if not chosen:
            raise UserError("rest_nobody")
        rested = [await tx.save_character(grant_rest(c, days)) for c in chosen]
        single = rested[0] if len(rested) == 1 and (player_id or ref) else None
        await record(tx, actor, history.Rested(days, len(rested)), character=single)
    return Rested(days, [(c, rest_status(c, ruleset)) for c in rested], ruleset)


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
    reader = targets.GuildReader(store, actor.guild_id)
    ruleset = await store.ruleset(actor.guild_id)
    character = await targets.own_or_named(reader, caller_id=actor.user_id, ref=ref)
    actor.require_owner_or_gm(character, ruleset)
    manual = parse_dice(dice, ruleset.open_rolls) if dice else []
    if len(manual) > 1:  # one roll takes one pair: more is a typing mistake, not something to drop
        raise UserError("dice_invalid", text=dice)
    feed = DiceFeed(rng, ruleset.open_rolls, manual)
    result = Roll(feed(), modifier, difficulty, total_penalty(character, ruleset), ruleset.tie_succeeds)
    return Rolled(result, character, ruleset)
