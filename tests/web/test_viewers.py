"""The player view for every viewer (issue 37.7), in headless Chromium: a screen reader hears only what
changed; a TV shows eight characters without scrolling; a cut stream says so; the reader's font size
and zoom work; severities differ by shape; a revoked link stays readable as an overlay; and axe-core
finds nothing on a phone, a TV, the overlay or the 404."""

from __future__ import annotations

import asyncio
import re

import pytest
from axe_playwright_python.async_playwright import Axe
from playwright.async_api import Browser, Page, expect

from bot.web import server
from bot.web.server import PlayerView
from tests.table import public
from tests.web.conftest import PATIENCE_MS, Served
from tests.web.test_browser import fight, open_page, party

WATCH = """
window.__parties = 0;
window.__mutations = [];
(function () {
  var Native = window.EventSource;
  function Counted(url, options) {
    var source = new Native(url, options);
    source.addEventListener("party", function () { window.__parties += 1; });
    return source;
  }
  Counted.CONNECTING = 0; Counted.OPEN = 1; Counted.CLOSED = 2;
  window.EventSource = Counted;
  document.addEventListener("DOMContentLoaded", function () {
    var observer = new MutationObserver(function (records) {
      records.forEach(function (r) {
        window.__mutations.push(r.type + " in " + (r.target.id || r.target.nodeName));
      });
    });
    ["party", "said"].forEach(function (id) {
      var element = document.getElementById(id);
      if (element) {
        observer.observe(element, { subtree: true, childList: true, characterData: true, attributes: true });
      }
    });
  });
})();
"""
"""Counts the updates the page received (``__parties``) and records every change of the party and of
what is said (``__mutations``) once the page is loaded."""
QUIET_MS = 600
"""After an update, long enough for anything it would say (the page says it 0.1 s later)."""


async def updates_received(page: Page, count: int) -> None:
    await page.wait_for_function(f"window.__parties >= {count}", timeout=PATIENCE_MS)
    await page.wait_for_timeout(QUIET_MS)


async def mutations(page: Page) -> list[str]:
    return list(await page.evaluate("window.__mutations.splice(0)"))


async def test_an_update_replaces_only_the_character_that_changed_and_says_it_briefly(
    served: Served, browser: Browser
) -> None:
    await party(served)
    watched = await open_page(browser, await served.link(), script=WATCH)
    page = watched.page
    await updates_received(page, 1)  # the stream's first update: the page as it was loaded
    assert await mutations(page) == []  # nothing re-rendered, nothing said
    await expect(page.locator("#said")).to_have_text("")
    assert await page.locator("main[aria-live], [aria-live] li").count() == 0
    await expect(page.locator("#said")).to_have_attribute("role", "status")
    await page.evaluate("document.querySelectorAll('li').forEach(li => { li.__loaded = true; })")

    public(await served.table.run("wound", {"severity": "serious", "character": "Aria", "count": 2}))
    aria = page.locator("li", has_text="Aria")
    await expect(aria).to_contain_text("serious 2/2", timeout=PATIENCE_MS)
    await expect(page.locator("#said")).to_contain_text("Aria", timeout=PATIENCE_MS)
    kept = await page.evaluate(
        "Array.from(document.querySelectorAll('li')).map(li => [li.querySelector('.name').textContent, "
        "li.__loaded === true])"
    )
    assert kept == [["Aria", False], ["Bruno", True], ["Goblin", True]]  # only Aria's item replaced
    said = await page.locator("#said").inner_text()
    assert said.startswith("Aria: serious wound") and "serious 2/2" in said and "penalty −6" in said
    assert "Bruno" not in said and "Goblin" not in said and len(said) < 160, said

    await served.table.create("Zed")
    await served.table.run("board", {"add": "Zed"})
    await expect(page.locator("#said")).to_have_text("Zed: unhurt.", timeout=PATIENCE_MS)
    await served.table.run("board", {"drop": "Zed"})
    await expect(page.locator("#said")).to_have_text("Zed: no longer on the board", timeout=PATIENCE_MS)
    await expect(page.locator("li", has_text="Zed")).to_have_count(0)
    assert watched.loads == 1 and watched.errors == []


@pytest.mark.parametrize("query", ["", "?tv=1"])
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
async def test_a_tv_shows_eight_characters_without_scrolling(
    served: Served, browser: Browser, size: tuple[int, int], query: str
) -> None:
    await fight(served.table)
    watched = await open_page(browser, await served.link() + query, viewport=size)
    page = watched.page
    await expect(page.locator("li.who")).to_have_count(8)
    await expect(page.locator("#status.live")).to_be_visible(timeout=PATIENCE_MS)
    width, height = size
    boxes = [await item.bounding_box() for item in await page.locator("li.who").all()]
    for box in boxes:
        assert box is not None and box["y"] >= 0 and box["x"] >= 0
        assert box["y"] + box["height"] <= height and box["x"] + box["width"] <= width, (box, size)
    scroll = await page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
    )
    assert scroll == [width, height]  # nothing to scroll to
    if query:  # sized to the screen: the type grows with it
        name = await page.eval_on_selector(".name", "e => parseFloat(getComputedStyle(e).fontSize)")
        assert name >= 0.025 * height, name


