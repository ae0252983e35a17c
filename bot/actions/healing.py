"""Healing sessions, in-game rest and plain rolls."""

from __future__ import annotations

from dataclasses import dataclass

from bot import history
from bot.actions.actor import Actor, Outcome, own_or_named, record, target
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
from bot.rules.dice import unreadable
from bot.rules.healing import session_severity
from bot.rules.odds import HealingOdds, healing_odds
from bot.rules.wounds import ensure_in_play
from bot.storage.store import Reader, Store, Transaction

MODIFIER_LIMIT = 100


@dataclass(frozen=True, kw_only=True)
class Heal:
    """/heal roll and the Heal button: one session of ``track`` for the character ``ref`` names, or
    ``character_id`` (the button), else the caller's active one; ``dice``: the roller's own."""

    track: Track = Track.PHYSICAL
    ref: str | None = None
    character_id: int | None = None
    dice: str | None = None


@dataclass(frozen=True, kw_only=True)
class Rest:
    """/rest: in-game days of rest for one character, or for every character in play (neither given)."""

    days: int
    player_id: int | None = None
    ref: str | None = None


@dataclass(frozen=True, kw_only=True)
class PlainRoll:
    """/roll: a ±d10 roll of the character named (else the caller's active one)."""

    ref: str | None = None
    modifier: int = 0
    difficulty: int = 0
    dice: str | None = None


def _roller(reader: Reader, actor: Actor, ref: str | None, character_id: int | None = None) -> Character:
    """The character of ``character_id`` (a button's), else ``ref``'s, else the caller's active one."""
    if character_id is not None:
        return reader.character(character_id)
    return own_or_named(reader, caller_id=actor.user_id, ref=ref)


async def heal_prospect(store: Store, actor: Actor, asked: Heal) -> Outcome[HealingOdds]:
    """What a healing session would risk (the first roll's odds), read before asking the roller; refused
    as the session itself would be."""
    ruleset, character = await store.read(
        actor.guild_id,
        lambda reader: (reader.ruleset(), _roller(reader, actor, asked.ref, asked.character_id)),
    )
    actor.require_owner_or_gm_for_npc(character, ruleset)
    session_severity(character, ruleset, asked.track)
    odds = healing_odds(character, ruleset, asked.track)
    assert odds is not None  # a session may start, so it has odds
    return Outcome(odds, character, ruleset)


async def heal_roll(
    store: Store, actor: Actor, rng: RandomSource, asked: Heal, *, confirmed: HealingOdds | None = None
) -> Outcome[HealingSession]:
    """The owner (or a GM, for an NPC) runs one healing session. ``confirmed``: the odds the roller
    accepted; when the character or the rules changed since, nothing is rolled."""
    track, dice = asked.track, asked.dice

    def work(tx: Transaction) -> Outcome[HealingSession]:
        ruleset = tx.ruleset()
        character = _roller(tx, actor, asked.ref, asked.character_id)
        actor.require_owner_or_gm_for_npc(character, ruleset)
        if confirmed is not None and healing_odds(character, ruleset, track) != confirmed:
            raise UserError(
                "{name} changed since the question (a wound, a rest or another session): "
                "nothing was rolled. Run /heal roll again to see the new odds.",
                name=character.name,
            )
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
        return Outcome(session, saved, ruleset, feed.unused_manual)

    return await store.run(actor.guild_id, work, interaction=actor.interaction_id)


async def rest(store: Store, actor: Actor, asked: Rest) -> tuple[list[Character], Ruleset]:
    """The GM grants in-game rest: the characters rested."""
    player_id, ref = asked.player_id, asked.ref

    def work(tx: Transaction) -> tuple[list[Character], Ruleset]:
        ruleset = tx.ruleset()
        actor.require_gm(ruleset)
        if player_id is None and ref is None:
            chosen = [c for c in tx.characters() if not c.out_of_play]
        else:
            chosen = [target(tx, player_id=player_id, ref=ref)]
        if not chosen:
            raise UserError(
                "No character in play (alive and coherent) to rest in this server. "
                "Create one with /character create."
            )
        rested = [tx.save_character(grant_rest(c, asked.days)) for c in chosen]
        single = rested[0] if len(rested) == 1 and (player_id or ref) else None
        record(tx, actor, history.Rested(asked.days, len(rested)), character=single)
        return rested, ruleset

    return await store.run(actor.guild_id, work, interaction=actor.interaction_id)


async def roll(store: Store, actor: Actor, rng: RandomSource, asked: PlainRoll) -> Outcome[Roll]:
    """A general ±d10 roll with the character's wound penalty applied (nothing is stored)."""
    modifier, difficulty, dice = asked.modifier, asked.difficulty, asked.dice
    if abs(modifier) > MODIFIER_LIMIT or abs(difficulty) > MODIFIER_LIMIT:
        raise UserError(
            "The modifier must be between −{max} and {max}. Type a smaller number.", max=MODIFIER_LIMIT
        )
    ruleset, character = await store.read(
        actor.guild_id,
        lambda reader: (reader.ruleset(), _roller(reader, actor, asked.ref)),
    )
    actor.require_owner_or_gm(character, ruleset)
    ensure_in_play(character)  # rules.md §5: incoherence is treated like death, and the dead roll nothing
    manual = parse_dice(dice, ruleset.open_rolls) if dice else []
    if dice and len(manual) > 1:  # one roll takes one pair: more is a typing mistake, not something to drop
        raise unreadable(dice)
    feed = DiceFeed(rng, ruleset.open_rolls, manual)
    result = Roll(feed(), modifier, difficulty, total_penalty(character, ruleset), ruleset.tie_succeeds)
    return Outcome(result, character, ruleset)
