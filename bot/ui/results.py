"""A character's state and what a command did to it, as users read it: the state's colour and words,
the lines a short result ends with (the card shows them too: warnings, the odds of a healing session),
each roll written out in full, and the public results (wounds, GM healing, healing sessions, rolls,
rest). One module, so that a /wound's answer is rendered here, with i18n and text alone."""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from fractions import Fraction
from functools import lru_cache
from itertools import groupby

import discord

from bot.errors import N_
from bot.rules.character import Character
from bot.rules.damage import DamageInfliction
from bot.rules.dice import Dice, Roll
from bot.rules.healing import HealingSession, HealStep, can_roll_healing, rest_status
from bot.rules.odds import HealingOdds, healing_odds
from bot.rules.ruleset import DamageTable, Maxima, Ruleset
from bot.rules.severity import SEVERITIES, Severity, Track, severity_name
from bot.rules.wounds import EscalationWarning, Inflicted, Infliction, Lowering, total_penalty, warnings
from bot.ui.i18n import Lang, t, tn
from bot.ui.text import (
    DESCRIPTION,
    FIELD_VALUE,
    MINUS,
    TITLE,
    TOTAL,
    clip,
    days_text,
    escape,
    fit_total,
    healed_word,
    held_marks,
    join_lines,
    severity_label,
    severity_next,
    severity_short,
    signed,
    t_name,
    track_label,
)

# ---- A character's state: its colour, in words, and the one word players see of a secret NPC


class State(IntEnum):
    """The worst state of a character across both tracks, for colours and lists."""

    UNHURT = 0
    LIGHT = 1
    SERIOUS = 2
    CRITICAL = 3
    OUT = 4
    """Dead or incoherent."""


COLOURS: dict[State, int] = {
    State.UNHURT: 0x2ECC71,
    State.LIGHT: 0xF1C40F,
    State.SERIOUS: 0xE67E22,
    State.CRITICAL: 0xE74C3C,
    State.OUT: 0x4F545C,
}
NOTICE_COLOUR = 0x5865F2
"""Discord's blurple, for what shows no character's state: settings, lists, history, notices, previews."""


def state_of(character: Character) -> State:
    if character.out_of_play:
        return State.OUT
    worst = [s for track in Track if (s := character.worst(track)) is not None]
    return State.UNHURT if not worst else State(max(worst) + 1)


def state_colour(state: State) -> discord.Colour:
    return discord.Colour(COLOURS[state])


def state_text(character: Character, lang: Lang) -> str:
    """ "dead", "incoherent", "unhurt", or the worst wound of each track ("serious wound · trauma")."""
    if character.dead:
        return t(lang, "dead")
    if character.incoherent:
        return t(lang, "incoherent")
    worst = [severity_label(lang, track, s) for track in Track if (s := character.worst(track)) is not None]
    return " · ".join(worst) if worst else t(lang, "unhurt")


SECRET_COLOUR = 0x99AAB5
"""One colour for every secret NPC: the colour of the card would tell its state."""
SECRET_WORDS: dict[tuple[Track, Severity], str] = {
    (Track.PHYSICAL, Severity.LOW): N_("wounded"),
    (Track.PHYSICAL, Severity.MID): N_("badly wounded"),
    (Track.PHYSICAL, Severity.HIGH): N_("at death's door"),
    (Track.MENTAL, Severity.LOW): N_("shaken"),
    (Track.MENTAL, Severity.MID): N_("shaken"),
    (Track.MENTAL, Severity.HIGH): N_("on the edge of madness"),
}
"""A secret NPC's state by its worst wound and the track it is on (words with no grammatical gender in
French: "mal en point", "aux portes de la mort", "au bord de la folie")."""


def counts_text(character: Character, track: Track, lang: Lang) -> str:
    """``light 2/4 · serious 1/2``: the wounds held on ``track``, of the most allowed."""
    counts, maxima = character.counts(track), character.maxima(track)
    return " · ".join(
        f"{severity_short(lang, track, s)} {counts[s]}/{maxima[s]}" for s in SEVERITIES if counts[s]
    )


