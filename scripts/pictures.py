"""Render the bot's real embeds for a few moments of a fight as pictures for the README.

    .venv/bin/python scripts/pictures.py [OUT_DIR]      (default: docs/pictures)

It builds the embeds with the bot's own renderers (bot/ui: a wound's short result, a card, a healing
session, the party board), writes each as an HTML page in a Discord-like style, and has headless
Chromium (the distribution's `chromium` package, with `fonts-noto-color-emoji` for the marks) take a
screenshot of it. Not run by the tests.
"""

from __future__ import annotations

import html
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import discord

from bot.interface.replies import card_view, result_view
from bot.rules import Character, DiceFeed, Ruleset, Severity, Track, grant_rest, heal_session, inflict
from bot.rules.odds import healing_odds
from bot.ui.board import board_embed
from bot.ui.card import character_card
from bot.ui.fight import blow_embed, blow_lines, panel_embed, severity_button_label
from bot.ui.results import healing_embed, odds_embed, odds_question, wound_embed

PLAYERS = {111: "Léa", 222: "Marc", 333: "Inès"}
RULES = Ruleset()
WIDTH = 560

PAGE = """<!doctype html><meta charset="utf-8"><style>
body {{ margin: 0; padding: 16px; background: #313338; width: {width}px;
  font: 15px/1.375 "gg sans", "Noto Sans", "Helvetica Neue", Arial, "Noto Color Emoji", sans-serif;
  color: #dbdee1; }}
.head {{ margin-bottom: 4px; }} .bot {{ color: #f2f3f5; font-weight: 600; }}
.tag {{ background: #5865f2; color: #fff; font-size: 10px; border-radius: 3px; padding: 1px 4px;
  margin-left: 4px; vertical-align: 2px; }}
.content {{ margin-bottom: 4px; white-space: pre-wrap; }}
.embed {{ background: #2b2d31; border-left: 4px solid {colour}; border-radius: 4px;
  padding: 8px 16px 12px 12px; max-width: 520px; }}
.title {{ color: #f2f3f5; font-weight: 600; margin: 4px 0; }}
.desc {{ white-space: pre-wrap; font-size: 14px; }}
.field {{ margin-top: 8px; font-size: 14px; }} .fname {{ color: #f2f3f5; font-weight: 600; }}
.fvalue {{ white-space: pre-wrap; }} .footer {{ margin-top: 8px; font-size: 12px; color: #b5bac1; }}
.mention {{ background: rgba(88,101,242,.3); color: #c9cdfb; border-radius: 3px; padding: 0 2px; }}
.buttons {{ margin-top: 6px; }} .button {{ display: inline-block; background: #4e5058; color: #fff;
  border-radius: 3px; padding: 3px 12px; font-size: 14px; margin-right: 6px; }}
.primary {{ background: #5865f2; }} .danger {{ background: #da373c; }}
.select {{ margin-top: 6px; background: #1e1f22; border-radius: 4px; padding: 7px 10px; width: 420px;
  font-size: 14px; }}
</style>
<div class="head"><span class="bot">Harmonies</span><span class="tag">APP</span></div>
{content}<div class="embed">{embed}</div>{buttons}
"""


def markdown(text: str) -> str:
    """The little Markdown the bot writes: bold, strikethrough, escapes, user mentions."""
    text = html.escape(text, quote=False)
    text = re.sub(r"\\(.)", r"\1", text)
    text = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", text)
    text = re.sub(r"~~(.+?)~~", r"<s>\1</s>", text)
    return re.sub(r"&lt;@(\d+)&gt;", _mention, text)


def _mention(match: re.Match[str]) -> str:
    return f'<span class="mention">@{PLAYERS.get(int(match[1]), "player")}</span>'


STYLES = {discord.ButtonStyle.primary: " primary", discord.ButtonStyle.danger: " danger"}


def buttons_of(view: discord.ui.View | None) -> tuple[tuple[str, str], ...]:
    """The buttons the bot really puts under a message: (label with its emoji, CSS class)."""
    if view is None:
        return ()
    return tuple(
        (f"{item.emoji or ''} {item.label or ''}".strip(), STYLES.get(item.style, ""))
        for item in view.children
        if isinstance(item, discord.ui.Button)
    )


def page(
    embed: discord.Embed,
    *,
    content: str = "",
    buttons: tuple[tuple[str, str], ...] = (),
    select: str = "",
    rows: tuple[tuple[tuple[str, str], ...], ...] = (),
) -> tuple[str, int]:
    """A message as Discord shows it: its content, its embed, then its components (a select, with
    what it holds chosen, and rows of buttons; ``buttons``: one row)."""
    parts = []
    if embed.title:
        parts.append(f'<div class="title">{markdown(embed.title)}</div>')
    if embed.description:
        parts.append(f'<div class="desc">{markdown(embed.description)}</div>')
    for field in embed.fields:
        parts.append(
            f'<div class="field"><div class="fname">{markdown(field.name or "")}</div>'
            f'<div class="fvalue">{markdown(field.value or "")}</div></div>'
        )
    if embed.footer.text:
        parts.append(f'<div class="footer">{markdown(embed.footer.text)}</div>')
    colour = f"#{embed.colour.value:06x}" if embed.colour else "#1e1f22"
    shown = f'<div class="content">{markdown(content)}</div>' if content else ""
    rows = (buttons, *rows) if buttons else rows
    below = f'<div class="select">{html.escape(select)}</div>' if select else ""
    for row in rows:
        shown_row = "".join(
            f'<span class="button{style}">{html.escape(label)}</span>' for label, style in row
        )
        below += f'<div class="buttons">{shown_row}</div>'
    tall = height(embed, content=content, buttons=False) + 36 * len(rows) + (40 if select else 0)
    return PAGE.format(width=WIDTH, colour=colour, content=shown, embed="".join(parts), buttons=below), tall


