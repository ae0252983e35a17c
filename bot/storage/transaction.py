"""A unit of work in one server: everything between ``BEGIN IMMEDIATE`` and ``COMMIT``.

The transaction remembers, for the next :meth:`Transaction.record`, the state before the change of
everything it touched: a character the first time it is loaded, saved or deleted (``None`` when created
here), the ruleset when saved, the active character of a player when changed. The event stores that
snapshot, and ``/undo`` puts it back. Record once the change is made (the usual order is
check -> load -> rules -> save -> record).

It works through a :class:`~bot.storage.unit.Unit`: reads go to the database at once (``BEGIN
IMMEDIATE`` with the first), writes (characters saved, active characters, ruleset, the event) are
queued and sent with the next read or with ``COMMIT``; the ids of new rows are chosen here, under the
write lock. A write that fails (a name taken) raises from that next read or from the commit, and
rolls everything back. Undo, import and delete run their own statements on the connection.
"""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

from pydantic import ValidationError

from bot.errors import UserError
from bot.history import Event
from bot.rules.character import Character
from bot.rules.ruleset import Ruleset
from bot.storage import active, characters, events, export, settings, undo
from bot.storage.codec import CharacterSnapshot, name_key
from bot.storage.unit import Unit

log = logging.getLogger(__name__)


class _Unknown:
    """Not looked up yet (distinct from ``None``, which means "no stored ruleset")."""


_UNKNOWN = _Unknown()


