"""What a unit of work holds: its connection (:class:`Sql`), a character's columns and rows, and one
server's queries (:class:`Reader`, :class:`Transaction`): another server's character is "not found".
Deleted characters stay (undo brings them back): "present" means not deleted (dead ones included).

A :class:`Transaction` keeps the state before the change of all it touched, for the event and /undo::

    {"characters": {"<id>": <kept(character) JSON> | null},  # null: created by the event
     "ruleset": <Ruleset JSON> | null,  # only when the event changed it; null: none was stored
     "active": {"<user id>": [<before id | null>, <after id | null>]}}
"""

from __future__ import annotations

import json
import sqlite3
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from functools import lru_cache
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from pydantic import TypeAdapter, ValidationError

from bot.history import Event, EventKind, Recordable, details_json
from bot.rules.character import Character, Wound, closest, loose_key, name_key, name_taken, not_found
from bot.rules.ruleset import Ruleset
from bot.rules.severity import Severity, Track
from bot.storage.errors import StorageError

if TYPE_CHECKING:  # psycopg is imported only by a PostgreSQL database (it costs ≈ 11 MB resident)
    import psycopg

Dialect = Literal["sqlite", "postgres"]
Row = tuple[Any, ...]


@dataclass(frozen=True)
class Board:  # a live party board: one message per channel, and the NPCs a GM added to it
    guild_id: int
    channel_id: int
    message_id: int
    npc_ids: tuple[int, ...] = ()


class UniqueViolation(Exception):
    """A unique key (a character's name in its server) is already taken."""