def sessions(character: Character, ruleset: Ruleset) -> tuple[HealingOdds, ...]:
    """The healing sessions ``character`` may start now (one per track at most), with their first roll's
    odds: a result's state, its Heal buttons, the card and the board show them."""
    return tuple(odds for track in Track if (odds := healing_odds(character, ruleset, track)) is not None)


def secret_word(character: Character, lang: Lang) -> str:
    """All players learn of a secret NPC (``SECRET_WORDS``, unhurt, dead or incoherent): its worst
    wound of both tracks decides, on the track it is on."""
    if character.out_of_play:
        return state_text(character, lang)
    held = [(severity, track) for track in Track if (severity := character.worst(track)) is not None]
    if not held:
        return t(lang, "unhurt")
    severity, track = max(held, key=lambda h: (h[0], h[1] is Track.PHYSICAL))  # a tie: the body first
    return t(lang, SECRET_WORDS[track, severity])


NEXT_BEYOND = {Track.PHYSICAL: N_("**{next} → FATAL**"), Track.MENTAL: N_("**{next} → INCOHERENT**")}
ANY_BEYOND = {
    Track.PHYSICAL: N_("⚠️ **Any new wound is FATAL, even a light one**"),
    Track.MENTAL: N_("⚠️ **Any new mental wound makes them INCOHERENT, even a shock**"),
}


def _warning_line(warning: EscalationWarning, lang: Lang) -> str:
    track, next_ = warning.track, severity_next(lang, warning.track, warning.severity)
    if warning.becomes is None:
        return t(lang, NEXT_BEYOND[track], next=next_)
    return t(lang, "{next} → {becomes}", next=next_, becomes=severity_short(lang, track, warning.becomes))


def warning_lines(character: Character, lang: Lang) -> list[str]:
    """Rules §3 for both tracks, most severe first. When even the lightest wound of a track would be
    beyond it, one loud line says so first, instead of one line per severity."""
    loud: list[str] = []
    found: list[EscalationWarning] = []
    for track in Track:
        track_warnings = warnings(character, track)
        if any(w.beyond and w.severity is Severity.LOW for w in track_warnings):
            loud.append(t(lang, ANY_BEYOND[track]))
            track_warnings = [w for w in track_warnings if not w.beyond]
        found.extend(track_warnings)
    order = list(Track)
    found.sort(key=lambda w: (w.becomes is not None, -(w.becomes or 0), w.severity, order.index(w.track)))
    return loud + [_warning_line(w, lang) for w in found]


def with_status(embed: discord.Embed, character: Character, ruleset: Ruleset, lang: Lang) -> discord.Embed:
    """``embed`` (a short result) with the character's state after the change as its last field: the
    tracks that hold wounds, the total penalty, the loudest warning and the odds of each healing
    session offered. Nothing for the dead and the incoherent: their result says so, loudly."""
    if character.out_of_play:
        return embed
    lines = [
        f"{track_label(lang, track)} {held_marks(track, counts)} — {counts_text(character, track, lang)}"
        for track in Track
        if any(counts := character.counts(track))
    ]
    if not lines:
        lines.append(t(lang, "Unhurt."))
    else:
        lines.append(
            t(lang, "Penalty {penalty} on all rolls", penalty=signed(total_penalty(character, ruleset)))
        )
        if found := warning_lines(character, lang):
            loudest = found[0]
            lines.append(loudest if loudest.startswith("⚠️") else f"⚠️ {loudest}")
        # a healing session is offered (the Heal button): its odds, as on the card, after its mark
        lines += [f"{offer_sign(o)} {odds_line(o, lang)}" for o in sessions(character, ruleset)]
    embed.add_field(name=t(lang, "State now"), value="\n".join(lines), inline=False)
    return embed


# ---- A roll written out in full: ``luck 7 − unluck 3 = +4, Cp+Rs +2, … → margin +2``

MAX_THROWS_SHOWN = 6
"""An open die with more throws than this is shown as ``10×7+3`` (every throw but the last is a 10)."""


