"""French names and descriptions of the slash commands, for Discord's localisation fields.

Command and option names are the English defaults of commands.md; Discord shows these French ones
to users whose client is in French. Commands are keyed by their qualified name (``heal wound``),
since the same English word can name two commands.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

FRENCH_LOCALES = (discord.Locale.french,)

COMMAND_NAMES = {
    "character": "personnage",
    "character create": "créer",
    "character show": "afficher",
    "character list": "liste",
    "character select": "choisir",
    "character edit": "modifier",
    "character delete": "supprimer",
    "wound": "blessure",
    "mental": "blessure-mentale",
    "heal": "soin",
    "heal roll": "jet",
    "heal wound": "blessure",
    "heal mental": "mentale",
    "rest": "repos",
    "roll": "jet",
    "history": "historique",
    "undo": "annuler",
    "config": "config",
    "config show": "afficher",
    "config gm-role": "rôle-mj",
    "config penalties": "pénalités",
    "config rest": "repos",
    "config difficulty": "difficulté",
    "config preset": "gabarit",
    "config damage": "dommages",
    "config dice": "dés",
    "config players-create": "création-joueurs",
    "config language": "langue",
    "config export": "exporter",
    "config import": "importer",
    "board": "tableau",
    "config secret-npcs": "pnj-secrets",
    "Wound…": "Blesser…",
    "Card": "Fiche",
}

PARAMETER_NAMES = {
    "name": "nom",
    "player": "joueur",
    "corps": "corps",
    "resistance": "résistance",
    "intuition": "intuition",
    "preset": "gabarit",
    "character": "personnage",
    "severity": "gravité",
    "target": "cible",
    "count": "nombre",
    "note": "note",
    "dice": "dés",
    "track": "piste",
    "days": "jours",
    "modifier": "modificateur",
    "difficulty": "difficulté",
    "page": "page",
    "role": "rôle",
    "light": "légère",
    "serious": "grave",
    "critical": "critique",
    "shock": "choc",
    "trauma": "traumatisme",
    "psychosis": "psychose",
    "remove": "supprimer",
    "open-rolls": "jets-ouverts",
    "tie-succeeds": "égalité-réussit",
    "mental-healing-rolls": "jets-soin-mental",
    "ask-before-healing": "demander-avant-soin",
    "allowed": "autorisé",
    "language": "langue",
    "file": "fichier",
    "add": "ajouter",
    "drop": "retirer",
    "secret": "secret",
    "damage": "dommages",
    "preview": "aperçu",
    "fatal": "mortelle",
    "link": "lien",
    "revoke": "révoquer",
}

CHOICE_NAMES = {
    "light": "légère",
    "serious": "grave",
    "critical": "critique",
    "shock": "choc",
    "trauma": "traumatisme",
    "psychosis": "psychose",
    "physical": "physique",
    "mental": "mentale",
    "auto (server locale)": "auto (langue du serveur)",
    "English": "English (anglais)",
    "Français": "Français",
    "deadly only (first roll can kill or make incoherent)": (
        "danger de mort seulement (le premier jet peut tuer ou rendre incohérent)"
    ),
    "any worsening": "toute aggravation",
    "never": "jamais",
}

DESCRIPTIONS = {
    # groups
    "Create, show and manage characters": "Créer, afficher et gérer les personnages",
    "Heal wounds": "Soigner les blessures",
    "Server settings (changes: GM)": "Réglages du serveur (modifications : MJ)",
    # commands
    "Create a character (a GM for anyone, a player for themself)": (
        "Créer un personnage (un MJ pour tout le monde, chaque personne pour soi)"
    ),
    "Show a character's card": "Afficher la fiche d'un personnage",
    "Every character of this server": "Tous les personnages de ce serveur",
    "Choose your active character": "Choisir votre personnage actif",
    "Change a character (GM; the owner may rename)": (
        "Modifier un personnage (MJ ; la personne qui le joue peut le renommer)"
    ),
    "Delete a character (asks for confirmation; /undo restores it)": (
        "Supprimer un personnage (avec confirmation ; /annuler le rétablit)"
    ),
    "Inflict physical wounds (GM)": "Infliger des blessures physiques (MJ)",
    "Inflict mental wounds (GM)": "Infliger des blessures mentales (MJ)",
    "Roll one healing session (after the rest period)": (
        "Faire une séance de jets de guérison (après le repos)"
    ),
    "Lower one physical wound one rank, no roll (GM)": (
        "Réduire une blessure physique d'un rang, sans jet (MJ)"
    ),
    "Lower one mental wound one rank (GM)": "Réduire une blessure mentale d'un rang (MJ)",
    "Grant in-game rest (GM): to everyone alive, or to one character": (
        "Accorder du repos en jeu (MJ) : à tous les personnages en jeu, ou à un seul"
    ),
    "A ±d10 roll with your character's wound penalty applied": (
        "Un jet de ±d10 avec la pénalité de blessures de votre personnage"
    ),
    "Recorded changes, newest first": "Les changements enregistrés, du plus récent au plus ancien",
    "Revert the latest change (GM)": "Annuler le dernier changement (MJ)",
    "Show this server's settings": "Afficher les réglages du serveur",
    "The role whose members are GMs (empty: clear it)": "Le rôle dont les membres sont MJ (vide : aucun)",
    "Penalty per wound of each severity (0 or negative)": (
        "Pénalité par blessure selon la gravité (0 ou négative)"
    ),
    "Rest period in days before healing, by least severe wound": (
        "Période de repos en jours avant la guérison, selon la blessure la moins grave"
    ),
    "Healing difficulty per severity (positive is easier)": (
        "Difficulté de guérison par gravité (positive : plus facile)"
    ),
    "Add, change or remove a maxima preset (a kind of creature)": (
        "Ajouter, modifier ou supprimer un gabarit de maxima (un type de créature)"
    ),
    "How rolls work on this server": "Comment se font les jets sur ce serveur",
    "Whether players may create their own characters": "Les joueurs peuvent-ils créer leurs personnages",
    "Language of the bot's public messages": "Langue des messages publics du bot",
    "This server's characters, wounds and settings as a JSON file (GM)": (
        "Les personnages, blessures et réglages du serveur dans un fichier JSON (MJ)"
    ),
    "Replace this server's data from an exported JSON file (GM)": (
        "Remplacer les données du serveur par un fichier JSON exporté (MJ)"
    ),
    # parameters
    "The character's name": "Le nom du personnage",
    "Who plays it (leave empty: a GM makes an NPC, a player makes their own)": (
        "Qui le joue (vide : un MJ crée un PNJ, une autre personne crée le sien)"
    ),
    "Corps (Cp)": "Corps (Cp)",
    "Résistance (Rs)": "Résistance (Rs)",
    "Intuition (It)": "Intuition (It)",
    "Maxima preset (default: humanoid)": "Gabarit de maxima (par défaut : humanoïde)",
    "Maxima preset": "Gabarit de maxima",
    "Which character (default: your active one)": "Quel personnage (par défaut : votre personnage actif)",
    "That player's active character": "Le personnage actif de cette personne",
    "One of your characters": "Un de vos personnages",
    "Which character": "Quel personnage",
    "New name": "Nouveau nom",
    "How bad each wound is (or give damage instead)": "La gravité de chaque blessure (ou donnez dommages)",
    "Damage level instead of a severity: the target rolls to resist it": (
        "Niveau de dommages au lieu d'une gravité : la cible fait un jet pour y résister"
    ),
    "With damage: the target's own dice as luck-unluck pairs, one per wound (the bot rolls the rest)": (
        "Avec dommages : les dés de la cible, en paires chance-malchance, une par blessure"
    ),
    "With damage: see the odds privately first, then confirm": (
        "Avec dommages : voir d'abord les chances en privé, puis confirmer"
    ),
    "Damage rolls: the least effective damage for each outcome": (
        "Jets de dommages : les dommages effectifs minimaux de chaque résultat"
    ),
    "Least effective damage for a light wound (mental: shock)": (
        "Dommages effectifs minimaux pour une blessure légère (mentale : choc)"
    ),
    "Least effective damage for a serious wound (mental: trauma)": (
        "Dommages effectifs minimaux pour une blessure grave (mentale : traumatisme)"
    ),
    "Least effective damage for a critical wound (mental: psychosis)": (
        "Dommages effectifs minimaux pour une blessure critique (mentale : psychose)"
    ),
    "Least effective damage that kills (mental: incoherent)": (
        "Dommages effectifs minimaux qui tuent (mental : incohérence)"
    ),
    "A player: their active character": "Une personne qui joue : son personnage actif",
    "Any character (NPCs too)": "N'importe quel personnage (PNJ compris)",
    "Any character": "N'importe quel personnage",
    "How many wounds (each one escalates on its own)": "Combien de blessures (chacune s'aggrave à part)",
    "What happened (shown in history)": "Ce qui s'est passé (visible dans l'historique)",
    "Which severity": "Quelle gravité",
    "Your own dice as luck-unluck pairs in order, e.g. 7-3 10-2 (the bot rolls the rest)": (
        "Vos propres dés en paires chance-malchance dans l'ordre, ex. 7-3 10-2 (le bot lance le reste)"
    ),
    "Physical wounds (default), or mental ones when the server allows healing rolls for them": (
        "Blessures physiques (par défaut), ou mentales si le serveur permet leurs jets de guérison"
    ),
    "In-game days of rest": "Jours de repos en jeu",
    "Attributes and skill you add": "Attributs et compétence que vous ajoutez",
    "Difficulty: positive makes it easier, negative harder (as in Harmonies)": (
        "Difficulté : positive rend le jet plus facile, négative plus dur (comme dans Harmonies)"
    ),
    "Your own dice as luck-unluck, e.g. 7-3 (the bot rolls if empty)": (
        "Vos propres dés chance-malchance, ex. 7-3 (sinon le bot lance)"
    ),
    "Only this character's events": "Seulement les événements de ce personnage",
    "Page number": "Numéro de page",
    "Revert the latest change touching this character": "Annuler le dernier changement de ce personnage",
    "The GM role": "Le rôle des MJ",
    "Physical or mental": "Physique ou mentale",
    "Light wound (mental: shock)": "Blessure légère (mentale : choc)",
    "Serious wound (mental: trauma)": "Blessure grave (mentale : traumatisme)",
    "Critical wound (mental: psychosis)": "Blessure critique (mentale : psychose)",
    "Let players roll healing for mental wounds too": "Permettre aux joueurs des jets de guérison mentale",
    "Preset name (lowercase)": "Nom du gabarit (en minuscules)",
    "Most light wounds": "Maximum de blessures légères",
    "Most serious wounds": "Maximum de blessures graves",
    "Most critical wounds": "Maximum de blessures critiques",
    "Most shocks": "Maximum de chocs",
    "Most traumas": "Maximum de traumatismes",
    "Most psychoses": "Maximum de psychoses",
    "Remove this preset": "Supprimer ce gabarit",
    "A 10 on either die is rolled again and added": "Un 10 sur un dé est relancé et ajouté",
    "A margin of exactly 0 is a success": "Une marge de 0 exactement est une réussite",
    "When to ask before a healing session the bot rolls (default: deadly only)": (
        "Quand demander avant une séance de guérison lancée par le bot (par défaut : danger de mort)"
    ),
    "Allowed or not": "Autorisé ou non",
    "auto follows the server's locale": "auto suit la langue du serveur",
    "A file made by /config export": "Un fichier produit par /config exporter",
    "Post the live party board in this channel, or move it here (GM)": (
        "Afficher le tableau du groupe, tenu à jour, dans ce salon, ou l'y déplacer (MJ)"
    ),
    "Show this NPC on the board too": "Faire aussi figurer ce PNJ au tableau",
    "Take this NPC off the board": "Retirer ce PNJ du tableau",
    "Get the link of the live web page of the party, for phones, a TV or a stream (GM)": (
        "Obtenir le lien de la page web du groupe en direct, pour téléphones, télé ou stream (MJ)"
    ),
    "With link: the links given before stop working, and a new one is given": (
        "Avec lien : les liens donnés avant cessent de marcher, un nouveau est donné"
    ),
    "Show players only a word for the state of NPCs (all, or one)": (
        "Ne montrer aux joueurs qu'un mot de l'état des PNJ (tous, ou un seul)"
    ),
    "Secret or not": "Secret ou non",
    "One NPC (empty: every NPC of the server, the default for all)": (
        "Un PNJ (vide : tous les PNJ du serveur)"
    ),
}


def _qualified(context: app_commands.TranslationContextTypes) -> str | None:
    data = context.data
    if isinstance(data, app_commands.Command | app_commands.Group):
        return data.qualified_name
    if isinstance(data, app_commands.ContextMenu):
        return data.name
    return None


def french(string: str, context: app_commands.TranslationContextTypes) -> str | None:
    where = context.location
    if where in (Where.command_name, Where.group_name):
        name = _qualified(context)
        return COMMAND_NAMES.get(name) if name is not None else None
    if where is Where.parameter_name:
        return PARAMETER_NAMES.get(string)
    if where is Where.choice_name:
        return CHOICE_NAMES.get(string)
    if where in (Where.command_description, Where.group_description, Where.parameter_description):
        return DESCRIPTIONS.get(string)
    return None


class HarmoniesTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if locale not in FRENCH_LOCALES:
            return None
        return french(string.message, context)
