"""At the table: short results, the Card button, the live board, secret NPCs, context menus."""

from __future__ import annotations

TABLE: dict[str, dict[str, str]] = {
    "short_now": {"en": "State now", "fr": "État actuel"},
    "short_unhurt": {"en": "Unhurt.", "fr": "Indemne."},
    "short_penalty": {"en": "Penalty {penalty} on all rolls", "fr": "Pénalité {penalty} à tous les jets"},
    "button_card": {"en": "Card", "fr": "Fiche"},
    # What players see of a secret NPC: one word (the worst state of both tracks).
    "secret_unhurt": {"en": "unhurt", "fr": "indemne"},
    # French: words with no grammatical gender (the character may be anyone).
    "secret_wounded": {"en": "wounded", "fr": "quelques blessures"},
    "secret_badly_wounded": {"en": "badly wounded", "fr": "mal en point"},
    "secret_deaths_door": {"en": "at death's door", "fr": "aux portes de la mort"},
    "secret_shaken": {"en": "shaken", "fr": "sous le choc"},
    "secret_madness_edge": {"en": "on the edge of madness", "fr": "au bord de la folie"},
    "secret_state": {"en": "State: **{word}**", "fr": "État : **{word}**"},
    "secret_card_note": {
        "en": "The GMs keep this character's wounds secret.",
        "fr": "Les MJ gardent secrètes les blessures de ce personnage.",
    },
    "secret_gm_only": {
        "en": "For you only: this NPC is secret, the channel saw one word",
        "fr": "Pour vous uniquement : ce PNJ est secret, le salon n'a vu qu'un mot",
    },
    "board_title": {"en": "Party board", "fr": "Tableau du groupe"},
    "board_empty": {
        "en": "No player characters yet (/character create). A GM adds NPCs with /board add:",
        "fr": "Aucun personnage joueur pour l'instant (/personnage créer). Un MJ ajoute des PNJ avec "
        "/tableau ajouter:",
    },
    "board_footer": {
        "en": "Kept up to date after every change · /board again moves it here",
        "fr": "Tenu à jour après chaque changement · /tableau à nouveau le déplace ici",
    },
    "board_can_heal": {"en": "🩹 can heal: {stakes}", "fr": "🩹 peut se soigner : {stakes}"},
    "board_heal_deadly": {
        "en": "☠️ healing can kill: {stakes}",
        "fr": "☠️ la guérison peut tuer : {stakes}",
    },
    "board_heal_deadly_mental": {
        "en": "🌀 mental healing can make incoherent: {stakes}",
        "fr": "🌀 la guérison mentale peut faire sombrer dans l'incohérence : {stakes}",
    },
    "board_added": {"en": "{name} is on the board now.", "fr": "{name} figure désormais au tableau."},
    "board_removed": {"en": "{name} is off the board.", "fr": "{name} ne figure plus au tableau."},
    "rest_line_secret": {"en": "{name}: {word}", "fr": "{name} : {word}"},
    "config_secret_npcs": {"en": "Secret NPCs", "fr": "PNJ secrets"},
    "config_secret_all": {"en": "all of them", "fr": "tous"},
    "config_secret_some": {"en": "{count} chosen", "fr": "{count} choisis"},
    "event_secret": {
        "en": "**{name}** — a change kept secret",
        "fr": "**{name}** — un changement gardé secret",
    },
    "event_secret_undo": {
        "en": "undid change #{undoes} — **{name}**, a change kept secret",
        "fr": "annulation du changement n°{undoes} — **{name}**, un changement gardé secret",
    },
    "choice_player": {"en": "player", "fr": "joueur"},
    "menu_wound_who": {
        "en": "Wound {name}: choose the severity and how many, then inflict.",
        "fr": "Blesser {name} : choisissez la gravité et le nombre, puis infligez.",
    },
    "menu_severity": {"en": "Severity", "fr": "Gravité"},
    "menu_count_one": {"en": "{count} wound", "fr": "{count} blessure"},
    "menu_count_other": {"en": "{count} wounds", "fr": "{count} blessures"},
    "menu_inflict": {"en": "Inflict", "fr": "Infliger"},
    "menu_inflicted": {
        "en": "✅ Inflicted: {count} × {severity} (the result is in the channel). Choose again for the next "
        "blow.",
        "fr": "✅ Infligé : {count} × {severity} (le résultat est dans le salon). Choisissez à nouveau pour "
        "le coup suivant.",
    },
    "menu_closed": {
        "en": "This menu is closed: right-click the member again for the next blow.",
        "fr": "Ce menu est fermé : refaites un clic droit sur le membre pour le coup suivant.",
    },
}
