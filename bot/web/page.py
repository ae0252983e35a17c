"""The player view's HTML: the whole page (it reloads itself without JavaScript) and the party alone
(what the update stream sends). Everything shown is escaped; nothing inline but text (the CSP allows
no inline script or style). Each character is one ``<li>`` keyed by its id (``data-key``), with a
sentence of its state (``data-say``) the script says when that item changes."""

from __future__ import annotations

import re
from html import escape

from bot.rules.severity import SEVERITIES, Track
from bot.storage.store import Party
from bot.ui.board import PartyLine, TrackLine, party_line
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


def _plain(text: str) -> str:
    """A catalogue text without Discord's bold nor the warning sign (read aloud)."""
    return _BOLD.sub(r"\1", text).replace("⚠️", "").strip()


def _say(line: PartyLine, lang: Lang) -> str:
    """What a screen reader says of the character when it changes: short, and only what the page
    shows (a secret NPC: its word)."""
    what = [line.state, *(track.counts for track in line.tracks)]
    if line.penalty is not None:
        what.append(t(lang, "penalty {penalty}", penalty=line.penalty))
    if line.warning is not None:
        what.append(_plain(line.warning))
    what.extend(heal.label for heal in line.heals)
    return t(lang, "{name}: {state}.", name=line.name, state=", ".join(what))


def _line(key: str, line: PartyLine, lang: Lang) -> str:
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
    for heal in line.heals:  # only a session worth offering looks like good news (green)
        kind = "heal" if heal.good else "heal risky"
        parts.append(f'<div class="{kind}">{heal.sign} {escape(heal.label)} — {_inline(heal.odds)}</div>')
    return (
        f'<li class="{" ".join(classes)}" data-key="{key}" data-say="{escape(_say(line, lang))}">'
        f"{''.join(parts)}</li>"
    )


def language_of(party: Party) -> Lang:
    """The server's language setting, else its locale's."""
    return party.ruleset.language or ("fr" if party.language == "fr" else "en")


def party_html(party: Party) -> str:
    """The party alone: the title and one item per character, keyed by its id (one line of HTML)."""
    lang = language_of(party)
    lines = [party_line(c, party.ruleset, lang) for c in party.characters]
    title = f"<h1>{escape(t(lang, 'The party'))}</h1>"
    if not lines:
        return f'{title}<p class="empty">{escape(t(lang, "No characters on the board yet."))}</p>'
    items = "".join(
        _line(f"c{character.id}", line, lang) for character, line in zip(party.characters, lines, strict=True)
    )
    return f'{title}<ul class="party">{items}</ul>'


_HEAD = (
    '<meta charset="utf-8">\n'
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
    '<meta name="robots" content="noindex, nofollow">\n'
    '<meta name="referrer" content="no-referrer">\n'
    '<link rel="icon" href="static/icon.svg" type="image/svg+xml">\n'
    '<link rel="stylesheet" href="static/view.css">\n'
    '<script src="static/view.js" defer></script>\n'
)


def page_html(party: Party, *, overlay: bool) -> str:
    """The whole page. Its style sheet and script are relative (``static/…``): behind a reverse proxy
    that serves the bot under a path, they follow the page. The footer holds what the script says: the
    connection lost (``role="alert"``, shown at the top), what changed (``role="status"``, for screen
    readers only) and the quiet live/reconnecting mark."""
    lang = language_of(party)
    title = escape(t(lang, "The party"))
    body_class = "overlay" if overlay else "screen"
    return (
        "<!doctype html>\n"
        f'<html lang="{lang}" class="{body_class}">\n<head>\n{_HEAD}'
        f'<noscript><meta http-equiv="refresh" content="{RELOAD_WITHOUT_SCRIPT_S}"></noscript>\n'
        f"<title>{title}</title>\n"
        "</head>\n"
        f'<body class="{body_class}">\n'
        f'<main id="party">{party_html(party)}</main>\n'
        f"{_footer(lang)}\n"
        "</body>\n</html>\n"
    )


def _footer(lang: Lang) -> str:
    """What the script says, in the page's language (``{name}``, ``{names}``: the script fills them)."""
    texts = {
        "lost": t(lang, "Connection lost: this page is no longer live and may be out of date. Reconnecting…"),
        "changed": t(lang, "Changed: {names}", names="{names}"),
        "gone": t(lang, "{name}: no longer on the board", name="{name}"),
        "back": t(lang, "Connection back: the page is live again."),
        "live": t(lang, "live"),
        "reconnecting": t(lang, "reconnecting…"),
        "offline": t(lang, "connection lost"),
    }
    say = {key: escape(text) for key, text in texts.items()}
    return (
        f'<footer><p id="connection" role="alert" data-lost="{say["lost"]}"></p>'
        f'<p id="said" role="status" data-changed="{say["changed"]}" data-gone="{say["gone"]}" '
        f'data-back="{say["back"]}"></p>'
        f'<span id="status" data-live="{say["live"]}" data-reconnecting="{say["reconnecting"]}" '
        f'data-lost="{say["offline"]}"></span></footer>'
    )


def not_found_html() -> str:
    """The one answer to an unknown or revoked link: both languages (the server is not known), in the
    page's style, transparent as an overlay when the address asks for one (the script reads it)."""
    en, fr = (
        t(lang, "No such player view: the link is wrong, or the GM replaced it.") for lang in ("en", "fr")
    )
    return (
        '<!doctype html>\n<html lang="en" class="missing">\n<head>\n'
        f"{_HEAD}<title>404</title>\n</head>\n"
        '<body class="missing">\n<main class="missing">'
        f'<h1>404</h1><p>{escape(en)}</p><p lang="fr">{escape(fr)}</p>'
        "</main>\n</body>\n</html>\n"
    )
