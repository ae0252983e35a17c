"""Public results as embeds, in the server's language: wounds, GM healing, healing sessions, rolls, rest."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.errors import N_
from bot.rules.character import Character
from bot.rules.damage import DamageInfliction
from bot.rules.dice import Roll
from bot.rules.healing import HealingSession, HealStep, can_roll_healing, rest_status
from bot.rules.odds import HealingOdds, healing_odds
from bot.rules.ruleset import Maxima, Ruleset
from bot.rules.severity import Track
from bot.rules.wounds import Inflicted, Infliction, Lowering
from bot.ui.card import COLOURS, NOTICE_COLOUR, State, secret_word, state_colour, state_of, with_status
from bot.ui.i18n import Lang, days_text, healed_word, join_lines, severity_label, t, t_name, tn
from bot.ui.rolls import cascade_reason, odds_line, only_hurts, roll_terms
from bot.ui.text import DESCRIPTION, FIELD_VALUE, TITLE, TOTAL, clip, escape, fit_total, signed

RESULT_BUDGET = TOTAL - 500
"""A short result is alone in its message (its card is behind a button): it may use most of the 6000
characters Discord allows across a message's embeds."""
STATUS_ROOM = 600
"""Kept for the character's state after the change (bot.ui.card.with_status), a field of its own."""
NOTE_SHOWN = 400
NAME_IN_LINE = 80
MAX_MENTIONS = 50
"""Discord allows 100 mentioned users; 50 mentions keep the content well within 2000 characters."""
SUCCESS_COLOUR = COLOURS[State.UNHURT]
FAILURE_COLOUR = COLOURS[State.CRITICAL]


def _out_line(character: Character, lang: Lang) -> str | None:
    """The loud line of a character who just died or became incoherent."""
    if character.dead:
        return t_name(lang, "☠️ **{name} is DEAD.** (/undo, by a GM, brings them back.)", character.name, 400)
    if character.incoherent:
        return t_name(
            lang,
            "🌀 **{name} is INCOHERENT**: unplayable. (/undo, by a GM, brings them back.)",
            character.name,
            400,
        )
    return None


def _result_colour(results: Sequence[Inflicted]) -> discord.Colour:
    """The colour of a wound result: the worst severity a wound became, grey when one went beyond."""
    if any(r.became is None for r in results):
        return state_colour(State.OUT)
    worst = max((r.became for r in results if r.became is not None), default=None)
    return state_colour(State.UNHURT if worst is None else State(worst + 1))


def _wound_line(track: Track, result: Inflicted, maxima: Maxima, lang: Lang) -> str:
    """One wound as asked and as it ended; a cascade says which full ranks it went through."""
    inflicted = severity_label(lang, track, result.inflicted)
    why = cascade_reason(lang, track, result.inflicted, result.became, maxima)
    if result.became is None:
        key = (
            N_("• {inflicted} → ☠️ **FATAL**")
            if track is Track.PHYSICAL
            else N_("• {inflicted} → 🌀 **INCOHERENT**")
        )
        return t(lang, key, inflicted=inflicted) + why
    if result.escalated:
        became = severity_label(lang, track, result.became)
        return t(lang, "• {inflicted} → **{became}**", inflicted=inflicted, became=became) + why
    return t(lang, "• {inflicted}", inflicted=inflicted)


def _grouped(lines: Sequence[str]) -> list[str]:
    """Repeated lines in a row told once: ``• 3 × light wound``."""
    out: list[str] = []
    counts: list[int] = []
    for line in lines:
        if out and out[-1] == line:
            counts[-1] += 1
        else:
            out.append(line)
            counts.append(1)
    return [
        line if n == 1 else line.replace("• ", f"• {n} × ", 1) for line, n in zip(out, counts, strict=True)
    ]


def wound_embed(
    infliction: Infliction, character_after: Character, ruleset: Ruleset, lang: Lang, *, note: str = ""
) -> discord.Embed:
    """What ``/wound`` or ``/mental`` did: each wound as inflicted → became, escalations and death or
    incoherence called out, the wounds of the batch not applied after a fatal one."""
    track = infliction.track
    maxima = character_after.maxima(track)
    lines = _grouped([_wound_line(track, result, maxima, lang) for result in infliction.results])
    embed = wound_result(character_after, [join_lines(lang, lines, 2000)], infliction, lang, note=note)
    return fit_total(with_status(embed, character_after, ruleset, lang), RESULT_BUDGET)