def throws(values: tuple[int, ...]) -> str:
    """One die: ``7``, or with open rolls ``10+4`` (each throw shown)."""
    if len(values) > MAX_THROWS_SHOWN and all(v == 10 for v in values[:-1]):
        return f"10×{len(values) - 1}+{values[-1]}"
    return "+".join(str(v) for v in values)


def dice_text(dice: Dice, lang: Lang) -> str:
    """``luck 7 − unluck 3 = +4``, marked when the player typed the dice."""
    text = (
        f"{t(lang, 'luck')} {throws(dice.luck)} {MINUS} {t(lang, 'unluck')} {throws(dice.unluck)}"
        f" = {signed(dice.value)}"
    )
    return text + " (" + t(lang, "player's dice") + ")" if dice.manual else text


def roll_terms(roll: Roll, lang: Lang, label: str, *, difficulty: bool = True) -> str:
    """Every term of ``roll``; ``label`` names the attributes term (``Cp+Rs``, ``modifier``…);
    ``difficulty=False`` for a damage roll, which has none."""
    terms = [dice_text(roll.dice, lang), f"{label} {signed(roll.attributes)}"]
    if difficulty:
        terms.append(f"{t(lang, 'difficulty')} {signed(roll.difficulty)}")
    terms.append(f"{t(lang, 'penalty')} {signed(roll.penalty)}")
    return ", ".join(terms) + f" → {t(lang, 'margin')} {signed(roll.margin)}"


# ---- Why a wound became worse than asked: the full ranks it went through ("light full 4/4").


FULL = {  # a severity by its English choice value: "full" as the reason of an escalation
    "light": N_("light full {max}/{max}"),
    "serious": N_("serious full {max}/{max}"),
    "critical": N_("critical full {max}/{max}"),
    "shock": N_("shock full {max}/{max}"),
    "trauma": N_("trauma full {max}/{max}"),
    "psychosis": N_("psychosis full {max}/{max}"),
}


def cascade_reason(
    lang: Lang, track: Track, start: Severity | None, became: Severity | None, maxima: Maxima | None
) -> str:
    """`` (light full 4/4, serious full 2/2)``: the ranks from ``start`` up to ``became`` (``None``:
    beyond the track), full when the wound arrived; nothing if it stayed or ``maxima`` were not recorded."""
    if start is None or maxima is None:
        return ""
    skipped = [s for s in SEVERITIES if s >= start and (became is None or s < became)]
    full = [t(lang, FULL[severity_name(track, s)], max=maxima[s]) for s in skipped]
    return f" ({', '.join(full)})" if full else ""


# ---- The damage table of rules.md §8 in words, for /config show and the damage results.


def _band(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}–{high}"


def damage_table_text(table: DamageTable, lang: Lang, track: Track = Track.PHYSICAL) -> str:
    """``none ≤ 10 · light 11–20 · serious 21–30 · critical 31–40 · fatal ≥ 41``, in the words of
    ``track`` (mental: shock, trauma, psychosis, incoherent)."""
    light, serious, critical, fatal = table.thresholds
    key = (
        N_("none ≤ {none} · light {light} · serious {serious} · critical {critical} · fatal ≥ {fatal}")
        if track is Track.PHYSICAL
        else N_(
            "none ≤ {none} · shock {light} · trauma {serious} · psychosis {critical} · incoherent ≥ {fatal}"
        )
    )
    return t(
        lang,
        key,
        none=light - 1,
        light=_band(light, serious - 1),
        serious=_band(serious, critical - 1),
        critical=_band(critical, fatal - 1),
        fatal=fatal,
    )


# ---- The odds of a healing session's first roll, in words: shown wherever a session is offered.

