"""What a user is told when the database cannot do what was asked (keys of
:class:`bot.errors.UserError`, part of :data:`bot.ui.strings_errors.ERRORS`): said honestly, whether
anything was changed or not (docs/reliability.md)."""

from __future__ import annotations

STORAGE_ERRORS: dict[str, dict[str, str]] = {
    "storage_full": {
        "en": "The bot's database is full (no space left on its disk): nothing was saved. Tell the bot's "
        "admins, and try again once they have freed some space.",
        "fr": "La base de données du bot est pleine (plus de place sur son disque) : rien n'a été "
        "enregistré. Prévenez les administrateurs du bot, et réessayez quand ils auront libéré de la "
        "place.",
    },
    "storage_read_only": {
        "en": "The bot's database is read-only at the moment: nothing was saved. Tell the bot's admins, "
        "and try again once they have fixed it.",
        "fr": "La base de données du bot est en lecture seule pour le moment : rien n'a été enregistré. "
        "Prévenez les administrateurs du bot, et réessayez quand ils l'auront réparée.",
    },
    "storage_unavailable": {
        "en": "The database is unavailable right now: nothing was changed. Try again in a moment.",
        "fr": "La base de données est indisponible pour le moment : rien n'a été modifié. Réessayez dans "
        "un instant.",
    },
    "storage_unconfirmed": {
        "en": "The database did not confirm the change: it may have been recorded, or not. Check /history "
        "before trying again.",
        "fr": "La base de données n'a pas confirmé le changement : il a peut-être été enregistré, ou non. "
        "Vérifiez /historique avant de réessayer.",
    },
}
