"""History and undo: one line per recorded event, from its typed record (:mod:`bot.history`); what
/undo says (the change reverted, and the state of each character that came back)."""

from __future__ import annotations

import json
import logging
from collections.abc import Collection, Mapping, Sequence
from datetime import UTC, datetime

import discord
from pydantic import ValidationError

from bot.errors import N_
from bot.history import (
    Configured,
    Created,
    DamageRolled,
    Deleted,
    Edited,
    Event,
    EventKind,
    HealRolled,
    Imported,
    LinkGiven,
    Lowered,
    Record,
    Rested,
    Selected,
    Struck,
    Undid,
    Unreadable,
    Wounded,
    record_of,
)
from bot.rules.character import Character
from bot.rules.damage import Harm
from bot.rules.ruleset import Ruleset
from bot.rules.severity import SEVERITIES, Severity, Track
from bot.rules.wounds import total_penalty
from bot.ui.fight import what_blow
from bot.ui.i18n import Lang, t, tn
from bot.ui.results import NOTICE_COLOUR, cascade_reason, secret_word, state_text
from bot.ui.settings import ruleset_changes
from bot.ui.text import (
    DESCRIPTION,
    EVENT_KINDS,
    TITLE,
    clip,
    escape,
    healed_word,
    join_lines,
    mention,
    severity_label,
    severity_short,
    signed,
    t_name,
)

log = logging.getLogger(__name__)

EVENT_LIMIT = 400
NAME_IN_EVENT = 60
VALUE_IN_EVENT = 120
EDIT_FIELDS = {  # a character's fields, by their names in an edit
    "name": N_("name"),
    "corps": N_("corps"),
    "resistance": N_("résistance"),
    "intuition": N_("intuition"),
    "preset": N_("preset"),
}


def _changes(lang: Lang, changes: Mapping[str, object]) -> str:
    parts = []
    for key, value in changes.items():
        label = t(lang, EDIT_FIELDS[key]) if key in EDIT_FIELDS else clip(escape(key), 40)
        if isinstance(value, dict | list | tuple):
            text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
        else:
            text = "—" if value is None else str(value)
        parts.append(label + t(lang, ": ") + clip(escape(text), VALUE_IN_EVENT))
    return ", ".join(parts)


def _settings_diff(record: Configured, lang: Lang) -> str | None:
    """A settings change recorded with the settings before and after, as ``label: old → new; …``;
    ``None`` for older events, which recorded only the new values."""
    if record.before is None or record.after is None:
        return None
    try:
        before, after = Ruleset.model_validate(record.before), Ruleset.model_validate(record.after)
    except ValidationError:
        return None
    return "; ".join(ruleset_changes(before, after, lang, mentions=False)) or "—"


BEYOND = {Track.PHYSICAL: N_("☠️ FATAL"), Track.MENTAL: N_("🌀 INCOHERENT")}


def _became(lang: Lang, track: Track, severity: Severity | None) -> str:
    """A severity in words, or FATAL (INCOHERENT) for a wound beyond the last one."""
    return t(lang, BEYOND[track]) if severity is None else severity_label(lang, track, severity)


def _wound(record: Wounded, lang: Lang, name: str) -> str:
    track = record.track
    outcome = ""
    if any(became != record.severity for became in record.became):
        labels = [
            _became(lang, track, became) + cascade_reason(lang, track, record.severity, became, record.maxima)
            for became in record.became
        ]
        outcome = " → " + ", ".join(labels)
    severity = severity_label(lang, track, record.severity)
    outcome += _batch_end(record, lang)
    if record.count == 1:  # "1 × light wound" reads oddly
        return t(lang, "**{name}**: {severity}{outcome}", name=name, severity=severity, outcome=outcome)
    return t(
        lang,
        "**{name}**: {count} × {severity}{outcome}",
        name=name,
        count=record.count,
        severity=severity,
        outcome=outcome,
    )


def _batch_end(record: Wounded | DamageRolled, lang: Lang) -> str:
    """What ends the line of a batch of wounds: the wounds not applied after a fatal one, the note."""
    text = (
        tn(lang, " ({count} not applied)", " ({count} not applied)", record.not_applied)
        if record.not_applied > 0
        else ""
    )
    if record.note.strip():
        text += t(lang, " — “{note}”", note=clip(escape(record.note), 80))
    return text


