"""The problems of a refused import (``bot.errors.ImportProblem``), one line each under
``import_invalid``. ``import_<what>`` words one problem; ``{where}`` is its place in the file."""

from __future__ import annotations

from typing import Final

IMPORT: Final[dict[str, dict[str, str]]] = {
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
