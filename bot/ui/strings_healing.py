"""Healing decisions: the odds of the next session, the confirmation before a risky one, who can heal."""

from __future__ import annotations

HEALING: dict[str, dict[str, str]] = {
    "odds_line": {
        "en": "First roll ({severity}): {success} · worsening {worsening}",
        "fr": "Premier jet ({severity}) : {success} · aggravation {worsening}",
    },
    "odds_success": {"en": "success {success}", "fr": "réussite {success}"},
    "odds_success_none": {"en": "success impossible", "fr": "réussite impossible"},
    "odds_worsening": {"en": "worsening {worsening}", "fr": "aggravation {worsening}"},
    "odds_death": {"en": " · ☠️ **death {death}**", "fr": " · ☠️ **mort {death}**"},
    "odds_incoherent": {"en": " · 🌀 **incoherence {death}**", "fr": " · 🌀 **incohérence {death}**"},
    "odds_title": {"en": "Healing session — {name}", "fr": "Séance de guérison — {name}"},
    "odds_title_mental": {
        "en": "Mental healing session — {name}",
        "fr": "Séance de guérison mentale — {name}",
    },
    "confirm_heal": {
        "en": "**{stakes}**\nThis healing session may make things worse: a first roll failed by 10 or "
        "more worsens the wound. Roll anyway? (Cancel changes nothing.)",
        "fr": "**{stakes}**\nCette séance de guérison peut aggraver les choses : un premier jet raté de "
        "10 ou plus aggrave la blessure. Lancer quand même ? (Annuler ne change rien.)",
    },
    "confirm_heal_fatal": {
        "en": "⚠️ **{stakes}**\nThis healing session may **kill** {name}: a first roll failed by 10 or "
        "more worsens the wound, and that would be fatal. Roll anyway? (Cancel changes nothing.)",
        "fr": "⚠️ **{stakes}**\nCette séance de guérison peut **tuer** {name} : un premier jet raté de 10 "
        "ou plus aggrave la blessure, et ce serait mortel. Lancer quand même ? (Annuler ne change rien.)",
    },
    "confirm_heal_incoherent": {
        "en": "⚠️ **{stakes}**\nThis healing session may make {name} **incoherent**: a first roll failed "
        "by 10 or more worsens the wound beyond the last psychosis. Roll anyway? (Cancel changes "
        "nothing.)",
        "fr": "⚠️ **{stakes}**\nCette séance de guérison peut faire sombrer {name} dans "
        "l'**incohérence** : un premier jet raté de 10 ou plus aggrave la blessure au-delà de la "
        "dernière psychose. Lancer quand même ? (Annuler ne change rien.)",
    },
    "button_heal_go": {"en": "Roll", "fr": "Lancer"},
    "heal_going": {"en": "Rolling…", "fr": "Les dés roulent…"},
    "question_not_rolled": {"en": "Nothing was rolled.", "fr": "Rien n'a été lancé."},
    "config_ask_healing": {
        "en": "Ask before a healing session",
        "fr": "Demander avant une séance de guérison",
    },
    "ask_healing_deadly": {
        "en": "when its first roll can kill or make incoherent",
        "fr": "quand le premier jet peut tuer ou faire sombrer dans l'incohérence",
    },
    "ask_healing_worsening": {
        "en": "whenever its first roll can worsen a wound",
        "fr": "dès que le premier jet peut aggraver une blessure",
    },
    "ask_healing_never": {"en": "never", "fr": "jamais"},
    "rest_only_hurts": {
        "en": "Rest over, but healing cannot succeed now (not pinged)",
        "fr": "Repos terminé, mais la guérison ne peut pas réussir pour l'instant (sans notification)",
    },
    "rest_only_hurts_mental": {
        "en": "Rest over, but mental healing cannot succeed now (not pinged)",
        "fr": "Repos terminé, mais la guérison mentale ne peut pas réussir pour l'instant (sans "
        "notification)",
    },
    "rest_ready_mental": {
        "en": "Can roll mental healing now (/heal roll track:mental)",
        "fr": "Peuvent faire un jet de guérison mentale (/soin jet piste:mentale)",
    },
    "rest_line_mental_by_gm": {
        "en": "{name}: mental wounds, healed by a GM (/heal mental)",
        "fr": "{name} : blessures mentales, soignées par un MJ (/soin mentale)",
    },
    "full_light": {"en": "light full {max}/{max}", "fr": "légères au complet {max}/{max}"},
    "full_serious": {"en": "serious full {max}/{max}", "fr": "graves au complet {max}/{max}"},
    "full_critical": {"en": "critical full {max}/{max}", "fr": "critiques au complet {max}/{max}"},
    "full_shock": {"en": "shock full {max}/{max}", "fr": "chocs au complet {max}/{max}"},
    "full_trauma": {"en": "trauma full {max}/{max}", "fr": "traumatismes au complet {max}/{max}"},
    "full_psychosis": {"en": "psychosis full {max}/{max}", "fr": "psychoses au complet {max}/{max}"},
    "days_of_one": {"en": "{rested}/{needed} days", "fr": "{rested} jour sur {needed}"},
    "days_of_other": {"en": "{rested}/{needed} days", "fr": "{rested} jours sur {needed}"},
    "preset_humanoid": {"en": "humanoid", "fr": "humanoïde"},
    "undo_came_back": {
        "en": "↩️ **{name}** — state restored: {state}",
        "fr": "↩️ **{name}** — état rétabli : {state}",
    },
    "undo_alive_again": {
        "en": "↩️ **{name}** — alive again · state restored: {state}",
        "fr": "↩️ **{name}** — de nouveau en vie · état rétabli : {state}",
    },
    "undo_coherent_again": {
        "en": "↩️ **{name}** — coherent again · state restored: {state}",
        "fr": "↩️ **{name}** — de nouveau lucide · état rétabli : {state}",
    },
    "diff_title": {"en": "Settings changed", "fr": "Réglages modifiés"},
    "diff_footer": {
        "en": "/config show lists every setting; /undo reverts this change.",
        "fr": "/config afficher liste tous les réglages ; /annuler revient sur ce changement.",
    },
    "diff_line": {"en": "{label}: {old} → **{new}**", "fr": "{label} : {old} → **{new}**"},
    "diff_nothing": {"en": "Nothing changed.", "fr": "Rien n'a changé."},
    "diff_none": {"en": "none", "fr": "aucun"},
    "diff_role_id": {"en": "role {id}", "fr": "rôle {id}"},
    "diff_preset_label": {"en": "Preset {name}", "fr": "Gabarit {name}"},
    "diff_preset": {
        "en": "physical {physical} · mental {mental}",
        "fr": "physique {physical} · mental {mental}",
    },
    "diff_per_severity": {"en": "{what}, {severity}", "fr": "{what}, {severity}"},
    "diff_open_rolls": {"en": "Open rolls", "fr": "Jets ouverts"},
    "diff_tie_succeeds": {"en": "A tie (margin 0) succeeds", "fr": "Égalité (marge 0) réussie"},
    "event_config_diff": {"en": "settings changed: {changes}", "fr": "réglages modifiés : {changes}"},
    "deleted_choice": {"en": "{name} — deleted character", "fr": "{name} — personnage supprimé"},
    "invalid_line": {"en": "• {where}: {problem}", "fr": "• {where} : {problem}"},
    "invalid_less_than_equal": {"en": "at most {limit}", "fr": "au plus {limit}"},
    "invalid_greater_than_equal": {"en": "at least {limit}", "fr": "au moins {limit}"},
    "invalid_humanoid_required": {
        "en": "the humanoid preset must stay",
        "fr": "le gabarit humanoïde doit rester",
    },
    "invalid_too_many_presets": {"en": "at most {limit} presets", "fr": "au plus {limit} gabarits"},
    "invalid_preset_name": {
        "en": "{limit}: 1 to 32 lowercase letters, digits, - or _",
        "fr": "{limit} : de 1 à 32 lettres minuscules, chiffres, - ou _",
    },
    "invalid_value": {"en": "this value is not allowed", "fr": "cette valeur n'est pas permise"},
}