def _damage(record: DamageRolled, lang: Lang, name: str) -> str:
    """A damage roll (rules.md §8): each blow's outcome by the table, and what its wound became."""
    track, became = record.track, list(record.became)
    outcomes = []
    for blow in record.rolls:
        severity = blow.harm.severity
        if blow.harm is Harm.NONE:
            outcomes.append(t(lang, "no wound"))
            continue
        ended = became.pop(0) if became else None
        if severity is None or ended == severity:  # the table's last band, or no escalation
            outcomes.append(_became(lang, track, severity))
        else:
            outcomes.append(f"{severity_label(lang, track, severity)} → {_became(lang, track, ended)}")
    shown = ", ".join(outcomes) or "?"
    text = (
        t(lang, "**{name}**: damage {damage} → {outcomes}", name=name, damage=record.damage, outcomes=shown)
        if len(record.rolls) == 1  # not "damage 26 × 1"
        else t(
            lang,
            "**{name}**: damage {damage} × {count} → {outcomes}",
            name=name,
            damage=record.damage,
            count=len(record.rolls),
            outcomes=shown,
        )
    )
    return text + _batch_end(record, lang)


def _heal_roll(record: HealRolled, lang: Lang, name: str) -> str:
    track = record.track
    outcome = ""
    last = record.rolls[-1] if record.rolls else None
    if last is not None and last.worsened:
        why = cascade_reason(lang, track, record.severity.higher(), last.became, record.maxima)
        if last.became is None:
            outcome = " → " + t(lang, BEYOND[track]) + why
        else:
            outcome = t(lang, " — worsened: {severity}", severity=_became(lang, track, last.became)) + why
    return t(
        lang,
        "**{name}**: healing session ({severity}), {healed}/{rolls} successful rolls{outcome}",
        name=name,
        severity=severity_label(lang, track, record.severity),
        healed=record.healed,
        rolls=len(record.rolls),
        outcome=outcome,
    )


def _struck(record: Struck, lang: Lang, hidden: Collection[int]) -> str:
    """A blow on several targets (/fight): what each target's wound became; a secret NPC's kept secret."""
    track = record.track
    hits = []
    for hit in record.hits:
        name = f"**{clip(escape(hit.name), NAME_IN_EVENT)}**"
        if hit.character_id in hidden:
            hits.append(t(lang, "{name}: kept secret", name=name))
            continue
        became = [_became(lang, track, b) for b in hit.became]
        hits.append(f"{name} → {', '.join(became) or t(lang, 'no wound')}")
    what = what_blow(track, record.severity, record.damage, lang)
    text = t(lang, "blow ({what}): {hits}", what=what, hits="; ".join(hits))
    if record.skipped:
        names = ", ".join(f"**{clip(escape(n), NAME_IN_EVENT)}**" for n in record.skipped)
        text += t(lang, " — skipped: {names}", names=names)
    return text


def _unknown(lang: Lang, kind: str) -> str:
    shown = t(lang, EVENT_KINDS[kind]) if kind in EVENT_KINDS else clip(escape(kind), 40)
    return t(lang, "{kind}", kind=shown)


def describe(record: Record, character_name: str | None, lang: Lang, hidden: Collection[int] = ()) -> str:
    """One change in words, in ``lang`` (of the secret NPCs in ``hidden``, a blow's figures unsaid)."""
    name = clip(escape(character_name or "?"), NAME_IN_EVENT)
    match record:
        case Created(band=band) if band:
            names = ", ".join(f"**{clip(escape(n), NAME_IN_EVENT)}**" for n in band)
            return t(lang, "band of NPCs created: {names}", names=names)
        case Created(owner_id=owner):
            shown = mention(owner) if owner else t(lang, "NPC")
            return t(lang, "character **{name}** created ({owner})", name=name, owner=shown)
        case Edited():
            return t(
                lang,
                "character **{name}** edited: {changes}",
                name=name,
                changes=_changes(lang, record.changes()) or "—",
            )
        case Deleted():
            return t(lang, "character **{name}** deleted", name=name)
        case Selected():
            return t(lang, "**{name}** became the active character", name=name)
        case Wounded():
            return _wound(record, lang, name)
        case DamageRolled():
            return _damage(record, lang, name)
        case HealRolled():
            return _heal_roll(record, lang, name)
        case Lowered(track=track, became=became):
            after = healed_word(lang, track) if became is None else severity_label(lang, track, became)
            severity = severity_label(lang, track, record.severity)
            return t(
                lang,
                "**{name}**: GM healing, {severity} → {became}",
                name=name,
                severity=severity,
                became=after,
            )
        case Rested(days=days, characters=count):
            who = name if character_name else t(lang, "{count} characters", count=count)
            return tn(lang, "rest of {count} day for {who}", "rest of {count} days for {who}", days, who=who)
        case Configured() if (diff := _settings_diff(record, lang)) is not None:
            return t(lang, "settings changed: {changes}", changes=diff)
        case Configured(setting=setting, changes=changes):
            shown = t(lang, ": ") + _changes(lang, changes) if changes else ""
            return t(
                lang,
                "setting **{setting}** changed{changes}",
                setting=clip(escape(setting), 40),
                changes=shown,
            )
        case Imported(counts=counts):
            shown = t(lang, ": ") + _changes(lang, counts) if counts else ""
            return t(lang, "server data imported{changes}", changes=shown)
        case Struck():
            return _struck(record, lang, hidden)
        case LinkGiven(revoked=revoked):
            return t(
                lang,
                N_("player-view links revoked, a new one given") if revoked else N_("player-view link given"),
            )
        case Undid(event_id=undoes, reverted=reverted):
            what = (
                ""
                if reverted is None
                else " — " + describe(reverted, record.character_name or character_name, lang, hidden)
            )
            return t(lang, "undid change #{undoes}{what}", undoes=undoes, what=what)
        case Unreadable(raw_kind=kind):
            return _unknown(lang, kind)


