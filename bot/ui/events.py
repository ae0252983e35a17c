"""History and undo: one line per recorded event, whatever its details hold.

Details are JSON-ish dicts written by the storage layer; every key read here is optional, and a value
of an unexpected type is shown as plain (escaped) text rather than failing.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from datetime import UTC, datetime

import discord
from pydantic import ValidationError

from bot.history import Event
from bot.rules.character import Character
from bot.rules.ruleset import Maxima, Ruleset
from bot.rules.severity import Severity, Track, parse_severity
from bot.ui import limits
from bot.ui.card import state_text
from bot.ui.cascade import cascade_reason
from bot.ui.i18n import Lang, healed_word, severity_label, t, t_name, tn
from bot.ui.settings import ruleset_changes
from bot.ui.text import clip, escape, join_lines, mention

log = logging.getLogger(__name__)

KIND_TRACK = {
    "wound": Track.PHYSICAL,
    "mental": Track.MENTAL,
    "heal_wound": Track.PHYSICAL,
    "heal_mental": Track.MENTAL,
}
EVENT_LIMIT = 400
NAME_IN_EVENT = 60
VALUE_IN_EVENT = 120
HISTORY_COLOUR = 0x5865F2
EDIT_FIELDS = ("name", "corps", "resistance", "intuition", "preset")


def _severity(value: object, track: Track) -> Severity | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and 0 <= value <= 2:
        return Severity(value)
    if isinstance(value, str):
        try:
            return parse_severity(track, value)
        except ValueError:
            return None
    return None


def _severity_text(lang: Lang, track: Track, value: object) -> str:
    severity = _severity(value, track)
    if severity is not None:
        return severity_label(lang, track, severity)
    return "?" if value is None else clip(escape(str(value)), 30)


def _int(details: dict[str, object], key: str, default: int = 0) -> int:
    value = details.get(key)
    if isinstance(value, list):
        return len(value)
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _value_text(value: object) -> str:
    if isinstance(value, dict | list | tuple):
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
    else:
        text = "—" if value is None else str(value)
    return clip(escape(text), VALUE_IN_EVENT)


def _changes(lang: Lang, details: dict[str, object], skip: frozenset[str] = frozenset()) -> str:
    parts = []
    for key, value in details.items():
        if key in skip:
            continue
        label = t(lang, f"field_{key}") if key in EDIT_FIELDS else clip(escape(str(key)), 40)
        parts.append(label + t(lang, "colon") + _value_text(value))
    return ", ".join(parts)


def _maxima(details: dict[str, object]) -> Maxima | None:
    """The track's maxima recorded with a wound or a healing session (older events have none)."""
    raw = details.get("maxima")
    if isinstance(raw, list) and len(raw) == 3 and all(type(v) is int for v in raw):
        return raw[0], raw[1], raw[2]
    return None


def _wound(event: Event, details: dict[str, object], lang: Lang, name: str) -> str:
    track = KIND_TRACK[event.kind]
    asked = _severity(details.get("severity"), track)
    outcome = ""
    became = details.get("became")
    maxima = _maxima(details)
    if isinstance(became, list):
        labels, escalated = [], False
        for value in became:
            end = None if value is None else _severity(value, track)
            known = maxima is not None and asked is not None and (value is None or end is not None)
            why = cascade_reason(lang, track, asked, end, maxima) if known and maxima else ""
            if value is None:
                labels.append(t(lang, f"event_beyond_{track.value}") + why)
                escalated = True
                continue
            labels.append(_severity_text(lang, track, value) + why)
            escalated = escalated or end != asked
        if escalated:
            outcome = " → " + ", ".join(labels)
    if (not_applied := _int(details, "not_applied")) > 0:
        outcome += tn(lang, "event_not_applied", not_applied)
    note = details.get("note")
    if isinstance(note, str) and note.strip():
        outcome += t(lang, "event_note", note=clip(escape(note), 80))
    severity = _severity_text(lang, track, details.get("severity"))
    return t(
        lang, "event_wound", name=name, count=_int(details, "count", 1), severity=severity, outcome=outcome
    )


