"""Server administration: undo, settings, export and import."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from bot.actions.targets import by_ref
from bot.actor import Actor
from bot.errors import UserError
from bot.history import Event
from bot.rules import Ruleset
from bot.storage.store import Store

IMPORT_MAX_BYTES = 8 * 1024 * 1024


async def undo(store: Store, actor: Actor, *, ref: str | None) -> Event:
    async with store.transaction(actor.guild_id) as tx:
        actor.require_gm(await tx.ruleset())
        character_id = None
        if ref is not None:
            character_id = (await by_ref(tx, ref)).id
        return await tx.undo(actor.user_id, character_id)


def validation_text(error: ValidationError) -> str:
    lines = []
    for item in error.errors():
        where = ".".join(str(part) for part in item["loc"]) or "settings"
        lines.append(f"{where}: {item['msg']}")
    return "\n".join(lines)


async def configure(store: Store, actor: Actor, setting: str, changes: dict[str, Any]) -> Ruleset:
    """Change part of the ruleset; the whole ruleset is validated again, and recorded."""
    async with store.transaction(actor.guild_id) as tx:
        current = await tx.ruleset()
        actor.require_gm(current)
        merged = current.model_dump()
        merged.update(changes)
        try:
            updated = Ruleset.model_validate(merged)
        except ValidationError as error:
            raise UserError("config_invalid", errors=validation_text(error)) from None
        if updated == current:  # a change that changes nothing would only clutter history and /undo
            raise UserError("config_unchanged")
        await tx.save_ruleset(updated)
        await tx.record("config", actor.user_id, details={"setting": setting, **_jsonable(changes)})
    return updated


def _jsonable(changes: dict[str, Any]) -> dict[str, object]:
    out: dict[str, object] = {}
    for key, value in changes.items():
        if hasattr(value, "model_dump"):
            out[key] = value.model_dump()
        elif isinstance(value, dict):
            out[key] = {k: v.model_dump() if hasattr(v, "model_dump") else v for k, v in value.items()}
        else:
            out[key] = value
    return out


async def export(store: Store, actor: Actor) -> bytes:
    actor.require_gm(await store.ruleset(actor.guild_id))
    return await store.export_guild(actor.guild_id)


async def import_(store: Store, actor: Actor, data: bytes) -> dict[str, int]:
    if len(data) > IMPORT_MAX_BYTES:
        raise UserError("import_invalid", errors=f"file larger than {IMPORT_MAX_BYTES // (1024 * 1024)} MiB")
    async with store.transaction(actor.guild_id) as tx:
        actor.require_gm(await tx.ruleset())
        return await tx.import_guild(data, actor.user_id)
