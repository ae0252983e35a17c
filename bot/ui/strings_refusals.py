"""Every refusal and error a user reads: the keys of :class:`bot.errors.UserError` (``ERRORS``), each one
saying what to do instead, and the problems of a refused import (``IMPORT_PROBLEMS``)."""

from __future__ import annotations

ERRORS: dict[str, dict[str, str]] = {
    # ---- When the database cannot do what was asked: said honestly, whether anything was changed or
    # not (docs/reliability.md).
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
    # ---- Refusals of the commands.
    "character_dead": {
        "en": "{name} is dead: no more wounds, rest or rolls. Only a GM can bring them back, with /undo.",
        "fr": "Le personnage {name} est mort : plus de blessures, de repos ni de jets. "
        "Seul un MJ peut revenir en arrière, avec /annuler.",
    },
    "character_incoherent": {
        "en": "{name} is incoherent (unplayable): no more wounds, rest or rolls. Only a GM can bring "
        "them back, with /undo.",
        "fr": "Le personnage {name} est incohérent (injouable) : plus de blessures, de repos ni de jets. "
        "Seul un MJ peut revenir en arrière, avec /annuler.",
    },
    "count_range": {
        "en": "The number of wounds must be between 1 and {max}. For more, run the command again.",
        "fr": "Le nombre de blessures doit être compris entre 1 et {max}. Pour davantage, relancez la "
        "commande.",
    },
    "board_none": {
        "en": "There is no board in this channel: post one with /board first.",
        "fr": "Il n'y a pas de tableau dans ce salon : affichez-en un d'abord avec /tableau.",
    },
    "board_player_character": {
        "en": "{name} is a player character: player characters are always on the board. Only NPCs "
        "are added or taken off.",
        "fr": "{name} est un personnage joueur : les personnages joueurs figurent toujours au tableau. "
        "On n'y ajoute ou n'en retire que des PNJ.",
    },
    "board_npc_already": {
        "en": "{name} is already on this channel's board.",
        "fr": "{name} figure déjà au tableau de ce salon.",
    },
    "board_npc_absent": {
        "en": "{name} is not on this channel's board: nothing to take off.",
        "fr": "{name} ne figure pas au tableau de ce salon : rien à retirer.",
    },
    "board_one_at_a_time": {
        "en": "Add or drop one NPC at a time: run /board twice.",
        "fr": "Ajoutez ou retirez un PNJ à la fois : lancez /tableau deux fois.",
    },
    "secret_player_character": {
        "en": "{name} is a player character: only NPCs can be kept secret.",
        "fr": "{name} est un personnage joueur : seuls les PNJ peuvent rester secrets.",
    },
    "secret_all_npcs": {
        "en": "Every NPC of this server is secret, {name} included: turn that off first with "
        "/config secret-npcs secret:False (without a character).",
        "fr": "Tous les PNJ de ce serveur sont secrets, {name} compris : désactivez d'abord cela avec "
        "/config pnj-secrets secret:False (sans personnage).",
    },
    "note_length": {
        "en": "The note is too long: {max} characters at most. Shorten it and try again.",
        "fr": "La note est trop longue : {max} caractères au plus. Raccourcissez-la et réessayez.",
    },
    "note_nul": {
        "en": "The note contains a NUL character (U+0000), which cannot be stored. Remove it and try again.",
        "fr": "La note contient un caractère nul (U+0000), qui ne peut pas être enregistré. Retirez-le et "
        "réessayez.",
    },
    "no_wound_of_severity": {
        "en": "{name} has no {severity} to lower. Check the card with /character show and pick a "
        "severity it holds.",
        "fr": "{name} n'a pas de {severity} à soigner. Vérifiez la fiche avec /personnage afficher et "
        "choisissez une gravité qui y figure.",
    },
    "lower_blocked": {
        "en": "This {severity} cannot be lowered: {name} already holds the maximum of {below_plural}, "
        "and healing never escalates. Heal a {below} first.",
        "fr": "Impossible d'abaisser cette blessure ({severity}) : {name} a déjà le maximum de "
        "{below_plural}, et un soin n'aggrave jamais rien. Soignez d'abord une blessure plus légère "
        "({below}).",
    },
    "nothing_to_heal_mental": {
        "en": "{name} has no mental wound to heal: nothing to roll.",
        "fr": "{name} n'a aucune blessure mentale à soigner : pas de jet à faire.",
    },
    "dice_open_rolls_off": {
        "en": "A die above 10 in {text}: open rolls are off on this server, so each die shows 1 to 10. "
        "A GM can turn them on with /config dice open-rolls.",
        "fr": "Un dé au-dessus de 10 dans {text} : les jets ouverts sont désactivés sur ce serveur, chaque "
        "dé va donc de 1 à 10. Un MJ peut les activer avec /config dés jets-ouverts.",
    },
    "mental_healing_off": {
        "en": "On this server a GM heals mental wounds (/heal mental): players do not roll for them. "
        "A GM can allow it with /config rest mental-healing-rolls.",
        "fr": "Sur ce serveur, un MJ soigne les blessures mentales (/soin mentale) : pas de jet de "
        "guérison pour elles. Un MJ peut les autoriser avec /config repos jets-soin-mental.",
    },
    "heal_odds_changed": {
        "en": "{name} changed since the question (a wound, a rest or another session): nothing was "
        "rolled. Run /heal roll again to see the new odds.",
        "fr": "{name} a changé depuis la question (une blessure, du repos ou une autre séance) : rien "
        "n'a été lancé. Relancez /soin jet pour voir les nouvelles chances.",
    },
    "nothing_to_heal": {
        "en": "{name} has no wound to heal: nothing to roll.",
        "fr": "{name} n'a aucune blessure à soigner : pas de jet à faire.",
    },
    "rest_not_over": {
        "en": "No healing roll yet for {name}: {days} of rest for the least severe wound ({severity}), "
        "{remaining} to go. A GM grants in-game rest with /rest.",
        "fr": "Pas encore de jet de guérison pour {name} : {days} de repos pour la blessure la moins "
        "grave ({severity}), il en manque encore {remaining}. Un MJ accorde du repos en jeu avec /repos.",
    },
    "rest_range": {
        "en": "Rest must be between 1 and {max} days. For more, grant it in several steps.",
        "fr": "Le repos doit être compris entre 1 et {max} jours. Pour plus, accordez-le en plusieurs fois.",
    },
    "dice_invalid": {
        "en": "I cannot read these dice: {text}. Give luck-unluck pairs in order, each die from 1 to 10 "
        "(more only with open rolls), e.g. 7-3 10-2; or leave the option empty and the bot rolls.",
        "fr": "Je ne peux pas lire ces dés : {text}. Donnez des paires chance-malchance dans l'ordre, "
        "chaque dé de 1 à 10 (plus seulement avec les jets ouverts), par exemple 7-3 10-2 ; ou laissez "
        "l'option vide et le bot lance.",
    },
    "name_length": {
        "en": "A name must have 1 to {max} characters. Choose another name.",
        "fr": "Un nom doit faire de 1 à {max} caractères. Choisissez un autre nom.",
    },
    "attribute_range": {
        "en": "Corps, Résistance and Intuition must be between {min} and {max}. Type a value in that range.",
        "fr": "Corps, Résistance et Intuition doivent être compris entre {min} et {max}. Saisissez une "
        "valeur dans cet intervalle.",
    },
    "preset_unknown": {
        "en": "There is no preset called {preset}. Known presets: {known}. A GM can add one with "
        "/config preset.",
        "fr": "Aucun gabarit nommé {preset}. Gabarits connus : {known}. Un MJ peut en ajouter avec "
        "/config gabarit.",
    },
    "preset_too_small": {
        "en": "{name} holds more wounds than the preset {preset} allows. Heal some first, or choose a "
        "larger preset.",
        "fr": "{name} porte plus de blessures que le gabarit {preset} n'en permet. Soignez-en d'abord, "
        "ou choisissez un gabarit plus grand.",
    },
    "character_blank": {
        "en": "The character option is blank. Pick a character from the suggestions, or leave the option "
        "out.",
        "fr": "L'option du personnage est vide. Choisissez un personnage dans les suggestions, ou laissez "
        "l'option de côté.",
    },
    "character_not_found": {
        "en": "No character called {ref} in this server. Pick one from the suggestions, or see "
        "/character list.",
        "fr": "Aucun personnage nommé {ref} sur ce serveur. Choisissez-en un dans les suggestions, ou "
        "consultez /personnage liste.",
    },
    "character_gone": {
        "en": "That character does not exist in this server (any more). Pick one from the suggestions, "
        "or see /character list.",
        "fr": "Ce personnage n'existe pas (ou plus) sur ce serveur. Choisissez-en un dans les "
        "suggestions, ou consultez /personnage liste.",
    },
    "name_taken": {
        "en": "There is already a character called {name} in this server. Choose another name.",
        "fr": "Il y a déjà un personnage nommé {name} sur ce serveur. Choisissez un autre nom.",
    },
    "undo_nothing": {
        "en": "There is nothing left to undo here. See /history for what was recorded.",
        "fr": "Il n'y a plus rien à annuler ici. Consultez /historique pour voir ce qui a été enregistré.",
    },
    "undo_blocked": {
        "en": "Change #{id} ({kind}) cannot be undone on its own: {tie} changed after it, in "
        "#{blocked_by_id} ({blocked_by}). Undo the later changes first, newest first: /undo "
        "character:{tie} reverts #{blocked_by_id}; then undo #{id}.",
        "fr": "Le changement n°{id} ({kind}) ne peut pas être annulé seul : {tie} a changé depuis, au "
        "n°{blocked_by_id} ({blocked_by}). Annulez d'abord les changements plus récents, du plus récent "
        "au plus ancien : /annuler personnage:{tie} annule le n°{blocked_by_id} ; puis annulez le n°{id}.",
    },
    "undo_blocked_later": {
        "en": "Change #{id} ({kind}) cannot be undone on its own: a later change, #{blocked_by_id} "
        "({blocked_by}), depends on it. Undo the later changes first (/undo without a character).",
        "fr": "Le changement n°{id} ({kind}) ne peut pas être annulé seul : un changement plus récent, le "
        "n°{blocked_by_id} ({blocked_by}), en dépend. Annulez d'abord les plus récents (/annuler sans "
        "personnage).",
    },
    "import_invalid": {
        "en": "This file cannot be imported: {errors}. Nothing was changed; use a file made by "
        "/config export.",
        "fr": "Ce fichier ne peut pas être importé : {errors}. Rien n'a été modifié ; utilisez un "
        "fichier produit par /config exporter.",
    },
    "no_active_character": {
        "en": "No active character for {user}. Name one with the character option, create one with "
        "/character create, or choose one with /character select.",
        "fr": "Aucun personnage actif pour {user}. Indiquez-en un avec l'option personnage, créez-en un "
        "avec /personnage créer, ou choisissez-en un avec /personnage choisir.",
    },
    "target_or_character": {
        "en": "Say who: give target (a player, for their active character) or character (any "
        "character, NPCs included).",
        "fr": "Précisez qui : donnez cible (une personne qui joue, pour son personnage actif) ou personnage "
        "(n'importe lequel, PNJ compris).",
    },
    "character_not_targets": {
        "en": "{name} is not a character of {user}. Give only target, or only character, or one of "
        "that player's characters.",
        "fr": "{name} n'est pas un personnage de {user}. Donnez seulement cible, ou seulement "
        "personnage, ou un personnage de cette personne.",
    },
    "guild_only": {
        "en": "This command only works in a server, not in direct messages.",
        "fr": "Cette commande ne fonctionne que sur un serveur, pas en message privé.",
    },
    "config_invalid": {
        "en": "That setting is not valid:\n{errors}\nNothing was changed: fix the value and try again "
        "(/config show lists the current settings).",
        "fr": "Ce réglage n'est pas valide :\n{errors}\nRien n'a été modifié : corrigez la valeur et "
        "réessayez (/config afficher montre les réglages actuels).",
    },
    "internal_error": {
        "en": "Something went wrong on our side (error id {error_id}). The change may already be "
        "recorded: check /history before trying again. If it keeps happening, give this id to the bot's "
        "admins.",
        "fr": "Un problème est survenu de notre côté (erreur {error_id}). Le changement est peut-être "
        "déjà enregistré : vérifiez /historique avant de réessayer. Si cela persiste, donnez cet "
        "identifiant aux administrateurs du bot.",
    },
    "page_range": {
        "en": "That page does not exist: choose a page from 1 to {pages}.",
        "fr": "Cette page n'existe pas : choisissez une page entre 1 et {pages}.",
    },
    "payload_invalid": {
        "en": "Discord sent this command in a form the bot cannot read (it may have just been updated). "
        "Nothing was changed: try again in a minute.",
        "fr": "Discord a transmis cette commande sous une forme que le bot ne sait pas lire (elle vient "
        "peut-être d'être mise à jour). Rien n'a été modifié : réessayez dans une minute.",
    },
    "option_invalid": {
        "en": "This value is not valid: {value}. Check the option and try again.",
        "fr": "Cette valeur n'est pas valide : {value}. Vérifiez l'option et réessayez.",
    },
    "edit_unchanged": {
        "en": "{name} already is like that: nothing was changed.",
        "fr": "{name} est déjà ainsi : rien n'a été modifié.",
    },
    "gm_role_everyone": {
        "en": "The role every member has cannot be the GM role: create a role for your GMs and choose it.",
        "fr": "Le rôle de tous les membres ne peut pas être celui des MJ : créez un rôle pour vos MJ et "
        "choisissez-le.",
    },
    "damage_thresholds_order": {
        "en": "The damage thresholds must increase: light < serious < critical < fatal, and these would "
        "be {light}, {serious}, {critical}, {fatal}. Nothing was changed: give thresholds that increase "
        "(/config show lists the current table).",
        "fr": "Les seuils de dommages doivent croître : légère < grave < critique < mortelle, or ils "
        "seraient de {light}, {serious}, {critical}, {fatal}. Rien n'a été modifié : donnez des seuils "
        "croissants (/config afficher montre la table actuelle).",
    },
    "severity_or_damage": {
        "en": "Give either severity (a wound of that severity) or damage (a damage level the target "
        "rolls against), not both and not neither.",
        "fr": "Donnez soit gravité (une blessure de cette gravité), soit dommages (un niveau de dommages "
        "contre lequel la cible fait un jet) : l'un des deux, pas les deux.",
    },
    "damage_option_alone": {
        "en": "The dice and preview options only go with damage (a damage level the target rolls "
        "against). Give damage instead of severity, or leave them out.",
        "fr": "Les options dés et aperçu ne vont qu'avec dommages (un niveau de dommages contre lequel "
        "la cible fait un jet). Donnez dommages au lieu de gravité, ou retirez-les.",
    },
    "damage_range": {
        "en": "The damage level must be between 0 and {max}.",
        "fr": "Le niveau de dommages doit être compris entre 0 et {max}.",
    },
    "config_nothing": {
        "en": "Nothing to change: give at least one value. /config show lists every setting.",
        "fr": "Rien à modifier : donnez au moins une valeur. /config afficher montre tous les réglages.",
    },
    "config_unchanged": {
        "en": "That is already the setting: nothing was changed. /config show lists every setting.",
        "fr": "C'est déjà le réglage : rien n'a été modifié. /config afficher montre tous les réglages.",
    },
    "edit_nothing": {
        "en": "Nothing to change: give at least one of name, corps, resistance, intuition or preset.",
        "fr": "Rien à modifier : donnez au moins un de nom, corps, résistance, intuition ou gabarit.",
    },
    "rest_nobody": {
        "en": "No character in play (alive and coherent) to rest in this server. Create one with "
        "/character create.",
        "fr": "Aucun personnage en jeu (ni mort ni incohérent) à faire reposer sur ce serveur. Créez-en "
        "un avec /personnage créer.",
    },
    "modifier_range": {
        "en": "The modifier must be between −{max} and {max}. Type a smaller number.",
        "fr": "Le modificateur doit être compris entre −{max} et {max}. Saisissez un nombre plus petit.",
    },
    "error_unknown": {
        "en": "That was refused ({key}). Check the command's options and try again.",
        "fr": "La demande a été refusée ({key}). Vérifiez les options de la commande et réessayez.",
    },
    # ---- The player view's refusals.
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
    # ---- Who may act instead, and how. French: "la personne qui joue", never a gendered word for a
    # player or a character.
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

IMPORT_PROBLEMS: dict[str, dict[str, str]] = {
    # ---- One line each under ``import_invalid`` (``bot.errors.ImportProblem``): ``import_<what>`` words
    # one problem; ``{where}`` is its place in the file.
    "import_line": {"en": "{where}: {problem}", "fr": "{where} : {problem}"},
    "import_whole_file": {"en": "file", "fr": "fichier"},
    "import_more": {"en": "… and {count} more", "fr": "… et {count} de plus"},
    "import_too_large": {
        "en": "the file is larger than {mb} MB",
        "fr": "le fichier dépasse {mb} Mo",
    },
    "import_not_json": {
        "en": "this is not a JSON file",
        "fr": "ce n'est pas un fichier JSON",
    },
    "import_missing": {"en": "missing", "fr": "absent"},
    "import_unknown_field": {
        "en": "unknown field",
        "fr": "champ inconnu",
    },
    "import_invalid_value": {"en": "invalid value", "fr": "valeur invalide"},
    "import_other_server": {
        "en": "this file was exported from another server",
        "fr": "ce fichier a été exporté depuis un autre serveur",
    },
    "import_same_name": {
        "en": "same name as character {first}",
        "fr": "même nom que le personnage {first}",
    },
    "import_player_twice": {
        "en": "this player appears twice",
        "fr": "cette personne apparaît deux fois",
    },
    "import_no_such_character": {
        "en": "no character of that name in the file",
        "fr": "aucun personnage de ce nom dans le fichier",
    },
    "import_not_this_players": {
        "en": "that character is not this player's",
        "fr": "ce personnage n'appartient pas à cette personne",
    },
    "import_too_many": {
        "en": "{held} {severity_plural} held, more than the maximum of {maximum}",
        "fr": "{held} {severity_plural} en cours, au-delà du maximum de {maximum}",
    },
    "import_fatal_not_dead": {
        "en": "a fatal physical wound, but not dead",
        "fr": "une blessure physique fatale, mais le personnage n'est pas mort",
    },
    "import_fatal_not_incoherent": {
        "en": "a fatal mental wound, but not incoherent",
        "fr": "une blessure mentale fatale, mais le personnage n'est pas incohérent",
    },
    "import_dead_not_fatal": {
        "en": "dead, but no fatal physical wound",
        "fr": "mort, mais sans blessure physique fatale",
    },
    "import_incoherent_not_fatal": {
        "en": "incoherent, but no fatal mental wound",
        "fr": "incohérent, mais sans blessure mentale fatale",
    },
    "import_several_fatal": {
        "en": "{held} fatal wounds, at most one is possible",
        "fr": "{held} blessures fatales, une seule au plus est possible",
    },
}