class Transaction:
    def __init__(self, unit: Unit, guild_id: int, cache: settings.RulesetCache, now: str) -> None:
        self._current: Unit | None = unit
        self.guild_id = guild_id
        self._cache = cache
        self.now = now
        """The time of this unit of work (the store's clock): every time it writes."""
        self.ruleset_changed = False
        # Current state, as this transaction has seen or written it.
        self._known: dict[int, Character] = {}
        self._ruleset: Ruleset | _Unknown | None = _UNKNOWN
        self._active: dict[int, int | None] = {}
        # Before-state for the next record().
        self._before: dict[int, CharacterSnapshot | None] = {}
        self._ruleset_before: Ruleset | _Unknown | None = _UNKNOWN
        self._active_before: dict[int, int | None] = {}

    @property
    def _unit(self) -> Unit:
        if self._current is None:
            raise RuntimeError("this transaction is over: use it inside its 'async with' block")
        return self._current

    def end(self) -> None:
        """Called by the store when the block exits: the transaction can no longer be used."""
        self._current = None

    # ---- ruleset ---------------------------------------------------------------------------------

    async def _stored_ruleset(self) -> Ruleset | None:
        if isinstance(self._ruleset, _Unknown):
            generation = self._cache.generation
            stored = await settings.load_ruleset(self._unit, self.guild_id)
            self._ruleset = stored
            if not self.ruleset_changed:
                # The committed ruleset (nobody else writes while this transaction runs): the next
                # command of this server needs no query for it.
                self._cache.offer(self.guild_id, Ruleset() if stored is None else stored, generation)
        return self._ruleset

    async def ruleset(self) -> Ruleset:
        if isinstance(self._ruleset, _Unknown) and self._unit.optimistic:
            cached = self._cache.get(self.guild_id)
            if cached is not None:
                # An optimistic unit checks at its commit that it is still the stored one. A locked
                # unit reads it: another process may have changed it (a cached ruleset never
                # authorises a write unchecked).
                self._unit.check(partial(settings.ruleset_is, guild_id=self.guild_id, ruleset=cached))
                return cached
        stored = await self._stored_ruleset()
        return Ruleset() if stored is None else stored

    async def save_ruleset(self, ruleset: Ruleset) -> None:
        try:  # model_copy(update=...) skips validation: check again what is stored
            checked = Ruleset.model_validate_json(ruleset.model_dump_json())
        except ValidationError as exc:
            lines = [f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors(include_url=False)]
            raise UserError("ruleset_invalid", errors="\n".join(lines)[:1500]) from None
        stored = await self._stored_ruleset()
        if isinstance(self._ruleset_before, _Unknown):
            self._ruleset_before = stored
        self._unit.defer(
            partial(
                settings.write_ruleset,
                guild_id=self.guild_id,
                ruleset_json=checked.model_dump_json(),
                now=self.now,
            )
        )
        self._ruleset = checked
        self.ruleset_changed = True

    # ---- characters ------------------------------------------------------------------------------

    def _touch(self, character: Character) -> Character:
        assert character.id is not None
        self._known[character.id] = character
        if character.id not in self._before:
            self._before[character.id] = CharacterSnapshot.of(character)
        return character

    async def character(self, character_id: int) -> Character:
        known = self._known.get(character_id)
        if known is None:
            known = await characters.load(self._unit, self.guild_id, character_id)
        return self._touch(known)

    async def character_by_name(self, name: str) -> Character:
        found = await characters.load_by_name(self._unit, self.guild_id, name)
        assert found.id is not None
        return self._touch(self._known.get(found.id, found))

    async def active_character(self, user_id: int) -> Character | None:
        found = await characters.load_active(self._unit, self.guild_id, user_id)
        if found is None:
            return None
        assert found.id is not None
        return self._touch(self._known.get(found.id, found))

    async def characters(self) -> list[Character]:
        """Every character of the server, by name. Only those saved afterwards count as touched."""
        found = await characters.load_all(self._unit, self.guild_id)
        # Remembered (not snapshotted): saving one later needs no second load.
        return [self._known.setdefault(c.id, c) if c.id is not None else c for c in found]

    async def save_character(self, character: Character) -> Character:
        """Save (written with the next statement or the commit); returns it with its ids."""
        unit, guild_id = self._unit, self.guild_id
        if character.id is None:
            character_id = await unit.allocate("characters")
            first = await unit.allocate("wounds", characters.fresh_wounds(character))
            saved = characters.prepare_insert(guild_id, character, self.now, character_id, first)
            unit.defer(partial(characters.write_insert, character=saved))
            self._before.setdefault(character_id, None)
        else:
            known = await self.character(character.id)
            saved = characters.prepare_update(guild_id, character, known)
            fresh = characters.fresh_wounds(saved)
            if fresh:
                saved = characters.with_wound_ids(saved, await unit.allocate("wounds", fresh))
            unit.defer(partial(characters.write_update, guild_id=guild_id, saved=saved, known=known))
        assert saved.id is not None
        self._known[saved.id] = saved
        return saved

    async def delete_character(self, character: Character) -> None:
        """Delete (recoverable by undo); if it was its owner's active character, the owner's most
        recently created remaining character becomes active."""
        if character.id is None:
            raise characters.not_found()
        known = await self.character(character.id)
        assert known.id is not None
        conn = await self._unit.connection()
        players = await active.users_of(conn, self.guild_id, known.id)
        await characters.soft_delete(conn, self.guild_id, [known.id], self.now)
        del self._known[known.id]
        for user_id in players:
            self._note_active(user_id, known.id)
            successor = None
            if user_id == known.owner_id:
                successor = await active.most_recent(conn, self.guild_id, user_id)
            await active.put(conn, self.guild_id, user_id, successor)
            self._active[user_id] = successor

    # ---- active character ------------------------------------------------------------------------

    def _note_active(self, user_id: int, current: int | None) -> None:
        self._active_before.setdefault(user_id, current)

    async def set_active(self, user_id: int, character_id: int) -> None:
        if character_id not in self._known and not await characters.exists(
            self._unit, self.guild_id, character_id, deleted_too=False
        ):
            raise characters.not_found(id=character_id)
        if user_id not in self._active:
            self._active[user_id] = await active.active_id(self._unit, self.guild_id, user_id)
        self._note_active(user_id, self._active[user_id])
        self._unit.defer(
            partial(active.write_put, guild_id=self.guild_id, user_id=user_id, character_id=character_id)
        )
        self._active[user_id] = character_id

    # ---- history ---------------------------------------------------------------------------------

    async def record(
        self,
        kind: str,
        actor_id: int | None,
        *,
        character: Character | None = None,
        details: dict[str, object] | None = None,
    ) -> Event:
        """Record the change made so far, with the before-state of all it touched (for undo)."""
        if kind == events.UNDO:
            raise ValueError("undo events are recorded by Transaction.undo")
        if character is not None and character.id is None:
            raise ValueError("record() needs a saved character (save_character first)")
        snapshot: dict[str, Any] = {
            "characters": {str(cid): None if s is None else s.to_json() for cid, s in self._before.items()}
        }
        touches_ruleset = not isinstance(self._ruleset_before, _Unknown)
        if not isinstance(self._ruleset_before, _Unknown):
            before = self._ruleset_before
            snapshot["ruleset"] = None if before is None else before.model_dump(mode="json")
        if self._active_before:
            snapshot["active"] = {
                str(user): [before_id, self._active.get(user)]
                for user, before_id in self._active_before.items()
            }
        links = set(self._before)
        if character is not None and character.id is not None:
            links.add(character.id)
        pending = events.prepare(
            event_id=await self._unit.allocate("events"),
            guild_id=self.guild_id,
            kind=kind,
            actor_id=actor_id,
            at=self.now,
            character_id=None if character is None else character.id,
            character_name=None if character is None else character.name,
            details=details or {},
            snapshot=snapshot,
            touches_ruleset=touches_ruleset,
            links=links,
        )
        self._unit.defer(partial(events.write, pending=pending))
        self._before, self._ruleset_before, self._active_before = {}, _UNKNOWN, {}
        return pending.event

    def _forget(self) -> None:
        """Drop what this transaction knew: the database changed behind its back (undo, import)."""
        self._known.clear()
        self._active.clear()
        self._ruleset = _UNKNOWN
        self._before, self._ruleset_before, self._active_before = {}, _UNKNOWN, {}

    async def undo(self, actor_id: int | None, character_id: int | None = None) -> Event:
        conn = await self._unit.connection()
        event, ruleset_changed = await undo.undo(conn, self.guild_id, actor_id, character_id, self.now)
        self.ruleset_changed = self.ruleset_changed or ruleset_changed
        self._forget()
        return event

    # ---- import ----------------------------------------------------------------------------------

    async def import_guild(self, data: bytes, actor_id: int | None) -> dict[str, int]:
        """Replace the server's characters, active characters and ruleset with an export's.

        All or nothing; recorded as one ``import`` event, which ``/undo`` reverts like any other
        (the replaced characters come back with their ids, wounds and history).
        """
        document = export.parse_import(data, self.guild_id)
        conn, guild_id = await self._unit.connection(), self.guild_id
        replaced = await characters.load_all(conn, guild_id)
        for old in replaced:
            self._touch(old)
        previous = await active.all_active(conn, guild_id)
        await characters.soft_delete(conn, guild_id, [c.id for c in replaced if c.id is not None], self.now)
        await active.put_many(conn, guild_id, dict.fromkeys(previous))
        for user_id, character_id in previous.items():
            self._note_active(user_id, character_id)
            self._active[user_id] = None
        first_id = await characters.next_id(conn)
        created = export.imported_characters(document, guild_id, first_id, self.now)
        if created:
            await characters.insert_many(conn, created)
        ids = {c.name: c.id for c in created if c.id is not None}
        by_key = {name_key(name): cid for name, cid in ids.items()}
        choices = {a.user_id: by_key[name_key(a.character)] for a in document.active}
        await active.put_many(conn, guild_id, dict(choices))
        for user_id, character_id in choices.items():
            self._note_active(user_id, None)
            self._active[user_id] = character_id
        for cid in ids.values():
            self._before[cid] = None
            self._known.pop(cid, None)
        for old in replaced:
            if old.id is not None:
                self._known.pop(old.id, None)
        await self.save_ruleset(document.ruleset)
        counts = {
            "characters": len(created),
            "wounds": sum(len(c.wounds) for c in created),
            "replaced": len(replaced),
        }
        await self.record("import", actor_id, details=dict(counts))
        return counts
