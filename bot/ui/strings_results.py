"""Everything else users read: results, cards, boards, history, settings, and the player view's page."""

from __future__ import annotations

RESULTS: dict[str, dict[str, str]] = {
    # ---- Words used everywhere: severities (four forms each), tracks, states, yes/no, buttons.
    # Severity keys are ``sev_<english choice name>`` plus a form suffix:
    #   (none)   the noun, singular       "light wound" / "blessure légère", "shock" / "choc"
    #   _plural  the noun, plural
    #   _short   the bare word of a box row and of a warning's target: "light" / "légère"
    #   _next    "next light wound" / "prochaine blessure légère" (French needs the gender)
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
    # ---- The character card, its warnings (rules §3), and the character list.
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
    # ---- Public results: wounds, GM healing, healing sessions, rolls and rest.
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
    "rest_none": {"en": "No character rested.", "fr": "Aucun personnage ne s'est reposé."},
    "rest_line_wait": {
        "en": "{name}: {days} ({severity})",
        "fr": "{name} : {days} ({severity})",
    },
    "rest_line_unhurt": {"en": "{name}: unhurt", "fr": "{name} : indemne"},
    # ---- Healing decisions: the odds of the next session, the question before a risky one, who can heal.
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
    # ---- Damage rolls (rules.md §8): results, the GM's private preview of the odds, the damage table.
    "damage_intro": {
        "en": "Damage **{damage}**; resistance roll with {label} and the penalty:",
        "fr": "Dommages **{damage}** ; jet de résistance avec {label} et la pénalité :",
    },
    "damage_blow": {
        "en": "**Roll {index}**: {terms}; {effective} ⇒ {outcome}",
        "fr": "**Jet {index}** : {terms} ; {effective} ⇒ {outcome}",
    },
    "damage_effective_success": {
        "en": "success: effective damage {damage} − {margin} = **{effective}**",
        "fr": "réussite : dommages effectifs {damage} − {margin} = **{effective}**",
    },
    "damage_effective_failure": {
        "en": "failure: effective damage **{damage}**",
        "fr": "échec : dommages effectifs **{damage}**",
    },
    "damage_none": {"en": "no wound", "fr": "aucune blessure"},
    "damage_wound": {"en": "**{severity}**", "fr": "**{severity}**"},
    "damage_escalated": {
        "en": "{inflicted} → **{became}** (escalated)",
        "fr": "{inflicted} → **{became}** (s'aggrave)",
    },
    "damage_fatal": {"en": "☠️ **FATAL**", "fr": "☠️ **MORTELLE**"},
    "damage_incoherent": {"en": "🌀 **INCOHERENT**", "fr": "🌀 **INCOHÉRENT**"},
    "damage_escalated_fatal": {"en": "{inflicted} → ☠️ **FATAL**", "fr": "{inflicted} → ☠️ **MORTELLE**"},
    "damage_escalated_incoherent": {
        "en": "{inflicted} → 🌀 **INCOHERENT**",
        "fr": "{inflicted} → 🌀 **INCOHÉRENT**",
    },
    "damage_no_wound_at_all": {
        "en": "No wound: the effective damage stayed under {light}.",
        "fr": "Aucune blessure : les dommages effectifs sont restés sous {light}.",
    },
    "damage_table_footer": {"en": "Damage table: {table}", "fr": "Table des dommages : {table}"},
    # The table, as /config show and the results show it (effective damage → what it gives).
    "damage_table": {
        "en": "none ≤ {none} · light {light} · serious {serious} · critical {critical} · fatal ≥ {fatal}",
        "fr": "aucune ≤ {none} · légère {light} · grave {serious} · critique {critical} · mortelle ≥ {fatal}",
    },
    "damage_table_mental": {
        "en": "Mental: shock, trauma, psychosis, then incoherent.",
        "fr": "Mental : choc, traumatisme, psychose, puis incohérence.",
    },
    "config_damage": {
        "en": "Damage rolls (effective damage)",
        "fr": "Jets de dommages (dommages effectifs)",
    },
    # The GM's private preview.
    "preview_title": {
        "en": "Damage {damage} on {name}: the odds",
        "fr": "Dommages {damage} sur {name} : les chances",
    },
    "preview_roll": {
        "en": "The roll: ±d10, {label} {attributes}, penalty {penalty}.",
        "fr": "Le jet : ±d10, {label} {attributes}, pénalité {penalty}.",
    },
    "preview_line": {"en": "• {outcome}: **{chance}**", "fr": "• {outcome} : **{chance}**"},
    "preview_known_dice": {
        "en": "The dice given decide the first roll: {dice}.",
        "fr": "Les dés donnés décident du premier jet : {dice}.",
    },
    "preview_batch": {
        "en": "These are the odds of the first of {count} blows; each next one rolls with the penalty of "
        "the wounds held then.",
        "fr": "Ce sont les chances du premier des {count} coups ; les suivants se lancent chacun avec la "
        "pénalité des blessures du moment.",
    },
    "preview_confirm": {
        "en": "Nothing is rolled until you confirm. Only you can see this.",
        "fr": "Rien n'est lancé avant votre confirmation. Ce message n'est visible que par vous.",
    },
    "percent_below": {"en": "< {value} %", "fr": "< {value} %"},
    "percent_above": {"en": "> {value} %", "fr": "> {value} %"},
    "percent": {"en": "{value} %", "fr": "{value} %"},
    # History.
    "event_damage": {
        "en": "**{name}**: damage {damage} × {count} → {outcomes}",
        "fr": "**{name}** : dommages {damage} × {count} → {outcomes}",
    },
    # ---- At the table: short results, the Card button, the live board, secret NPCs, context menus.
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
    # ---- History, undo, settings and the result of an import.
    "history_title": {"en": "History", "fr": "Historique"},
    "history_title_character": {"en": "History — {name}", "fr": "Historique — {name}"},
    "history_empty": {"en": "Nothing recorded yet.", "fr": "Rien n'a encore été enregistré."},
    "history_undone": {"en": "(undone)", "fr": "(annulé)"},
    "event_character_create": {
        "en": "character **{name}** created ({owner})",
        "fr": "personnage **{name}** créé ({owner})",
    },
    "event_character_edit": {
        "en": "character **{name}** edited: {changes}",
        "fr": "personnage **{name}** modifié : {changes}",
    },
    "event_character_delete": {
        "en": "character **{name}** deleted",
        "fr": "personnage **{name}** supprimé",
    },
    "event_character_select": {
        "en": "**{name}** became the active character",
        "fr": "**{name}** devient le personnage actif",
    },
    "event_wound": {
        "en": "**{name}**: {count} × {severity}{outcome}",
        "fr": "**{name}** : {count} × {severity}{outcome}",
    },
    "event_beyond_physical": {"en": "☠️ FATAL", "fr": "☠️ MORTELLE"},
    "event_beyond_mental": {"en": "🌀 INCOHERENT", "fr": "🌀 INCOHÉRENCE"},
    "event_not_applied_one": {"en": " ({count} not applied)", "fr": " ({count} non appliquée)"},
    "event_not_applied_other": {"en": " ({count} not applied)", "fr": " ({count} non appliquées)"},
    "event_worsened": {"en": " — worsened: {severity}", "fr": " — aggravation : {severity}"},
    "event_note": {"en": " — “{note}”", "fr": " — « {note} »"},
    "event_heal_roll": {
        "en": "**{name}**: healing session ({severity}), {healed}/{rolls} successful rolls{outcome}",
        "fr": "**{name}** : séance de guérison ({severity}), {healed}/{rolls} jets réussis{outcome}",
    },
    "event_heal_wound": {
        "en": "**{name}**: GM healing, {severity} → {became}",
        "fr": "**{name}** : soin du MJ, {severity} → {became}",
    },
    "event_rest_one": {"en": "rest of {count} day for {who}", "fr": "repos de {count} jour pour {who}"},
    "event_rest_other": {"en": "rest of {count} days for {who}", "fr": "repos de {count} jours pour {who}"},
    "event_rest_all": {"en": "{count} characters", "fr": "{count} personnages"},
    "event_config": {
        "en": "setting **{setting}** changed{changes}",
        "fr": "réglage **{setting}** modifié{changes}",
    },
    "event_import": {"en": "server data imported{changes}", "fr": "données du serveur importées{changes}"},
    "event_undo": {"en": "undid change #{undoes}{what}", "fr": "annulation du changement n°{undoes}{what}"},
    "event_unknown": {"en": "{kind}", "fr": "{kind}"},
    "field_name": {"en": "name", "fr": "nom"},
    "field_corps": {"en": "corps", "fr": "corps"},
    "field_resistance": {"en": "résistance", "fr": "résistance"},
    "field_intuition": {"en": "intuition", "fr": "intuition"},
    "field_preset": {"en": "preset", "fr": "gabarit"},
    "kind_character_create": {"en": "character creation", "fr": "création de personnage"},
    "kind_character_edit": {"en": "character edit", "fr": "modification de personnage"},
    "kind_character_delete": {"en": "character deletion", "fr": "suppression de personnage"},
    "kind_character_select": {"en": "active character choice", "fr": "choix du personnage actif"},
    "kind_wound": {"en": "wound", "fr": "blessure"},
    "kind_mental": {"en": "mental wound", "fr": "blessure mentale"},
    "kind_heal_roll": {"en": "healing session", "fr": "séance de guérison"},
    "kind_heal_wound": {"en": "GM healing", "fr": "soin du MJ"},
    "kind_heal_mental": {"en": "GM mental healing", "fr": "soin mental du MJ"},
    "kind_rest": {"en": "rest", "fr": "repos"},
    "kind_config": {"en": "setting change", "fr": "changement de réglage"},
    "kind_import": {"en": "import", "fr": "import"},
    "kind_undo": {"en": "undo", "fr": "annulation"},
    "undo_title": {"en": "Undone", "fr": "Annulé"},
    "undo_body": {"en": "Reverted change #{id}: {what}", "fr": "Changement n°{id} annulé : {what}"},
    "undo_again": {
        "en": "Run /undo again to go further back.",
        "fr": "Relancez /annuler pour remonter plus loin.",
    },
    "config_title": {"en": "Server settings", "fr": "Réglages du serveur"},
    "config_gm_role": {"en": "GM role", "fr": "Rôle MJ"},
    "config_gm_role_none": {
        "en": "none: Manage Server or the server owner only",
        "fr": "aucun : Gérer le serveur ou le propriétaire seulement",
    },
    "config_presets": {"en": "Maxima presets", "fr": "Gabarits de maxima"},
    "config_preset_line": {
        "en": "{name}: physical {physical} · mental {mental}",
        "fr": "{name} : physique {physical} · mental {mental}",
    },
    "config_penalties": {"en": "Penalty per wound", "fr": "Pénalité par blessure"},
    "config_rest": {"en": "Rest before healing (days)", "fr": "Repos avant guérison (jours)"},
    "config_difficulty": {
        "en": "Healing difficulty (positive is easier)",
        "fr": "Difficulté de guérison (positive = plus facile)",
    },
    "config_track_line": {"en": "{track}: {values}", "fr": "{track} : {values}"},
    "config_dice": {"en": "Dice", "fr": "Dés"},
    "config_dice_value": {
        "en": "open rolls: {open} · a tie (margin 0) succeeds: {tie}",
        "fr": "jets ouverts : {open} · égalité (marge 0) réussie : {tie}",
    },
    "config_mental_healing": {"en": "Mental healing rolls", "fr": "Jets de guérison mentale"},
    "config_players_create": {
        "en": "Players create their characters",
        "fr": "Les joueurs créent leurs personnages",
    },
    "config_language": {"en": "Language", "fr": "Langue"},
    "config_language_auto": {"en": "the server's locale", "fr": "celle du serveur"},
    "config_footer": {
        "en": "A GM changes these with /config …; every change is recorded in /history.",
        "fr": "Un MJ les modifie avec /config … ; chaque changement est noté dans /historique.",
    },
    "import_title": {"en": "Import done", "fr": "Import terminé"},
    "import_body": {
        "en": "This server's characters, wounds and settings were replaced by the file's.",
        "fr": "Les personnages, blessures et réglages du serveur ont été remplacés par ceux du fichier.",
    },
    "count_characters": {"en": "characters", "fr": "personnages"},
    "count_wounds": {"en": "wounds", "fr": "blessures"},
    "count_events": {"en": "history events", "fr": "événements d'historique"},
    "count_presets": {"en": "presets", "fr": "gabarits"},
    "count_active": {"en": "active characters", "fr": "personnages actifs"},
    # ---- The player view (issue 29): the link given to a GM, its history line, and the page.
    "view_link": {
        "en": "The player view of this server: {url}\nAnyone with this link sees the party's wounds, "
        "live: characters only, secret NPCs as a word. Share it with the table; add `?overlay=1` for a "
        "stream overlay. Links given before still work; /board link:True revoke:True stops them all.",
        "fr": "La vue des joueurs de ce serveur : {url}\nQuiconque a ce lien voit les blessures du "
        "groupe, en direct : les personnages seulement, les PNJ secrets en un mot. Partagez-le avec la "
        "table ; ajoutez `?overlay=1` pour une incrustation de stream. Les liens donnés avant marchent "
        "toujours ; /tableau lien:True révoquer:True les arrête tous.",
    },
    "view_link_revoked": {
        "en": "Every player-view link given before stopped working. The new one: {url}\nShare it "
        "again with the table (`?overlay=1` for a stream overlay).",
        "fr": "Tous les liens de la vue des joueurs donnés avant ont cessé de marcher. Le nouveau : "
        "{url}\nPartagez-le à nouveau avec la table (`?overlay=1` pour une incrustation de stream).",
    },
    "event_view_link": {"en": "player-view link given", "fr": "lien de la vue des joueurs donné"},
    "event_view_link_revoked": {
        "en": "player-view links revoked, a new one given",
        "fr": "liens de la vue des joueurs révoqués, un nouveau donné",
    },
    "kind_view_link": {"en": "player-view link", "fr": "lien de la vue des joueurs"},
    # The page.
    "view_title": {"en": "The party", "fr": "Le groupe"},
    "view_empty": {
        "en": "No characters on the board yet.",
        "fr": "Aucun personnage au tableau pour l'instant.",
    },
    "view_live": {"en": "live", "fr": "en direct"},
    "view_reconnecting": {"en": "reconnecting…", "fr": "reconnexion…"},
    "view_penalty": {"en": "penalty {penalty}", "fr": "pénalité {penalty}"},
    "view_can_heal": {"en": "can heal", "fr": "peut se soigner"},
    "view_secret": {"en": "kept secret by the GMs", "fr": "gardé secret par les MJ"},
    "view_too_many_requests": {
        "en": "Too many requests: try again in a moment.",
        "fr": "Trop de requêtes : réessayez dans un instant.",
    },
    "view_too_many_pages": {
        "en": "Too many pages open from this address: close one and try again.",
        "fr": "Trop de pages ouvertes depuis cette adresse : fermez-en une et réessayez.",
    },
    "view_unavailable": {
        "en": "Not available right now: try again in a moment.",
        "fr": "Indisponible pour le moment : réessayez dans un instant.",
    },
    "view_not_found": {
        "en": "No such player view: the link is wrong, or the GM replaced it.",
        "fr": "Cette vue des joueurs n'existe pas : le lien est faux, ou le MJ l'a remplacé.",
    },
}