NAME_IN_QUESTION = 80
SESSION_TITLE = {
    Track.PHYSICAL: N_("Healing session — {name}"),
    Track.MENTAL: N_("Mental healing session — {name}"),
}
WOUNDS_TITLE = {Track.PHYSICAL: N_("Wounds — {name}"), Track.MENTAL: N_("Mental wounds — {name}")}
GM_HEALING_TITLE = N_("GM healing — {name}")
WOUND_BEYOND = {
    Track.PHYSICAL: N_("• {inflicted} → ☠️ **FATAL**"),
    Track.MENTAL: N_("• {inflicted} → 🌀 **INCOHERENT**"),
}
FAILED_BEYOND = {
    Track.PHYSICAL: N_("☠️ failed by {margin} (10 or more): **FATAL**"),
    Track.MENTAL: N_("🌀 failed by {margin} (10 or more): **INCOHERENT**"),
}
DEATH_ODDS = {Track.PHYSICAL: N_(" · ☠️ **death {death}**"), Track.MENTAL: N_(" · 🌀 **incoherence {death}**")}
RISK_COLOUR = 0xE67E22
DEATH_COLOUR = 0xE74C3C


@lru_cache(maxsize=1024)  # few distinct chances exist; Fraction arithmetic is slow on every card
def percent(lang: Lang, chance: Fraction) -> str:
    """A chance as a whole percentage that never reads 0 % or 100 % unless it is exactly so."""
    value = round(chance * 100)
    if chance > 0 and value == 0:
        text = "< 1"
    elif chance < 1 and value == 100:
        text = "> 99"
    else:
        text = str(value)
    return f"{text}\u202f%" if lang == "fr" else f"{text}%"


def success_text(odds: HealingOdds, lang: Lang) -> str:
    """ "success 36%", or "success impossible"."""
    if odds.success == 0:
        return t(lang, "success impossible")
    return t(lang, "success {success}", success=percent(lang, odds.success))


def offer_sign(odds: HealingOdds) -> str:
    """The mark before a session, wherever it is offered: 🩹 worth offering; ☠️ (🌀 mental) when its
    first roll can kill (make incoherent); ⛔ when it cannot reasonably succeed."""
    if odds.deadly:
        return "☠️" if odds.track is Track.PHYSICAL else "🌀"
    return "⛔" if odds.hopeless else "🩹"


def stakes(odds: HealingOdds, lang: Lang) -> str:
    """What is at stake, in a few words: "success impossible · ☠️ 64%", "success 90% · worsening 3%"
    (nothing of worsening when the first roll cannot worsen anything)."""
    parts = [success_text(odds, lang)]
    if odds.deadly:
        parts.append(f"{offer_sign(odds)} {percent(lang, odds.death)}")
    elif odds.worsening > 0:
        parts.append(t(lang, "worsening {worsening}", worsening=percent(lang, odds.worsening)))
    return " · ".join(parts)


def odds_line(odds: HealingOdds, lang: Lang) -> str:
    """ "First roll (light wound): **success impossible** · worsening 64% · ☠️ **death 64%**"."""
    line = t(
        lang,
        "First roll ({severity}): {success} · worsening {worsening}",
        severity=severity_label(lang, odds.track, odds.severity),
        success=f"**{success_text(odds, lang)}**" if odds.hopeless else success_text(odds, lang),
        worsening=percent(lang, odds.worsening),
    )
    if odds.death > 0:
        line += t(lang, DEATH_ODDS[odds.track], death=percent(lang, odds.death))
    return line


def odds_question(character: Character, odds: HealingOdds, lang: Lang) -> str:
    """The private question before a session the bot rolls: what is at stake first, then why."""
    if odds.beyond and odds.track is Track.PHYSICAL:
        key = N_(
            "⚠️ **{stakes}**\nThis healing session may **kill** {name}: a first roll "
            "failed by 10 or more worsens the wound, and that would be fatal. Roll "
            "anyway? (Cancel changes nothing.)"
        )
    elif odds.beyond:
        key = N_(
            "⚠️ **{stakes}**\nThis healing session may make {name} **incoherent**: a "
            "first roll failed by 10 or more worsens the wound beyond the last "
            "psychosis. Roll anyway? (Cancel changes nothing.)"
        )
    elif odds.hopeless:
        key = N_(
            "**{stakes}**\nThis healing session can hardly succeed: it will most likely leave the "
            "wound as it is and use up the rest, and a first roll failed by 10 or more worsens "
            "the wound. Roll anyway? (Cancel changes nothing.)"
        )
    else:
        key = N_(
            "**{stakes}**\nThis healing session may make things worse: a first roll "
            "failed by 10 or more worsens the wound. Roll anyway? (Cancel changes "
            "nothing.)"
        )
    return t(lang, key, stakes=stakes(odds, lang), name=clip(escape(character.name), NAME_IN_QUESTION))


