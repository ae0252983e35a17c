"""Public results: wounds, GM healing, healing sessions, rolls and rest."""

from __future__ import annotations

RESULTS: dict[str, dict[str, str]] = {
    "wound_title": {"en": "Wounds — {name}", "fr": "Blessures — {name}"},
    "wound_title_mental": {"en": "Mental wounds — {name}", "fr": "Blessures mentales — {name}"},
    "wound_line": {"en": "• {inflicted}", "fr": "• {inflicted}"},
    "wound_line_escalated": {
        "en": "• {inflicted} → **{became}**",
        "fr": "• {inflicted} → **{became}**",
    },
    "wound_line_fatal": {"en": "• {inflicted} → ☠️ **FATAL**", "fr": "• {inflicted} → ☠️ **MORTELLE**"},
    "wound_line_incoherent": {
        "en": "• {inflicted} → 🌀 **INCOHERENT**",
        "fr": "• {inflicted} → 🌀 **INCOHÉRENCE**",
    },
    "wound_dead": {
        "en": "☠️ **{name} is DEAD.** (/undo, by a GM, brings them back.)",
        "fr": "☠️ **{name} a succombé.** (/annuler, par un MJ, permet de revenir en arrière.)",
    },
    "wound_incoherent": {
        "en": "🌀 **{name} is INCOHERENT**: unplayable. (/undo, by a GM, brings them back.)",
        "fr": "🌀 **{name} a sombré dans l'incohérence** : injouable. (/annuler, par un MJ, permet de "
        "revenir en arrière.)",
    },
    "wound_note": {"en": "Note: {note}", "fr": "Note : {note}"},
    "wound_rest_lost_one": {
        "en": "The {count} day of rest taken is lost: the rest period starts again.",
        "fr": "Le {count} jour de repos pris est perdu : la période de repos recommence.",
    },
    "wound_rest_lost_other": {
        "en": "The {count} days of rest taken are lost: the rest period starts again.",
        "fr": "Les {count} jours de repos pris sont perdus : la période de repos recommence.",
    },
    "lower_title": {"en": "GM healing — {name}", "fr": "Soin du MJ — {name}"},
    "lower_line": {"en": "{before} → **{after}**", "fr": "{before} → **{after}**"},
    "lower_note": {
        "en": "No roll. The rest counter is unchanged.",
        "fr": "Sans jet. Le compteur de repos ne change pas.",
    },
    "heal_title": {"en": "Healing session — {name}", "fr": "Séance de guérison — {name}"},
    "heal_title_mental": {
        "en": "Mental healing session — {name}",
        "fr": "Séance de guérison mentale — {name}",
    },
    "heal_intro": {
        "en": "{eligible} × {severity} to heal: one roll per wound, in order, until the first failure.",
        "fr": "{eligible} × {severity} à soigner : un jet par blessure, dans l'ordre, jusqu'au premier "
        "échec.",
    },
    "heal_step": {"en": "**Roll {index}**: {terms}", "fr": "**Jet {index}** : {terms}"},
    "heal_outcome_healed": {"en": "✅ {healed}", "fr": "✅ {healed}"},
    "heal_outcome_lowered": {"en": "✅ now {severity}", "fr": "✅ devient {severity}"},
    "heal_outcome_failed": {
        "en": "❌ failed (failure margin {margin}): unchanged, the session ends",
        "fr": "❌ échec (marge d'échec {margin}) : sans changement, la séance s'arrête",
    },
    "heal_outcome_worsened": {
        "en": "⚠️ failed by {margin} (10 or more), the session ends: **worsened to {severity}**",
        "fr": "⚠️ échec de {margin} (10 ou plus), la séance s'arrête : **s'aggrave en {severity}**",
    },
    "heal_outcome_fatal": {
        "en": "☠️ failed by {margin} (10 or more): **FATAL**",
        "fr": "☠️ échec de {margin} (10 ou plus) : **blessure MORTELLE**",
    },
    "heal_outcome_incoherent": {
        "en": "🌀 failed by {margin} (10 or more): **INCOHERENT**",
        "fr": "🌀 échec de {margin} (10 ou plus) : **INCOHÉRENCE**",
    },
    "heal_not_rolled_one": {
        "en": "{count} wound not rolled in this session.",
        "fr": "{count} blessure non tentée dans cette séance.",
    },
    "heal_not_rolled_other": {
        "en": "{count} wounds not rolled in this session.",
        "fr": "{count} blessures non tentées dans cette séance.",
    },
    "heal_summary": {
        "en": "Result: {healed}/{rolls} successful rolls.",
        "fr": "Bilan : {healed}/{rolls} jets réussis.",
    },
    "heal_rest_consumed": {
        "en": "The rest is consumed: the next session needs a new full rest period.",
        "fr": "Le repos est consommé : la prochaine séance demande une nouvelle période de repos complète.",
    },
    "roll_luck": {"en": "luck", "fr": "chance"},
    "roll_unluck": {"en": "unluck", "fr": "malchance"},
    "roll_difficulty": {"en": "difficulty", "fr": "difficulté"},
    "roll_penalty": {"en": "penalty", "fr": "pénalité"},
    "roll_margin": {"en": "margin", "fr": "marge"},
    "roll_manual": {"en": "player's dice", "fr": "dés donnés"},
    "roll_modifier": {"en": "modifier", "fr": "modificateur"},
    "roll_title": {"en": "Roll — {name}", "fr": "Jet — {name}"},
    "roll_title_plain": {"en": "Roll", "fr": "Jet"},
    "roll_success": {"en": "✅ **Success**, margin {margin}", "fr": "✅ **Réussite**, marge {margin}"},
    "roll_failure": {
        "en": "❌ **Failure**, failure margin {margin}",
        "fr": "❌ **Échec**, marge d'échec {margin}",
    },
    "roll_difficulty_hint": {
        "en": "A positive difficulty makes a roll easier, a negative one harder.",
        "fr": "Une difficulté positive rend le jet plus facile, une négative plus difficile.",
    },
    "rest_title_one": {"en": "Rest: {count} day", "fr": "Repos : {count} jour"},
    "rest_title_other": {"en": "Rest: {count} days", "fr": "Repos : {count} jours"},
    "rest_ready": {
        "en": "Can roll healing now (/heal roll)",
        "fr": "Peuvent faire un jet de guérison (/soin jet)",
    },
    "rest_nobody_ready": {
        "en": "Nobody can roll healing yet.",
        "fr": "Personne ne peut encore faire de jet de guérison.",
    },
    "rest_rested": {"en": "Rested", "fr": "Au repos"},
    "rest_none": {"en": "No character rested.", "fr": "Aucun personnage ne s'est reposé."},
    "rest_line_wait": {
        "en": "{name}: {days} ({severity})",
        "fr": "{name} : {days} ({severity})",
    },
    "rest_line_unhurt": {"en": "{name}: unhurt", "fr": "{name} : indemne"},
}
