"""GM actions on wounds: inflicting (both tracks) and lowering one wound without a roll."""

from __future__ import annotations

from dataclasses import dataclass

from bot.actions import targets
from bot.actions.actor import Actor
from bot.rules import Character, Infliction, Lowering, Ruleset, Severity, Track, gm_lower, inflict
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

    def work(tx: Transaction) -> Wounded:
        ruleset = tx.ruleset()
        actor.require_gm(ruleset)
        character = targets.target(tx, player_id=player_id, ref=ref)
        outcome = inflict(character, track, severity, count, note=note, by=actor.user_id, at=at)
        saved = tx.save_character(outcome.character)
        tx.record(
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
class Lowered:
    lowering: Lowering
    character: Character
    ruleset: Ruleset


async def lower(
    store: Store, actor: Actor, *, track: Track, severity: Severity, player_id: int | None, ref: str | None
) -> Lowered:

    def work(tx: Transaction) -> Lowered:
        ruleset = tx.ruleset()
        actor.require_gm(ruleset)
        character = targets.target(tx, player_id=player_id, ref=ref)
        lowering = gm_lower(character, track, severity)
        saved = tx.save_character(lowering.character)
        after = lowering.after.current
        tx.record(
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
