"""A fight in words: a band of NPCs created, a blow's result (one short line per target, in public with
secret NPCs as a word, on the GM's panel with the exact figures), and the panel itself."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.errors import N_
from bot.rules import Character, Infliction, Ruleset, Severity, Track, total_penalty
from bot.rules.damage import DamageInfliction
from bot.ui.board import choice_state
from bot.ui.i18n import Lang, t, tn
from bot.ui.results import NOTICE_COLOUR, SECRET_COLOUR, secret_word, state_colour, state_of, state_text
from bot.ui.text import (
    CHOICE_NAME,
    DESCRIPTION,
    FIELD_VALUE,
    TITLE,
    clip,
    escape,
    held_marks,
    join_lines,
    severity_label,
    severity_short,
    signed,
)

NAME_IN_LINE = 60


def _name(character: Character) -> str:
    return f"**{clip(escape(character.name), NAME_IN_LINE)}**"


def band_embed(band: Sequence[Character], lang: Lang, *, on_board: bool) -> discord.Embed:
    """``/character create count:``: the NPCs created, and whether they joined this channel's board."""
    names = ", ".join(_name(c) for c in band)
    lines = [
        tn(lang, "{count} NPC created: {names}", "{count} NPCs created: {names}", len(band), names=names)
    ]
    if on_board:
        lines.append(t(lang, "They are on this channel's board, and in its fight (/fight)."))
    return discord.Embed(description="\n".join(lines), colour=discord.Colour(NOTICE_COLOUR))


def what_blow(track: Track, severity: Severity | None, damage: int | None, lang: Lang) -> str:
    """``light wound``, ``damage 25 (mental)``."""
    if severity is not None:
        return severity_label(lang, track, severity)
    key = N_("damage {damage}") if track is Track.PHYSICAL else N_("damage {damage} (mental)")
    return t(lang, key, damage=damage)


Hurt = Infliction | DamageInfliction
"""What the rules did to one target of a blow."""


def blow_lines(
    hit: Sequence[tuple[Character, Hurt]],
    skipped: Sequence[Character],
    ruleset: Ruleset,
    lang: Lang,
    *,
    public: bool,
) -> list[str]:
    """One short line per target, deaths and incoherence first; in ``public``, a secret NPC as its
    word. Then the targets skipped (dead or incoherent already)."""
    first: list[str] = []
    later: list[str] = []
    for after, done in hit:
        if public and ruleset.is_secret(after.owner_id, after.id):
            line = t(lang, "{name}: {state}", name=_name(after), state=secret_word(after, lang))
        else:
            line = _exact(after, done, ruleset, lang)
        (first if after.out_of_play else later).append(line)
    if skipped:
        names = ", ".join(_name(c) for c in skipped)
        later.append(t(lang, "Skipped (dead or incoherent already): {names}", names=names))
    return first + later


def _exact(after: Character, done: Hurt, ruleset: Ruleset, lang: Lang) -> str:
    """``**Goblin 2**: light wound → **serious wound** · 🟡🟠 · −4``, or its death."""
    if after.dead:
        return t(lang, "☠️ {name} is DEAD", name=_name(after))
    if after.incoherent:
        return t(lang, "🌀 {name} is INCOHERENT", name=_name(after))
    track = done.track
    what = ", ".join(
        severity_label(lang, track, r.inflicted)
        + ("" if r.became is None or not r.escalated else f" → **{severity_label(lang, track, r.became)}**")
        for r in done.results
    )
    head = t(lang, "{name}: {state}", name=_name(after), state=what or t(lang, "no wound"))
    return " · ".join([head, *_marks(after, ruleset)])


def _marks(character: Character, ruleset: Ruleset) -> list[str]:
    """The marks of each track that holds wounds, then the penalty unless it is 0."""
    parts = [m for tr in Track if (m := held_marks(tr, character.counts(tr)))]
    if penalty := total_penalty(character, ruleset):
        parts.append(signed(penalty))
    return parts


def blow_embed(
    what: str,
    hit: Sequence[tuple[Character, Hurt]],
    skipped: Sequence[Character],
    ruleset: Ruleset,
    lang: Lang,
) -> discord.Embed:
    """The public result of a blow: ``Blow — light wound`` and a line per target, in the colour of
    the worst state a target is left in."""
    lines = blow_lines(hit, skipped, ruleset, lang, public=True)
    return discord.Embed(
        title=clip(t(lang, "Blow — {what}", what=what), TITLE),
        description=join_lines(lang, lines, DESCRIPTION - 100),
        colour=state_colour(max(state_of(c) for c, _ in hit)),
    )


def combatant_label(character: Character, ruleset: Ruleset, lang: Lang) -> str:
    """An option of the panel's list: ``Goblin 2 — −3`` (the exact state: the panel is the GM's)."""
    tail = f" — {choice_state(character, ruleset, lang, reveal=True)}"
    return clip(character.name, CHOICE_NAME - len(tail)) + tail


def combatant_line(character: Character, ruleset: Ruleset, lang: Lang) -> str:
    """A line of the panel: name, marks, penalty and state, exact (secret NPCs too: the GM's eyes)."""
    marks = [] if character.out_of_play else _marks(character, ruleset)
    return " · ".join([_name(character), *marks, state_text(character, lang)])


def panel_embed(
    combatants: Sequence[Character],
    chosen: int,
    ruleset: Ruleset,
    lang: Lang,
    *,
    last: Sequence[str] = (),
) -> discord.Embed:
    """The GM's panel: every combatant's exact state, the last blow's result, how many are chosen."""
    lines = [combatant_line(c, ruleset, lang) for c in combatants]
    description = join_lines(lang, lines, DESCRIPTION - 200) if lines else t(lang, "Nobody is on the board.")
    embed = discord.Embed(
        title=t(lang, "Fight"), description=description, colour=discord.Colour(SECRET_COLOUR)
    )
    if last:
        embed.add_field(name=t(lang, "Last blow"), value=join_lines(lang, list(last), FIELD_VALUE - 40))
    embed.set_footer(
        text=tn(
            lang,
            "{count} target chosen: press a severity, or Damage…",
            "{count} targets chosen: press a severity, or Damage…",
            chosen,
        )
        if chosen
        else t(lang, "Choose the targets in the list, then press a severity or Damage…")
    )
    return embed


def severity_button_label(lang: Lang, track: Track, severity: Severity) -> str:
    """``Light``, ``Trauma``; ``Légère``, ``Traumatisme``."""
    return severity_short(lang, track, severity).capitalize()