class Sql:
    """A ``sqlite3`` or ``psycopg`` connection: one SQL text for both (``?`` placeholders), plain tuples."""

    def __init__(self, raw: sqlite3.Connection | psycopg.Connection[Any], dialect: Dialect) -> None:
        self.raw = raw
        self.dialect: Dialect = dialect
        self._unique: type[Exception] = (
            sqlite3.IntegrityError if dialect == "sqlite" else sys.modules["psycopg"].errors.UniqueViolation
        )

    def _execute(self, sql: str, params: Any, *, many: bool = False) -> Any:
        # Our statements hold no '?' or '%' of their own (LIKE patterns are parameters).
        text = sql if self.dialect == "sqlite" else sql.replace("?", "%s")
        try:
            return self.raw.cursor().executemany(text, params) if many else self.raw.execute(text, params)
        except self._unique as exc:  # any other SQLite integrity error stays as it is
            unique = not isinstance(exc, sqlite3.IntegrityError) or "UNIQUE" in str(exc)
            raise UniqueViolation(str(exc)) if unique else exc from None

    def rows(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        rows: list[Row] = self._execute(sql, params).fetchall()
        return rows

    def row(self, sql: str, params: Sequence[object] = ()) -> Row | None:
        found = self.rows(sql, params)
        return found[0] if found else None

    def run(self, sql: str, params: Sequence[object] = ()) -> int:
        """A statement without rows; how many rows it changed."""
        return int(self._execute(sql, params).rowcount)

    def run_many(self, sql: str, params: Iterable[Sequence[object]]) -> None:
        self._execute(sql, list(params), many=True)


# The character's own columns, by the name of its field (a maxima field is three columns), its id
# first; what an undo snapshot keeps of it (with its wounds' state: ``[id, current, fatal]``).
FIELDS = ("id", *(f.name for f in fields(Character) if f.name not in ("id", "wounds")))
KEPT = tuple(name for name in FIELDS if name != "guild_id")
CHANGEABLE = tuple(name for name in FIELDS if name not in ("id", "guild_id", "created_at"))
_CHANGEABLE_OF = attrgetter(*CHANGEABLE)  # their values, compared before an UPDATE


def _columns(name: str) -> list[str]:
    return [f"{name}_{rank}" for rank in ("low", "mid", "high")] if name.endswith("_max") else [name]


SELECT_EVERY_WOUND = (
    "SELECT "
    + ", ".join(f"c.{column}" for name in FIELDS for column in _columns(name))
    + ", w.id, w.track, w.inflicted_severity, w.current_severity, w.fatal, w.note, w.inflicted_by, "
    "w.inflicted_at FROM characters c LEFT JOIN wounds w ON w.character_id = c.id "
)
COUNTS = "(w.current_severity IS NOT NULL OR w.fatal = 1)"  # held, or the blow that killed
SELECT = SELECT_EVERY_WOUND + f"AND {COUNTS} "
_WIDTH = sum(len(_columns(name)) for name in FIELDS)  # the character's columns of a row; the wound's follow
SET = ", ".join(f"{column} = ?" for name in CHANGEABLE for column in _columns(name)) + ", name_key = ?"
INSERTED = ", ".join([*(column for name in FIELDS[1:] for column in _columns(name)), "name_key"])
WOUND_COLUMNS = (
    "character_id, track, inflicted_severity, current_severity, fatal, note, inflicted_by, inflicted_at"
)
_CHUNK = 500  # rows per statement, far below either database's limit on bound parameters

T = TypeVar("T")


def storable(character_id: int) -> bool:
    """Whether ``character_id`` fits a 64-bit id: a larger one (a forged button) is simply not found."""
    return 0 < character_id < 2**63


def chunks(items: Sequence[T]) -> Iterable[Sequence[T]]:
    for start in range(0, len(items), _CHUNK):
        yield items[start : start + _CHUNK]


def _values(character: Character, names: Iterable[str]) -> list[object]:
    """The values of the columns of ``names``, then the name's key."""
    found: list[object] = []
    for name in names:
        value = getattr(character, name)
        found.extend(value) if name.endswith("_max") else found.append(value)
    return [*found, name_key(character.name)]


def _wound_row(cid: int, w: Wound) -> tuple[object, ...]:
    current = None if w.current is None else int(w.current)
    return (cid, w.track.value, int(w.inflicted), current, int(w.fatal), w.note, w.inflicted_by, w.at)


def _wound(row: Row) -> Wound:
    wid, track, inflicted, current, fatal, note, by, at = row[_WIDTH:]
    current = None if current is None else Severity(current)
    return Wound(Track(track), Severity(inflicted), current, note, by, at, bool(fatal), wid)


_AT = [
    (name, sum(len(_columns(n)) for n in FIELDS[:i]), name.endswith("_max")) for i, name in enumerate(FIELDS)
]


def _character(row: Row, wounds: tuple[Wound, ...]) -> Character:
    values: dict[str, Any] = {
        name: tuple(row[at : at + 3]) if triple else row[at] for name, at, triple in _AT
    }
    return Character(**values, wounds=wounds)


def from_rows(rows: Iterable[Row]) -> list[Character]:
    """Characters from the rows of :data:`SELECT`, in row order."""
    found: dict[int, tuple[Row, list[Wound]]] = {}
    for row in rows:
        _, wounds = found.setdefault(row[0], (row, []))
        if row[_WIDTH] is not None:
            wounds.append(_wound(row))
    return [_character(head, tuple(wounds)) for head, wounds in found.values()]


# What of a wound can change after it was inflicted. Wound rows are never removed except by undo
# (healed wounds stay): restoring deletes the wounds added since, and resets the others'.
WoundState = tuple[int, Severity | None, bool]
_STATES: TypeAdapter[list[WoundState]] = TypeAdapter(list[WoundState])
_CHARACTER: TypeAdapter[Character] = TypeAdapter(Character)


def kept(character: Character) -> dict[str, Any]:
    states = [[w.id, w.current, w.fatal] for w in character.wounds if w.id is not None]
    return {**{name: getattr(character, name) for name in KEPT}, "wounds": states}


def restored(state: dict[str, Any], guild_id: int) -> tuple[Character, list[WoundState]]:
    """A character as an undo snapshot kept it (without wounds), and its wounds' state."""
    columns = {name: state[name] for name in KEPT}
    character = _CHARACTER.validate_python({**columns, "guild_id": guild_id})
    return character, _STATES.validate_python(state["wounds"])


_FEW = 64  # up to this many characters, look for undo conflicts character by character
_SAVE_WOUND = "UPDATE wounds SET current_severity = ?, fatal = ? WHERE id = ? AND character_id = ?"
_DROP_WOUND = "DELETE FROM wounds WHERE id = ? AND character_id = ?"

COLUMNS = (
    "e.id, e.guild_id, e.kind, e.actor_id, e.occurred_at, e.character_id, e.character_name, e.details, "
    f"e.undone, e.undoes, CASE WHEN e.kind = '{EventKind.CONFIG}' THEN e.snapshot END"
)
# Events /undo may revert: not undone yet, not an undo, not a player-view link (revoking it takes it back)
UNDOABLE = f"e.undone = 0 AND e.kind NOT IN ('{EventKind.UNDO}', '{EventKind.VIEW_LINK}')"
EVENT_COLUMNS = (
    "guild_id, kind, actor_id, occurred_at, character_id, character_name, details, touches_ruleset, undone, "
    "undoes, snapshot"
)


def dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def scope(guild_id: int, character_id: int | None) -> tuple[str, str, tuple[int, ...]]:
    """FROM and WHERE of a server's events (touching one character), the column its index orders them
    by, and the parameters."""
    if character_id is None:
        return "events e WHERE e.guild_id = ?", "e.id", (guild_id,)
    joined = "event_characters l JOIN events e ON e.id = l.event_id WHERE l.character_id = ? AND "
    return joined + "e.guild_id = ?", "l.event_id", (character_id, guild_id)


def event_of(row: Row) -> Event:
    """The event of a row of :data:`COLUMNS`; a settings change's settings before it are read from its
    undo snapshot (null: the defaults)."""
    eid, guild_id, kind, actor_id, at, character_id, character_name, details, undone, undoes = row[:10]
    decoded = json.loads(details) if details else {}
    decoded = decoded if isinstance(decoded, dict) else {}
    if kind == EventKind.CONFIG and row[10] and "after" in decoded:
        snapshot = json.loads(row[10])
        if "ruleset" in snapshot:
            before = snapshot["ruleset"]
            decoded["before"] = Ruleset().model_dump(mode="json") if before is None else before
    return Event(
        eid, guild_id, kind, actor_id, at, character_id, character_name, decoded, bool(undone), undoes
    )


@dataclass(frozen=True)
class Undoable:
    """An event /undo may revert, with what it needs to do so."""

    event: Event
    snapshot: dict[str, Any]
    touches_ruleset: bool

    @property
    def links(self) -> set[int]:  # the characters the event touched, and its character
        found = {int(cid) for cid in self.snapshot.get("characters") or {}}
        return found if self.event.character_id is None else found | {self.event.character_id}

    @property
    def restored(self) -> list[int]:  # the characters undoing it sets back (those it did not create)
        return sorted(int(cid) for cid, state in (self.snapshot.get("characters") or {}).items() if state)


@lru_cache(maxsize=4096)  # every unit reads the ruleset again: the same text is validated once
def parse_ruleset(stored: str) -> Ruleset:
    return Ruleset.model_validate_json(stored)


class Reader:
    """What can be looked up in one server, inside a unit of work or in a plain read."""

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

    def _stored_ruleset(self) -> Ruleset | None:
        """The stored ruleset, validated; ``None`` when the server never changed its settings."""
        found = self.sql.row("SELECT ruleset FROM guild_settings WHERE guild_id = ?", (self.guild_id,))
        try:
            return None if found is None else parse_ruleset(found[0])
        except ValidationError as exc:
            raise StorageError(
                f"the stored ruleset of server {self.guild_id} is invalid ({exc.error_count()} errors)"
            ) from exc

    def ruleset(self) -> Ruleset:
        """Read every time: another process sharing the database may have changed it."""
        return self._stored_ruleset() or Ruleset()

    def _seen(self, found: Character) -> Character:  # a Transaction keeps what it loads, for undo
        return found

    def _load(self, where: str, params: Sequence[object], every_wound: bool = False) -> list[Character]:
        """The present characters ``where`` (a condition and its ``AND``) finds, by name, with their
        wounds that count (or every one)."""
        query = f"WHERE {where}c.guild_id = ? AND c.deleted_at IS NULL ORDER BY c.name_key, c.id, w.id"
        select = SELECT_EVERY_WOUND if every_wound else SELECT
        return from_rows(self.sql.rows(select + query, (*params, self.guild_id)))

    def character(self, character_id: int) -> Character:
        found = self._load("c.id = ? AND ", (character_id,)) if storable(character_id) else []
        if not found:
            raise not_found()
        return self._seen(found[0])

    def character_by_name(self, name: str) -> Character:
        if "\x00" in name:  # no stored name holds NUL (PostgreSQL would refuse the query itself)
            raise not_found(name)
        found = self._load("c.name_key = ? AND ", (name_key(name),))
        if found:
            return self._seen(found[0])
        # No exact key: the name typed without its accents ("aelis" for "Aélis"), when only one fits.
        names = self._names()
        loose = [cid for cid, stored in names if loose_key(stored) == loose_key(name)]
        if len(loose) == 1:
            return self.character(loose[0])
        raise not_found(name, closest(name, (stored for _, stored in names)))

    def _names(self, where: str = "", params: Sequence[object] = ()) -> list[tuple[int, str]]:
        """(id, name) of the present characters (``where``: more conditions, each with its
        ``AND``), by key: a few hundred at most, for what SQL cannot match (accents)."""
        found = self.sql.rows(
            "SELECT c.id, c.name FROM characters c WHERE c.guild_id = ? AND c.deleted_at IS NULL "
            f"{where}ORDER BY c.name_key, c.id",
            (self.guild_id, *params),
        )
        return [(int(cid), str(stored)) for cid, stored in found]

    def active_character(self, user_id: int) -> Character | None:
        active = "SELECT a.character_id FROM active_characters a WHERE a.guild_id = ? AND a.user_id = ?"
        found = self._load(f"c.id = ({active}) AND ", (self.guild_id, user_id))
        return self._seen(found[0]) if found else None

    def characters(self, *, every_wound: bool = False) -> list[Character]:
        """The present characters, by name (``every_wound``: their healed wounds too, for the export)."""
        return self._load("", (), every_wound=every_wound)

    def _present(self, character_id: int) -> bool:
        query = "SELECT 1 FROM characters WHERE id = ? AND guild_id = ? AND deleted_at IS NULL"
        return storable(character_id) and self.sql.row(query, (character_id, self.guild_id)) is not None

    def actives(self) -> dict[int, int]:
        """user id -> active character id (present ones)."""
        found = self.sql.rows(
            "SELECT a.user_id, a.character_id FROM active_characters a "
            "JOIN characters c ON c.id = a.character_id "
            "WHERE a.guild_id = ? AND c.guild_id = ? AND c.deleted_at IS NULL ORDER BY a.user_id",
            (self.guild_id, self.guild_id),
        )
        return {int(user): int(character) for user, character in found}

    def _active_id(self, user_id: int) -> int | None:
        active = "SELECT character_id FROM active_characters WHERE guild_id = ? AND user_id = ?"
        found = self.sql.row(active, (self.guild_id, user_id))
        return int(found[0]) if found else None

    def newest_character(self, owner_id: int) -> int | None:  # the last created, present
        found = self.sql.row(
            "SELECT id FROM characters WHERE guild_id = ? AND owner_id = ? AND deleted_at IS NULL "
            "ORDER BY created_at DESC, id DESC LIMIT 1",
            (self.guild_id, owner_id),
        )
        return int(found[0]) if found else None

    def npc_ids(self) -> list[int]:
        """Ids of the server's NPCs, deleted ones included (a secret NPC's history stays secret)."""
        npcs = "SELECT id FROM characters WHERE guild_id = ? AND owner_id IS NULL"
        return [r[0] for r in self.sql.rows(npcs, (self.guild_id,))]

    def matching(
        self, text: str, *, owner_id: int | None = None, limit: int = 25, npcs: bool = False
    ) -> list[Character]:
        """Present characters (of ``owner_id``; NPCs only with ``npcs``) whose name contains ``text``,
        prefix matches first: what autocomplete offers."""
        if "\x00" in text:  # no stored name holds NUL
            return []
        key = name_key(text)
        pattern = "%" + key.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        filters, params = "", list[object]([self.guild_id])
        if npcs:
            filters = "AND c.owner_id IS NULL "
        elif owner_id is not None:
            filters = "AND c.owner_id = ? "
            params.append(owner_id)
        base = "SELECT c.id FROM characters c WHERE c.guild_id = ? AND c.deleted_at IS NULL " + filters
        # Prefix: a range on the (guild_id, name_key) index. U+10FFFF sorts after every other character
        # (bytewise: name_key is COLLATE "C" on PostgreSQL).
        bounds = (key, key + "\U0010ffff")
        prefix = ("AND c.name_key >= ? AND c.name_key < ? ", bounds) if key else ("", ())
        query = base + prefix[0] + "ORDER BY c.name_key LIMIT ?"
        found = [r[0] for r in self.sql.rows(query, (*params, *prefix[1], limit))]
        if key and len(found) < limit:
            found += [
                r[0]
                for r in self.sql.rows(
                    base + "AND c.name_key LIKE ? ESCAPE '\\' AND NOT (c.name_key >= ? AND c.name_key < ?) "
                    "ORDER BY c.name_key LIMIT ?",
                    (*params, pattern, *bounds, limit - len(found)),
                )
            ]
        if key and len(found) < limit:  # then the names that match without accents ("aeli": "Aélis")
            loose, seen = loose_key(text), set(found)
            rest = [(cid, loose_key(stored)) for cid, stored in self._names(filters, params[1:])]
            rest = [(cid, k) for cid, k in rest if cid not in seen and loose in k]
            rest.sort(key=lambda pair: not pair[1].startswith(loose))  # stable: by key within each
            found += [cid for cid, _ in rest[: limit - len(found)]]
        marks = ", ".join("?" for _ in found)
        loaded = {c.id: c for c in self._load(f"c.id IN ({marks}) AND ", found)} if found else {}
        return [loaded[cid] for cid in found if cid in loaded]  # READ COMMITTED: one may be gone

    def deleted_characters(self, ref: str, *, limit: int = 1) -> list[tuple[int, str]]:
        """(id, name) of deleted characters ``ref`` names (an id, a name or its start, else without its
        accents), the last deleted first: their history stays readable, and undo brings them back."""
        if "\x00" in ref or not ref.strip():  # no stored name holds NUL, or is blank
            return []
        key = name_key(ref)
        by_id = int(ref) if ref.isascii() and ref.isdigit() and len(ref) <= 18 else -1
        gone = self.sql.rows(
            "SELECT id, name, name_key FROM characters WHERE guild_id = ? AND deleted_at IS NOT NULL "
            "ORDER BY deleted_at DESC, id DESC",
            (self.guild_id,),
        )
        found = [r for r in gone if r[0] == by_id or r[2].startswith(key)]
        found.sort(key=lambda r: (r[0] != by_id, r[2] != key))  # stable: the newest first within each
        if not found and by_id < 0:
            found = [r for r in gone if loose_key(str(r[1])).startswith(loose_key(ref))]
        return [(r[0], r[1]) for r in found[:limit]]

    def history(self, character_id: int | None, *, page: int, per_page: int) -> tuple[list[Event], int]:
        """One page of events (touching one character, even deleted), newest first; and their count."""
        where, newest, params = scope(self.guild_id, character_id)
        found = self.sql.rows(
            f"SELECT {COLUMNS} FROM {where} ORDER BY {newest} DESC LIMIT ? OFFSET ?",
            (*params, per_page, (page - 1) * per_page),
        )
        total = int(self.sql.rows(f"SELECT COUNT(*) FROM {where}", params)[0][0])
        return [event_of(r) for r in found], total

    def boards(self) -> list[Board]:
        """The server's boards, with their NPCs (oldest character first)."""
        found: dict[int, tuple[int, list[int]]] = {}
        for channel_id, message_id, character_id in self.sql.rows(
            "SELECT b.channel_id, b.message_id, n.character_id FROM boards b "
            "LEFT JOIN board_npcs n ON n.channel_id = b.channel_id "
            "WHERE b.guild_id = ? ORDER BY b.channel_id, n.character_id",
            (self.guild_id,),
        ):
            _, npcs = found.setdefault(int(channel_id), (int(message_id), []))
            if character_id is not None:
                npcs.append(int(character_id))
        return [
            Board(self.guild_id, channel, message, tuple(npcs)) for channel, (message, npcs) in found.items()
        ]


class Transaction(Reader):
    def __init__(self, sql: Sql, guild_id: int, now: str) -> None:
        super().__init__(sql, guild_id)
        self.now = now  # the time of this unit of work (the store's clock): every time it writes
        self._known: dict[int, Character] = {}  # as this transaction has seen or written them
        # Before-state for the next record(); the ruleset's when it was saved (None: the defaults).
        self._before: dict[int, dict[str, Any] | None] = {}
        self._ruleset_saved = False
        self._ruleset_before: Ruleset | None = None
        self._active_before: dict[int, int | None] = {}

    def save_ruleset(self, ruleset: Ruleset | None) -> None:
        """Store the ruleset; ``None`` removes its row (back to the defaults)."""
        if not self._ruleset_saved:
            self._ruleset_before = self._stored_ruleset()
            self._ruleset_saved = True
        if ruleset is None:
            self.sql.run("DELETE FROM guild_settings WHERE guild_id = ?", (self.guild_id,))
            return
        self.sql.run(
            "INSERT INTO guild_settings (guild_id, ruleset, updated_at) VALUES (?, ?, ?) ON CONFLICT "
            "(guild_id) DO UPDATE SET ruleset = excluded.ruleset, updated_at = excluded.updated_at",
            (self.guild_id, ruleset.model_dump_json(), self.now),
        )

    def _seen(self, found: Character) -> Character:
        """``found`` as this transaction knows it (it may have changed it), its before-state kept."""
        assert found.id is not None
        character = self._known.setdefault(found.id, found)
        if found.id not in self._before:
            self._before[found.id] = kept(character)
        return character

    def character(self, character_id: int) -> Character:
        known = self._known.get(character_id)
        return super().character(character_id) if known is None else self._seen(known)

    def characters(self, *, every_wound: bool = False) -> list[Character]:
        found = super().characters(every_wound=every_wound)
        if not every_wound:  # remembered, not snapshotted (only those saved count as touched)
            found = [self._known.setdefault(c.id, c) if c.id is not None else c for c in found]
        return found

    def save_character(self, character: Character) -> Character:
        """Save (only what changed); returns it with the ids the database gave (its own, its wounds')."""
        if character.id is None:
            return self.create_characters([character])[0]
        cid, known = character.id, self.character(character.id)
        before = {w.id: w for w in known.wounds}
        present = {w.id for w in character.wounds if w.id is not None}
        if present - before.keys():
            raise ValueError(f"character {cid}: wounds {sorted(present - before.keys())} are not its own")
        if _CHANGEABLE_OF(character) != _CHANGEABLE_OF(known):
            try:
                changed = self.sql.run(
                    f"UPDATE characters SET {SET} WHERE id = ? AND guild_id = ? AND deleted_at IS NULL",
                    (*_values(character, CHANGEABLE), cid, self.guild_id),
                )
            except UniqueViolation:
                raise name_taken(character.name) from None
            if changed != 1:
                raise not_found()
        # Only current/fatal of a wound change after it is inflicted (the rules never touch the rest).
        self.sql.run_many(
            _SAVE_WOUND,
            [
                (None if w.current is None else int(w.current), int(w.fatal), w.id, cid)
                for w in character.wounds
                if w.id is not None and (w.current, w.fatal) != (before[w.id].current, before[w.id].fatal)
            ],
        )
        self.sql.run_many(_DROP_WOUND, [(wid, cid) for wid in before.keys() - present])
        (saved,) = self._with_new_wounds([character])
        if (saved.guild_id, saved.created_at) != (self.guild_id, known.created_at):
            saved = replace(saved, guild_id=self.guild_id, created_at=known.created_at)
        self._known[cid] = saved
        return saved

    def create_characters(self, new: Sequence[Character]) -> list[Character]:
        """Insert new characters (an import: many at once) with their wounds; returned with their ids."""
        fresh = [replace(c, guild_id=self.guild_id, created_at=c.created_at or self.now) for c in new]
        try:
            found = self._insert(
                "characters", INSERTED, [_values(c, FIELDS[1:]) for c in fresh], "id, name_key"
            )
        except UniqueViolation:  # several at once (an import) come with names checked, all free
            raise name_taken(fresh[0].name) from None
        ids = {key: int(cid) for cid, key in found}
        created = self._with_new_wounds([replace(c, id=ids[name_key(c.name)]) for c in fresh])
        for saved in created:
            assert saved.id is not None
            self._before.setdefault(saved.id, None)
            self._known[saved.id] = saved
        return created

    def _with_new_wounds(self, saved: list[Character]) -> list[Character]:
        """Insert the wounds of ``saved`` characters whose id is None; the characters with their ids."""
        fresh = [
            _wound_row(cid, w) for c in saved if (cid := c.id) is not None for w in c.wounds if w.id is None
        ]
        if not fresh:
            return saved
        given = iter(int(row[0]) for row in self._insert("wounds", WOUND_COLUMNS, fresh, "id"))
        return [
            replace(c, wounds=tuple(w if w.id is not None else replace(w, id=next(given)) for w in c.wounds))
            for c in saved
        ]

    def _insert(
        self, table: str, columns: str, rows: Sequence[Sequence[object]], returning: str
    ) -> list[Row]:
        """Insert ``rows``, :data:`_CHUNK` a statement; what ``returning`` finds of each, in their order."""
        found: list[Row] = []
        marks = "(" + ", ".join("?" * (columns.count(",") + 1)) + ")"
        for chunk in chunks(rows):
            values = [value for row in chunk for value in row]
            statement = f"INSERT INTO {table} ({columns}) VALUES {', '.join([marks] * len(chunk))} RETURNING "
            # Ids grow with the order of the VALUES; RETURNING's own order is unspecified.
            found += sorted(self.sql.rows(statement + returning, values))
        return found

    def delete_characters(self, doomed: Sequence[Character]) -> None:
        """Delete (recoverable by undo); the players whose active character it was are left without."""
        gone = [c.id for c in doomed if c.id is not None]
        if len(gone) < len(doomed):
            raise not_found()
        for character_id in gone:
            self.character(character_id)  # snapshotted; not found when deleted meanwhile
        players = {user: cid for user, cid in self.actives().items() if cid in set(gone)}
        self._soft_delete(gone)
        self._put_active(dict.fromkeys(players))
        for user_id, character_id in players.items():
            self._active_before.setdefault(user_id, character_id)
        for character_id in gone:
            del self._known[character_id]

    def _soft_delete(self, ids: Sequence[int]) -> None:
        self.sql.run_many(
            "UPDATE characters SET deleted_at = ? WHERE id = ? AND guild_id = ? AND deleted_at IS NULL",
            [(self.now, cid, self.guild_id) for cid in ids],
        )

    def set_active(self, user_id: int, character_id: int) -> None:
        if character_id not in self._known and not self._present(character_id):
            raise not_found()
        if user_id not in self._active_before:
            self._active_before[user_id] = self._active_id(user_id)
        self._put_active({user_id: character_id})

    def _put_active(self, choices: Mapping[int, int | None]) -> None:
        """Make each user's character the active one; ``None`` clears it."""
        self.sql.run_many(
            "DELETE FROM active_characters WHERE guild_id = ? AND user_id = ?",
            [(self.guild_id, user) for user, character in choices.items() if character is None],
        )
        self.sql.run_many(
            "INSERT INTO active_characters (guild_id, user_id, character_id) VALUES (?, ?, ?) "
            "ON CONFLICT (guild_id, user_id) DO UPDATE SET character_id = excluded.character_id",
            [(self.guild_id, user, cid) for user, cid in choices.items() if cid is not None],
        )

    def _insert_event(self, e: Event, text: str, snapshot: dict[str, Any] | None, links: set[int]) -> Event:
        """Write ``e`` (``text``: its details' JSON) and its links to the characters; with its id."""
        head = (e.guild_id, e.kind, e.actor_id, e.at, e.character_id, e.character_name)
        state = None if snapshot is None else dumps(snapshot)
        row = (*head, text, int(snapshot is not None and "ruleset" in snapshot), 0, e.undoes, state)
        event_id = int(self._insert("events", EVENT_COLUMNS, [row], "id")[0][0])
        self.sql.run_many(
            "INSERT INTO event_characters (event_id, character_id) VALUES (?, ?)",
            [(event_id, cid) for cid in sorted(links)],
        )
        return replace(e, id=event_id)

    def record(
        self,
        kind: str,
        actor_id: int | None,
        *,
        character: Character | None = None,
        details: Recordable | dict[str, object] | None = None,
    ) -> Event:
        """Record the change made so far (``details``: its typed record, or its JSON's content), with
        the before-state of all it touched (for undo)."""
        snapshot: dict[str, Any] = {"characters": {str(cid): state for cid, state in self._before.items()}}
        if self._ruleset_saved:
            before = self._ruleset_before
            snapshot["ruleset"] = None if before is None else before.model_dump(mode="json")
        if self._active_before:
            snapshot["active"] = {
                str(user): [before_id, self._active_id(user)]
                for user, before_id in self._active_before.items()
            }
        cid, name = (None, None) if character is None else (character.id, character.name)
        links = set(self._before) if cid is None else {*self._before, cid}
        if details is None or isinstance(details, dict):
            text, content = dumps(details or {}), dict(details or {})
        else:  # written once, by the record itself
            text = details_json(details)
            content = json.loads(text)
        event = Event(0, self.guild_id, kind, actor_id, self.now, cid, name, content)
        event = self._insert_event(event, text, snapshot, links)
        self._forget(keep_known=True)
        return event

    def latest_undoable(self, character_id: int | None) -> Undoable | None:
        where, newest, params = scope(self.guild_id, character_id)
        row = self.sql.row(
            f"SELECT {COLUMNS}, e.snapshot, e.touches_ruleset FROM {where} AND {UNDOABLE} "
            f"ORDER BY {newest} DESC LIMIT 1",
            params,
        )
        if row is None:
            return None
        snapshot = json.loads(row[11]) if row[11] else {}
        return Undoable(event_of(row), snapshot if isinstance(snapshot, dict) else {}, bool(row[12]))

    def blocker(self, target: Undoable) -> Event | None:
        """The latest later event, not undone, that touched a character (or the ruleset) ``target`` did."""
        after, character_ids, found = target.event.id, target.links, list[Row]()
        if len(character_ids) <= _FEW:  # one index range per character: cheap however long the history
            for character_id in character_ids:
                found += self.sql.rows(
                    f"SELECT {COLUMNS} FROM event_characters l JOIN events e ON e.id = l.event_id "
                    f"WHERE l.character_id = ? AND l.event_id > ? AND e.guild_id = ? AND {UNDOABLE} "
                    "ORDER BY l.event_id DESC LIMIT 1",
                    (character_id, after, self.guild_id),
                )
        else:
            found = self.sql.rows(
                f"SELECT {COLUMNS} FROM event_characters mine "
                "JOIN event_characters later ON later.character_id = mine.character_id "
                "JOIN events e ON e.id = later.event_id "
                f"WHERE mine.event_id = ? AND later.event_id > ? AND e.guild_id = ? AND {UNDOABLE} "
                "ORDER BY e.id DESC LIMIT 1",
                (after, after, self.guild_id),
            )
        if not found and target.touches_ruleset:
            found = self.sql.rows(
                f"SELECT {COLUMNS} FROM events e WHERE e.guild_id = ? AND e.id > ? "
                f"AND e.touches_ruleset = 1 AND {UNDOABLE} ORDER BY e.id DESC LIMIT 1",
                (self.guild_id, after),
            )
        return event_of(max(found, key=lambda row: int(row[0]))) if found else None

    def touched(self, event_id: int) -> list[tuple[int, str]]:
        """(id, name) of the characters an event touched (deleted ones too), by name."""
        found = self.sql.rows(
            "SELECT c.id, c.name FROM event_characters l JOIN characters c ON c.id = l.character_id "
            "WHERE l.event_id = ? AND c.guild_id = ? ORDER BY c.name_key, c.id",
            (event_id, self.guild_id),
        )
        return [(int(cid), str(name)) for cid, name in found]

    def revert(self, target: Undoable) -> set[int]:
        """Put back, whole, what ``target`` changed, from its snapshot, and mark it undone. Returns the
        players whose active character this set back or removed (some may now have none)."""
        snapshot = target.snapshot
        touched: dict[str, Any] = snapshot.get("characters") or {}
        # user id -> the active character to put back, for the players who still have the one the event
        # left them (a later choice is kept); looked up before anything moves.
        choices: dict[int, int | None] = {
            int(user): before
            for user, (before, after) in (snapshot.get("active") or {}).items()
            if self._active_id(int(user)) == after
        }
        # Remove what the event created before restoring, so a restored name is free again; the players
        # whose active character it was are left without.
        created = {int(cid) for cid, state in touched.items() if state is None}
        orphaned = {user for user, cid in self.actives().items() if cid in created}
        self._soft_delete(sorted(created))
        self._put_active(dict.fromkeys(orphaned))
        self._restore([restored(state, self.guild_id) for state in touched.values() if state])
        if "ruleset" in snapshot:
            stored = snapshot["ruleset"]
            self.save_ruleset(None if stored is None else Ruleset.model_validate(stored))
        for user_id, before in choices.items():
            self._put_active({user_id: before if before is None or self._present(before) else None})
        self.sql.run("UPDATE events SET undone = 1 WHERE id = ?", (target.event.id,))
        self._forget()  # the database changed behind this transaction's back
        return orphaned | set(choices)

    def _restore(self, states: Sequence[tuple[Character, list[WoundState]]]) -> None:
        """Characters back as snapshotted (columns, present, wounds' state); the wounds added since go."""
        for c, _ in states:  # checked first: PostgreSQL aborts the transaction on a violation
            if self.sql.rows(
                "SELECT 1 FROM characters WHERE guild_id = ? AND name_key = ? AND deleted_at IS NULL "
                "AND id <> ?",
                (self.guild_id, name_key(c.name), c.id),
            ):
                raise name_taken(c.name)
        self.sql.run_many(
            f"UPDATE characters SET {SET}, deleted_at = NULL WHERE id = ? AND guild_id = ?",
            [(*_values(c, CHANGEABLE), c.id, self.guild_id) for c, _ in states],
        )
        wanted = {c.id: {wid for wid, _, _ in wounds} for c, wounds in states}
        now: dict[int, tuple[int, bool]] = {}  # their wounds: whose, and whether it counts
        for chunk in chunks(list(wanted)):
            marks = ", ".join("?" * len(chunk))
            query = f"SELECT w.id, w.character_id, {COUNTS} FROM wounds w WHERE w.character_id IN ({marks})"
            now.update((wid, (cid, bool(counts))) for wid, cid, counts in self.sql.rows(query, chunk))
        # Added since: the wounds that count now and not then. A wound healed before the snapshot is not
        # in it (a load leaves healed wounds out) and stays as it is.
        extra = [(wid, cid) for wid, (cid, counts) in now.items() if counts and wid not in wanted[cid]]
        missing = [wid for ids in wanted.values() for wid in ids - now.keys()]
        if missing:
            raise StorageError(f"cannot restore: wounds {sorted(missing)[:10]} no longer exist")
        self.sql.run_many(_DROP_WOUND, extra)
        self.sql.run_many(
            _SAVE_WOUND,
            [
                (None if current is None else int(current), int(fatal), wid, c.id)
                for c, wounds in states
                for wid, current, fatal in wounds
            ],
        )

    def record_undo(self, actor_id: int | None, target: Undoable) -> Event:
        reverted = target.event
        details: dict[str, object] = {
            "kind": reverted.kind,
            "character_name": reverted.character_name,
            "event_details": reverted.details,
            "event_id": reverted.id,
            "event_at": reverted.at,
            "restored": target.restored,
        }
        named = (reverted.character_id, reverted.character_name)
        event = Event(
            0, self.guild_id, EventKind.UNDO, actor_id, self.now, *named, details, undoes=reverted.id
        )
        event = self._insert_event(event, dumps(details), None, target.links)
        self._forget()
        return event

    def _forget(self, *, keep_known: bool = False) -> None:
        if not keep_known:
            self._known.clear()
        self._before, self._ruleset_saved, self._active_before = {}, False, {}

    def give_view_link(self, token_sha256: str, language: str, *, revoke: bool) -> None:
        """``revoke``: the server's other links stop working."""
        if revoke:
            self.sql.run("DELETE FROM player_views WHERE guild_id = ?", (self.guild_id,))
        self.sql.run(
            "INSERT INTO player_views (token_sha256, guild_id, language, created_at) VALUES (?, ?, ?, ?)",
            (token_sha256, self.guild_id, language, self.now),
        )

    def show_on_board(self, channel_id: int, character_id: int, *, shown: bool) -> None:
        """Add the NPC to the channel's board (``shown``), or take it off: a change of the game (the
        player views show it), unlike which message a board is (:meth:`Store.save_board`)."""
        if shown:
            self.sql.run(
                "INSERT INTO board_npcs (channel_id, character_id) "
                "SELECT channel_id, ? FROM boards WHERE guild_id = ? AND channel_id = ? "
                "ON CONFLICT (channel_id, character_id) DO NOTHING",
                (character_id, self.guild_id, channel_id),
            )
        else:
            self.sql.run(
                "DELETE FROM board_npcs WHERE channel_id = ? AND character_id = ?", (channel_id, character_id)
            )
