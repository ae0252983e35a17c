"""Everything users read of the slash commands, in Discord's command list: names, descriptions, option
names and choices, in English and French (Discord shows the French to clients in French).

The cogs declare each description and choice as ``locale_str("English text", key=...)`` with a key of
this catalogue; a command's name and an option's name are their own keys (``name.`` + the command's
qualified name, ``option.`` + the option's name: the identifiers Discord sends back). The translator
(:class:`bot.ui.i18n.HarmoniesTranslator`) reads the French here; a test checks the English here is the
declared one.
"""

from __future__ import annotations

COMMANDS: dict[str, dict[str, str]] = {
    # ---- descriptions: of a command (its qualified name), of an option (the command's key, then the
    # option), or shared by several commands
    "history": {
        "en": "Recorded changes, newest first",
        "fr": "Les changements enregistrés, du plus récent au plus ancien",
    },
    "history.character": {
        "en": "Only this character's events",
        "fr": "Seulement les événements de ce personnage",
    },
    "history.page": {"en": "Page number", "fr": "Numéro de page"},
    "undo": {"en": "Revert the latest change (GM)", "fr": "Annuler le dernier changement (MJ)"},
    "undo.character": {
        "en": "Revert the latest change touching this character",
        "fr": "Annuler le dernier changement de ce personnage",
    },
    "config": {"en": "Server settings (changes: GM)", "fr": "Réglages du serveur (modifications : MJ)"},
    "config.show": {"en": "Show this server's settings", "fr": "Afficher les réglages du serveur"},
    "config.gm-role": {
        "en": "The role whose members are GMs (empty: clear it)",
        "fr": "Le rôle dont les membres sont MJ (vide : aucun)",
    },
    "config.gm-role.role": {"en": "The GM role", "fr": "Le rôle des MJ"},
    "config.penalties": {
        "en": "Penalty per wound of each severity (0 or negative)",
        "fr": "Pénalité par blessure selon la gravité (0 ou négative)",
    },
    "per-severity.track": {"en": "Physical or mental", "fr": "Physique ou mentale"},
    "per-severity.light": {"en": "Light wound (mental: shock)", "fr": "Blessure légère (mentale : choc)"},
    "per-severity.serious": {
        "en": "Serious wound (mental: trauma)",
        "fr": "Blessure grave (mentale : traumatisme)",
    },
    "per-severity.critical": {
        "en": "Critical wound (mental: psychosis)",
        "fr": "Blessure critique (mentale : psychose)",
    },
    "config.rest": {
        "en": "Rest period in days before healing, by least severe wound",
        "fr": "Période de repos en jours avant la guérison, selon la blessure la moins grave",
    },
    "config.rest.mental-healing-rolls": {
        "en": "Let players roll healing for mental wounds too",
        "fr": "Permettre aux joueurs des jets de guérison mentale",
    },
    "config.difficulty": {
        "en": "Healing difficulty per severity (positive is easier)",
        "fr": "Difficulté de guérison par gravité (positive : plus facile)",
    },
    "config.preset": {
        "en": "Add, change or remove a maxima preset (a kind of creature)",
        "fr": "Ajouter, modifier ou supprimer un gabarit de maxima (un type de créature)",
    },
    "config.preset.name": {"en": "Preset name (lowercase)", "fr": "Nom du gabarit (en minuscules)"},
    "config.preset.light": {"en": "Most light wounds", "fr": "Maximum de blessures légères"},
    "config.preset.serious": {"en": "Most serious wounds", "fr": "Maximum de blessures graves"},
    "config.preset.critical": {"en": "Most critical wounds", "fr": "Maximum de blessures critiques"},
    "config.preset.shock": {"en": "Most shocks", "fr": "Maximum de chocs"},
    "config.preset.trauma": {"en": "Most traumas", "fr": "Maximum de traumatismes"},
    "config.preset.psychosis": {"en": "Most psychoses", "fr": "Maximum de psychoses"},
    "config.preset.remove": {"en": "Remove this preset", "fr": "Supprimer ce gabarit"},
    "config.damage": {
        "en": "Damage rolls: the least effective damage for each outcome",
        "fr": "Jets de dommages : les dommages effectifs minimaux de chaque résultat",
    },
    "config.damage.light": {
        "en": "Least effective damage for a light wound (mental: shock)",
        "fr": "Dommages effectifs minimaux pour une blessure légère (mentale : choc)",
    },
    "config.damage.serious": {
        "en": "Least effective damage for a serious wound (mental: trauma)",
        "fr": "Dommages effectifs minimaux pour une blessure grave (mentale : traumatisme)",
    },
    "config.damage.critical": {
        "en": "Least effective damage for a critical wound (mental: psychosis)",
        "fr": "Dommages effectifs minimaux pour une blessure critique (mentale : psychose)",
    },
    "config.damage.fatal": {
        "en": "Least effective damage that kills (mental: incoherent)",
        "fr": "Dommages effectifs minimaux qui tuent (mental : incohérence)",
    },
    "config.dice": {"en": "How rolls work on this server", "fr": "Comment se font les jets sur ce serveur"},
    "config.dice.open-rolls": {
        "en": "A 10 on either die is rolled again and added",
        "fr": "Un 10 sur un dé est relancé et ajouté",
    },
    "config.dice.tie-succeeds": {
        "en": "A margin of exactly 0 is a success",
        "fr": "Une marge de 0 exactement est une réussite",
    },
    "config.dice.ask-before-healing": {
        "en": "When to ask before a healing session the bot rolls (default: deadly only)",
        "fr": "Quand demander avant une séance de guérison lancée par le bot (par défaut : danger de mort)",
    },
    "config.players-create": {
        "en": "Whether players may create their own characters",
        "fr": "Les joueurs peuvent-ils créer leurs personnages",
    },
    "config.players-create.allowed": {"en": "Allowed or not", "fr": "Autorisé ou non"},
    "config.secret-npcs": {
        "en": "Show players only a word for the state of NPCs (all, or one)",
        "fr": "Ne montrer aux joueurs qu'un mot de l'état des PNJ (tous, ou un seul)",
    },
    "config.secret-npcs.secret": {"en": "Secret or not", "fr": "Secret ou non"},
    "config.secret-npcs.character": {
        "en": "One NPC (empty: every NPC of the server, the default for all)",
        "fr": "Un PNJ (vide : tous les PNJ du serveur)",
    },
    "config.language": {
        "en": "Language of the bot's public messages",
        "fr": "Langue des messages publics du bot",
    },
    "config.language.language": {
        "en": "auto follows the server's locale",
        "fr": "auto suit la langue du serveur",
    },
    "config.export": {
        "en": "This server's characters, wounds and settings as a JSON file (GM)",
        "fr": "Les personnages, blessures et réglages du serveur dans un fichier JSON (MJ)",
    },
    "config.import": {
        "en": "Replace this server's data from an exported JSON file (GM)",
        "fr": "Remplacer les données du serveur par un fichier JSON exporté (MJ)",
    },
    "config.import.file": {
        "en": "A file made by /config export",
        "fr": "Un fichier produit par /config exporter",
    },
    "board": {
        "en": "Post the live party board in this channel, or move it here (GM)",
        "fr": "Afficher le tableau du groupe, tenu à jour, dans ce salon, ou l'y déplacer (MJ)",
    },
    "board.add": {"en": "Show this NPC on the board too", "fr": "Faire aussi figurer ce PNJ au tableau"},
    "board.drop": {"en": "Take this NPC off the board", "fr": "Retirer ce PNJ du tableau"},
    "board.link": {
        "en": "Get the link of the live web page of the party, for phones, a TV or a stream (GM)",
        "fr": "Obtenir le lien de la page web du groupe en direct, pour téléphones, télé ou stream (MJ)",
    },
    "board.revoke": {
        "en": "With link: the links given before stop working, and a new one is given",
        "fr": "Avec lien : les liens donnés avant cessent de marcher, un nouveau est donné",
    },
    "character": {
        "en": "Create, show and manage characters",
        "fr": "Créer, afficher et gérer les personnages",
    },
    "character.create": {
        "en": "Create a character (a GM for anyone, a player for themself)",
        "fr": "Créer un personnage (un MJ pour tout le monde, chaque personne pour soi)",
    },
    "character.create.name": {"en": "The character's name", "fr": "Le nom du personnage"},
    "character.create.player": {
        "en": "Who plays it (leave empty: a GM makes an NPC, a player makes their own)",
        "fr": "Qui le joue (vide : un MJ crée un PNJ, une autre personne crée le sien)",
    },
    "attribute.corps": {"en": "Corps (Cp)", "fr": "Corps (Cp)"},
    "attribute.resistance": {"en": "Résistance (Rs)", "fr": "Résistance (Rs)"},
    "attribute.intuition": {"en": "Intuition (It)", "fr": "Intuition (It)"},
    "character.create.preset": {
        "en": "Maxima preset (default: humanoid)",
        "fr": "Gabarit de maxima (par défaut : humanoïde)",
    },
    "character.show": {"en": "Show a character's card", "fr": "Afficher la fiche d'un personnage"},
    "own-character": {
        "en": "Which character (default: your active one)",
        "fr": "Quel personnage (par défaut : votre personnage actif)",
    },
    "character.show.player": {
        "en": "That player's active character",
        "fr": "Le personnage actif de cette personne",
    },
    "character.list": {"en": "Every character of this server", "fr": "Tous les personnages de ce serveur"},
    "character.select": {"en": "Choose your active character", "fr": "Choisir votre personnage actif"},
    "character.select.character": {"en": "One of your characters", "fr": "Un de vos personnages"},
    "character.edit": {
        "en": "Change a character (GM; the owner may rename)",
        "fr": "Modifier un personnage (MJ ; la personne qui le joue peut le renommer)",
    },
    "which-character": {"en": "Which character", "fr": "Quel personnage"},
    "character.edit.name": {"en": "New name", "fr": "Nouveau nom"},
    "character.edit.preset": {"en": "Maxima preset", "fr": "Gabarit de maxima"},
    "character.delete": {
        "en": "Delete a character (asks for confirmation; /undo restores it)",
        "fr": "Supprimer un personnage (avec confirmation ; /annuler le rétablit)",
    },
    "wound": {"en": "Inflict physical wounds (GM)", "fr": "Infliger des blessures physiques (MJ)"},
    "wounding.severity": {
        "en": "How bad each wound is (or give damage instead)",
        "fr": "La gravité de chaque blessure (ou donnez dommages)",
    },
    "wounding.damage": {
        "en": "Damage level instead of a severity: the target rolls to resist it",
        "fr": "Niveau de dommages au lieu d'une gravité : la cible fait un jet pour y résister",
    },
    "who.target": {
        "en": "A player: their active character",
        "fr": "Une personne qui joue : son personnage actif",
    },
    "wounding.character": {"en": "Any character (NPCs too)", "fr": "N'importe quel personnage (PNJ compris)"},
    "wounding.count": {
        "en": "How many wounds (each one escalates on its own)",
        "fr": "Combien de blessures (chacune s'aggrave à part)",
    },
    "wounding.note": {
        "en": "What happened (shown in history)",
        "fr": "Ce qui s'est passé (visible dans l'historique)",
    },
    "wounding.dice": {
        "en": "With damage: the target's own dice as luck-unluck pairs, one per wound "
        "(the bot rolls the rest)",
        "fr": "Avec dommages : les dés de la cible, en paires chance-malchance, une par blessure",
    },
    "wounding.preview": {
        "en": "With damage: see the odds privately first, then confirm",
        "fr": "Avec dommages : voir d'abord les chances en privé, puis confirmer",
    },
    "heal": {"en": "Heal wounds", "fr": "Soigner les blessures"},
    "heal.roll": {
        "en": "Roll one healing session (after the rest period)",
        "fr": "Faire une séance de jets de guérison (après le repos)",
    },
    "heal.roll.dice": {
        "en": "Your own dice as luck-unluck pairs in order, e.g. 7-3 10-2 (the bot rolls the rest)",
        "fr": "Vos propres dés en paires chance-malchance dans l'ordre, ex. 7-3 10-2 (le bot lance le reste)",
    },
    "heal.roll.track": {
        "en": "Physical wounds (default), or mental ones when the server allows healing rolls for them",
        "fr": "Blessures physiques (par défaut), ou mentales si le serveur permet leurs jets de guérison",
    },
    "heal.wound": {
        "en": "Lower one physical wound one rank, no roll (GM)",
        "fr": "Réduire une blessure physique d'un rang, sans jet (MJ)",
    },
    "which-severity": {"en": "Which severity", "fr": "Quelle gravité"},
    "who.character": {"en": "Any character", "fr": "N'importe quel personnage"},
    "heal.mental": {
        "en": "Lower one mental wound one rank (GM)",
        "fr": "Réduire une blessure mentale d'un rang (MJ)",
    },
    "rest": {
        "en": "Grant in-game rest (GM): to everyone alive, or to one character",
        "fr": "Accorder du repos en jeu (MJ) : à tous les personnages en jeu, ou à un seul",
    },
    "rest.days": {"en": "In-game days of rest", "fr": "Jours de repos en jeu"},
    "roll": {
        "en": "A ±d10 roll with your character's wound penalty applied",
        "fr": "Un jet de ±d10 avec la pénalité de blessures de votre personnage",
    },
    "roll.modifier": {"en": "Attributes and skill you add", "fr": "Attributs et compétence que vous ajoutez"},
    "roll.difficulty": {
        "en": "Difficulty: positive makes it easier, negative harder (as in Harmonies)",
        "fr": "Difficulté : positive rend le jet plus facile, négative plus dur (comme dans Harmonies)",
    },
    "roll.dice": {
        "en": "Your own dice as luck-unluck, e.g. 7-3 (the bot rolls if empty)",
        "fr": "Vos propres dés chance-malchance, ex. 7-3 (sinon le bot lance)",
    },
    "mental": {"en": "Inflict mental wounds (GM)", "fr": "Infliger des blessures mentales (MJ)"},
    # ---- command names
    "name.history": {"en": "history", "fr": "historique"},
    "name.undo": {"en": "undo", "fr": "annuler"},
    "name.config": {"en": "config", "fr": "config"},
    "name.config.show": {"en": "show", "fr": "afficher"},
    "name.config.gm-role": {"en": "gm-role", "fr": "rôle-mj"},
    "name.config.penalties": {"en": "penalties", "fr": "pénalités"},
    "name.config.rest": {"en": "rest", "fr": "repos"},
    "name.config.difficulty": {"en": "difficulty", "fr": "difficulté"},
    "name.config.preset": {"en": "preset", "fr": "gabarit"},
    "name.config.damage": {"en": "damage", "fr": "dommages"},
    "name.config.dice": {"en": "dice", "fr": "dés"},
    "name.config.players-create": {"en": "players-create", "fr": "création-joueurs"},
    "name.config.secret-npcs": {"en": "secret-npcs", "fr": "pnj-secrets"},
    "name.config.language": {"en": "language", "fr": "langue"},
    "name.config.export": {"en": "export", "fr": "exporter"},
    "name.config.import": {"en": "import", "fr": "importer"},
    "name.board": {"en": "board", "fr": "tableau"},
    "name.character": {"en": "character", "fr": "personnage"},
    "name.character.create": {"en": "create", "fr": "créer"},
    "name.character.show": {"en": "show", "fr": "afficher"},
    "name.character.list": {"en": "list", "fr": "liste"},
    "name.character.select": {"en": "select", "fr": "choisir"},
    "name.character.edit": {"en": "edit", "fr": "modifier"},
    "name.character.delete": {"en": "delete", "fr": "supprimer"},
    "name.wound": {"en": "wound", "fr": "blessure"},
    "name.heal": {"en": "heal", "fr": "soin"},
    "name.heal.roll": {"en": "roll", "fr": "jet"},
    "name.heal.wound": {"en": "wound", "fr": "blessure"},
    "name.heal.mental": {"en": "mental", "fr": "mentale"},
    "name.rest": {"en": "rest", "fr": "repos"},
    "name.roll": {"en": "roll", "fr": "jet"},
    "name.mental": {"en": "mental", "fr": "blessure-mentale"},
    "name.menu.wound": {"en": "Wound…", "fr": "Blesser…"},
    "name.menu.card": {"en": "Card", "fr": "Fiche"},
    # ---- option names
    "option.character": {"en": "character", "fr": "personnage"},
    "option.page": {"en": "page", "fr": "page"},
    "option.role": {"en": "role", "fr": "rôle"},
    "option.track": {"en": "track", "fr": "piste"},
    "option.light": {"en": "light", "fr": "légère"},
    "option.serious": {"en": "serious", "fr": "grave"},
    "option.critical": {"en": "critical", "fr": "critique"},
    "option.mental-healing-rolls": {"en": "mental-healing-rolls", "fr": "jets-soin-mental"},
    "option.name": {"en": "name", "fr": "nom"},
    "option.shock": {"en": "shock", "fr": "choc"},
    "option.trauma": {"en": "trauma", "fr": "traumatisme"},
    "option.psychosis": {"en": "psychosis", "fr": "psychose"},
    "option.remove": {"en": "remove", "fr": "supprimer"},
    "option.fatal": {"en": "fatal", "fr": "mortelle"},
    "option.open-rolls": {"en": "open-rolls", "fr": "jets-ouverts"},
    "option.tie-succeeds": {"en": "tie-succeeds", "fr": "égalité-réussit"},
    "option.ask-before-healing": {"en": "ask-before-healing", "fr": "demander-avant-soin"},
    "option.allowed": {"en": "allowed", "fr": "autorisé"},
    "option.secret": {"en": "secret", "fr": "secret"},
    "option.language": {"en": "language", "fr": "langue"},
    "option.file": {"en": "file", "fr": "fichier"},
    "option.add": {"en": "add", "fr": "ajouter"},
    "option.drop": {"en": "drop", "fr": "retirer"},
    "option.link": {"en": "link", "fr": "lien"},
    "option.revoke": {"en": "revoke", "fr": "révoquer"},
    "option.player": {"en": "player", "fr": "joueur"},
    "option.corps": {"en": "corps", "fr": "corps"},
    "option.resistance": {"en": "resistance", "fr": "résistance"},
    "option.intuition": {"en": "intuition", "fr": "intuition"},
    "option.preset": {"en": "preset", "fr": "gabarit"},
    "option.severity": {"en": "severity", "fr": "gravité"},
    "option.damage": {"en": "damage", "fr": "dommages"},
    "option.target": {"en": "target", "fr": "cible"},
    "option.count": {"en": "count", "fr": "nombre"},
    "option.note": {"en": "note", "fr": "note"},
    "option.dice": {"en": "dice", "fr": "dés"},
    "option.preview": {"en": "preview", "fr": "aperçu"},
    "option.days": {"en": "days", "fr": "jours"},
    "option.modifier": {"en": "modifier", "fr": "modificateur"},
    "option.difficulty": {"en": "difficulty", "fr": "difficulté"},
    # ---- choices, by value
    "choice.physical": {"en": "physical", "fr": "physique"},
    "choice.mental": {"en": "mental", "fr": "mentale"},
    "choice.deadly": {
        "en": "deadly only (first roll can kill or make incoherent)",
        "fr": "danger de mort seulement (le premier jet peut tuer ou rendre incohérent)",
    },
    "choice.worsening": {"en": "any worsening", "fr": "toute aggravation"},
    "choice.never": {"en": "never", "fr": "jamais"},
    "choice.auto": {"en": "auto (server locale)", "fr": "auto (langue du serveur)"},
    "choice.en": {"en": "English", "fr": "English (anglais)"},
    "choice.fr": {"en": "Français", "fr": "Français"},
    "choice.light": {"en": "light", "fr": "légère"},
    "choice.serious": {"en": "serious", "fr": "grave"},
    "choice.critical": {"en": "critical", "fr": "critique"},
    "choice.shock": {"en": "shock", "fr": "choc"},
    "choice.trauma": {"en": "trauma", "fr": "traumatisme"},
    "choice.psychosis": {"en": "psychosis", "fr": "psychose"},
}
