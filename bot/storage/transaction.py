"""What a unit of work (:meth:`bot.storage.Store.run`) reads and writes in one server.

A :class:`Transaction` remembers, for the next :meth:`Transaction.record`, the state before the change of
everything it touched: a character the first time it is loaded, saved or deleted (``None`` when
created here), the ruleset when saved, the active character of a player when changed. The event
stores that snapshot, and ``/undo`` puts it back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from bot.history import Event
from bot.rules.character import Character
from bot.rules.ruleset import Ruleset
from bot.storage import active, boards, characters, events, player_views, search, settings, undo
from bot.storage.boards import Board
from bot.storage.sql import Sql
from bot.storage.undo import Snapshot


class Reader:
    """What can be looked up in one server, inside a unit of work or in a plain read. Every method is
    scoped by the server: an id of another server's character is "not found", like an unknown id."""

    def __init__(self, sql: Sql, guild_id: int) -> None:
        self._current: Sql | None = sql
        self.guild_id = guild_id

    @property
    def sql(self) -> Sql:
        if self._current is None:  # kept past its work function, its connection serves others now
            raise RuntimeError("this transaction is over: use it inside its work function")
        return self._current

    def end(self) -> None:
        self._current = None

    def ruleset(self) -> Ruleset:
        """Read every time: another process sharing the database may have changed it."""
        stored = settings.load_ruleset(self.sql, self.guild_id)
        return Ruleset() if stored is None else stored

    def character(self, character_id: int) -> Character:
        return characters.load(self.sql, self.guild_id, character_id)

    def character_by_name(self, name: str) -> Character:
        return characters.load_by_name(self.sql, self.guild_id, name)

    def active_character(self, user_id: int) -> Character | None:
        return characters.load_active(self.sql, self.guild_id, user_id)

    def characters(self) -> list[Character]:
        """The living characters, by name."""
        return characters.load_all(self.sql, self.guild_id)

    def with_healed_wounds(self) -> list[Character]:
        """The living characters with their healed wounds too (the export)."""
        return characters.load_all(self.sql, self.guild_id, every_wound=True)

    def actives(self) -> dict[int, int]:
        """user id -> active character id."""
        return active.all_active(self.sql, self.guild_id)

    def newest_character(self, owner_id: int) -> int | None:
        return active.most_recent(self.sql, self.guild_id, owner_id)

    def npc_ids(self) -> list[int]:
        return characters.npc_ids(self.sql, self.guild_id)

    def matching(
        self, text: str, *, owner_id: int | None = None, limit: int = 25, npcs: bool = False
    ) -> list[Character]:
        """Living characters (of ``owner_id``; NPCs only with ``npcs``) whose name contains ``text``,
        prefix matches first: what autocomplete offers."""
        found = search.search(self.sql, self.guild_id, text, owner_id=owner_id, limit=limit, npcs=npcs)
        loaded = {c.id: c for c in characters.load_many(self.sql, self.guild_id, found)}
        return [loaded[cid] for cid in found if cid in loaded]  # READ COMMITTED: one may be gone

    def deleted_characters(self, ref: str, *, limit: int = 1) -> list[tuple[int, str]]:
        """(id, name) of deleted characters ``ref`` names (id, or name or its start), latest first."""
        return search.deleted(self.sql, self.guild_id, ref, limit=limit)

    def history(self, character_id: int | None, *, page: int, per_page: int) -> tuple[list[Event], int]:
        """One page of events (touching one character, even deleted), newest first, and how many
        there are in all."""
        offset = (page - 1) * per_page
        found = events.page(self.sql, self.guild_id, character_id, limit=per_page, offset=offset)
        return found, events.count(self.sql, self.guild_id, character_id)

    def boards(self) -> list[Board]:
        return boards.of_guild(self.sql, self.guild_id)