def odds_embed(character: Character, odds: HealingOdds, lang: Lang) -> discord.Embed:
    """The character's name and the odds of the first roll, for the question."""
    return discord.Embed(
        title=t_name(lang, SESSION_TITLE[odds.track], character.name, TITLE),
        description=odds_line(odds, lang),
        colour=discord.Colour(DEATH_COLOUR if odds.beyond else RISK_COLOUR),
    )


RESULT_BUDGET = TOTAL - 500  # alone in its message (the card is behind a button): most of the 6000
STATUS_ROOM = 600  # kept for the state after the change (with_status), a field of its own
NOTE_SHOWN = 400
NAME_IN_LINE = 80
MAX_MENTIONS = 50  # Discord allows 100; 50 keep the content well within 2000 characters


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
        return t(lang, WOUND_BEYOND[track], inflicted=inflicted) + why
    if result.escalated:
        became = severity_label(lang, track, result.became)
        return t(lang, "• {inflicted} → **{became}**", inflicted=inflicted, became=became) + why
    return t(lang, "• {inflicted}", inflicted=inflicted)


def wound_embed(
    infliction: Infliction,
    character_after: Character,
    ruleset: Ruleset,
    lang: Lang,
    *,
    note: str = "",
) -> discord.Embed:
    """What ``/wound`` or ``/mental`` did: each wound as inflicted → became, escalations and death or
    incoherence called out, the wounds of the batch not applied after a fatal one."""
    track = infliction.track
    maxima = character_after.maxima(track)
    lines = [_wound_line(track, result, maxima, lang) for result in infliction.results]
    runs = [(line, len(list(run))) for line, run in groupby(lines)]  # told once: "• 3 × light wound"
    lines = [line if n == 1 else line.replace("• ", f"• {n} × ", 1) for line, n in runs]
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
    return discord.Embed(
        title=t_name(lang, WOUNDS_TITLE[infliction.track], character.name, TITLE),
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
        title=t_name(lang, GM_HEALING_TITLE, lowering.character.name, TITLE),
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
        return t(lang, FAILED_BEYOND[track], margin=margin) + why
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
    """One healing session, outcome first (death or incoherence, else how many rolls succeeded and
    how many wounds were not rolled), then every roll in full; how a session goes is on the card."""
    track, label = session.track, attributes_label(session.track)
    steps = [
        t(lang, "**Roll {index}**: {terms}", index=index, terms=roll_terms(step.roll, lang, label))
        + " — "
        + _step_outcome(step, track, session.character.maxima(track), lang)
        for index, step in enumerate(session.steps, 1)
    ]
    healed, rolls = session.healed, len(session.steps)
    if loud := _out_line(session.character, lang):  # out of play first, and nothing of what comes next
        head = loud
    elif (left := session.eligible - rolls) > 0:
        head = tn(
            lang,
            "Result: {healed}/{rolls} successful rolls; {count} wound not rolled.",
            "Result: {healed}/{rolls} successful rolls; {count} wounds not rolled.",
            left,
            healed=healed,
            rolls=rolls,
        )
    else:
        head = t(lang, "Result: {healed}/{rolls} successful rolls.", healed=healed, rolls=rolls)
    title = t_name(lang, SESSION_TITLE[track], session.character.name, TITLE)
    room = min(DESCRIPTION, RESULT_BUDGET - len(title) - STATUS_ROOM) - len(head) - 1
    embed = discord.Embed(
        title=title,
        description=head + "\n" + join_lines(lang, steps, room),
        colour=state_colour(state_of(session.character)),
    )
    return fit_total(with_status(embed, session.character, ruleset, lang), RESULT_BUDGET)


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
    if roll.success:
        lines = [t(lang, "✅ **Success**, margin {margin}", margin=signed(roll.margin))]
    else:
        lines = [t(lang, "❌ **Failure**, failure margin {margin}", margin=roll.failure_margin)]
    if terms:
        lines.append(roll_terms(roll, lang, t(lang, "modifier")))
    embed = discord.Embed(
        title=t_name(lang, "Roll — {name}", character_name, TITLE),
        description="\n".join(lines),
        colour=state_colour(State.UNHURT if roll.success else State.CRITICAL),
    )
    if difficulty_typed and terms:
        embed.set_footer(text=t(lang, "A positive difficulty makes a roll easier, a negative one harder."))
    return embed


def _rest_line(character: Character, ruleset: Ruleset, lang: Lang) -> str | None:
    """The character in one line, when it is in no list of who can roll (``rest_embed``): its rest on
    each track that holds wounds; ``None`` when it is listed there instead (once, with its odds)."""
    name = clip(escape(character.name), NAME_IN_LINE)
    if ruleset.is_secret(character.owner_id, character.id):
        return t(lang, "{name}: {word}", name=name, word=secret_word(character, lang))
    if not character.is_wounded():
        return t(lang, "{name}: unhurt", name=name)
    parts = []
    for track in Track:
        status = rest_status(character, ruleset, track)
        if status.severity is None:
            continue
        if track is Track.MENTAL and not ruleset.mental_healing_rolls:
            parts.append(t(lang, "mental wounds, healed by a GM (/heal mental)"))
            continue
        if can_roll_healing(character, ruleset, track):
            return None  # listed once, with the odds of its first roll, under who can roll
        severity = severity_label(lang, track, status.severity)
        days = days_text(lang, status.rested, status.needed)
        parts.append(t(lang, "{days} ({severity})", days=days, severity=severity))
    return t(lang, "{name}: {word}", name=name, word=" · ".join(parts))


CAN_ROLL = {
    Track.PHYSICAL: N_("Can roll healing now (/heal roll)"),
    Track.MENTAL: N_("Can roll mental healing now (/heal roll track:mental)"),
}
NOT_OFFERED = {  # a session not worth offering (HealingOdds.worth_offering)
    Track.PHYSICAL: N_("Rest over, but healing can kill or cannot succeed now (not pinged)"),
    Track.MENTAL: N_("Rest over, but mental healing can make incoherent or cannot succeed now (not pinged)"),
}


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
    """The players ``rest_embed`` lists under who can roll healing now: those of the characters whose
    session is worth offering (each once, at most ``MAX_MENTIONS``), and nobody else."""
    players = [
        character.owner_id
        for track in Track
        for character, odds in ready_to_heal(characters, ruleset, track)
        if odds.worth_offering and character.owner_id is not None
    ]
    return list(dict.fromkeys(players))[:MAX_MENTIONS]


def rest_embed(characters: Sequence[Character], ruleset: Ruleset, days: int, lang: Lang) -> discord.Embed:
    """In-game rest granted: each character once, with its rest or, per track, with its first roll's
    odds under who can now roll healing (pinged) or whose session is not worth offering (not pinged)."""
    lines = [line for character in characters if (line := _rest_line(character, ruleset, lang)) is not None]
    description = join_lines(lang, lines, 2500) if characters else t(lang, "No character rested.")
    embed = discord.Embed(
        title=tn(lang, "Rest: {count} day", "Rest: {count} days", days), colour=discord.Colour(NOTICE_COLOUR)
    )
    ready = {track: ready_to_heal(characters, ruleset, track) for track in Track}
    for worth, titles in ((True, CAN_ROLL), (False, NOT_OFFERED)):  # the sessions worth offering first
        for track in Track:
            found = [
                f"• {clip(escape(character.name), NAME_IN_LINE)} — {odds_line(odds, lang)}"
                for character, odds in ready[track]
                if odds.worth_offering == worth
            ]
            if found:
                value = join_lines(lang, found, FIELD_VALUE)
                embed.add_field(name=t(lang, titles[track]), value=value, inline=False)
        if worth and not embed.fields:
            description = t(lang, "Nobody can roll healing yet.") + "\n" + description
    embed.description = description or None
    return fit_total(embed)
