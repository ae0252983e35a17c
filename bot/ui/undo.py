"""What /undo says: the change reverted and, in a line each, the state of the characters that came
back (the cards are behind Card buttons)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

import discord

from bot.errors import N_
from bot.history import Event, Undid, record_of
from bot.rules.character import Character
from bot.rules.ruleset import Ruleset
from bot.rules.severity import SEVERITIES, Track
from bot.rules.wounds import total_penalty
from bot.ui.events import (
    EVENT_LIMIT,
    NAME_IN_EVENT,
    SECRET_CHANGE,
    SECRET_KINDS,
    describe,
    describe_event,
    kind_of,
)
from bot.ui.i18n import Lang, t
from bot.ui.results import NOTICE_COLOUR, secret_word, state_text
from bot.ui.text import DESCRIPTION, clip, escape, join_lines, severity_short, signed


def undo_embed(
    event: Event,
    lang: Lang,
    restored: Sequence[Character],
    hidden: Collection[int],
    back_in_play: Mapping[int, str],
    ruleset: Ruleset,
) -> discord.Embed:
    """What ``/undo`` reverted: ``event`` is the reverted change, or the ``undo`` event itself (whose
    record says what it reverted); ``restored``: the characters as the undo left them, each with the
    state that came back (of a secret NPC, in ``hidden``: only its word), said so that it cannot be
    read as a new wound; ``back_in_play``: those the undo brought back, and from what ("dead" or
    "incoherent"); ``ruleset``: for the penalty.
    A few lines: the cards are behind the Card buttons."""
    record = record_of(event)
    secret = event.character_id is not None and event.character_id in hidden
    if isinstance(record, Undid):
        reverted = record.event_id
        inner = record.reverted
        name = clip(escape(event.character_name or "?"), NAME_IN_EVENT)
        if secret and kind_of(inner) in SECRET_KINDS:
            what = t(lang, SECRET_CHANGE, name=name)
        elif inner is None or secret:
            what = describe_event(event, lang, hidden)
        else:
            what = clip(
                describe(inner, record.character_name or event.character_name, lang, hidden), EVENT_LIMIT
            )
    else:
        reverted, what = event.id, describe_event(event, lang, hidden)
    lines = [t(lang, "Reverted change #{id}: {what}", id=reverted, what=what)]
    lines += [_came_back(c, ruleset, lang, c.id in hidden, back_in_play.get(c.id or 0)) for c in restored]
    embed = discord.Embed(
        title=t(lang, "Undone"),
        description=join_lines(lang, lines, DESCRIPTION),
        colour=discord.Colour(NOTICE_COLOUR),
    )
    embed.set_footer(text=t(lang, "Run /undo again to go further back."))
    return embed


def _came_back(character: Character, ruleset: Ruleset, lang: Lang, secret: bool, was: str | None) -> str:
    """ "↩️ **Aélis** — alive again · state restored: 2 light, 2 serious, 1 critical · −13"."""
    name = clip(escape(character.name), NAME_IN_EVENT)
    if secret:
        state = secret_word(character, lang)
    elif not character.is_wounded() or character.out_of_play:
        state = state_text(character, lang)
    else:
        held = [
            f"{n} {severity_short(lang, track, s, n)}"
            for track in Track
            for s in SEVERITIES
            if (n := character.counts(track)[s])
        ]
        state = ", ".join(held) + " · " + signed(total_penalty(character, ruleset))
    key = {
        "dead": N_("↩️ **{name}** — alive again · state restored: {state}"),
        "incoherent": N_("↩️ **{name}** — coherent again · state restored: {state}"),
    }.get(was or "", N_("↩️ **{name}** — state restored: {state}"))
    return t(lang, key, name=name, state=state)
