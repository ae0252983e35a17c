"""A unit of work in one server: check -> load -> rules -> save -> record, in one transaction.

A :class:`Transaction` is handed to the work function of :meth:`bot.storage.Store.run`, which runs it
whole on the thread that holds the connection: every method is a plain call, every statement goes to
the database at once, ids come back from it (``RETURNING``).

The transaction remembers, for the next :meth:`Transaction.record`, the state before the change of
everything it touched: a character the first time it is loaded, saved or deleted (``None`` when
created here), the ruleset when saved, the active character of a player when changed. The event
stores that snapshot, and ``/undo`` puts it back.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from pydantic import ValidationError

from bot.errors import UserError
from bot.history import Event
from bot.rules.character import Character
from bot.rules.ruleset import Ruleset
from bot.storage import active, characters, events, export, player_views, settings, undo
from bot.storage.codec import CharacterSnapshot, name_key
from bot.storage.sql import Sql


class Reader:
    """What can be looked up in one server, inside a unit of work or in a plain read."""

    def __init__(self, sql: Sql, guild_id: int) -> None:
        self._current: Sql | None = sql
        self.guild_id = guild_id

    @property
    def sql(self) -> Sql:
        if self._current is None:
            raise RuntimeError("this transaction is over: use it inside its work function")
        return self._current

    def end(self) -> None:
        """Called by the store when the work is done: the transaction can no longer be used."""
        self._current = None

    def ruleset(self) -> Ruleset:
        stored = settings.load_ruleset(self.sql, self.guild_id)
        return Ruleset() if stored is None else stored

    def character(self, character_id: int) -> Character:
        return characters.load(self.sql, self.guild_id, character_id)

    def character_by_name(self, name: str) -> Character:
        return characters.load_by_name(self.sql, self.guild_id, name)

    def active_character(self, user_id: int) -> Character | None:
        return characters.load_active(self.sql, self.guild_id, user_id)

    def characters(self) -> list[Character]:
        """Every living character of the server, by name."""
        return characters.load_all(self.sql, self.guild_id)

    def matching(
        self, text: str, *, owner_id: int | None = None, limit: int = 25, npcs: bool = False
    ) -> list[Character]:
        """Living characters (of ``owner_id``; NPCs only with ``npcs``) whose name contains ``text``,
        prefix matches first: what autocomplete offers."""
        found = characters.search(self.sql, self.guild_id, text, owner_id=owner_id, limit=limit, npcs=npcs)
        loaded = {c.id: c for c in characters.load_many(self.sql, self.guild_id, [cid for cid, _ in found])}
        return [loaded[cid] for cid, _ in found if cid in loaded]

    def deleted_characters(self, ref: str, *, limit: int = 1) -> list[tuple[int, str]]:
        """(id, name) of deleted characters ``ref`` names (id, or name or its start), latest first."""
        return characters.deleted(self.sql, self.guild_id, ref, limit=limit)


class _Unknown:
    """Not looked up yet (distinct from ``None``, which means "no stored ruleset")."""


_UNKNOWN = _Unknown()


class Transaction(Reader):
    def __init__(self, sql: Sql, guild_id: int, now: str) -> None:
        super().__init__(sql, guild_id)
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

    # ---- ruleset ---------------------------------------------------------------------------------

    def _stored_ruleset(self) -> Ruleset | None:
        if isinstance(self._ruleset, _Unknown):
            self._ruleset = settings.load_ruleset(self.sql, self.guild_id)
        return self._ruleset

    def ruleset(self) -> Ruleset:
        stored = self._stored_ruleset()
        return Ruleset() if stored is None else stored

    def save_ruleset(self, ruleset: Ruleset) -> None:
        try:  # model_copy(update=...) skips validation: check again what is stored
            checked = Ruleset.model_validate_json(ruleset.model_dump_json())
        except ValidationError as exc:
            lines = [f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors(include_url=False)]
            raise UserError("ruleset_invalid", errors="\n".join(lines)[:1500]) from None
        stored = self._stored_ruleset()
        if isinstance(self._ruleset_before, _Unknown):
            self._ruleset_before = stored
        settings.save_ruleset(self.sql, self.guild_id, checked, self.now)
        self._ruleset = checked
        self.ruleset_changed = True

    # ---- characters ------------------------------------------------------------------------------

    def _touch(self, character: Character) -> Character:
        assert character.id is not None
        self._known[character.id] = character
        if character.id not in self._before:
            self._before[character.id] = CharacterSnapshot.of(character)
        return character

    def character(self, character_id: int) -> Character:
        known = self._known.get(character_id)
        return self._touch(known if known is not None else super().character(character_id))

    def character_by_name(self, name: str) -> Character:
        found = super().character_by_name(name)
        assert found.id is not None
        return self._touch(self._known.get(found.id, found))

    def active_character(self, user_id: int) -> Character | None:
        found = super().active_character(user_id)
        if found is None:
            return None
        assert found.id is not None
        return self._touch(self._known.get(found.id, found))

    def characters(self) -> list[Character]:
        """Every character of the server, by name. Only those saved afterwards count as touched."""
        # Remembered (not snapshotted): saving one later needs no second load.
        return [self._known.setdefault(c.id, c) if c.id is not None else c for c in super().characters()]

    def save_character(self, character: Character) -> Character:
        """Save; returns it with the ids the database gave (its own, its new wounds')."""
        if character.id is None:
            fresh = replace(character, guild_id=self.guild_id, created_at=character.created_at or self.now)
            saved = characters.insert(self.sql, fresh)
            assert saved.id is not None
            self._before.setdefault(saved.id, None)
        else:
            known = self.character(character.id)
            saved = characters.update(self.sql, self.guild_id, character, known)
        assert saved.id is not None
        self._known[saved.id] = saved
        return saved

    def delete_character(self, character: Character) -> None:
        """Delete (recoverable by undo); if it was its owner's active character, the owner's most
        recently created remaining character becomes active."""
        if character.id is None:
            raise characters.not_found()
        known = self.character(character.id)
        assert known.id is not None
        players = active.users_of(self.sql, self.guild_id, known.id)
        characters.soft_delete(self.sql, self.guild_id, [known.id], self.now)
        del self._known[known.id]
        for user_id in players:
            self._note_active(user_id, known.id)
            successor = None
            if user_id == known.owner_id:
                successor = active.most_recent(self.sql, self.guild_id, user_id)
            active.put_many(self.sql, self.guild_id, {user_id: successor})
            self._active[user_id] = successor

    # ---- active character ------------------------------------------------------------------------

    def _note_active(self, user_id: int, current: int | None) -> None:
        self._active_before.setdefault(user_id, current)

    def set_active(self, user_id: int, character_id: int) -> None:
        if character_id not in self._known and not characters.exists(
            self.sql, self.guild_id, character_id, deleted_too=False
        ):
            raise characters.not_found(id=character_id)
        if user_id not in self._active:
            self._active[user_id] = active.active_id(self.sql, self.guild_id, user_id)
        self._note_active(user_id, self._active[user_id])
        active.put_many(self.sql, self.guild_id, {user_id: character_id})
        self._active[user_id] = character_id

    # ---- history ---------------------------------------------------------------------------------

    def record(
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
        event = events.insert(
            self.sql,
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
        self._before, self._ruleset_before, self._active_before = {}, _UNKNOWN, {}
        return event

    def _forget(self) -> None:
        """Drop what this transaction knew: the database changed behind its back (undo)."""
        self._known.clear()
        self._active.clear()
        self._ruleset = _UNKNOWN
        self._before, self._ruleset_before, self._active_before = {}, _UNKNOWN, {}

    def give_view_link(self, token_sha256: str, language: str, *, revoke: bool) -> None:
        """A new player-view link (its token's digest); ``revoke``: the server's others stop working."""
        if revoke:
            player_views.revoke_all(self.sql, self.guild_id)
        player_views.add(self.sql, self.guild_id, token_sha256, language, self.now)

    def undo(self, actor_id: int | None, character_id: int | None = None) -> Event:
        event, ruleset_changed = undo.undo(self.sql, self.guild_id, actor_id, character_id, self.now)
        self.ruleset_changed = self.ruleset_changed or ruleset_changed
        self._forget()
        return event

    # ---- import ----------------------------------------------------------------------------------

    def import_guild(self, data: bytes, actor_id: int | None) -> dict[str, int]:
        """Replace the server's characters, active characters and ruleset with an export's.

        All or nothing; recorded as one ``import`` event, which ``/undo`` reverts like any other
        (the replaced characters come back with their ids, wounds and history).
        """
        document = export.parse_import(data, self.guild_id)
        sql, guild_id = self.sql, self.guild_id
        replaced = characters.load_all(sql, guild_id)
        for old in replaced:
            self._touch(old)
        previous = active.all_active(sql, guild_id)
        characters.soft_delete(sql, guild_id, [c.id for c in replaced if c.id is not None], self.now)
        active.put_many(sql, guild_id, dict.fromkeys(previous))
        for user_id, character_id in previous.items():
            self._note_active(user_id, character_id)
            self._active[user_id] = None
        created = characters.insert_many(sql, export.imported_characters(document, guild_id, self.now))
        by_key = {name_key(c.name): c.id for c in created if c.id is not None}
        choices = {a.user_id: by_key[name_key(a.character)] for a in document.active}
        active.put_many(sql, guild_id, dict(choices))
        for user_id, character_id in choices.items():
            self._note_active(user_id, None)
            self._active[user_id] = character_id
        for c in created:
            if c.id is not None:
                self._before[c.id] = None
        for old in replaced:
            if old.id is not None:
                self._known.pop(old.id, None)
        self.save_ruleset(document.ruleset)
        counts = {
            "characters": len(created),
            "wounds": sum(len(c.wounds) for c in created),
            "replaced": len(replaced),
        }
        self.record("import", actor_id, details=dict(counts))
        return counts
