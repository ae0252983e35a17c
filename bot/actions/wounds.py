"""GM actions on wounds: inflicting (both tracks) and lowering one wound without a roll."""

from __future__ import annotations

from dataclasses import dataclass

from bot import history
from bot.actions import targets
from bot.actions.actor import Actor
from bot.actions.record import record
from bot.rules import Character, Infliction, Lowering, Ruleset, Severity, Track, gm_lower, inflict
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
) -> Wounded:

    async def work(tx: Transaction) -> Wounded:
        ruleset = await tx.ruleset()
        actor.require_gm(ruleset)
        character = await targets.target(tx, player_id=player_id, ref=ref)
        outcome = inflict(character, track, severity, count, note=note, by=actor.user_id, at=tx.now)
        saved = await tx.save_character(outcome.character)
        became = tuple(r.became for r in outcome.results)
        inflicted = history.Wounded(track, severity, count, note, became, outcome.not_applied)
        await record(tx, actor, inflicted, character=saved)
        return Wounded(outcome, saved, ruleset)

    return await store.run(actor.guild_id, work, interaction=actor.interaction_id)


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
        lowered = history.Lowered(track, severity, lowering.after.current)
        await record(tx, actor, lowered, character=saved)
        return Lowered(lowering, saved, ruleset)

    return await store.run(actor.guild_id, work, interaction=actor.interaction_id)
