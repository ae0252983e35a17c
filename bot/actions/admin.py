"""Server administration: history, settings, export and import, the player view's link."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from pydantic import ValidationError

from bot import export_file
from bot.actions.actor import Actor, by_ref, record
from bot.errors import UserError
from bot.history import Configured, Event, Imported, LinkGiven
from bot.rules import Preset, Ruleset, Track
from bot.rules.character import name_key, preset_of
from bot.rules.ruleset import preset_key
from bot.storage.store import Reader, Store, Transaction, digest

HISTORY_PAGE = 10
TOKEN_BYTES = 24  # of a player-view link's token: 192 bits (at least 128 asked), 32 characters


@dataclass(frozen=True)
class HistoryPage:
    events: list[Event]
    pages: int
    character_name: str | None  # the character asked for (``None``: the whole server)
    ruleset: Ruleset


def named_even_deleted(reader: Reader, ref: str) -> tuple[int | None, str]:
    """The id and name of the character ``ref`` names, or else of a deleted one (its history stays
    readable, undo can bring it back); refused like any character option when there is neither."""
    try:
        found = by_ref(reader, ref)
    except UserError:
        if not ref.strip():  # blank: refused, never "the start of every name"
            raise
        gone = reader.deleted_characters(ref.strip()[:100])
        if not gone:
            raise
        return gone[0]
    return found.id, found.name


async def history(store: Store, actor: Actor, *, ref: str | None, page: int) -> HistoryPage:
    """One page of the server's history (of one character's), newest first."""

    def look(reader: Reader) -> HistoryPage:
        character_id, character_name = named_even_deleted(reader, ref) if ref is not None else (None, None)
        events, total = reader.history(character_id, page=page, per_page=HISTORY_PAGE)
        pages = max(1, -(-total // HISTORY_PAGE))
        if page > pages:
            raise UserError("That page does not exist: choose a page from 1 to {pages}.", pages=pages)
        return HistoryPage(events, pages, character_name, reader.ruleset())

    return await store.read(actor.guild_id, look)


Issue = tuple[tuple[str | int, ...], str, object]
"""One problem of a settings change: where (the path of the setting), what kind, and its limit."""


def validation_issues(error: ValidationError) -> tuple[Issue, ...]:
    """The problems of a settings change as data, put in words by the UI in the reader's language."""
    issues: list[Issue] = []
    for item in error.errors():
        context = item.get("ctx") or {}
        limit = context.get("le", context.get("ge", context.get("limit", context.get("name"))))
        issues.append((tuple(item["loc"]), item["type"], limit))
    return tuple(issues)


Change = Callable[[Ruleset], dict[str, Any]]
"""What to change (plain JSON values), worked out from the ruleset inside the transaction: two GMs
changing different settings at once do not overwrite each other."""
Triple = tuple[int | None, int | None, int | None]


def values(**changes: Any) -> Change:
    return lambda _current: dict(changes)


def _fill(old: tuple[int, ...], new: tuple[int | None, ...]) -> tuple[Any, ...]:
    """``old`` with the values given in ``new`` (``None``: keep)."""
    return tuple(o if n is None else n for o, n in zip(old, new, strict=True))


def per_severity(track: Track, field: str, given: Triple, **also: Any) -> Change:
    """One of a track's per-severity tables (penalties, rest_days, difficulty), the values given."""

    def change(current: Ruleset) -> dict[str, Any]:
        numbers = current.numbers(track)
        return {track.value: numbers.model_dump() | {field: _fill(getattr(numbers, field), given)}, **also}

    return change


def preset(name: str, physical: Triple, mental: Triple, *, remove: bool) -> Change:
    """Add or change the maxima preset ``name`` (the values given), or remove it."""

    typed, name = name, preset_key(name)

    def change(current: Ruleset) -> dict[str, Any]:
        presets = dict(current.presets)
        if remove:
            preset_of(current, typed)  # refused when there is none
            del presets[name]
        else:
            base = presets.get(name, Preset())
            presets[name] = Preset.model_construct(  # validated with the whole ruleset
                physical=_fill(base.physical, physical), mental=_fill(base.mental, mental)
            )
        return {"presets": {key: value.model_dump() for key, value in presets.items()}}

    return change


def secret_npc(character_id: int, name: str, secret: bool) -> Change:
    """Keep one NPC secret, or not (an NPC is secret anyway while every NPC of the server is)."""

    def change(current: Ruleset) -> dict[str, Any]:
        if not secret and current.secret_npcs:
            raise UserError(
                "Every NPC of this server is secret, {name} included: turn that off "
                "first with /config secret-npcs secret:False (without a character).",
                name=name,
            )
        chosen = set(current.secret_characters)
        if secret:
            chosen.add(character_id)
        else:
            chosen.discard(character_id)
        return {"secret_characters": sorted(chosen)}

    return change