def wound_result(
    character: Character,
    lines: list[str],
    infliction: Infliction | DamageInfliction,
    lang: Lang,
    *,
    note: str,
) -> discord.Embed:
    """A wound result (``/wound``, ``/mental``, with or without damage) around its ``lines``: death or
    incoherence first, then the note and the rest lost."""
    if loud := _out_line(character, lang):
        lines = [loud, *lines]
    if note.strip():
        lines.append(t(lang, "Note: {note}", note=clip(escape(note), NOTE_SHOWN)))
    if infliction.not_applied > 0:  # rules §2: the wounds (or blows) after a fatal one, said
        lines.append(
            tn(lang, "{count} wound not applied.", "{count} wounds not applied.", infliction.not_applied)
            if isinstance(infliction, Infliction)
            else tn(lang, "{count} blow not rolled.", "{count} blows not rolled.", infliction.not_applied)
        )
    if infliction.rest_lost > 0 and not character.out_of_play:  # said only when rest was lost
        lines.append(
            tn(
                lang,
                "The {count} day of rest taken is lost: the rest period starts again.",
                "The {count} days of rest taken are lost: the rest period starts again.",
                infliction.rest_lost,
            )
        )
    key = N_("Wounds — {name}") if infliction.track is Track.PHYSICAL else N_("Mental wounds — {name}")
    return discord.Embed(
        title=t_name(lang, key, character.name, TITLE),
        description="\n".join(lines),
        colour=_result_colour(infliction.results),
    )


def lowering_embed(lowering: Lowering, ruleset: Ruleset, lang: Lang) -> discord.Embed:
    """A GM lowered one wound one rank, without a roll."""
    track = lowering.before.track
    before, after = lowering.before.current, lowering.after.current
    before_text = "?" if before is None else severity_label(lang, track, before)
    after_text = healed_word(lang, track) if after is None else severity_label(lang, track, after)
    lines = [
        t(lang, "{before} → **{after}**", before=before_text, after=after_text),
        t(lang, "No roll. The rest counter is unchanged."),
    ]
    embed = discord.Embed(
        title=t_name(lang, "GM healing — {name}", lowering.character.name, TITLE),
        description="\n".join(lines),
        colour=state_colour(state_of(lowering.character)),
    )
    return fit_total(with_status(embed, lowering.character, ruleset, lang), RESULT_BUDGET)


def attributes_label(track: Track) -> str:
    """What a healing roll adds: Cp + Rs (physical), It + Rs (mental)."""
    return "Cp+Rs" if track is Track.PHYSICAL else "It+Rs"


def _step_outcome(step: HealStep, track: Track, maxima: Maxima, lang: Lang) -> str:
    if step.roll.success:
        if step.became is None:
            return t(lang, "✅ {healed}", healed=healed_word(lang, track))
        return t(lang, "✅ now {severity}", severity=severity_label(lang, track, step.became))
    margin = step.roll.failure_margin
    why = cascade_reason(lang, track, step.severity.higher(), step.became, maxima)
    if step.beyond or (step.worsened and step.became is None):
        key = (
            N_("☠️ failed by {margin} (10 or more): **FATAL**")
            if track is Track.PHYSICAL
            else N_("🌀 failed by {margin} (10 or more): **INCOHERENT**")
        )
        return t(lang, key, margin=margin) + why
    if step.worsened and step.became is not None:
        severity = severity_label(lang, track, step.became)
        return (
            t(
                lang,
                "⚠️ failed by {margin} (10 or more), the session ends: **worsened to {severity}**",
                margin=margin,
                severity=severity,
            )
            + why
        )
    return t(lang, "❌ failed (failure margin {margin}): unchanged, the session ends", margin=margin)


def healing_embed(session: HealingSession, ruleset: Ruleset, lang: Lang) -> discord.Embed:
    """One healing session: every roll in full, what each did, and that the rest was consumed."""
    track, label = session.track, attributes_label(session.track)
    steps = [
        t(lang, "**Roll {index}**: {terms}", index=index, terms=roll_terms(step.roll, lang, label))
        + " — "
        + _step_outcome(step, track, session.character.maxima(track), lang)
        for index, step in enumerate(session.steps, 1)
    ]
    severity = severity_label(lang, track, session.severity)
    head = [
        t(
            lang,
            "{eligible} × {severity} to heal: one roll per wound, in order, until the first failure.",
            eligible=session.eligible,
            severity=severity,
        )
    ]
    tail = []
    if loud := _out_line(session.character, lang):  # out of play first, and nothing of what comes next
        head.insert(0, loud)
    elif (left := session.eligible - len(session.steps)) > 0:
        tail.append(
            tn(
                lang,
                "{count} wound not rolled in this session.",
                "{count} wounds not rolled in this session.",
                left,
            )
        )
    tail.append(
        t(lang, "Result: {healed}/{rolls} successful rolls.", healed=session.healed, rolls=len(session.steps))
    )
    if not session.character.out_of_play:
        tail.append(t(lang, "The rest is consumed: the next session needs a new full rest period."))
    key = N_("Healing session — {name}") if track is Track.PHYSICAL else N_("Mental healing session — {name}")
    title = t_name(lang, key, session.character.name, TITLE)
    room = min(DESCRIPTION, RESULT_BUDGET - len(title) - STATUS_ROOM) - sum(
        len(part) + 1 for part in head + tail
    )
    embed = discord.Embed(
        title=title,
        description="\n".join([*head, join_lines(lang, steps, room), *tail]),
        colour=state_colour(state_of(session.character)),
    )
    return fit_total(with_status(embed, session.character, ruleset, lang), RESULT_BUDGET)


def roll_verdict(roll: Roll, lang: Lang) -> str:
    """``✅ **Success**, margin +2`` / ``❌ **Failure**, failure margin 3``."""
    if roll.success:
        return t(lang, "✅ **Success**, margin {margin}", margin=signed(roll.margin))
    return t(lang, "❌ **Failure**, failure margin {margin}", margin=roll.failure_margin)


