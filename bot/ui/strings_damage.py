"""Damage rolls (rules.md §8): results, the GM's private preview of the odds, the table in /config show,
and history lines."""

from __future__ import annotations

DAMAGE: dict[str, dict[str, str]] = {
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
}