def _heal_roll(details: dict[str, object], lang: Lang, name: str) -> str:
    raw_track = details.get("track")
    track = Track.MENTAL if raw_track == Track.MENTAL.value else Track.PHYSICAL
    raw_rolls = details.get("rolls")
    rolls = [r for r in raw_rolls if isinstance(r, dict)] if isinstance(raw_rolls, list) else []
    healed = sum(1 for r in rolls if r.get("success") is True)
    outcome = ""
    if rolls and rolls[-1].get("worsened"):
        became = rolls[-1].get("became")
        start, maxima = _severity(details.get("severity"), track), _maxima(details)
        end = None if became is None else _severity(became, track)
        why = ""
        if start is not None and maxima is not None:
            why = cascade_reason(lang, track, start.higher(), end, maxima)
        if became is None:
            outcome = " → " + t(lang, f"event_beyond_{track.value}") + why
        else:
            outcome = t(lang, "event_worsened", severity=_severity_text(lang, track, became)) + why
    severity = _severity_text(lang, track, details.get("severity"))
    return t(
        lang,
        "event_heal_roll",
        name=name,
        severity=severity,
        healed=healed,
        rolls=len(rolls),
        outcome=outcome,
    )


def _heal_gm(event: Event, details: dict[str, object], lang: Lang, name: str) -> str:
    track = KIND_TRACK[event.kind]
    became = details.get("became")
    after = healed_word(lang, track) if became is None else _severity_text(lang, track, became)
    severity = _severity_text(lang, track, details.get("severity"))
    return t(lang, "event_heal_wound", name=name, severity=severity, became=after)


def _undo(event: Event, details: dict[str, object], lang: Lang) -> str:
    undoes = event.undoes if event.undoes is not None else _int(details, "event_id")
    inner = _inner_event(event)
    what = "" if inner is None else " — " + describe_event(inner, lang)
    return t(lang, "event_undo", undoes=undoes, what=what)


def _describe(event: Event, lang: Lang) -> str:
    details = event.details if isinstance(event.details, dict) else {}
    raw_name = event.character_name or details.get("name") or "?"
    name = clip(escape(str(raw_name)), NAME_IN_EVENT)
    kind = event.kind
    if kind == "character_create":
        owner = details.get("owner_id")
        shown = mention(owner) if isinstance(owner, int) and owner else t(lang, "npc")
        return t(lang, "event_character_create", name=name, owner=shown)
    if kind == "character_edit":
        return t(lang, "event_character_edit", name=name, changes=_changes(lang, details) or "—")
    if kind in ("character_delete", "character_select"):
        return t(lang, f"event_{kind}", name=name)
    if kind in ("wound", "mental"):
        return _wound(event, details, lang, name)
    if kind == "heal_roll":
        return _heal_roll(details, lang, name)
    if kind in ("heal_wound", "heal_mental"):
        return _heal_gm(event, details, lang, name)
    if kind == "rest":
        who = name if event.character_name else t(lang, "event_rest_all", count=_int(details, "characters"))
        return tn(lang, "event_rest", _int(details, "days"), who=who)
    if kind == "config" and (diff := _settings_diff(details, lang)) is not None:
        return t(lang, "event_config_diff", changes=diff)
    if kind in ("config", "import"):
        changes = _changes(lang, details, frozenset({"setting"}))
        setting = clip(escape(str(details.get("setting", "?"))), 40)
        shown = t(lang, "colon") + changes if changes else ""
        return t(lang, f"event_{kind}", setting=setting, changes=shown)
    if kind == "undo":
        return _undo(event, details, lang)
    return t(lang, "event_unknown", kind=clip(escape(str(kind)), 40))


def _settings_diff(details: dict[str, object], lang: Lang) -> str | None:
    """A settings change recorded with the settings before and after, as ``label: old → new; …``;
    ``None`` for older events, which recorded only the new values."""
    try:
        before = Ruleset.model_validate(details["before"])
        after = Ruleset.model_validate(details["after"])
    except (KeyError, ValidationError):
        return None
    return "; ".join(ruleset_changes(before, after, lang)) or "—"


