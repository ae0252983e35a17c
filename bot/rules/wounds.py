"""Inflicting wounds (escalation, death, incoherence), penalties, warnings and GM healing."""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.errors import UserError
from bot.rules.character import NOTE_MAX, Character, Wound, with_wound_replaced
from bot.rules.ruleset import Maxima, Ruleset
from bot.rules.severity import SEVERITIES, Severity, Track

MAX_COUNT = 7


def escalate(counts: tuple[int, int, int], maxima: Maxima, severity: Severity | None) -> Severity | None:
    """What a new wound of ``severity`` becomes given the wounds held: the first severity, from
    ``severity`` up, that still has room. ``None`` means beyond the track: fatal (physical) or
    incoherent (mental)."""
    current = severity
    while current is not None and counts[current] >= maxima[current]:
        current = current.higher()
    return current


def lowered(severity: Severity, maxima: Maxima) -> Severity | None:
    """The rank a wound of ``severity`` drops to when healed one rank (``None``: healed).

    A rank whose maximum is 0 does not exist for that creature (escalation jumps over it), so
    lowering jumps over it too: with maxima 0/2/1 a serious wound that heals is gone, instead of
    becoming a light wound the creature cannot hold.
    """
    target = severity.lower()
    while target is not None and maxima[target] == 0:
        target = target.lower()
    return target


def check_batch(count: int, note: str) -> None:
    """A batch of wounds or blows: how many, and the note written with them."""
    if not 1 <= count <= MAX_COUNT:
        raise UserError(
            "The number of wounds must be between 1 and {max}. For more, run the command again.",
            max=MAX_COUNT,
        )
    if len(note) > NOTE_MAX:
        raise UserError(
            "The note is too long: {max} characters at most. Shorten it and try again.", max=NOTE_MAX
        )


def ensure_in_play(character: Character) -> None:
    if character.dead:
        raise UserError(
            "{name} is dead: no more wounds, rest or rolls. Only a GM can bring them back, with /undo.",
            name=character.name,
        )
    if character.incoherent:
        raise UserError(
            "{name} is incoherent (unplayable): no more wounds, rest or rolls. Only "
            "a GM can bring them back, with /undo.",
            name=character.name,
        )


@dataclass(frozen=True)
class Inflicted:
    """One wound as asked (``inflicted``) and as it ended (``became``; ``None`` is beyond the track)."""

    inflicted: Severity
    became: Severity | None

    @property
    def escalated(self) -> bool:
        return self.became != self.inflicted


@dataclass(frozen=True)
class Infliction:
    character: Character
    track: Track
    results: tuple[Inflicted, ...]
    not_applied: int
    """Wounds asked for but not applied because an earlier one of the batch was beyond the track."""
    rest_lost: int = 0
    """Days of rest the character had before the wounds (a new wound starts the rest again)."""

    @property
    def beyond(self) -> bool:
        return any(r.became is None for r in self.results)


def inflict(
    character: Character,
    track: Track,
    severity: Severity,
    count: int = 1,
    *,
    note: str = "",
    by: int | None = None,
    at: str = "",
) -> Infliction:
    """Inflict ``count`` wounds of ``severity`` one after the other, each escalating on its own.

    A wound beyond the top of the track kills (physical) or makes incoherent (mental), and the rest
    of the batch is not applied. Any new wound restarts the rest period.
    """
    ensure_in_play(character)
    check_batch(count, note)
    if "\x00" in note:  # a NUL character: no database stores it as text (PostgreSQL refuses it)
        raise UserError(
            "The note contains a NUL character (U+0000), which cannot be stored. Remove it and try again."
        )
    results: list[Inflicted] = []
    wounds = list(character.wounds)
    current = character
    for done in range(count):
        became = escalate(current.counts(track), current.maxima(track), severity)
        wounds.append(Wound(track, severity, became, note=note, inflicted_by=by, at=at, fatal=became is None))
        current = replace(current, wounds=tuple(wounds), rest_days=0)
        results.append(Inflicted(severity, became))
        if became is None:
            lost = character.rest_days
            return Infliction(current, track, tuple(results), count - done - 1, lost)
    return Infliction(current, track, tuple(results), 0, character.rest_days)


def total_penalty(character: Character, ruleset: Ruleset) -> int:
    """The sum of the penalties of every wound held, physical and mental (zero or negative)."""
    return sum(ruleset.penalty(w.track, w.current) for w in character.wounds if w.current is not None)


@dataclass(frozen=True)
class EscalationWarning:
    """The next wound of ``severity`` on ``track`` would become ``becomes`` (``None``: beyond)."""

    track: Track
    severity: Severity
    becomes: Severity | None

    @property
    def beyond(self) -> bool:
        return self.becomes is None


def warnings(character: Character, track: Track) -> list[EscalationWarning]:
    """What the next wound of each severity would turn into, for those that would not stay as they
    are; the worst first (a light wound that would be fatal before anything else)."""
    if character.out_of_play:
        return []
    counts, maxima = character.counts(track), character.maxima(track)
    found = [
        EscalationWarning(track, s, becomes)
        for s in SEVERITIES
        if (becomes := escalate(counts, maxima, s)) != s
    ]
    return sorted(found, key=lambda w: (w.becomes is not None, -(w.becomes or 0), w.severity))


@dataclass(frozen=True)
class Lowering:
    character: Character
    before: Wound
    after: Wound


def gm_lower(character: Character, track: Track, severity: Severity) -> Lowering:
    """A GM lowers the oldest wound of ``severity`` by one rank, without a roll (never escalates).

    Refused when there is no such wound, or when the severity below is already full: heal a
    lighter wound first.
    """
    ensure_in_play(character)
    candidates = [w for w in character.held(track) if w.current == severity]
    if not candidates:
        raise UserError(
            "{name} has no {severity} to lower. Check the card with /character show "
            "and pick a severity it holds.",
            name=character.name,
            track=track,
            severity=severity,
        )
    maxima = character.maxima(track)
    target = lowered(severity, maxima)
    if target is not None and character.counts(track)[target] >= maxima[target]:
        raise UserError(
            "This {severity} cannot be lowered: {name} already holds the maximum of "
            "{below_plural}, and healing never escalates. Heal a {below} first.",
            name=character.name,
            track=track,
            severity=severity,
            below=target,
        )
    before = candidates[0]
    after = replace(before, current=target)
    return Lowering(with_wound_replaced(character, before, after), before, after)
