"""Refusals that say who may act instead, and how (keys of :class:`bot.errors.UserError`, part of
``ERRORS``). French: "la personne qui joue", never a gendered word for a player or a character."""

from __future__ import annotations

WHO: dict[str, dict[str, str]] = {
    "not_gm": {
        "en": "Only a GM (the GM role, Manage Server, or the server owner) can do this. Ask a GM.",
        "fr": "Seul un MJ (le rôle MJ, la permission Gérer le serveur, ou le propriétaire du serveur) "
        "peut faire cela. Demandez à un MJ.",
    },
    "not_owner": {
        "en": "{name} is played by {player}: only that person (or a GM) can do this. Use your own character.",
        "fr": "{player} joue {name} : seule cette personne (ou un MJ) peut faire cela. Utilisez votre "
        "propre personnage.",
    },
    "not_owner_bare": {
        "en": "Only the person who plays this character (or a GM) can do this. Use your own character.",
        "fr": "Seule la personne qui joue ce personnage (ou un MJ) peut faire cela. Utilisez votre propre "
        "personnage.",
    },
    "not_owner_npc": {
        "en": "{name} is an NPC: only a GM can do this.",
        "fr": "{name} est un PNJ : seul un MJ peut faire cela.",
    },
    "heal_roll_owner": {
        "en": "{of_name} healing rolls are rolled by {player}; a GM can heal without a roll with /heal "
        "wound.",
        "fr": "Les jets de guérison {of_name} sont lancés par {player} ; un MJ peut soigner sans jet avec "
        "/soin blessure.",
    },
    "heal_roll_npc": {
        "en": "{name} is an NPC: a GM rolls its healing (/heal roll), or heals it without a roll (/heal "
        "wound).",
        "fr": "{name} est un PNJ : un MJ lance ses jets de guérison (/soin jet), ou le soigne sans jet "
        "(/soin blessure).",
    },
    "select_not_owner": {
        "en": "{name} is played by {player}: only that person can make it their active character. "
        "Choose one of yours.",
        "fr": "{player} joue {name} : seule cette personne peut en faire son personnage actif. Choisissez "
        "l'un des vôtres.",
    },
    "select_npc": {
        "en": "{name} is an NPC: it is nobody's active character. Choose one of yours.",
        "fr": "{name} est un PNJ : ce n'est le personnage actif de personne. Choisissez l'un des vôtres.",
    },
    "players_cannot_create": {
        "en": "On this server only GMs create characters. Ask a GM to create yours (/character create "
        "with player).",
        "fr": "Sur ce serveur, seuls les MJ créent les personnages. Demandez à un MJ de créer le vôtre "
        "(/personnage créer avec joueur).",
    },
    "not_gm_lower": {
        "en": "Only a GM lowers a wound without a roll (surgery, magic). To heal your character, roll "
        "for it with /heal roll once the rest period is over.",
        "fr": "Seul un MJ abaisse une blessure sans jet (chirurgie, magie). Pour soigner votre personnage, "
        "faites un jet de guérison avec /soin jet une fois la période de repos terminée.",
    },
    "not_gm_lower_mental": {
        "en": "Only a GM lowers a mental wound by command. Ask a GM; when this server allows mental "
        "healing rolls, roll with /heal roll track:mental once the rest period is over.",
        "fr": "Seul un MJ abaisse une blessure mentale par commande. Demandez à un MJ ; si ce serveur "
        "autorise les jets de guérison mentale, lancez /soin jet piste:mentale une fois la période de "
        "repos terminée.",
    },
}
