"""The migrations that need Python besides their SQL file (:data:`REWRITES`): each rewrites rows of an
older format once, in its migration's transaction, so that the code reads one format only."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from bot.storage.transaction import Sql, dumps


def _record(kind: object, details: Any, ruleset_kept: bool | None) -> Any:
    """A record's JSON, as the bot writes it now. ``ruleset_kept``: whether the event's undo snapshot
    holds the settings before it (``None``: the record an undo keeps, which holds them itself)."""
    if not isinstance(details, dict):
        return details
    if kind == "config":
        before, after = details.get("before"), details.get("after")
        known = before is not None if "before" in details or ruleset_kept is None else ruleset_kept
        whole = {"after": after} if after is not None and known else {}
        if whole and ruleset_kept is None:
            whole["before"] = before
        changes = {k: v for k, v in details.items() if k not in ("setting", "before", "after", "kind")}
        return {"setting": details.get("setting") or "?", "changes": changes, **whole}
    if kind == "import":
        return {"counts": {k: 0 if v is None else v for k, v in details.items() if k != "kind"}}
    if kind == "undo":
        inner = details.get("event_details", details.get("details", {}))
        found = {k: v for k, v in details.items() if k != "details"}
        return found | ({"event_details": _record(found["kind"], inner, None)} if "kind" in found else {})
    plain = {k: v for k, v in details.items() if v is not None}
    if isinstance(rolls := details.get("rolls"), list):
        plain["rolls"] = [
            {k: v for k, v in r.items() if v is not None} if isinstance(r, dict) else r for r in rolls
        ]
    return plain


def _snapshot(sql: Sql, snapshot: dict[str, Any]) -> dict[str, Any]:
    """An undo snapshot without the life flags of versions before 0004: the fatal wound 0004 added for a
    flag is kept, a fatal mark the flags denied is not put back."""
    for cid, state in (snapshot.get("characters") or {}).items():
        if not isinstance(state, dict) or "dead" not in state:
            continue
        out = {"physical"} if state.pop("dead") else set()
        out |= {"mental"} if state.pop("incoherent", False) else set()
        wounds = {
            wid: (track, current, bool(fatal))
            for wid, track, current, fatal in sql.rows(
                "SELECT id, track, current_severity, fatal FROM wounds WHERE character_id = ?", (int(cid),)
            )
        }
        kept = [
            [wid, current, bool(fatal) and wounds.get(wid, ("",))[0] in out]
            for wid, current, fatal in state["wounds"]
        ]
        held = {wid for wid, _, _ in kept}
        kept += [
            [wid, c, True] for wid, (t, c, fatal) in wounds.items() if fatal and t in out and wid not in held
        ]
        state["wounds"] = sorted(kept)
    return snapshot


def history_rows(sql: Sql) -> None:
    """0006: the history as the bot writes it now: a record without the nulls older rows wrote for a
    default; a settings change as ``{"setting", "changes", "after"}`` (the settings before stay in its
    snapshot), an import as ``{"counts"}``; an undo with its ``event_details`` and ``undoes``; a
    snapshot without the life flags of versions before 0004 (their meaning is in the ``fatal`` marks)."""
    records, snapshots = [], []
    for eid, kind, details, snapshot, undoes in sql.rows(
        "SELECT id, kind, details, CASE WHEN kind = 'config' OR snapshot LIKE ? THEN snapshot END, undoes "
        "FROM events WHERE kind IN ('config', 'import', 'undo') OR details LIKE ? OR snapshot LIKE ?",
        ('%"dead"%', "%null%", '%"dead"%'),
    ):
        old = json.loads(details) if details else {}
        kept = json.loads(snapshot) if snapshot else None
        if kind == "undo" and undoes is None and isinstance(old, dict) and type(old.get("event_id")) is int:
            found = sql.row("SELECT id FROM events WHERE id = ?", (old["event_id"],))
            undoes = None if found is None else found[0]
        records.append((dumps(_record(kind, old, isinstance(kept, dict) and "ruleset" in kept)), undoes, eid))
        if isinstance(kept, dict) and '"dead"' in snapshot:
            snapshots.append((dumps(_snapshot(sql, kept)), eid))
    sql.run_many("UPDATE events SET details = ?, undoes = ? WHERE id = ?", records)
    sql.run_many("UPDATE events SET snapshot = ? WHERE id = ?", snapshots)


REWRITES: dict[int, Callable[[Sql], None]] = {6: history_rows}
