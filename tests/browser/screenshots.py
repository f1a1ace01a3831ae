"""`make screenshots`: every game mid-play at 1366x768 and 360x740 (light and dark), 1280x720 (light) and
390x844 (dark), into screenshots/; Tic Tac Top's TV mode (lobby and play at 1280x720 and 1920x1080) and
Trick-Tac-Foe's as a shared table; also each game's lobby and "How to play" dialog, the home page (English
and French) and every rules page.

Every step of every game's lesson (/learn/<game>) at phone and laptop size, its prompt then its move done, into
screenshots/lessons/ to look at, and one lesson's steps into docs/screenshots (`--lessons`: only these).

Each game is played for a few moves by bots while the page's player holds seat 0 (their hand and board in
view), so the pictures show a real position rather than an empty board. The table is one screen, so each
picture is the whole page: anything that spilled over would show."""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Any

from playwright.async_api import Browser, async_playwright

from app.client import ThreefoldClient
from engines.registry import all_engines, get_game
from tests.browser.conftest import CHROMIUM_ARGS, LAPTOP, PHONE
from tests.browser.test_lessons import make_the_move
from tests.support.server import ServerProcess, migrate
from tests.support.services import CHROMIUM

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "screenshots"
DOCS = ROOT / "docs" / "screenshots"
DOCS_LESSON = "tri-tac"  # the lesson whose steps the docs show
LESSON_SIZES = [("laptop", {"width": 1366, "height": 768}, "light"), ("phone", {"width": 390, "height": 844}, "dark")]
OPTIONS = {"tri-tac": {"size": 6, "special_squares": True, "power_play": True}, "tic-tac-top": {"players": 3}}
# (name, viewport, colour schemes): "laptop-light" and "phone-dark" are the names the README shows.
TABLE_SIZES = [
    ("laptop", {"width": 1366, "height": 768}, ("light", "dark")),
    ("laptop-720", {"width": 1280, "height": 720}, ("light",)),
    ("phone", PHONE, ("light", "dark")),
    ("phone-390", {"width": 390, "height": 844}, ("dark",)),
]
TV_SHOTS = [
    ("tic-tac-top", {"players": 3, "reveal_pause": 2}, (1280, 720)),
    ("tic-tac-top", {"players": 5}, (1920, 1080)),
]
TV_SHOTS += [("trick-tac-foe", {"players": 4}, (1920, 1080))]


async def shoot(server: ServerProcess) -> list[Path]:
    OUT.mkdir(exist_ok=True)
    made: list[Path] = []
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        for engine in all_engines():
            for size_name, viewport, schemes in TABLE_SIZES:
                for scheme in schemes:
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
                            await sock.next(lambda m: m["type"] == "room")  # Ada took seat 0 creating the room
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
        for game, options, (width, height) in TV_SHOTS:
            made += await shoot_tv(browser, server, game, options, width, height)
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
        made += await shoot_lessons(browser, server)
        await browser.close()
    return made


async def shoot_lessons(browser: Browser, server: ServerProcess) -> list[Path]:
    """Each step of each lesson: its prompt, then its move made (through "Show me") and what it did; then the
    end. One lesson's pictures go to docs/screenshots, every lesson's to screenshots/lessons/."""
    made: list[Path] = []
    for engine in all_engines():
        lesson = get_game(engine.name).lesson
        if lesson is None:
            continue
        out = DOCS if engine.name == DOCS_LESSON else OUT / "lessons"
        out.mkdir(parents=True, exist_ok=True)
        for size_name, viewport, scheme in LESSON_SIZES:
            context = await browser.new_context(
                viewport=viewport,  # type: ignore[arg-type]
                base_url=server.url,
                color_scheme=scheme,  # type: ignore[arg-type]
                reduced_motion="reduce",
            )
            page = await context.new_page()
            await page.goto(f"/learn/{engine.name}")
            for n in range(1, len(lesson.steps) + 1):
                await page.wait_for_selector(f'#learn[data-step="{n}"] #board > *')
                await page.wait_for_timeout(300)  # the renderer's stylesheet
                shots = [
                    (f"lesson-{engine.name}-{size_name}-{n}.png", None),
                    (f"lesson-{engine.name}-{size_name}-{n}-done.png", "done"),
                ]
                for name, when in shots:
                    if when == "done":
                        await make_the_move(page, engine.name, keyboard=False)
                    path = out / name
                    await page.screenshot(path=str(path))
                    made.append(path)
                await page.locator("#learn-actions [data-learn=next]").click()
            await page.wait_for_selector("#learn-end:not([hidden])")
            path = out / f"lesson-{engine.name}-{size_name}-end.png"
            await page.screenshot(path=str(path))
            made.append(path)
            await context.close()
    return made


async def shoot_only_lessons(server: ServerProcess) -> list[Path]:
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            return await shoot_lessons(browser, server)
        finally:
            await browser.close()


async def shoot_tv(
    browser: Browser, server: ServerProcess, game: str, options: dict[str, Any], width: int, height: int
) -> list[Path]:
    """The host's TV (?tv=1, not seated, bots in every seat): the lobby, then the table a few seconds in."""
    made: list[Path] = []
    context = await browser.new_context(viewport={"width": width, "height": height}, base_url=server.url)
    token = (await (await context.request.post("/api/me", data={"name": "Host"})).json())["token"]
    async with ThreefoldClient(server.url, token=token) as me:
        code = await me.create_room(game, options, seed=7)
        seats = len((await me.room(code))["seats"])
        async with me.connect(code) as sock:
            await sock.next(lambda m: m["type"] == "room")
            await sock.request({"type": "stand"})  # the TV leaves the seat it took creating the room to a bot
            for seat in range(seats):
                await sock.send({"type": "add_bot", "seat": seat})
            await sock.wait_room(lambda r, n=seats: sum(1 for s in r["seats"] if s["player"]) == n)
            page = await context.new_page()
            await page.goto(f"/r/{code}?tv=1")
            await page.wait_for_selector(".qr img")
            await page.wait_for_timeout(600)
            if game == "tic-tac-top":
                lobby = OUT / f"tv-lobby-{width}.png"
                await page.screenshot(path=str(lobby), full_page=True)
                made.append(lobby)
            await sock.send({"type": "start"})
            await page.wait_for_selector("#game:not([hidden])")
            await page.wait_for_timeout(9000 if game == "tic-tac-top" else 4000)
            path = OUT / f"tv-{game}-{width}.png"
            await page.screenshot(path=str(path), full_page=True)
            made.append(path)
    await context.close()
    return made


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{tmp}/shots.db"
        migrate(url)
        server = ServerProcess(url, extra_env={"THREEFOLD_BOT_PACE": "0.5"}).start()
        try:
            made = asyncio.run(shoot_only_lessons(server) if "--lessons" in sys.argv else shoot(server))
        finally:
            server.stop()
    print(f"{len(made)} screenshots in {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