def height(embed: discord.Embed, *, content: str, buttons: bool) -> int:
    """The picture's height: the lines the page shows (long ones wrap at about 60 characters)."""
    texts = [embed.title or "", embed.description or "", embed.footer.text or ""]
    texts += [f"{f.name}\n{f.value}" for f in embed.fields]
    lines = sum(max(1, -(-len(line) // 60)) for text in texts if text for line in text.split("\n"))
    said = sum(max(1, -(-len(line) // 60)) for line in content.split("\n")) if content else 0
    return 90 + 21 * lines + 12 * len(embed.fields) + 22 * said + (36 if buttons else 0)


def fight() -> dict[str, tuple[str, int]]:
    """The /fight panel after a blow on three goblins and Aélis, and the blow's public result."""
    aelis = Character(name="Aélis", corps=2, resistance=1, owner_id=111, id=1)
    brann = Character(name="Brann", corps=1, resistance=2, owner_id=222, id=2)
    goblins = [Character(name=f"Gobelin {n}", id=10 + n) for n in range(1, 5)]
    goblins[2] = inflict(goblins[2], Track.PHYSICAL, Severity.HIGH, 1).character
    brann = inflict(brann, Track.MENTAL, Severity.LOW, 1).character
    targets = [aelis, goblins[0], goblins[1], goblins[2]]
    hit = [(c, inflict(c, Track.PHYSICAL, Severity.MID, 1)) for c in targets]
    hit = [(done.character, done) for _, done in hit]
    after = {c.id: c for c, _ in hit}
    everyone = [after.get(c.id, c) for c in (aelis, brann, *goblins)]
    last = blow_lines(hit, [], RULES, "en", public=False)
    panel = panel_embed(everyone, 3, RULES, "en", last=last)
    labels = [severity_button_label("en", track, s) for track in Track for s in Severity]
    chosen = ", ".join(c.name for c in everyone if not c.out_of_play and c.id in (1, 11, 12))
    return {
        "fight": page(
            panel,
            select=f"Choose the targets: {chosen}",
            rows=(
                tuple((label, " danger") for label in labels[:3]),
                tuple((label, " primary") for label in labels[3:]),
                (("Damage…", ""), ("Add NPCs…", ""), ("Dead NPCs off the board", "")),
            ),
        ),
        "blow": page(blow_embed("serious wound", hit, [], RULES, "en"), content="<@111>"),
    }


def moments() -> dict[str, tuple[str, int]]:
    """A few moments of a fight, each as a page."""
    aelis = Character(name="Aélis", corps=2, resistance=1, owner_id=111, id=1)
    brann = Character(name="Brann", corps=1, resistance=2, owner_id=222, id=2)
    nyx = Character(name="Nyx", intuition=2, resistance=1, owner_id=333, id=3)
    first = inflict(aelis, Track.PHYSICAL, Severity.LOW, 3, note="goblin arrows")
    second = inflict(first.character, Track.PHYSICAL, Severity.LOW, 2, note="a blade in the side")
    aelis = second.character
    brann = inflict(brann, Track.PHYSICAL, Severity.MID, 1).character
    brann = inflict(brann, Track.MENTAL, Severity.LOW, 2).character
    wound = wound_embed(second, aelis, RULES, "en", note="a blade in the side")
    rested = grant_rest(brann, 7)
    session = heal_session(rested, RULES, DiceFeed(random.Random(4), False), Track.PHYSICAL)
    # Later in the fight: Aélis near death, rested; her next healing session can only hurt.
    worse = inflict(aelis, Track.PHYSICAL, Severity.HIGH, 1).character
    worse = grant_rest(inflict(worse, Track.PHYSICAL, Severity.MID, 1).character, 1)
    board = board_embed([worse, session.character, nyx], RULES, "en")
    odds = healing_odds(worse, RULES)
    assert odds is not None
    question = odds_embed(worse, odds, "fr")
    return {
        "wound": page(wound, content="<@111>", buttons=buttons_of(result_view(aelis, RULES, "en"))),
        "card": page(character_card(rested, RULES, "en"), buttons=buttons_of(card_view(rested, RULES, "en"))),
        "healing": page(
            healing_embed(session, RULES, "en"),
            buttons=buttons_of(result_view(session.character, RULES, "en")),
        ),
        "board": page(board),
        "blessure": page(
            wound_embed(second, aelis, RULES, "fr", note="une lame dans le flanc"),
            content="<@111>",
            buttons=buttons_of(result_view(aelis, RULES, "fr")),
        ),
        "danger": page(character_card(worse, RULES, "en"), buttons=buttons_of(card_view(worse, RULES, "en"))),
        "question": page(
            question,
            content=odds_question(worse, odds, "fr"),
            buttons=(("Annuler", ""), ("Lancer", " danger")),
        ),
    }


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/pictures")
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        sys.exit("headless Chromium is needed: apt-get install chromium fonts-noto-color-emoji")
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for name, (text, tall) in (moments() | fight()).items():
            source = Path(tmp) / f"{name}.html"
            source.write_text(text, encoding="utf-8")
            target = (out / f"{name}.png").resolve()
            subprocess.run(
                [
                    browser,
                    "--headless",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--hide-scrollbars",
                    f"--window-size={WIDTH + 32},{tall}",
                    f"--screenshot={target}",
                    source.as_uri(),
                ],
                check=True,
                capture_output=True,
            )
            print(target)


if __name__ == "__main__":
    main()