def roll_embed(
    roll: Roll,
    lang: Lang,
    *,
    character_name: str,
    difficulty_typed: bool = True,
    terms: bool = True,
) -> discord.Embed:
    """A general ±d10 roll: the verdict first, then every term. The reminder of what a difficulty
    means only when one was typed; no terms at all (``terms=False``) for a secret NPC."""
    lines = [roll_verdict(roll, lang)]
    if terms:
        lines.append(roll_terms(roll, lang, t(lang, "modifier")))
    embed = discord.Embed(
        title=t_name(lang, "Roll — {name}", character_name, TITLE),
        description="\n".join(lines),
        colour=discord.Colour(SUCCESS_COLOUR if roll.success else FAILURE_COLOUR),
    )
    if difficulty_typed and terms:
        embed.set_footer(text=t(lang, "A positive difficulty makes a roll easier, a negative one harder."))
    return embed


def _rest_lines(character: Character, ruleset: Ruleset, lang: Lang) -> list[str]:
    """One line per track the character can heal by rolling and holds wounds on: rest and readiness."""
    name = clip(escape(character.name), NAME_IN_LINE)
    if ruleset.is_secret(character.owner_id, character.id):
        return [t(lang, "{name}: {word}", name=name, word=secret_word(character, lang))]
    if not character.is_wounded():
        return [t(lang, "{name}: unhurt", name=name)]
    lines = []
    for track in Track:
        status = rest_status(character, ruleset, track)
        if status.severity is None:
            continue
        if track is Track.MENTAL and not ruleset.mental_healing_rolls:
            lines.append(t(lang, "{name}: mental wounds, healed by a GM (/heal mental)", name=name))
            continue
        if can_roll_healing(character, ruleset, track):
            continue  # listed once, with the odds of its first roll, under who can roll (rest_embed)
        severity = severity_label(lang, track, status.severity)
        days = days_text(lang, status.rested, status.needed)
        lines.append(t(lang, "{name}: {days} ({severity})", name=name, days=days, severity=severity))
    return lines


def ready_to_heal(
    characters: Sequence[Character], ruleset: Ruleset, track: Track
) -> list[tuple[Character, HealingOdds]]:
    """The characters who may start a healing session on ``track`` now, with its first roll's odds
    (never a secret NPC: that would tell its wounds)."""
    return [
        (c, odds)
        for c in characters
        if not ruleset.is_secret(c.owner_id, c.id) and (odds := healing_odds(c, ruleset, track)) is not None
    ]


def rest_mentions(characters: Sequence[Character], ruleset: Ruleset) -> list[int]:
    """The players whose characters can now heal (each once, at most ``MAX_MENTIONS``)."""
    players: list[int] = []
    for track in Track:
        for character, odds in ready_to_heal(characters, ruleset, track):
            if only_hurts(odds):
                continue  # not called to a session that can only make things worse (the summary says so)
            if character.owner_id is not None and character.owner_id not in players:
                players.append(character.owner_id)
    return players[:MAX_MENTIONS]


def rest_embed(characters: Sequence[Character], ruleset: Ruleset, days: int, lang: Lang) -> discord.Embed:
    """In-game rest granted: each character's rest and, per track, who can now roll healing, with the
    odds of their first roll."""
    lines = [line for character in characters for line in _rest_lines(character, ruleset, lang)]
    description = join_lines(lang, lines, 2500) if characters else t(lang, "No character rested.")
    fields: list[tuple[str, str]] = []
    hopeless: list[tuple[str, str]] = []
    for track in Track:
        ready: list[str] = []
        only_hurt: list[str] = []
        for character, odds in ready_to_heal(characters, ruleset, track):
            line = "• " + clip(escape(character.name), NAME_IN_LINE) + " — " + odds_line(odds, lang)
            (only_hurt if only_hurts(odds) else ready).append(line)
        if ready:
            text = join_lines(lang, ready, FIELD_VALUE)
            fields.append(
                (
                    t(
                        lang,
                        N_("Can roll healing now (/heal roll)")
                        if track is Track.PHYSICAL
                        else N_("Can roll mental healing now (/heal roll track:mental)"),
                    ),
                    text,
                )
            )
        if only_hurt:
            text = join_lines(lang, only_hurt, FIELD_VALUE)
            hopeless.append(
                (
                    t(
                        lang,
                        N_("Rest over, but healing cannot succeed now (not pinged)")
                        if track is Track.PHYSICAL
                        else N_("Rest over, but mental healing cannot succeed now (not pinged)"),
                    ),
                    text,
                )
            )
    if not fields:
        description = t(lang, "Nobody can roll healing yet.") + "\n" + description
    fields += hopeless
    embed = discord.Embed(
        title=tn(lang, "Rest: {count} day", "Rest: {count} days", days),
        description=description or None,
        colour=discord.Colour(NOTICE_COLOUR),
    )
    for name, value in fields:
        embed.add_field(name=name, value=value, inline=False)
    return fit_total(embed)
