"""The player view's HTML: the whole page (which works without JavaScript: it reloads itself) and
the party alone (what the update stream sends). Everything shown is escaped; nothing is inline but
text (the Content-Security-Policy allows no inline script or style)."""

from __future__ import annotations

import re
from html import escape

from bot.rules.severity import SEVERITIES, Track
from bot.storage.player_views import Party
from bot.ui.board import PartyLine, TrackLine, party_lines
from bot.ui.i18n import Lang, t

RELOAD_WITHOUT_SCRIPT_S = 5
"""Without JavaScript, the page reloads itself this often."""
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_SHAPES = {Track.PHYSICAL: "square", Track.MENTAL: "circle"}


def _inline(text: str) -> str:
    """A catalogue text (which may hold Discord's ``**bold**``) as HTML."""
    return _BOLD.sub(r"<strong>\1</strong>", escape(text))


def _track(line: TrackLine) -> str:
    marks = "".join(
        f'<span class="mark {_SHAPES[line.track]} s{s}"></span>' * line.marks[s] for s in SEVERITIES
    )
    return (
        f'<div class="track"><span class="label">{escape(line.label)}</span> '
        f'<span class="marks" aria-hidden="true">{marks}</span> '
        f'<span class="counts">{escape(line.counts)}</span></div>'
    )


def _line(line: PartyLine, lang: Lang) -> str:
    classes = ["who", f"level-{line.level}"] + (["near-death"] if line.near_death else [])
    name = f'<span class="name">{escape(line.name)}</span>'
    if line.npc:
        name += f' <span class="npc">{escape(t(lang, "NPC"))}</span>'
    parts = [f'<div class="head">{name}<span class="state">{escape(line.state)}</span></div>']
    if line.level == "secret":
        parts.append(f'<div class="secret">{escape(t(lang, "kept secret by the GMs"))}</div>')
    parts.extend(_track(track) for track in line.tracks)
    if line.penalty is not None:
        parts.append(
            f'<div class="penalty">{escape(t(lang, "penalty {penalty}", penalty=line.penalty))}</div>'
        )
    if line.warning is not None:
        sign = "" if line.warning.startswith("⚠️") else "⚠️ "
        parts.append(f'<div class="warning">{sign}{_inline(line.warning)}</div>')
    for heal in line.heals:
        sign = "☠️ " if line.heal_can_kill else "🩹 "
        parts.append(f'<div class="heal">{sign}{escape(t(lang, "can heal"))} — {_inline(heal)}</div>')
    return f'<li class="{" ".join(classes)}">{"".join(parts)}</li>'


def language_of(party: Party) -> Lang:
    """The server's language setting, else its locale's."""
    return party.ruleset.language or ("fr" if party.language == "fr" else "en")


def party_html(party: Party) -> str:
    """The party alone: the title and one item per character (one line of HTML)."""
    lang = language_of(party)
    lines = party_lines(party.characters, party.ruleset, lang)
    title = f"<h1>{escape(t(lang, 'The party'))}</h1>"
    if not lines:
        return f'{title}<p class="empty">{escape(t(lang, "No characters on the board yet."))}</p>'
    return f'{title}<ul class="party">{"".join(_line(line, lang) for line in lines)}</ul>'


def page_html(party: Party, *, overlay: bool) -> str:
    """The whole page. Its style sheet and script are relative (``static/…``): behind a reverse proxy
    that serves the bot under a path, they follow the page."""
    lang = language_of(party)
    title = escape(t(lang, "The party"))
    body_class = "overlay" if overlay else "screen"
    return (
        "<!doctype html>\n"
        f'<html lang="{lang}" class="{body_class}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="robots" content="noindex, nofollow">\n'
        '<meta name="referrer" content="no-referrer">\n'
        f'<noscript><meta http-equiv="refresh" content="{RELOAD_WITHOUT_SCRIPT_S}"></noscript>\n'
        f"<title>{title}</title>\n"
        '<link rel="icon" href="static/icon.svg" type="image/svg+xml">\n'
        '<link rel="stylesheet" href="static/view.css">\n'
        '<script src="static/view.js" defer></script>\n'
        "</head>\n"
        f'<body class="{body_class}">\n'
        f'<main id="party" aria-live="polite">{party_html(party)}</main>\n'
        f'<footer><span id="status" data-live="{escape(t(lang, "live"))}" '
        f'data-reconnecting="{escape(t(lang, "reconnecting…"))}"></span></footer>\n'
        "</body>\n</html>\n"
    )


def not_found_html() -> str:
    """The one answer to an unknown or revoked link (both languages: the server is not known)."""
    text = " / ".join(
        escape(t(lang, "No such player view: the link is wrong, or the GM replaced it."))
        for lang in ("en", "fr")
    )
    return (
        '<!doctype html>\n<html>\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="robots" content="noindex, nofollow">\n'
        "<title>404</title>\n</head>\n"
        f"<body><p>{text}</p></body>\n</html>\n"
    )
