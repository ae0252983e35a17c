"""The character card, its warnings (rules §3), and the character list."""

from __future__ import annotations

CARD: dict[str, dict[str, str]] = {
    "card_title_dead": {"en": "† {name} — dead", "fr": "† {name} — a succombé"},
    "card_title_incoherent": {
        "en": "🌀 {name} — incoherent",
        "fr": "🌀 {name} — a sombré dans l'incohérence",
    },
    "card_played_by": {"en": "Played by {player}", "fr": "Personnage de {player}"},
    "card_npc": {"en": "NPC, kept by the GMs", "fr": "PNJ, tenu par les MJ"},
    "card_attributes": {
        "en": "Cp {corps} · Rs {resistance} · It {intuition} · preset {preset}",
        "fr": "Cp {corps} · Rs {resistance} · It {intuition} · gabarit {preset}",
    },
    "card_physical": {"en": "Physical wounds", "fr": "Blessures physiques"},
    "card_mental": {"en": "Mental wounds", "fr": "Blessures mentales"},
    "card_penalty": {"en": "Penalty", "fr": "Pénalité"},
    "card_penalty_value": {"en": "{penalty} on all rolls", "fr": "{penalty} à tous les jets"},
    "card_penalty_none": {"en": "0 (no penalty)", "fr": "0 (aucune pénalité)"},
    "card_warnings": {"en": "Warnings", "fr": "Alertes"},
    "card_rest": {"en": "Rest and healing", "fr": "Repos et guérison"},
    "card_unhurt": {"en": "Unhurt: no rest needed.", "fr": "Indemne : aucun repos nécessaire."},
    "card_out_dead": {
        "en": "Dead: no rest and no healing. (/undo, by a GM, brings them back.)",
        "fr": "Décès : ni repos ni guérison. (/annuler, par un MJ, permet de revenir en arrière.)",
    },
    "card_out_incoherent": {
        "en": "Incoherent: no rest and no healing. (/undo, by a GM, brings them back.)",
        "fr": "Incohérence : ni repos ni guérison. (/annuler, par un MJ, permet de revenir en arrière.)",
    },
    "card_rest_line": {
        "en": "{track}: rested {days} (least severe: {severity})",
        "fr": "{track} : {days} de repos (la moins grave : {severity})",
    },
    "card_heal_ready": {"en": "/heal roll is available now.", "fr": "/soin jet est disponible."},
    "card_heal_ready_mental": {
        "en": "/heal roll (mental) is available now.",
        "fr": "/soin jet (mental) est disponible.",
    },
    "card_heal_only_hurts": {
        "en": "/heal roll cannot succeed now: it can only leave the wound as it is, or worsen it.",
        "fr": "/soin jet ne peut pas réussir pour l'instant : il ne peut que laisser la blessure telle "
        "quelle, ou l'aggraver.",
    },
    "card_heal_only_hurts_mental": {
        "en": "/heal roll (mental) cannot succeed now: it can only leave the wound as it is, or worsen it.",
        "fr": "/soin jet (mental) ne peut pas réussir pour l'instant : il ne peut que laisser la blessure "
        "telle quelle, ou l'aggraver.",
    },
    "card_heal_wait_one": {
        "en": "/heal roll after {count} more day of rest.",
        "fr": "/soin jet après encore {count} jour de repos.",
    },
    "card_heal_wait_other": {
        "en": "/heal roll after {count} more days of rest.",
        "fr": "/soin jet après encore {count} jours de repos.",
    },
    "card_heal_unavailable": {"en": "/heal roll is not available.", "fr": "/soin jet n'est pas disponible."},
    "card_mental_by_gm": {
        "en": "Mental wounds: healed by a GM (/heal mental).",
        "fr": "Blessures mentales : soignées par un MJ (/soin mentale).",
    },
    "card_notes": {"en": "Notes", "fr": "Notes"},
    "card_note": {"en": "{severity}: {note}", "fr": "{severity} : {note}"},
    "card_note_escalated": {
        "en": "{severity} (inflicted as {inflicted}): {note}",
        "fr": "{severity} (à l'origine : {inflicted}) : {note}",
    },
    "warn_becomes": {"en": "{next} → {becomes}", "fr": "{next} → {becomes}"},
    "warn_fatal": {"en": "**{next} → FATAL**", "fr": "**{next} → MORTELLE**"},
    "warn_incoherent": {"en": "**{next} → INCOHERENT**", "fr": "**{next} → INCOHÉRENCE**"},
    "warn_fatal_any": {
        "en": "⚠️ **Any new wound is FATAL, even a light one**",
        "fr": "⚠️ **La moindre blessure est MORTELLE, même légère**",
    },
    "warn_incoherent_any": {
        "en": "⚠️ **Any new mental wound makes them INCOHERENT, even a shock**",
        "fr": "⚠️ **Le moindre choc rend le personnage INCOHÉRENT**",
    },
    "list_title": {"en": "Characters", "fr": "Personnages"},
    "list_empty": {
        "en": "No characters yet: create one with /character create.",
        "fr": "Aucun personnage pour l'instant : créez-en un avec /personnage créer.",
    },
    "deleted_title": {"en": "Deleted: {name}", "fr": "Suppression : {name}"},
    "deleted_body": {
        "en": "The character and its wounds were deleted. A GM can bring it back with /undo.",
        "fr": "Le personnage et ses blessures ont été supprimés. Un MJ peut le faire revenir avec /annuler.",
    },
}
