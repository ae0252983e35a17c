"""Which states the rules can reach (what /config import accepts)."""

from __future__ import annotations

from dataclasses import replace

from bot.rules import Character, Severity, Track, Wound, inflict
from bot.rules.reachable import Unreachable, unreachable

FRESH = Character("Aria")


def test_a_character_killed_by_the_rules_is_reachable() -> None:
    dead = inflict(FRESH, Track.PHYSICAL, Severity.HIGH, 3).character
    assert dead.dead and unreachable(dead) == []
    # A GM may give a dead character a roomier preset afterwards: still a state the bot makes.
    assert unreachable(replace(dead, physical_max=(8, 4, 2))) == []


def test_each_way_to_break_the_rules_is_named() -> None:
    light = Wound(Track.PHYSICAL, Severity.LOW, Severity.LOW)
    fatal = Wound(Track.MENTAL, Severity.HIGH, None, fatal=True)
    assert unreachable(replace(FRESH, wounds=(light,) * 5)) == [
        Unreachable("too_many", Track.PHYSICAL, Severity.LOW, 5, 4)
    ]
    assert unreachable(replace(FRESH, wounds=(fatal,))) == [Unreachable("beyond_not_out", Track.MENTAL)]
    assert unreachable(replace(FRESH, dead=True)) == [Unreachable("out_without_beyond", Track.PHYSICAL)]
    both = replace(FRESH, dead=True, incoherent=True, wounds=(fatal, fatal))
    assert [u.problem for u in unreachable(both)] == [
        "several_beyond",
        "dead_and_incoherent",
        "out_without_beyond",
    ]