def damage_table(given: tuple[int | None, int | None, int | None, int | None]) -> Change:
    """The damage table's thresholds (light, serious, critical, fatal), the values given; they increase."""

    def change(current: Ruleset) -> dict[str, Any]:
        thresholds = list(_fill(current.damage.thresholds, given))
        if any(low >= high for low, high in pairwise(thresholds)):
            light, serious, critical, fatal = thresholds
            raise UserError(
                "The damage thresholds must increase: light < serious < critical < "
                "fatal, and these would be {light}, {serious}, {critical}, {fatal}. "
                "Nothing was changed: give thresholds that increase (/config show lists "
                "the current table).",
                light=light,
                serious=serious,
                critical=critical,
                fatal=fatal,
            )
        return {"damage": {"thresholds": thresholds}}

    return change


async def configure(store: Store, actor: Actor, setting: str, change: Change) -> tuple[Ruleset, Ruleset]:
    """Change part of the ruleset, validated whole again and recorded with the settings before and
    after (history says old → new). The ruleset before and after."""

    def work(tx: Transaction) -> tuple[Ruleset, Ruleset]:
        current = tx.ruleset()
        actor.require_gm(current)
        changes = change(current)
        merged = current.model_dump()
        merged.update(changes)
        try:
            updated = Ruleset.model_validate(merged)
        except ValidationError as error:
            raise UserError(
                "That setting is not valid:\n{errors}\nNothing was changed: fix the value "
                "and try again (/config show lists the current settings).",
                errors=validation_issues(error),
            ) from None
        if updated == current:  # a change that changes nothing would only clutter history and /undo
            raise UserError(
                "That is already the setting: nothing was changed. /config show lists every setting."
            )
        tx.save_ruleset(updated)
        before, after = current.model_dump(mode="json"), updated.model_dump(mode="json")
        record(tx, actor, Configured(setting, changes, before, after))
        return current, updated

    return await store.run(actor.guild_id, work, interaction=actor.interaction_id)


async def export(store: Store, actor: Actor) -> bytes:
    """The server's characters (with their healed wounds), active characters and ruleset as a file."""

    def look(reader: Reader) -> bytes:
        ruleset = reader.ruleset()
        actor.require_gm(ruleset)
        return export_file.build(
            reader.guild_id, ruleset, reader.characters(every_wound=True), reader.actives(), now
        )

    now = store.clock()
    return await store.read(actor.guild_id, look, serialized=True)


async def import_(store: Store, actor: Actor, data: bytes) -> dict[str, int]:
    """Replace the server's characters, active characters and ruleset with a file's, all or nothing, as
    one change (``/undo`` brings the replaced characters back with their ids, wounds and history)."""

    def work(tx: Transaction) -> dict[str, int]:
        actor.require_gm(tx.ruleset())
        document = export_file.parse(data, tx.guild_id)
        replaced = tx.characters()
        tx.delete_characters(replaced)
        created = tx.create_characters(export_file.characters_of(document, tx.guild_id, tx.now))
        by_key = {name_key(c.name): c.id for c in created if c.id is not None}
        for choice in document.active:
            tx.set_active(choice.user_id, by_key[name_key(choice.character)])
        tx.save_ruleset(document.ruleset)
        counts = {
            "characters": len(created),
            "wounds": sum(len(c.wounds) for c in created),
            "replaced": len(replaced),
        }
        record(tx, actor, Imported(counts))
        return counts

    return await store.run(actor.guild_id, work, interaction=actor.interaction_id)


async def give_link(store: Store, actor: Actor, *, base_url: str, language: str, revoke: bool) -> str:
    """/board link:True: a new link to the server's player view, shown once to the GM asking (only the
    token's digest is stored); ``revoke``: every link given before stops working at the commit."""
    if not base_url:
        raise UserError(
            "The player view is not set up on this bot: its operator sets "
            "WEB_BASE_URL and WEB_PORT (docs/player-view.md). /board alone posts the "
            "board in this channel."
        )
    token = secrets.token_urlsafe(TOKEN_BYTES)

    def work(tx: Transaction) -> None:
        actor.require_gm(tx.ruleset())
        tx.give_view_link(digest(token), language, revoke=revoke)
        record(tx, actor, LinkGiven(revoked=revoke))

    await store.run(actor.guild_id, work, interaction=actor.interaction_id)
    return f"{base_url.rstrip('/')}/{token}"
