"""The server's settings (rules §7), the result of an import, and the character list (paged) with the
embeds of a created or deleted character."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import discord

from bot.rules.character import Character
from bot.rules.ruleset import Ruleset, TrackNumbers
from bot.rules.severity import SEVERITIES, Track
from bot.rules.wounds import total_penalty
from bot.ui.card import NOTICE_COLOUR, State, secret_word, state_colour, state_text
from bot.ui.i18n import (
    CATALOGUE,
    Lang,
    join_lines,
    number,
    preset_label,
    severity_short,
    t,
    t_name,
    track_label,
)
from bot.ui.rolls import damage_table_text
from bot.ui.text import DESCRIPTION, FIELD_VALUE, TITLE, clip, escape, mention, signed

# ---- The server's settings (rules §7) and the result of an import.


def _maxima(values: tuple[int, int, int]) -> str:
    return "/".join(str(v) for v in values)


def _track_line(lang: Lang, track: Track, values: tuple[int, int, int], shown: Callable[[int], str]) -> str:
    terms = " · ".join(f"{severity_short(lang, track, s)} {shown(values[s])}" for s in SEVERITIES)
    return t(lang, "config_track_line", track=track_label(lang, track), values=terms)


NUMBERS: tuple[tuple[str, Callable[[TrackNumbers], tuple[int, int, int]], Callable[[int], str]], ...] = (
    ("config_penalties", lambda n: n.penalties, signed),
    ("config_rest", lambda n: n.rest_days, number),
    ("config_difficulty", lambda n: n.difficulty, signed),
)
"""The settings with a number per track and severity: their label, where they are, how they show."""


def _on(lang: Lang, value: bool) -> str:
    return t(lang, "on" if value else "off")


def config_embed(ruleset: Ruleset, lang: Lang) -> discord.Embed:
    """Every setting of the server, in ``lang``."""
    embed = discord.Embed(title=t(lang, "config_title"), colour=discord.Colour(NOTICE_COLOUR))
    embed.add_field(name=t(lang, "config_gm_role"), value=_role(lang, ruleset.gm_role_id), inline=False)
    presets = [
        t(
            lang,
            "config_preset_line",
            name=preset_label(lang, name),
            physical=_maxima(preset.physical),
            mental=_maxima(preset.mental),
        )
        for name, preset in sorted(ruleset.presets.items())
    ]
    embed.add_field(
        name=t(lang, "config_presets"), value=join_lines(lang, presets, FIELD_VALUE), inline=False
    )
    for key, pick, shown in NUMBERS:
        lines = [_track_line(lang, track, pick(ruleset.numbers(track)), shown) for track in Track]
        embed.add_field(name=t(lang, key), value="\n".join(lines), inline=False)
    damage = damage_table_text(ruleset.damage, lang) + "\n" + t(lang, "damage_table_mental")
    embed.add_field(name=t(lang, "config_damage"), value=damage, inline=False)
    dice = t(
        lang, "config_dice_value", open=_on(lang, ruleset.open_rolls), tie=_on(lang, ruleset.tie_succeeds)
    )
    embed.add_field(name=t(lang, "config_dice"), value=dice, inline=False)
    embed.add_field(name=t(lang, "config_mental_healing"), value=_on(lang, ruleset.mental_healing_rolls))
    ask = t(lang, f"ask_healing_{ruleset.ask_before_healing}")
    embed.add_field(name=t(lang, "config_ask_healing"), value=ask)
    embed.add_field(name=t(lang, "config_players_create"), value=_on(lang, ruleset.players_create))
    embed.add_field(name=t(lang, "config_secret_npcs"), value=_secret(lang, ruleset))
    embed.add_field(name=t(lang, "config_language"), value=_language(lang, ruleset.language))
    embed.set_footer(text=t(lang, "config_footer"))
    return embed


def import_embed(counts: Mapping[str, object], lang: Lang) -> discord.Embed:
    """An import succeeded: what the file held (``{"characters": 12, "wounds": 30, …}``)."""
    lines = [t(lang, "import_body")]
    for key, value in counts.items():
        label = t(lang, f"count_{key}") if f"count_{key}" in CATALOGUE else clip(escape(str(key)), 40)
        shown = number(value) if isinstance(value, int) else clip(escape(str(value)), 40)
        lines.append(label + t(lang, "colon") + shown)
    return discord.Embed(
        title=t(lang, "import_title"),
        description=join_lines(lang, lines, DESCRIPTION),
        colour=discord.Colour(NOTICE_COLOUR),
    )


def _role(lang: Lang, role_id: int | None, mentions: bool = True) -> str:
    if role_id is None:
        return t(lang, "config_gm_role_none")
    return f"<@&{role_id}>" if mentions else t(lang, "diff_role_id", id=role_id)


def _language(lang: Lang, value: str | None) -> str:
    return t(lang, "config_language_auto") if value is None else t(lang, f"lang_{value}")


def _preset_value(lang: Lang, ruleset: Ruleset, name: str) -> str:
    preset = ruleset.presets.get(name)
    if preset is None:
        return t(lang, "diff_none")
    return t(lang, "diff_preset", physical=_maxima(preset.physical), mental=_maxima(preset.mental))


def _secret(lang: Lang, ruleset: Ruleset) -> str:
    if ruleset.secret_npcs:
        return t(lang, "config_secret_all")
    if ruleset.secret_characters:
        return t(lang, "config_secret_some", count=len(ruleset.secret_characters))
    return _on(lang, False)


def ruleset_changes(before: Ruleset, after: Ruleset, lang: Lang, *, mentions: bool = True) -> list[str]:
    """Each setting that differs, as ``label: old → new`` in ``lang`` (no internal names, no JSON).
    ``mentions``: show the GM role as a role mention (else by its id, as history does)."""
    lines: list[str] = []

    def change(label: str, old: str, new: str) -> None:
        if old != new:
            lines.append(t(lang, "diff_line", label=label, old=old, new=new))

    old_role, new_role = _role(lang, before.gm_role_id, mentions), _role(lang, after.gm_role_id, mentions)
    change(t(lang, "config_gm_role"), old_role, new_role)
    for name in sorted(set(before.presets) | set(after.presets)):
        label = t(lang, "diff_preset_label", name=preset_label(lang, name))
        change(label, _preset_value(lang, before, name), _preset_value(lang, after, name))
    for key, pick, shown in NUMBERS:
        for track in Track:
            old, new = pick(before.numbers(track)), pick(after.numbers(track))
            for severity in SEVERITIES:
                label = t(
                    lang,
                    "diff_per_severity",
                    what=t(lang, key),
                    severity=severity_short(lang, track, severity),
                )
                change(label, shown(old[severity]), shown(new[severity]))
    flags = (
        ("diff_open_rolls", before.open_rolls, after.open_rolls),
        ("diff_tie_succeeds", before.tie_succeeds, after.tie_succeeds),
        ("config_mental_healing", before.mental_healing_rolls, after.mental_healing_rolls),
        ("config_players_create", before.players_create, after.players_create),
    )
    for key, old_flag, new_flag in flags:
        change(t(lang, key), _on(lang, old_flag), _on(lang, new_flag))
    old_ask, new_ask = before.ask_before_healing, after.ask_before_healing
    asked = t(lang, f"ask_healing_{old_ask}"), t(lang, f"ask_healing_{new_ask}")
    change(t(lang, "config_ask_healing"), *asked)
    change(t(lang, "config_language"), _language(lang, before.language), _language(lang, after.language))
    old_table, new_table = damage_table_text(before.damage, lang), damage_table_text(after.damage, lang)
    change(t(lang, "config_damage"), old_table, new_table)
    change(t(lang, "config_secret_npcs"), _secret(lang, before), _secret(lang, after))
    return lines


def settings_changed_embed(before: Ruleset, after: Ruleset, lang: Lang) -> discord.Embed:
    """The answer to a /config change: what changed, old → new (/config show has the whole card)."""
    lines = ruleset_changes(before, after, lang) or [t(lang, "diff_nothing")]
    embed = discord.Embed(
        title=t(lang, "diff_title"),
        description=join_lines(lang, lines, DESCRIPTION),
        colour=discord.Colour(NOTICE_COLOUR),
    )
    embed.set_footer(text=t(lang, "diff_footer"))
    return embed


# ---- The character list (paged), and the embeds of a created or deleted character.

LINES_PER_PAGE = 20
PAGE_BUDGET = 3900
NAME_IN_LIST = 100


def character_line(character: Character, ruleset: Ruleset, lang: Lang) -> str:
    """``**Aria** — @player — serious wound · shock — −4``; ``**Aria** — @player — dead`` without figures."""
    owner = t(lang, "npc") if character.owner_id is None else mention(character.owner_id)
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
        return [discord.Embed(title=t(lang, "list_title"), description=t(lang, "list_empty"), colour=colour)]
    pages = _pages([character_line(c, ruleset, lang) for c in characters])
    embeds = []
    for index, page in enumerate(pages, 1):
        embed = discord.Embed(title=t(lang, "list_title"), description="\n".join(page), colour=colour)
        embed.set_footer(text=t(lang, "page_footer", page=index, pages=len(pages)))
        embeds.append(embed)
    return embeds


def character_deleted_embed(character: Character, lang: Lang) -> discord.Embed:
    return discord.Embed(
        title=t_name(lang, "deleted_title", character.name, TITLE),
        description=t(lang, "deleted_body"),
        colour=state_colour(State.OUT),
    )
