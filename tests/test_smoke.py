from bot.rules import Character, Ruleset, Severity, Track, inflict


def test_a_light_wound_on_a_fresh_character_stays_light() -> None:
    result = inflict(Character("Aria"), Track.PHYSICAL, Severity.LOW)
    assert result.character.counts(Track.PHYSICAL) == (1, 0, 0)
    assert Ruleset().physical.penalties == (-1, -3, -5)