async def test_a_cut_stream_is_shown_and_announced_and_a_reconnect_with_nothing_new_says_only_that(
    served: Served, browser: Browser
) -> None:
    await party(served)
    watched = await open_page(browser, await served.link(), viewport=(390, 844), script=WATCH)
    page = watched.page
    await updates_received(page, 1)
    banner = page.locator("#connection")
    await expect(banner).to_have_attribute("role", "alert")
    await expect(banner).to_have_text("")
    port = served.view.port
    await served.view.close()  # the bot stopped
    await expect(banner).to_contain_text("Connection lost", timeout=PATIENCE_MS)
    await expect(banner).to_be_in_viewport()
    await expect(page.locator("#status")).to_have_text("connection lost")
    assert await page.evaluate("document.body.classList.contains('lost')")
    await mutations(page)
    again = PlayerView(served.table.store, "127.0.0.1", port)
    await again.start()
    try:
        await expect(banner).to_have_text("", timeout=PATIENCE_MS)
        await expect(page.locator("#said")).to_have_text("Connection back: the page is live again.")
        await updates_received(page, 2)
        assert [m for m in await mutations(page) if "said" not in m] == []  # the party untouched
        await expect(page.locator("#status")).to_have_text("live")
        public(await served.table.run("wound", {"severity": "light", "character": "Bruno"}))
        await expect(page.locator("#said")).to_contain_text("Bruno: light wound", timeout=PATIENCE_MS)
    finally:
        await again.close()
    assert watched.loads == 1
    assert [e for e in watched.errors if "ERR_CONNECTION_REFUSED" not in e] == []


async def test_a_frozen_bot_whose_stream_stays_open_is_shown_as_lost_and_back_when_it_thaws(
    served: Served, browser: Browser, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server, "HEARTBEAT_S", 0.3)  # the page then waits 1.6 s of silence
    await party(served)
    watched = await open_page(browser, await served.link(), viewport=(390, 844), script=WATCH)
    page = watched.page
    await updates_received(page, 1)
    banner = page.locator("#connection")
    await page.wait_for_timeout(2500)  # a quiet table: the heartbeats keep it live
    await expect(banner).to_have_text("")
    await expect(page.locator("#status")).to_have_text("live")
    thawed, written = asyncio.Event(), server.write

    async def frozen(response: object, data: bytes) -> None:  # its connections open, nothing sent
        await thawed.wait()

    monkeypatch.setattr(server, "write", frozen)
    try:
        await expect(banner).to_contain_text("Connection lost", timeout=PATIENCE_MS)
        await expect(page.locator("#status")).to_have_text("connection lost")
        monkeypatch.setattr(server, "write", written)
        await expect(banner).to_have_text("", timeout=PATIENCE_MS)
        await expect(page.locator("#said")).to_have_text("Connection back: the page is live again.")
    finally:
        thawed.set()
    assert watched.loads == 1


async def test_text_follows_the_readers_font_size_and_zoom(served: Served, browser: Browser) -> None:
    await party(served)
    link = await served.link()

    async def name_size(**options: object) -> float:
        watched = await open_page(browser, link, **options)  # type: ignore[arg-type]
        size = await watched.page.eval_on_selector(".name", "e => parseFloat(getComputedStyle(e).fontSize)")
        await watched.page.context.close()
        return float(size)

    usual = await name_size(viewport=(390, 844))
    assert await name_size(viewport=(390, 844), font_size=32) == pytest.approx(2 * usual)
    # Zoom at 200 %: half the CSS pixels, each twice as big; the type is twice as big on the screen.
    plain, zoomed = await name_size(viewport=(1280, 720)), await name_size(viewport=(640, 360), scale=2)
    assert 2 * zoomed / plain >= 1.9, (plain, zoomed)


