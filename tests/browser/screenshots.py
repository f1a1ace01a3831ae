"""`make screenshots`: every game page at phone and laptop size, light and dark, into screenshots/; also each
game's lobby and "How to play" dialog, the home page (English and French) and every rules page.

Each game is played for a few moves by bots while the page's player holds seat 0 (their hand and board in
view), so the pictures show a real position rather than an empty board."""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

from playwright.async_api import async_playwright

from app.client import ThreefoldClient
from engines.registry import all_engines
from tests.browser.conftest import CHROMIUM_ARGS, LAPTOP, PHONE
from tests.support.server import ServerProcess, migrate
from tests.support.services import CHROMIUM

OUT = Path(__file__).resolve().parents[2] / "screenshots"
OPTIONS = {"tri-tac": {"size": 6, "special_squares": True, "power_play": True}, "tic-tac-top": {"players": 3}}


async def shoot(server: ServerProcess) -> list[Path]:
    OUT.mkdir(exist_ok=True)
    made: list[Path] = []
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        for engine in all_engines():
            for size_name, viewport in (("laptop", LAPTOP), ("phone", PHONE)):
                for scheme in ("light", "dark"):
                    context = await browser.new_context(
                        viewport=viewport,
                        base_url=server.url,
                        color_scheme=scheme,  # type: ignore[arg-type]
                    )
                    response = await context.request.post("/api/me", data={"name": "Ada"})
                    token = (await response.json())["token"]
                    async with ThreefoldClient(server.url, token=token) as me:
                        code = await me.create_room(engine.name, OPTIONS.get(engine.name, {}), seed=7)
                        seats = len((await me.room(code))["seats"])
                        async with me.connect(code) as sock:
                            await sock.next(lambda m: m["type"] == "room")
                            await sock.send({"type": "sit", "seat": 0})
                            for seat in range(1, seats):
                                await sock.send({"type": "add_bot", "seat": seat})
                            await sock.wait_room(lambda r, n=seats: sum(1 for s in r["seats"] if s["player"]) == n)
                            page = await context.new_page()
                            await page.goto(f"/r/{code}")
                            await page.wait_for_timeout(600)
                            lobby = OUT / f"lobby-{engine.name}-{size_name}-{scheme}.png"
                            if size_name == "laptop" and scheme == "light":
                                await page.screenshot(path=str(lobby), full_page=True)
                                made.append(lobby)
                            if size_name == "phone" and scheme == "dark":
                                await page.locator("#room-rules-link").click()
                                await page.wait_for_selector("#howto-dialog[open] #howto-body svg")
                                howto = OUT / f"howto-{engine.name}-phone-dark.png"
                                await page.screenshot(path=str(howto))
                                made.append(howto)
                                await page.keyboard.press("Escape")
                            await sock.send({"type": "start"})
                            await page.wait_for_selector("#game:not([hidden])")
                            await page.wait_for_timeout(2500)
                            path = OUT / f"{engine.name}-{size_name}-{scheme}.png"
                            await page.screenshot(path=str(path), full_page=True)
                            made.append(path)
                    await context.close()
        pages = [("home", "/", "en"), ("home-fr", "/", "fr"), ("rules", "/rules", "en")]
        pages += [(f"rules-{e.name}", f"/rules/{e.name}", "en") for e in all_engines()]
        pages += [(f"rules-{e.name}-fr", f"/rules/{e.name}", "fr") for e in all_engines()]
        for name, url, lang in pages:
            for size_name, viewport in (("laptop", LAPTOP), ("phone", PHONE)):
                context = await browser.new_context(viewport=viewport, base_url=server.url)
                await context.add_cookies([{"name": "tf_lang", "value": lang, "url": server.url}])
                page = await context.new_page()
                await page.goto(url)
                path = OUT / f"{name}-{size_name}.png"
                await page.screenshot(path=str(path), full_page=True)
                made.append(path)
                await context.close()
        await browser.close()
    return made


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{tmp}/shots.db"
        migrate(url)
        server = ServerProcess(url, extra_env={"THREEFOLD_BOT_PACE": "0.5"}).start()
        try:
            made = asyncio.run(shoot(server))
        finally:
            server.stop()
    print(f"{len(made)} screenshots in {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