def describe_event(event: Event, lang: Lang) -> str:
    """One event in words, in ``lang``; never raises."""
    try:
        return clip(_describe(event, lang), EVENT_LIMIT)
    except Exception:
        log.exception("Could not describe event %r", event)
        return t(lang, "event_unknown", kind=clip(escape(str(event.kind)), 40))


def _inner_event(event: Event) -> Event | None:
    """For an ``undo`` event whose details say what it reverted (``kind`` and ``event_details``)."""
    details = event.details if isinstance(event.details, dict) else {}
    kind = details.get("kind")
    if not isinstance(kind, str) or kind == "undo":
        return None
    inner = details.get("event_details", details.get("details"))
    name = details.get("character_name")
    return Event(
        id=event.undoes or _int(details, "event_id"),
        guild_id=event.guild_id,
        kind=kind,
        actor_id=None,
        at="",
        character_id=event.character_id,
        character_name=name if isinstance(name, str) else event.character_name,
        details=inner if isinstance(inner, dict) else {},
    )


def when(at: str) -> str:
    """A Discord timestamp (shown in each reader's time zone), or the raw text if it is not ISO."""
    try:
        moment = datetime.fromisoformat(at)
    except (TypeError, ValueError):
        return clip(escape(str(at)), 32)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return f"<t:{int(moment.timestamp())}:R>"


def event_line(event: Event, lang: Lang) -> str:
    parts = [f"`#{event.id}`"]
    if event.at:
        parts.append(when(event.at))
    if event.actor_id:
        parts.append(mention(event.actor_id))
    line = " ".join(parts) + " — " + describe_event(event, lang)
    return f"~~{line}~~ {t(lang, 'history_undone')}" if event.undone else line


def history_embed(
    events: list[Event], page: int, pages: int, lang: Lang, *, character_name: str | None = None
) -> discord.Embed:
    """One page of history, newest first as given, with a "page 2/5" footer."""
    more = lambda n: t(lang, "more_lines", count=n)  # noqa: E731
    lines = [event_line(event, lang) for event in events]
    description = join_lines(lines, limits.DESCRIPTION - 96, more) if lines else t(lang, "history_empty")
    title = (
        t(lang, "history_title")
        if character_name is None
        else t_name(lang, "history_title_character", character_name, limits.TITLE)
    )
    embed = discord.Embed(title=title, description=description, colour=discord.Colour(HISTORY_COLOUR))
    embed.set_footer(text=t(lang, "page_footer", page=page, pages=pages))
    return embed


def undo_embed(event: Event, lang: Lang, restored: Sequence[Character] = ()) -> discord.Embed:
    """What ``/undo`` reverted: ``event`` is the reverted change, or the ``undo`` event itself (whose
    ``undoes`` names it and whose details carry its ``kind`` and ``event_details``); ``restored``:
    the characters as the undo left them, named with their state."""
    if event.kind == "undo":
        reverted = event.undoes if event.undoes is not None else _int(event.details, "event_id")
        inner = _inner_event(event)
        what = describe_event(inner if inner is not None else event, lang)
    else:
        reverted, what = event.id, describe_event(event, lang)
    embed = discord.Embed(
        title=t(lang, "undo_title"),
        description=t(lang, "undo_body", id=reverted, what=what),
        colour=discord.Colour(HISTORY_COLOUR),
    )
    if restored:
        lines = [
            t(lang, "undo_restored_line", name=clip(escape(c.name), 80), state=state_text(c, lang))
            for c in restored
        ]
        more = lambda n: t(lang, "more_lines", count=n)  # noqa: E731
        embed.add_field(
            name=t(lang, "undo_restored"), value=join_lines(lines, limits.FIELD_VALUE, more), inline=False
        )
    embed.set_footer(text=t(lang, "undo_again"))
    return embed
