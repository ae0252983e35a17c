"""Damage rolls (rules.md §8): a damage level, the target's resistance roll, the table of effective
damage, then the usual escalation.

The target rolls ±d10 + resistance (physical Cp + Rs, mental It + Rs) + the current total penalty.
On a success the effective damage is the damage level minus the margin; on a failure it is the damage
level. The server's :class:`~bot.rules.ruleset.DamageTable` turns it into no wound, a wound of one of
the three severities, or death (incoherence on the mental track).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import IntEnum
from fractions import Fraction

from bot.errors import UserError
from bot.rules import dice_odds
from bot.rules.character import Character, Wound
from bot.rules.dice import Dice, Roll
from bot.rules.healing import healing_attributes
from bot.rules.ruleset import MAX_DAMAGE, DamageTable, Ruleset
from bot.rules.severity import Severity, Track
from bot.rules.wounds import Inflicted, check_batch, ensure_in_play, escalate, inflict, total_penalty


class Harm(IntEnum):
    """What an effective damage gives by the table, from nothing to death."""

    NONE = 0
    LOW = 1
    MID = 2
    HIGH = 3
    FATAL = 4

    @property
    def severity(self) -> Severity | None:
        """The severity of the wound inflicted; ``None`` for no wound and for a fatal blow."""
        return Severity(self - 1) if Harm.LOW <= self <= Harm.HIGH else None


def harm_of(table: DamageTable, effective: int) -> Harm:
    """The table's verdict for an effective damage: how many thresholds it reaches."""
    return Harm(sum(1 for threshold in table.thresholds if effective >= threshold))


def resistance(character: Character, track: Track) -> int:
    """What the target adds to the roll: Cp + Rs (physical), It + Rs (mental, the willpower)."""
    return healing_attributes(character, track)


def resistance_roll(character: Character, ruleset: Ruleset, track: Track, dice: Dice) -> Roll:
    """The target's roll against the blow, with the current total penalty (no difficulty)."""
    return Roll(
        dice, resistance(character, track), 0, total_penalty(character, ruleset), ruleset.tie_succeeds
    )


def effective_damage(damage: int, roll: Roll) -> int:
    """The damage level less the margin of a successful roll; the damage level on a failure."""
    return damage - roll.margin if roll.success else damage


@dataclass(frozen=True)
class Blow:
    """One damage roll and what it did. ``result`` is ``None`` when the blow left no wound."""

    damage: int
    roll: Roll
    effective: int
    harm: Harm
    result: Inflicted | None

    @property
    def beyond(self) -> bool:
        """The blow killed (physical) or made incoherent (mental): by the table, or by escalation."""
        return self.result is not None and self.result.became is None


@dataclass(frozen=True)
class DamageInfliction:
    character: Character
    track: Track
    damage: int
    blows: tuple[Blow, ...]
    not_applied: int
    """Blows asked for but not rolled because an earlier one of the batch was beyond the track."""
    rest_lost: int = 0
    """Days of rest the character had before the blows (a wound starts the rest again)."""

    @property
    def results(self) -> tuple[Inflicted, ...]:
        """The wounds the blows inflicted, in order (blows that left none are not among them)."""
        return tuple(blow.result for blow in self.blows if blow.result is not None)


def check_damage(damage: int) -> None:
    if not 0 <= damage <= MAX_DAMAGE:
        raise UserError("The damage level must be between 0 and {max}.", max=MAX_DAMAGE)


def _killing_blow(character: Character, track: Track, *, note: str, by: int | None, at: str) -> Character:
    """A blow at or above the table's last threshold: death (incoherence), whatever the wounds held.

    It is recorded as a critical wound (psychosis) that ended beyond the track, like one that
    escalated past the top."""
    wound = Wound(track, Severity.HIGH, None, note=note, inflicted_by=by, at=at, fatal=True)
    return replace(character, wounds=(*character.wounds, wound), rest_days=0)


