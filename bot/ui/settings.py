"""The server's settings (rules §7), the result of an import, and the character list (paged) with the
embeds of a created or deleted character."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import discord

from bot.errors import N_
from bot.rules.character import Character
from bot.rules.ruleset import Ruleset, TrackNumbers
from bot.rules.severity import SEVERITIES, Track
from bot.rules.wounds import total_penalty
from bot.ui.i18n import Lang, t, tn
from bot.ui.results import NOTICE_COLOUR, State, damage_table_text, secret_word, state_colour, state_text
from bot.ui.text import (
    DESCRIPTION,
    FIELD_VALUE,
    SERVER_SETTINGS,
    SETTING_LABELS,
    TITLE,
    clip,
    escape,
    join_lines,
    mention,
    number,
    preset_label,
    severity_short,
    signed,
    t_name,
    track_label,
)

# ---- The server's settings (rules §7) and the result of an import.


def _maxima(values: tuple[int, int, int]) -> str:
    return "/".join(str(v) for v in values)


def _track_line(lang: Lang, track: Track, values: tuple[int, int, int], shown: Callable[[int], str]) -> str:
    terms = " · ".join(f"{severity_short(lang, track, s)} {shown(values[s])}" for s in SEVERITIES)
    return t(lang, "{track}: {values}", track=track_label(lang, track), values=terms)


NUMBERS: tuple[tuple[str, Callable[[TrackNumbers], tuple[int, int, int]], Callable[[int], str]], ...] = (
    (SETTING_LABELS["penalties"], lambda n: n.penalties, signed),
    (SETTING_LABELS["rest_days"], lambda n: n.rest_days, number),
    (SETTING_LABELS["difficulty"], lambda n: n.difficulty, signed),
)
"""The settings with a number per track and severity: their label, where they are, how they show."""


def _on(lang: Lang, value: bool) -> str:
    return t(lang, N_("on") if value else N_("off"))


ASK_HEALING = {  # /config dice ask-before-healing: when to ask, by its choice value
    "deadly": N_("when its first roll can kill or make incoherent, or cannot reasonably succeed"),
    "worsening": N_("whenever its first roll can worsen a wound"),
    "never": N_("never"),
}


def config_embed(ruleset: Ruleset, lang: Lang) -> discord.Embed:
    """Every setting of the server, in ``lang``."""
    embed = discord.Embed(title=t(lang, SERVER_SETTINGS), colour=discord.Colour(NOTICE_COLOUR))
    embed.add_field(name=t(lang, "GM role"), value=_role(lang, ruleset.gm_role_id), inline=False)
    presets = [
        t(
            lang,
            "{name}: physical {physical} · mental {mental}",
            name=preset_label(lang, name),
            physical=_maxima(preset.physical),
            mental=_maxima(preset.mental),
        )
        for name, preset in sorted(ruleset.presets.items())
    ]
    embed.add_field(
        name=t(lang, SETTING_LABELS["presets"]), value=join_lines(lang, presets, FIELD_VALUE), inline=False
    )
    for key, pick, shown in NUMBERS:
        lines = [_track_line(lang, track, pick(ruleset.numbers(track)), shown) for track in Track]
        embed.add_field(name=t(lang, key), value="\n".join(lines), inline=False)
    damage = (
        damage_table_text(ruleset.damage, lang)
        + "\n"
        + t(lang, "Mental: shock, trauma, psychosis, then incoherent.")
    )
    embed.add_field(name=t(lang, "Damage rolls (effective damage)"), value=damage, inline=False)
    dice = t(
        lang,
        "open rolls: {open} · a tie (margin 0) succeeds: {tie}",
        open=_on(lang, ruleset.open_rolls),
        tie=_on(lang, ruleset.tie_succeeds),
    )
    embed.add_field(name=t(lang, "Dice"), value=dice, inline=False)
    embed.add_field(name=t(lang, "Mental healing rolls"), value=_on(lang, ruleset.mental_healing_rolls))
    ask = t(lang, ASK_HEALING[ruleset.ask_before_healing])
    embed.add_field(name=t(lang, "Ask before a healing session"), value=ask)
    embed.add_field(name=t(lang, "Players create their characters"), value=_on(lang, ruleset.players_create))
    embed.add_field(name=t(lang, "Secret NPCs"), value=_secret(lang, ruleset))
    embed.add_field(name=t(lang, "Language"), value=_language(lang, ruleset.language))
    embed.set_footer(text=t(lang, "A GM changes these with /config …; every change is recorded in /history."))
    return embed


COUNTS = {  # what an import held, by its name in the import's counts
    "characters": N_("characters"),
    "wounds": N_("wounds"),
    "events": N_("history events"),
    "presets": N_("presets"),
    "active": N_("active characters"),
}


def import_embed(counts: Mapping[str, object], lang: Lang) -> discord.Embed:
    """An import succeeded: what the file held (``{"characters": 12, "wounds": 30, …}``)."""
    lines = [t(lang, "This server's characters, wounds and settings were replaced by the file's.")]
    for key, value in counts.items():
        label = t(lang, COUNTS[key]) if key in COUNTS else clip(escape(str(key)), 40)
        shown = number(value) if isinstance(value, int) else clip(escape(str(value)), 40)
        lines.append(label + t(lang, ": ") + shown)
    return discord.Embed(
        title=t(lang, "Import done"),
        description=join_lines(lang, lines, DESCRIPTION),
        colour=discord.Colour(NOTICE_COLOUR),
    )


def _role(lang: Lang, role_id: int | None, mentions: bool = True) -> str:
    if role_id is None:
        return t(lang, "none: Manage Server or the server owner only")
    return f"<@&{role_id}>" if mentions else t(lang, "role {id}", id=role_id)


LANGUAGES = {"en": N_("English"), "fr": N_("French")}  # /config language: a server's language


def _language(lang: Lang, value: str | None) -> str:
    return t(lang, "the server's locale") if value is None else t(lang, LANGUAGES.get(value, N_("English")))


def _preset_value(lang: Lang, ruleset: Ruleset, name: str) -> str:
    preset = ruleset.presets.get(name)
    if preset is None:
        return t(lang, "none")
    return t(
        lang,
        "physical {physical} · mental {mental}",
        physical=_maxima(preset.physical),
        mental=_maxima(preset.mental),
    )


def _secret(lang: Lang, ruleset: Ruleset) -> str:
    if ruleset.secret_npcs:
        return t(lang, "all of them")
    if ruleset.secret_characters:
        return tn(lang, "{count} chosen", "{count} chosen", len(ruleset.secret_characters))
    return _on(lang, False)


def ruleset_changes(before: Ruleset, after: Ruleset, lang: Lang, *, mentions: bool = True) -> list[str]:
    """Each setting that differs, as ``label: old → new`` in ``lang`` (no internal names, no JSON).
    ``mentions``: show the GM role as a role mention (else by its id, as history does)."""
    lines: list[str] = []

    def change(label: str, old: str, new: str) -> None:
        if old != new:
            lines.append(t(lang, "{label}: {old} → **{new}**", label=label, old=old, new=new))

    old_role, new_role = _role(lang, before.gm_role_id, mentions), _role(lang, after.gm_role_id, mentions)
    change(t(lang, "GM role"), old_role, new_role)
    for name in sorted(set(before.presets) | set(after.presets)):
        label = t(lang, "Preset {name}", name=preset_label(lang, name))
        change(label, _preset_value(lang, before, name), _preset_value(lang, after, name))
    for key, pick, shown in NUMBERS:
        for track in Track:
            old, new = pick(before.numbers(track)), pick(after.numbers(track))
            for severity in SEVERITIES:
                label = t(
                    lang,
                    "{what}, {severity}",
                    what=t(lang, key),
                    severity=severity_short(lang, track, severity),
                )
                change(label, shown(old[severity]), shown(new[severity]))
    rows: tuple[tuple[str, Callable[[Ruleset], str]], ...] = (
        (N_("Open rolls"), lambda r: _on(lang, r.open_rolls)),
        (N_("A tie (margin 0) succeeds"), lambda r: _on(lang, r.tie_succeeds)),
        (N_("Mental healing rolls"), lambda r: _on(lang, r.mental_healing_rolls)),
        (N_("Players create their characters"), lambda r: _on(lang, r.players_create)),
        (N_("Ask before a healing session"), lambda r: t(lang, ASK_HEALING[r.ask_before_healing])),
        (N_("Language"), lambda r: _language(lang, r.language)),
        (N_("Damage rolls (effective damage)"), lambda r: damage_table_text(r.damage, lang)),
        (N_("Secret NPCs"), lambda r: _secret(lang, r)),
    )
    for label, show in rows:
        change(t(lang, label), show(before), show(after))
    return lines


def settings_changed_embed(before: Ruleset, after: Ruleset, lang: Lang) -> discord.Embed:
    """The answer to a /config change: what changed, old → new (/config show has the whole card)."""
    lines = ruleset_changes(before, after, lang) or [t(lang, "Nothing changed.")]
    embed = discord.Embed(
        title=t(lang, "Settings changed"),
        description=join_lines(lang, lines, DESCRIPTION),
        colour=discord.Colour(NOTICE_COLOUR),
    )
    embed.set_footer(text=t(lang, "/config show lists every setting; /undo reverts this change."))
    return embed


# ---- The character list (paged), and the embeds of a created or deleted character.

LINES_PER_PAGE = 20
PAGE_BUDGET = 3900
NAME_IN_LIST = 100


def character_line(character: Character, ruleset: Ruleset, lang: Lang) -> str:
    """``**Aria** — @player — serious wound · shock — −4``; ``**Aria** — @player — dead`` without figures."""
    owner = t(lang, "NPC") if character.owner_id is None else mention(character.owner_id)
    name = clip(escape(character.name), NAME_IN_LIST)
    if ruleset.is_secret(character.owner_id, character.id):
        return f"**{name}** — {owner} — {secret_word(character, lang)}"
    if character.out_of_play:  # dead or incoherent: the state, no figures
        return f"**{name}** — {owner} — {state_text(character, lang)}"
    penalty = total_penalty(character, ruleset)
    shown = signed(penalty) if penalty else "0"
    return f"**{name}** — {owner} — {state_text(character, lang)} — {shown}"


def _pages(lines: Sequence[str]) -> list[list[str]]:
    pages: list[list[str]] = [[]]
    size = 0
    for line in lines:
        page = pages[-1]
        if page and (len(page) >= LINES_PER_PAGE or size + 1 + len(line) > PAGE_BUDGET):
            pages.append([])
            page, size = pages[-1], 0
        page.append(line)
        size += len(line) + (1 if len(page) > 1 else 0)
    return pages


def character_list_embeds(
    characters: Sequence[Character], ruleset: Ruleset, lang: Lang
) -> list[discord.Embed]:
    """Every character, one line each (name, owner, worst state, total penalty), 20 lines a page at
    most, each page within Discord's limits, with a "page 1/3" footer. Never an empty list."""
    colour = discord.Colour(NOTICE_COLOUR)
    if not characters:
        return [
            discord.Embed(
                title=t(lang, "Characters"),
                description=t(lang, "No characters yet: create one with /character create."),
                colour=colour,
            )
        ]
    pages = _pages([character_line(c, ruleset, lang) for c in characters])
    embeds = []
    for index, page in enumerate(pages, 1):
        embed = discord.Embed(title=t(lang, "Characters"), description="\n".join(page), colour=colour)
        embed.set_footer(text=t(lang, "page {page}/{pages}", page=index, pages=len(pages)))
        embeds.append(embed)
    return embeds


def character_deleted_embed(character: Character, lang: Lang) -> discord.Embed:
    return discord.Embed(
        title=t_name(lang, "Deleted: {name}", character.name, TITLE),
        description=t(lang, "The character and its wounds were deleted. A GM can bring it back with /undo."),
        colour=state_colour(State.OUT),
    )