async def test_severity_marks_differ_by_shape_and_stand_out_from_their_card(
    served: Served, browser: Browser
) -> None:
    await fight(served.table)
    watched = await open_page(browser, await served.link(), viewport=(390, 844))
    page = watched.page
    await expect(page.locator(".mark.s2")).not_to_have_count(0)
    shapes = {}
    for severity in ("s0", "s1", "s2"):
        style = await page.eval_on_selector(
            f".mark.square.{severity}",
            """e => { const s = getComputedStyle(e); return {
                colour: s.borderTopColor, background: s.backgroundColor, image: s.backgroundImage,
                border: s.borderTopStyle + " " + s.borderTopWidth}; }""",
        )
        filled = rgba(style["background"])[3] > 0
        gradient = re.sub(r"rgba?\([^)]*\)", "colour", style["image"])
        shapes[severity] = (filled, gradient, style["border"])
        card = await page.eval_on_selector(
            f"li:has(.mark.{severity})", "e => getComputedStyle(e).backgroundColor"
        )
        assert contrast(style["colour"], card) >= 3, (severity, style, card)  # WCAG 1.4.11: 3:1
    assert len(set(shapes.values())) == 3, shapes  # light, serious, critical: three shapes
    assert shapes["s0"][0] is False and shapes["s2"][0] is True  # hollow … full


async def test_a_revoked_overlay_stays_transparent_and_readable(served: Served, browser: Browser) -> None:
    await party(served)
    link = await served.link()
    watched = await open_page(browser, link + "?overlay=1", viewport=(820, 720))
    page = watched.page
    await expect(page.locator("#status")).to_have_text("live", timeout=PATIENCE_MS)
    await served.link(revoke=True)
    await expect(page.locator("body")).to_contain_text("No such player view", timeout=PATIENCE_MS)
    await expect(page.locator("html")).to_have_attribute("lang", "en")
    await expect(page.locator("p[lang=fr]")).to_contain_text("Cette page n'existe pas")
    for element in ("html", "body"):
        colour = await page.eval_on_selector(element, "e => getComputedStyle(e).backgroundColor")
        assert colour == "rgba(0, 0, 0, 0)", (element, colour)
    card = await page.eval_on_selector("main", "e => getComputedStyle(e).backgroundColor")
    assert rgba(card)[3] > 0.5, card  # a card under the text: readable over any scene
    text = await page.eval_on_selector(
        "main p", "e => [getComputedStyle(e).color, getComputedStyle(e).fontFamily]"
    )
    assert contrast(text[0], card) >= 4.5 and "sans-serif" in text[1], text
    # Opened on a phone, the 404 is a page of its own style.
    phone = await open_page(browser, link, viewport=(390, 844))
    background = await phone.page.eval_on_selector("body", "e => getComputedStyle(e).backgroundColor")
    assert background == "rgb(21, 19, 27)", background


@pytest.mark.parametrize(
    ("view", "query", "size"),
    [
        ("phone", "", (390, 844)),
        ("tv", "?tv=1", (1920, 1080)),
        ("small tv", "", (1280, 720)),
        ("overlay", "?overlay=1", (820, 720)),
        ("404", "", (390, 844)),
        ("404 as an overlay", "?overlay=1", (820, 720)),
    ],
)
async def test_axe_finds_nothing(
    served: Served, browser: Browser, view: str, query: str, size: tuple[int, int]
) -> None:
    await fight(served.table)
    link = await served.link()
    if view.startswith("404"):
        await served.link(revoke=True)
    watched = await open_page(browser, link + query, viewport=size)
    if not view.startswith("404"):
        await expect(watched.page.locator("#status")).to_have_text("live", timeout=PATIENCE_MS)
        public(await served.table.run("wound", {"severity": "light", "character": "Dorian"}))
        await expect(watched.page.locator("#said")).to_contain_text("Dorian", timeout=PATIENCE_MS)
    results = await Axe().run(watched.page)
    assert results.violations_count == 0, results.generate_report()
    assert watched.errors == [] or view.startswith("404")


def rgba(css: str) -> tuple[float, float, float, float]:
    found = re.fullmatch(r"rgba?\(([\d.]+), ([\d.]+), ([\d.]+)(?:, ([\d.]+))?\)", css)
    assert found is not None, css
    red, green, blue, alpha = found.groups()
    return float(red), float(green), float(blue), 1.0 if alpha is None else float(alpha)


PAGE = (21, 19, 27)
"""The page's background (#15131b), under the cards."""


def contrast(front: str, back: str) -> float:
    """WCAG's contrast ratio of two CSS colours, each laid on what is under it (the page)."""

    def solid(css: str, under: tuple[float, ...]) -> tuple[float, ...]:
        *colour, alpha = rgba(css)
        return tuple(alpha * c + (1 - alpha) * u for c, u in zip(colour, under, strict=True))

    def luminance(colour: tuple[float, ...]) -> float:
        linear = [c / 255 / 12.92 if c <= 10.31 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in colour]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    card = solid(back, PAGE)
    lighter, darker = sorted((luminance(solid(front, card)), luminance(card)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)
