"""The player view (issue 29): the link given to a GM, its refusals, its history line, and the page."""

from __future__ import annotations

VIEW_ERRORS: dict[str, dict[str, str]] = {
    "view_off": {
        "en": "The player view is not set up on this bot: its operator sets WEB_BASE_URL and WEB_PORT "
        "(docs/player-view.md). /board alone posts the board in this channel.",
        "fr": "La vue des joueurs n'est pas installée sur ce bot : son exploitant règle WEB_BASE_URL et "
        "WEB_PORT (docs/player-view.md). /tableau seul affiche le tableau dans ce salon.",
    },
    "view_revoke_alone": {
        "en": "revoke:True goes with link:True: /board link:True revoke:True.",
        "fr": "révoquer:True va avec lien:True : /tableau lien:True révoquer:True.",
    },
    "view_link_alone": {
        "en": "link:True goes alone (or with revoke:True): add or drop NPCs in another /board.",
        "fr": "lien:True s'emploie seul (ou avec révoquer:True) : ajoutez ou retirez des PNJ dans un "
        "autre /tableau.",
    },
}

VIEW: dict[str, dict[str, str]] = {
    "view_link": {
        "en": "The player view of this server: {url}\nAnyone with this link sees the party's wounds, "
        "live: characters only, secret NPCs as a word. Share it with the table; add `?overlay=1` for a "
        "stream overlay. Links given before still work; /board link:True revoke:True stops them all.",
        "fr": "La vue des joueurs de ce serveur : {url}\nQuiconque a ce lien voit les blessures du "
        "groupe, en direct : les personnages seulement, les PNJ secrets en un mot. Partagez-le avec la "
        "table ; ajoutez `?overlay=1` pour une incrustation de stream. Les liens donnés avant marchent "
        "toujours ; /tableau lien:True révoquer:True les arrête tous.",
    },
    "view_link_revoked": {
        "en": "Every player-view link given before stopped working. The new one: {url}\nShare it "
        "again with the table (`?overlay=1` for a stream overlay).",
        "fr": "Tous les liens de la vue des joueurs donnés avant ont cessé de marcher. Le nouveau : "
        "{url}\nPartagez-le à nouveau avec la table (`?overlay=1` pour une incrustation de stream).",
    },
    "event_view_link": {"en": "player-view link given", "fr": "lien de la vue des joueurs donné"},
    "event_view_link_revoked": {
        "en": "player-view links revoked, a new one given",
        "fr": "liens de la vue des joueurs révoqués, un nouveau donné",
    },
    "kind_view_link": {"en": "player-view link", "fr": "lien de la vue des joueurs"},
    # The page.
    "view_title": {"en": "The party", "fr": "Le groupe"},
    "view_empty": {
        "en": "No characters on the board yet.",
        "fr": "Aucun personnage au tableau pour l'instant.",
    },
    "view_live": {"en": "live", "fr": "en direct"},
    "view_reconnecting": {"en": "reconnecting…", "fr": "reconnexion…"},
    "view_penalty": {"en": "penalty {penalty}", "fr": "pénalité {penalty}"},
    "view_can_heal": {"en": "can heal", "fr": "peut se soigner"},
    "view_secret": {"en": "kept secret by the GMs", "fr": "gardé secret par les MJ"},
    "view_too_many_requests": {
        "en": "Too many requests: try again in a moment.",
        "fr": "Trop de requêtes : réessayez dans un instant.",
    },
    "view_too_many_pages": {
        "en": "Too many pages open from this address: close one and try again.",
        "fr": "Trop de pages ouvertes depuis cette adresse : fermez-en une et réessayez.",
    },
    "view_unavailable": {
        "en": "Not available right now: try again in a moment.",
        "fr": "Indisponible pour le moment : réessayez dans un instant.",
    },
    "view_not_found": {
        "en": "No such player view: the link is wrong, or the GM replaced it.",
        "fr": "Cette vue des joueurs n'existe pas : le lien est faux, ou le MJ l'a remplacé.",
    },
}