SECRET_CHANGE = N_("**{name}** — a change kept secret")  # "#60: Goblin — a change kept secret"
SECRET_KINDS = frozenset(
    {EventKind.WOUND, EventKind.MENTAL, EventKind.HEAL_ROLL, EventKind.HEAL_WOUND, EventKind.HEAL_MENTAL}
    | {EventKind.CHARACTER_EDIT}
)
"""What an event says of a secret NPC's state: only that a change happened."""


def _secret(event: Event, record: Record, lang: Lang) -> str | None:
    """The line of a change to a secret NPC's state, without its figures (``None``: not such a change)."""
    name = clip(escape(event.character_name or "?"), NAME_IN_EVENT)
    if isinstance(record, Undid):
        if kind_of(record.reverted) in SECRET_KINDS:
            return t(
                lang,
                "undid change #{undoes} — **{name}**, a change kept secret",
                undoes=record.event_id,
                name=name,
            )
        return None
    return t(lang, SECRET_CHANGE, name=name) if kind_of(record) in SECRET_KINDS else None


def kind_of(record: Record | None) -> EventKind | None:
    return None if record is None or isinstance(record, Unreadable) else record.kind


def describe_event(event: Event, lang: Lang, hidden: Collection[int] = ()) -> str:
    """One event in words, in ``lang``; never raises. Of the characters in ``hidden`` (secret NPCs),
    a change of their state is told without its figures."""
    try:
        record = record_of(event)
        secret = event.character_id is not None and event.character_id in hidden
        if secret and (line := _secret(event, record, lang)) is not None:
            return line
        return clip(describe(record, event.character_name, lang, hidden), EVENT_LIMIT)
    except Exception:
        log.exception("Could not describe event %r", event)
        return _unknown(lang, event.kind)


def when(at: str) -> str:
    """A Discord timestamp (shown in each reader's time zone), or the raw text if it is not ISO."""
    try:
        moment = datetime.fromisoformat(at)
    except (TypeError, ValueError):
        return clip(escape(str(at)), 32)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return f"<t:{int(moment.timestamp())}:R>"


def event_line(event: Event, lang: Lang, hidden: Collection[int] = ()) -> str:
    parts = [f"`#{event.id}`"]
    if event.at:
        parts.append(when(event.at))
    if event.actor_id:
        parts.append(mention(event.actor_id))
    line = " ".join(parts) + " — " + describe_event(event, lang, hidden)
    return f"~~{line}~~ {t(lang, '(undone)')}" if event.undone else line


def history_embed(
    events: list[Event],
    page: int,
    pages: int,
    lang: Lang,
    *,
    character_name: str | None = None,
    hidden: Collection[int] = (),
) -> discord.Embed:
    """One page of history, newest first as given, with a "page 2/5" footer (secret NPCs: ``hidden``)."""
    lines = [event_line(event, lang, hidden) for event in events]
    description = join_lines(lang, lines, DESCRIPTION - 96) if lines else t(lang, "Nothing recorded yet.")
    title = (
        t(lang, "History")
        if character_name is None
        else t_name(lang, "History — {name}", character_name, TITLE)
    )
    embed = discord.Embed(title=title, description=description, colour=discord.Colour(NOTICE_COLOUR))
    embed.set_footer(text=t(lang, "page {page}/{pages}", page=page, pages=pages))
    return embed


# ---- /undo: the change reverted, then a line for each character that came back


def undo_embed(
    event: Event,
    lang: Lang,
    restored: Sequence[Character],
    hidden: Collection[int],
    back_in_play: Mapping[int, str],
    ruleset: Ruleset,
) -> discord.Embed:
    """What ``/undo`` reverted (``event``: the reverted change, or the ``undo`` event itself), then each
    character ``restored`` with the state that came back (a secret NPC's, in ``hidden``: its word);
    ``back_in_play``: those brought back, and from what ("dead" or "incoherent")."""
    record = record_of(event)
    secret = event.character_id is not None and event.character_id in hidden
    if isinstance(record, Undid):
        reverted, inner = record.event_id, record.reverted
        if secret and kind_of(inner) in SECRET_KINDS:
            what = t(lang, SECRET_CHANGE, name=clip(escape(event.character_name or "?"), NAME_IN_EVENT))
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
