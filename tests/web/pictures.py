"""The pictures of docs/player-view.md: ``python -m tests.web.pictures [folder]`` plays a short fight
through the fake Discord (eight characters: :func:`tests.web.test_browser.fight`), opens the player view
in Debian's Chromium, and saves the page on a phone and on a TV (``?tv=1``), and the overlay over a game
scene (default folder: docs/pictures)."""

from __future__ import annotations

import asyncio
import base64
import re
import sys
import tempfile
from pathlib import Path

from playwright.async_api import Browser, async_playwright

from bot.web.server import PlayerView
from tests.table import open_table, refused
from tests.web.test_browser import CHROMIUM, fight

SCENE = """<!doctype html><html><head><style>
html, body { margin: 0; width: 1280px; height: 720px; overflow: hidden; }
body { background: linear-gradient(#0b1a33 0%, #27365a 45%, #6b4a5a 70%, #2a1f1f 71%, #16110f 100%);
       position: relative; font-family: sans-serif; }
.moon { position: absolute; right: 170px; top: 70px; width: 90px; height: 90px; border-radius: 50%;
        background: #f6eed2; box-shadow: 0 0 60px 20px rgba(246, 238, 210, .35); }
.far { position: absolute; bottom: 200px; left: 0; right: 0; height: 260px; background: #243049;
       clip-path: polygon(0 100%, 10% 40%, 22% 75%, 35% 20%, 48% 70%, 60% 30%, 75% 80%, 88% 35%, 100% 65%,
       100% 100%); }
.near { position: absolute; bottom: 0; left: 0; right: 0; height: 240px; background: #120d0c;
        clip-path: polygon(0 40%, 15% 25%, 30% 45%, 50% 20%, 70% 50%, 85% 30%, 100% 45%, 100% 100%, 0 100%); }
.fire { position: absolute; bottom: 70px; left: 820px; width: 70px; height: 90px;
        border-radius: 50% 50% 40% 40%;
        background: radial-gradient(#fff3b0, #f39c12 45%, rgba(231, 76, 60, 0) 70%);
        box-shadow: 0 0 120px 60px rgba(243, 156, 18, .35); }
img { position: absolute; left: 0; top: 0; }
</style></head><body><div class="moon"></div><div class="far"></div><div class="near"></div>
<div class="fire"></div><img src="data:image/png;base64,PICTURE"></body></html>"""


async def shoot(browser: Browser, link: str, folder: Path) -> None:
    sizes = {"player-view-phone.png": (390, 844, 2, ""), "player-view-tv.png": (1920, 1080, 1, "?tv=1")}
    for name, (width, height, scale, query) in sizes.items():
        page = await browser.new_page(viewport={"width": width, "height": height}, device_scale_factor=scale)
        await page.goto(link + query)
        await page.wait_for_selector("#status.live")
        await page.screenshot(path=folder / name, full_page=name.endswith("phone.png"))
        await page.close()
    overlay = await browser.new_page(viewport={"width": 820, "height": 720})
    await overlay.goto(link + "?overlay=1")
    await overlay.wait_for_selector("#status.live")
    picture = await overlay.screenshot(omit_background=True)
    scene = await browser.new_page(viewport={"width": 1280, "height": 720})
    await scene.set_content(SCENE.replace("PICTURE", base64.b64encode(picture).decode()))
    await scene.screenshot(path=folder / "player-view-overlay.png")


async def main(folder: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        async with open_table(f"sqlite:///{tmp}/bot.db") as table:
            view = PlayerView(table.store, "127.0.0.1", 0)
            await view.start()
            base = f"http://127.0.0.1:{view.port}"
            table.bot.settings = table.bot.settings.model_copy(update={"web_base_url": base})
            try:
                await fight(table)
                text = refused(await table.run("board", {"link": True}))
                found = re.search(re.escape(base) + r"/\S+", text)
                assert found is not None, text
                async with async_playwright() as playwright:
                    browser = await playwright.chromium.launch(executable_path=CHROMIUM)
                    await shoot(browser, found.group(0), folder)
                    await browser.close()
            finally:
                await view.close()


if __name__ == "__main__":
    where = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/pictures")
    where.mkdir(parents=True, exist_ok=True)
    asyncio.run(main(where))