class Transaction(Reader):
    def __init__(self, sql: Sql, guild_id: int, now: str) -> None:
        super().__init__(sql, guild_id)
        self.now = now
        """The time of this unit of work (the store's clock): every time it writes."""
        # Current state, as this transaction has seen or written it.
        self._known: dict[int, Character] = {}
        # Before-state for the next record(); the ruleset's when it was saved (None: the defaults).
        self._before: dict[int, Snapshot | None] = {}
        self._ruleset_saved = False
        self._ruleset_before: Ruleset | None = None
        self._active_before: dict[int, int | None] = {}

    def save_ruleset(self, ruleset: Ruleset) -> None:
        if not self._ruleset_saved:
            self._ruleset_before = settings.load_ruleset(self.sql, self.guild_id)
            self._ruleset_saved = True
        settings.save_ruleset(self.sql, self.guild_id, ruleset, self.now)

    # ---- characters ------------------------------------------------------------------------------

    def _touch(self, character: Character) -> Character:
        assert character.id is not None
        self._known[character.id] = character
        if character.id not in self._before:
            self._before[character.id] = Snapshot.of(character)
        return character

    def _seen(self, found: Character) -> Character:
        """``found`` as this transaction knows it (it may have changed it), touched."""
        assert found.id is not None
        return self._touch(self._known.get(found.id, found))

    def character(self, character_id: int) -> Character:
        known = self._known.get(character_id)
        return self._touch(known if known is not None else super().character(character_id))

    def character_by_name(self, name: str) -> Character:
        return self._seen(super().character_by_name(name))

    def active_character(self, user_id: int) -> Character | None:
        found = super().active_character(user_id)
        return None if found is None else self._seen(found)

    def characters(self) -> list[Character]:
        """Every character of the server, by name. Only those saved afterwards count as touched."""
        # Remembered (not snapshotted): saving one later needs no second load.
        return [self._known.setdefault(c.id, c) if c.id is not None else c for c in super().characters()]

    def save_character(self, character: Character) -> Character:
        """Save; returns it with the ids the database gave (its own, its new wounds')."""
        if character.id is None:
            return self.create_characters([character])[0]
        known = self.character(character.id)
        saved = characters.update(self.sql, self.guild_id, character, known)
        self._known[character.id] = saved
        return saved

    def create_characters(self, new: Sequence[Character]) -> list[Character]:
        """Insert new characters (an import: many at once); they come back with their ids."""
        fresh = [replace(c, guild_id=self.guild_id, created_at=c.created_at or self.now) for c in new]
        created = characters.insert(self.sql, fresh)
        for saved in created:
            assert saved.id is not None
            self._before.setdefault(saved.id, None)
            self._known[saved.id] = saved
        return created

    def delete_characters(self, doomed: Sequence[Character]) -> None:
        """Delete (recoverable by undo); the players whose active character one of them was are left
        without one."""
        gone: list[int] = []
        for character in doomed:
            if character.id is None:
                raise characters.not_found()
            self.character(character.id)  # snapshotted; not found when deleted meanwhile
            gone.append(character.id)
        doomed_ids = set(gone)
        players = {user: cid for user, cid in self.actives().items() if cid in doomed_ids}
        characters.soft_delete(self.sql, self.guild_id, gone, self.now)
        active.put_many(self.sql, self.guild_id, dict.fromkeys(players))
        for user_id, character_id in players.items():
            self._active_before.setdefault(user_id, character_id)
        for character_id in gone:
            del self._known[character_id]

    # ---- active character ------------------------------------------------------------------------

    def set_active(self, user_id: int, character_id: int) -> None:
        if character_id not in self._known and not characters.exists(
            self.sql, self.guild_id, character_id, deleted_too=False
        ):
            raise characters.not_found()
        if user_id not in self._active_before:
            self._active_before[user_id] = active.active_id(self.sql, self.guild_id, user_id)
        active.put_many(self.sql, self.guild_id, {user_id: character_id})

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
        snapshot: dict[str, Any] = {
            "characters": {
                str(cid): None if s is None else s.model_dump(mode="json") for cid, s in self._before.items()
            }
        }
        if self._ruleset_saved:
            before = self._ruleset_before
            snapshot["ruleset"] = None if before is None else before.model_dump(mode="json")
        if self._active_before:
            snapshot["active"] = {
                str(user): [before_id, active.active_id(self.sql, self.guild_id, user)]
                for user, before_id in self._active_before.items()
            }
        links = (
            set(self._before) if character is None or character.id is None else {*self._before, character.id}
        )
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
            touches_ruleset=self._ruleset_saved,
            links=links,
        )
        self._before, self._ruleset_saved, self._active_before = {}, False, {}
        return event

    # ---- undo (what to revert, and the refusals, are the action's: bot/actions/undoing.py) ----------

    def latest_undoable(self, character_id: int | None) -> events.Undoable | None:
        return events.latest_undoable(self.sql, self.guild_id, character_id)

    def blocker(self, target: events.Undoable) -> Event | None:
        return events.blocker(self.sql, self.guild_id, target)

    def revert(self, target: events.Undoable) -> set[int]:
        """Put back what ``target`` changed; the players whose active character this set back or
        removed."""
        players = undo.revert(self.sql, self.guild_id, target, self.now)
        self._forget()  # the database changed behind this transaction's back
        return players

    def record_undo(self, actor_id: int | None, target: events.Undoable) -> Event:
        reverted = target.event
        event = events.insert(
            self.sql,
            guild_id=self.guild_id,
            kind=events.UNDO,
            actor_id=actor_id,
            at=self.now,
            character_id=reverted.character_id,
            character_name=reverted.character_name,
            details={
                "kind": reverted.kind,
                "character_name": reverted.character_name,
                "event_details": reverted.details,
                "event_id": reverted.id,
                "event_at": reverted.at,
                "restored": target.restored,
            },
            snapshot=None,
            touches_ruleset=False,
            links=target.links,
            undoes=reverted.id,
        )
        self._forget()
        return event

    def _forget(self) -> None:
        self._known.clear()
        self._before, self._ruleset_saved, self._active_before = {}, False, {}

    # ---- player views and boards -----------------------------------------------------------------

    def give_view_link(self, token_sha256: str, language: str, *, revoke: bool) -> None:
        """``revoke``: the server's other links stop working."""
        if revoke:
            player_views.revoke_all(self.sql, self.guild_id)
        player_views.add(self.sql, self.guild_id, token_sha256, language, self.now)

    # A board's message is the bot's own bookkeeping, not a change of the game: saved or deleted in a
    # unit run with ``quiet=True``. Its NPCs show on the player views: a change of them is not quiet.

    def save_board(self, channel_id: int, message_id: int) -> None:
        boards.put(self.sql, self.guild_id, channel_id, message_id, self.now)

    def delete_board(self, channel_id: int, message_id: int) -> None:
        boards.remove(self.sql, self.guild_id, channel_id, message_id)

    def show_on_board(self, channel_id: int, character_id: int, *, shown: bool) -> None:
        boards.set_npc(self.sql, self.guild_id, channel_id, character_id, shown=shown)
