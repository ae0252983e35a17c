"""Rest in in-game days and the healing session of rules.md §4."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from bot.errors import N_, RestDays, UserError
from bot.rules.character import Character, with_wound_replaced
from bot.rules.dice import Dice, Roll
from bot.rules.ruleset import Ruleset
from bot.rules.severity import Severity, Track
from bot.rules.wounds import ensure_in_play, escalate, lowered, total_penalty

MAX_REST_GRANT = 365
WORSEN_AT = 10
"""A failed healing roll with a failure margin of this much or more worsens the wound (seed)."""


def least_severe(character: Character, track: Track) -> Severity | None:
    held = [w.current for w in character.wounds if w.track is track and w.current is not None]
    return min(held) if held else None


@dataclass(frozen=True)
class RestStatus:
    track: Track
    severity: Severity | None
    """The least severe wound held, which sets the rest period; ``None`` when unhurt."""
    needed: int
    rested: int

    @property
    def ready(self) -> bool:
        return self.severity is not None and self.rested >= self.needed

    @property
    def remaining(self) -> int:
        return max(0, self.needed - self.rested)


def rest_status(character: Character, ruleset: Ruleset, track: Track = Track.PHYSICAL) -> RestStatus:
    severity = least_severe(character, track)
    needed = 0 if severity is None else ruleset.numbers(track).rest_days[severity]
    return RestStatus(track, severity, needed, character.rest_days)


def can_roll_healing(character: Character, ruleset: Ruleset, track: Track = Track.PHYSICAL) -> bool:
    if character.out_of_play:
        return False
    if track is Track.MENTAL and not ruleset.mental_healing_rolls:
        return False
    return rest_status(character, ruleset, track).ready


def grant_rest(character: Character, days: int) -> Character:
    """Add in-game rest. Dead or incoherent characters do not rest."""
    if not 1 <= days <= MAX_REST_GRANT:
        raise UserError(
            "Rest must be between 1 and {max} days. For more, grant it in several steps.", max=MAX_REST_GRANT
        )
    ensure_in_play(character)
    return replace(character, rest_days=character.rest_days + days)


def healing_attributes(character: Character, track: Track) -> int:
    """Cp + Rs for physical wounds, It + Rs for mental ones."""
    first = character.corps if track is Track.PHYSICAL else character.intuition
    return first + character.resistance


def worsened(character: Character, track: Track, severity: Severity) -> Severity | None:
    """What a held wound of ``severity`` becomes when a healing roll worsens it: one rank up, through
    the escalation rule (``None``: beyond the track, fatal or incoherent)."""
    counts = list(character.counts(track))
    counts[severity] -= 1
    return escalate((counts[0], counts[1], counts[2]), character.maxima(track), severity.higher())


@dataclass(frozen=True)
class HealStep:
    """One healing roll: the wound as it was, the roll, and what the wound became."""

    severity: Severity
    roll: Roll
    became: Severity | None
    """After the roll: one rank lower (``None`` healed) on success; on a failure the same severity,
    or worse when the failure margin reached 10 (``None`` and ``beyond`` when that was fatal)."""
    worsened: bool = False
    beyond: bool = False


@dataclass(frozen=True)
class HealingSession:
    character: Character
    track: Track
    severity: Severity
    eligible: int
    steps: tuple[HealStep, ...]

    @property
    def healed(self) -> int:
        return sum(1 for s in self.steps if s.roll.success)


def session_severity(character: Character, ruleset: Ruleset, track: Track = Track.PHYSICAL) -> Severity:
    """The severity a healing session on ``track`` would roll for now; refuses (``UserError``) when no
    session may start: out of play, mental healing rolls off, nothing to heal, rest not over."""
    ensure_in_play(character)
    status = rest_status(character, ruleset, track)
    if status.severity is None:
        raise UserError(
            N_("{name} has no wound to heal: nothing to roll.")
            if track is Track.PHYSICAL
            else N_("{name} has no mental wound to heal: nothing to roll."),
            name=character.name,
        )
    if track is Track.MENTAL and not ruleset.mental_healing_rolls:
        raise UserError(
            "On this server a GM heals mental wounds (/heal mental): players do not "
            "roll for them. A GM can allow it with /config rest mental-healing-rolls."
        )
    if not status.ready:
        raise UserError(
            "No healing roll yet for {name}: {days} of rest for the least severe "
            "wound ({severity}), {remaining} to go. A GM grants in-game rest with "
            "/rest.",
            name=character.name,
            days=RestDays(status.rested, status.needed),
            remaining=status.remaining,
            severity=status.severity,
            track=track,
        )
    return status.severity


def heal_session(
    character: Character,
    ruleset: Ruleset,
    dice: Callable[[], Dice],
    track: Track = Track.PHYSICAL,
) -> HealingSession:
    """Run one healing session (rules.md §4) and consume the rest.

    Only the wounds of the least severe severity held at the start are rolled, oldest first; the
    penalty is recomputed before each roll; the first failure ends the session, and a failure by 10
    or more worsens that wound through the escalation rule (which may be fatal).
    """
    severity = session_severity(character, ruleset, track)
    numbers = ruleset.numbers(track)
    eligible = [w for w in character.wounds if w.track is track and w.current == severity]
    steps: list[HealStep] = []
    current = character
    for wound in eligible:
        roll = Roll(
            dice(),
            healing_attributes(current, track),
            numbers.difficulty[severity],
            total_penalty(current, ruleset),
            ruleset.tie_succeeds,
        )
        if roll.success:
            # The least severe rank held is ``severity``, so every rank below it is empty.
            after = replace(wound, current=lowered(severity, current.maxima(track)))
            current = with_wound_replaced(current, wound, after)
            steps.append(HealStep(severity, roll, after.current))
            continue
        if roll.failure_margin >= WORSEN_AT:
            became = worsened(current, track, severity)
            after = replace(wound, current=became, fatal=became is None)
            current = with_wound_replaced(current, wound, after)
            steps.append(HealStep(severity, roll, became, worsened=True, beyond=became is None))
        else:
            steps.append(HealStep(severity, roll, severity))
        break
    current = replace(current, rest_days=0)
    return HealingSession(current, track, severity, len(eligible), tuple(steps))
