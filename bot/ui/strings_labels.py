"""Words used everywhere: severities (four forms each), tracks, states, yes/no, buttons."""

from __future__ import annotations

# Severity keys are ``sev_<english choice name>`` plus a form suffix:
#   (none)   the noun, singular       "light wound" / "blessure légère", "shock" / "choc"
#   _plural  the noun, plural
#   _short   the bare word of a box row and of a warning's target: "light" / "légère"
#   _next    "next light wound" / "prochaine blessure légère" (French needs the gender)
LABELS: dict[str, dict[str, str]] = {
    "sev_light": {"en": "light wound", "fr": "blessure légère"},
    "sev_serious": {"en": "serious wound", "fr": "blessure grave"},
    "sev_critical": {"en": "critical wound", "fr": "blessure critique"},
    "sev_shock": {"en": "shock", "fr": "choc"},
    "sev_trauma": {"en": "trauma", "fr": "traumatisme"},
    "sev_psychosis": {"en": "psychosis", "fr": "psychose"},
    "sev_light_plural": {"en": "light wounds", "fr": "blessures légères"},
    "sev_serious_plural": {"en": "serious wounds", "fr": "blessures graves"},
    "sev_critical_plural": {"en": "critical wounds", "fr": "blessures critiques"},
    "sev_shock_plural": {"en": "shocks", "fr": "chocs"},
    "sev_trauma_plural": {"en": "traumas", "fr": "traumatismes"},
    "sev_psychosis_plural": {"en": "psychoses", "fr": "psychoses"},
    "sev_light_short": {"en": "light", "fr": "légère"},
    "sev_serious_short": {"en": "serious", "fr": "grave"},
    "sev_critical_short": {"en": "critical", "fr": "critique"},
    "sev_shock_short": {"en": "shock", "fr": "choc"},
    "sev_trauma_short": {"en": "trauma", "fr": "traumatisme"},
    "sev_psychosis_short": {"en": "psychosis", "fr": "psychose"},
    "sev_light_shorts": {"en": "light", "fr": "légères"},
    "sev_serious_shorts": {"en": "serious", "fr": "graves"},
    "sev_critical_shorts": {"en": "critical", "fr": "critiques"},
    "sev_shock_shorts": {"en": "shocks", "fr": "chocs"},
    "sev_trauma_shorts": {"en": "traumas", "fr": "traumatismes"},
    "sev_psychosis_shorts": {"en": "psychoses", "fr": "psychoses"},
    "sev_light_next": {"en": "next light wound", "fr": "prochaine blessure légère"},
    "sev_serious_next": {"en": "next serious wound", "fr": "prochaine blessure grave"},
    "sev_critical_next": {"en": "next critical wound", "fr": "prochaine blessure critique"},
    "sev_shock_next": {"en": "next shock", "fr": "prochain choc"},
    "sev_trauma_next": {"en": "next trauma", "fr": "prochain traumatisme"},
    "sev_psychosis_next": {"en": "next psychosis", "fr": "prochaine psychose"},
    # What a wound of the lowest severity became when it is healed (French: agrees with the noun).
    "healed_physical": {"en": "healed", "fr": "soignée"},
    "healed_mental": {"en": "healed", "fr": "soigné"},
    "track_physical": {"en": "Physical", "fr": "Physique"},
    "track_mental": {"en": "Mental", "fr": "Mental"},
    "state_unhurt": {"en": "unhurt", "fr": "indemne"},
    "state_dead": {"en": "dead", "fr": "a succombé"},
    "state_incoherent": {"en": "incoherent", "fr": "a sombré dans l'incohérence"},
    "npc": {"en": "NPC", "fr": "PNJ"},
    "on": {"en": "on", "fr": "oui"},
    "off": {"en": "off", "fr": "non"},
    "lang_en": {"en": "English", "fr": "anglais"},
    "lang_fr": {"en": "French", "fr": "français"},
    "colon": {"en": ": ", "fr": " : "},
    "more_lines": {"en": "… and {count} more", "fr": "… et {count} de plus"},
    "page_footer": {"en": "page {page}/{pages}", "fr": "page {page}/{pages}"},
    "button_confirm": {"en": "Confirm", "fr": "Confirmer"},
    "button_cancel": {"en": "Cancel", "fr": "Annuler"},
    "button_delete": {"en": "Delete", "fr": "Supprimer"},
    "button_heal": {"en": "Heal", "fr": "Soigner"},
    "button_heal_mental": {"en": "Heal (mental)", "fr": "Soigner (mental)"},
    "button_first": {"en": "First", "fr": "Début"},
    "button_previous": {"en": "Previous", "fr": "Précédent"},
    "button_next": {"en": "Next", "fr": "Suivant"},
    "not_your_button": {
        "en": "Only the person who ran the command can use these buttons.",
        "fr": "Seule la personne qui a lancé la commande peut utiliser ces boutons.",
    },
    "question_expired": {
        "en": "This question was asked before the bot restarted, and no longer waits for an answer: "
        "nothing was changed. Run the command again.",
        "fr": "Cette question a été posée avant un redémarrage du bot et n'attend plus de réponse : "
        "rien n'a été modifié. Relancez la commande.",
    },
    "cancelled": {"en": "Cancelled: nothing was changed.", "fr": "Annulé : rien n'a été modifié."},
    "expired": {
        "en": "No answer in time: nothing was changed.",
        "fr": "Pas de réponse à temps : rien n'a été modifié.",
    },
    "confirm_delete": {
        "en": "Delete {name}? Its wounds go with it; a GM can bring it back with /undo.",
        "fr": "Supprimer {name} ? Ses blessures partent aussi ; un MJ peut annuler la suppression avec "
        "/annuler.",
    },
    "dice_unused_one": {
        "en": "{count} of your dice was not needed.",
        "fr": "{count} de vos dés n'a pas servi.",
    },
    "dice_unused_other": {
        "en": "{count} of your dice were not needed.",
        "fr": "{count} de vos dés n'ont pas servi.",
    },
}