def inflict_damage(
    character: Character,
    ruleset: Ruleset,
    track: Track,
    damage: int,
    dice: Callable[[], Dice],
    count: int = 1,
    *,
    note: str = "",
    by: int | None = None,
    at: str = "",
) -> DamageInfliction:
    """``count`` blows of ``damage``, each rolled on its own with the penalty of the wounds held then.

    A wound goes through the usual escalation; a blow that kills (or makes incoherent) ends the batch,
    and the blows left are not rolled. A blow that leaves no wound does not restart the rest period.
    """
    ensure_in_play(character)
    check_damage(damage)
    check_batch(count, note)
    blows: list[Blow] = []
    current = character
    for done in range(count):
        roll = resistance_roll(current, ruleset, track, dice())
        effective = effective_damage(damage, roll)
        harm = harm_of(ruleset.damage, effective)
        result: Inflicted | None = None
        if harm is Harm.FATAL:
            current = _killing_blow(current, track, note=note, by=by, at=at)
            result = Inflicted(Severity.HIGH, None)
        elif (severity := harm.severity) is not None:
            outcome = inflict(current, track, severity, 1, note=note, by=by, at=at)
            current, result = outcome.character, outcome.results[0]
        blows.append(Blow(damage, roll, effective, harm, result))
        if result is not None and result.became is None:
            left, lost = count - done - 1, character.rest_days
            return DamageInfliction(current, track, damage, tuple(blows), left, lost)
    lost = character.rest_days if any(b.result is not None for b in blows) else 0
    return DamageInfliction(current, track, damage, tuple(blows), 0, lost)


# ---- odds ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HarmOdds:
    """The chance of one outcome of the next blow, and what the wound would become once escalated
    (``becomes is None``: beyond the track; meaningless for :attr:`Harm.NONE`)."""

    harm: Harm
    chance: Fraction
    becomes: Severity | None

    @property
    def beyond(self) -> bool:
        return self.harm is not Harm.NONE and self.becomes is None


def _margins(table: DamageTable, damage: int, harm: Harm) -> tuple[int | None, int | None]:
    """The margins of a successful roll that leave ``damage`` in ``harm``'s band of the table."""
    bounds = (None, *table.thresholds, None)
    low_effective, next_threshold = bounds[harm], bounds[harm + 1]
    low = None if next_threshold is None else damage - next_threshold + 1
    high = None if low_effective is None else damage - low_effective
    return low, high


def harm_odds(
    table: DamageTable, damage: int, base: int, *, open_rolls: bool, tie_succeeds: bool
) -> dict[Harm, Fraction]:
    """The exact chance of each outcome of a blow of ``damage`` when the roll adds ``base``
    (resistance + penalty) to the dice: every outcome is listed, zeros included."""
    lowest_success = 0 if tie_succeeds else 1
    odds = dict.fromkeys(Harm, Fraction(0))
    # A failure leaves the whole damage level.
    odds[harm_of(table, damage)] += dice_odds.between(None, lowest_success - 1 - base, open_rolls)
    for harm in Harm:
        low, high = _margins(table, damage, harm)
        low = lowest_success if low is None else max(low, lowest_success)
        if high is not None and high < low:
            continue
        odds[harm] += dice_odds.between(low - base, None if high is None else high - base, open_rolls)
    return odds


def damage_odds(
    character: Character, ruleset: Ruleset, track: Track, damage: int, dice: Dice | None = None
) -> list[HarmOdds]:
    """The odds of each outcome of the next blow of ``damage`` on ``character``, mildest first,
    outcomes that cannot happen left out. With ``dice`` (the player's own),
    the roll is known and one outcome is certain."""
    ensure_in_play(character)
    check_damage(damage)
    if dice is not None:
        harm = harm_of(
            ruleset.damage, effective_damage(damage, resistance_roll(character, ruleset, track, dice))
        )
        chances = {harm: Fraction(1)}
    else:
        base = resistance(character, track) + total_penalty(character, ruleset)
        chances = harm_odds(
            ruleset.damage, damage, base, open_rolls=ruleset.open_rolls, tie_succeeds=ruleset.tie_succeeds
        )
    counts, maxima = character.counts(track), character.maxima(track)
    found = [
        HarmOdds(harm, chance, None if harm is Harm.FATAL else escalate(counts, maxima, harm.severity))
        for harm, chance in chances.items()
        if chance > 0
    ]
    return sorted(found, key=lambda o: o.harm)
