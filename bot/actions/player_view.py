"""/board link:True: a GM is given the server's player-view link (issue 29), recorded in history."""

from __future__ import annotations

import secrets

from bot.actions.actor import Actor, record
from bot.errors import UserError
from bot.history import LinkGiven
from bot.storage.store import Store, Transaction, digest

TOKEN_BYTES = 24
"""Random bytes of a link's token: 192 bits (at least 128 asked), 32 characters in the address."""


async def give_link(store: Store, actor: Actor, *, base_url: str, language: str, revoke: bool) -> str:
    """A new link to the server's player view (``revoke``: every link given before stops working at
    the commit). Only the token's digest is stored: a link is shown once, to the GM asking."""
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
