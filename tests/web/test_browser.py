"""The player view in a real browser (issue 29): headless Chromium, the Debian package (Playwright's
own downloads are not used), opens the link of a server played through the fake Discord."""

from __future__ import annotations

from dataclasses import dataclass, field

from playwright.async_api import Browser, ConsoleMessage, Page, expect

from tests.table import ALICE, BOB, GM, OWNER, Table, public
from tests.web.conftest import CHROMIUM, PATIENCE_MS, Served

__all__ = ["CHROMIUM", "fight", "open_page"]


@dataclass
class Watched:
    """A page, with every JavaScript error and every load of it recorded."""

    page: Page
    errors: list[str] = field(default_factory=list)
    loads: int = 0


async def open_page(
    browser: Browser,
    url: str,
    *,
    javascript: bool = True,
    viewport: tuple[int, int] = (1280, 720),
    scale: float = 1,
    font_size: int | None = None,
    script: str | None = None,
) -> Watched:
    """``url`` opened in a new browser context of that size (CSS pixels) and pixel ratio; with the
    reader's default font size set to ``font_size`` pixels (the browser's setting), and ``script`` run
    before the page's own."""
    width, height = viewport
    context = await browser.new_context(
        java_script_enabled=javascript,
        viewport={"width": width, "height": height},
        device_scale_factor=scale,
    )
    watched = Watched(await context.new_page())
    if font_size is not None:
        cdp = await context.new_cdp_session(watched.page)
        await cdp.send("Page.setFontSizes", {"fontSizes": {"standard": font_size}})
    if script is not None:
        await watched.page.add_init_script(script)

    def console(message: ConsoleMessage) -> None:
        if message.type == "error":
            watched.errors.append(message.text)

    def loaded(_: object) -> None:
        watched.loads += 1

    watched.page.on("console", console)
    watched.page.on("pageerror", lambda error: watched.errors.append(str(error)))
    watched.page.on("load", loaded)
    await watched.page.goto(url)
    return watched


async def party(served: Served) -> None:
    table = served.table
    await table.create("Aria", ALICE)
    await table.create("Bruno", BOB)
    await table.create("Goblin")
    public(await table.run("board"))
    await table.run("board", {"add": "Goblin"})
    public(await table.run("config secret-npcs", {"secret": True, "character": "Goblin"}))


async def fight(table: Table) -> None:
    """A fight of eight characters on the board: six player characters and two NPCs, one of them
    secret; wounds of every severity on both tracks, one character dead, one that can heal now."""
    for name, player in (
        ("Aria", ALICE),
        ("Bruno", BOB),
        ("Céleste", OWNER),
        ("Dorian", GM),
        ("Éloïse de Montfaucon", ALICE),
        ("Faustin", BOB),
    ):
        await table.create(name, player)
    await table.create("Chef gobelin")
    await table.create("Ogre des collines")
    await table.run("board")
    await table.run("board", {"add": "Chef gobelin"})
    await table.run("board", {"add": "Ogre des collines"})
    await table.run("config secret-npcs", {"secret": True, "character": "Chef gobelin"})
    wounds = [
        ("wound", "Aria", "serious", 2),
        ("mental", "Aria", "shock", 1),
        ("wound", "Bruno", "light", 2),
        ("wound", "Céleste", "critical", 1),
        ("wound", "Céleste", "serious", 1),
        ("mental", "Céleste", "trauma", 1),
        ("wound", "Éloïse de Montfaucon", "light", 3),
        ("mental", "Éloïse de Montfaucon", "psychosis", 1),
        ("wound", "Faustin", "critical", 2),
        ("wound", "Chef gobelin", "serious", 2),
        ("wound", "Ogre des collines", "light", 3),
    ]
    for command, name, severity, count in wounds:
        await table.run(command, {"severity": severity, "character": name, "count": count})
    await table.run("rest", {"days": 3, "character": "Bruno"})


async def test_the_page_shows_the_party_and_follows_a_wound_without_reloading(
    served: Served, browser: Browser
) -> None:
    await party(served)
    watched = await open_page(browser, await served.link())
    page = watched.page
    aria = page.locator("li", has_text="Aria")
    await expect(aria).to_contain_text("unhurt")
    await expect(page.locator("li", has_text="Bruno")).to_be_visible()
    await expect(page.locator("#status")).to_have_text("live", timeout=PATIENCE_MS)
    public(await served.table.run("wound", {"severity": "serious", "character": "Aria", "count": 2}))
    await expect(aria).to_contain_text("serious 2/2", timeout=PATIENCE_MS)
    await expect(aria.locator(".mark.s1")).to_have_count(2)
    await expect(aria).to_contain_text("⚠️")  # one serious wound more would be critical... and so on
    assert watched.loads == 1  # changed in place, not reloaded
    assert watched.errors == []


async def test_a_secret_npc_shows_only_its_word(served: Served, browser: Browser) -> None:
    await party(served)
    await served.table.run("wound", {"severity": "critical", "character": "Goblin"})
    watched = await open_page(browser, await served.link())
    goblin = watched.page.locator("li", has_text="Goblin")
    await expect(goblin).to_contain_text("at death's door")
    text = await goblin.inner_text()
    assert "critical" not in text and "1/1" not in text and "penalty" not in text
    await expect(goblin.locator(".mark")).to_have_count(0)
    assert watched.errors == []


async def test_a_revoked_link_turns_its_open_page_into_a_404(served: Served, browser: Browser) -> None:
    await party(served)
    link = await served.link()
    watched = await open_page(browser, link)
    await expect(watched.page.locator("#status")).to_have_text("live", timeout=PATIENCE_MS)
    await served.link(revoke=True)
    await expect(watched.page.locator("body")).to_contain_text("No such player view", timeout=PATIENCE_MS)
    again = await watched.page.goto(link)
    assert again is not None and again.status == 404
    assert [e for e in watched.errors if "404" not in e] == []  # the browser reports the 404 itself


async def test_the_overlay_is_transparent(served: Served, browser: Browser) -> None:
    await party(served)
    watched = await open_page(browser, await served.link() + "?overlay=1")
    page = watched.page
    await expect(page.locator("li", has_text="Aria")).to_be_visible()
    for element in ("html", "body"):
        colour = await page.eval_on_selector(element, "e => getComputedStyle(e).backgroundColor")
        assert colour == "rgba(0, 0, 0, 0)", (element, colour)
    card = await page.eval_on_selector("li", "e => getComputedStyle(e).backgroundColor")
    assert card != "rgba(0, 0, 0, 0)"  # the cards keep a background: readable over any scene
    assert watched.errors == []


async def test_without_javascript_the_page_reloads_itself(served: Served, browser: Browser) -> None:
    await party(served)
    watched = await open_page(browser, await served.link(), javascript=False)
    aria = watched.page.locator("li", has_text="Aria")
    await expect(aria).to_contain_text("unhurt")
    public(await served.table.run("wound", {"severity": "light", "character": "Aria"}))
    await expect(aria).to_contain_text("light 1/4", timeout=PATIENCE_MS)
    assert watched.loads >= 2
