"""axe-core, run inside Chromium, finds no serious or critical accessibility violation on the home page, the
rules pages, each game's lobby and each game in progress (seat 0 human, bots in the other seats), in light and
dark mode, at laptop and phone size."""

from __future__ import annotations

from typing import Any

import pytest
from axe_playwright_python.async_playwright import Axe
from playwright.async_api import Browser, Page, expect

from tests.browser.conftest import LAPTOP, PHONE, NewPlayer
from tests.browser.tables import GAMES, open_table
from tests.support.server import ServerProcess

AXE = Axe()
BLOCKING = {"serious", "critical"}


async def audit(page: Page, where: str) -> None:
    results = await AXE.run(page)
    violations: list[dict[str, Any]] = results.response["violations"]
    blocking = [v for v in violations if v.get("impact") in BLOCKING]
    report = []
    for v in blocking:
        targets = [", ".join(map(str, node["target"])) for node in v["nodes"][:6]]
        summary = v["nodes"][0].get("failureSummary", "").replace("\n", " ")[:300] if v["nodes"] else ""
        report.append(f"[{v['impact']}] {v['id']}: {v['help']}\n    {summary}\n    at: {targets}")
    assert not blocking, f"{where}: {len(blocking)} serious/critical axe violation(s)\n" + "\n".join(report)


@pytest.mark.parametrize("scheme", ["light", "dark"])
async def test_home_and_rules_pages(browser: Browser, sqlite_server: ServerProcess, scheme: str) -> None:
    for viewport in (LAPTOP, PHONE):
        context = await browser.new_context(
            viewport=viewport,  # type: ignore[arg-type]
            color_scheme=scheme,  # type: ignore[arg-type]
            base_url=sqlite_server.url,
            reduced_motion="reduce",
        )
        try:
            page = await context.new_page()
            for url in ("/", "/rules", *(f"/rules/{game}" for game in GAMES)):
                await page.goto(url)
                await audit(page, f"{url} ({scheme}, {viewport['width']} px)")
            await page.goto("/r/ZZZZZ")  # the error page
            await audit(page, f"404 page ({scheme})")
            await context.add_cookies([{"name": "tf_lang", "value": "fr", "url": sqlite_server.url}])
            for url in ("/", "/rules/tri-tac"):
                await page.goto(url)
                await audit(page, f"{url} in French ({scheme}, {viewport['width']} px)")
        finally:
            await context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("game", GAMES)
async def test_lobby_and_game_pages(
    new_player: NewPlayer, sqlite_server: ServerProcess, game: str, scheme: str
) -> None:
    viewport = LAPTOP if scheme == "light" else PHONE
    page = await new_player("Ada", viewport=viewport)
    await page.emulate_media(color_scheme=scheme, reduced_motion="reduce")  # type: ignore[arg-type]
    await open_table(page, sqlite_server.url, game, start=False)
    await audit(page, f"{game} lobby ({scheme}, {viewport['width']} px)")
    # The "How to play" dialog with the game's summary.
    await page.locator("#room-rules-link").click()
    await expect(page.locator("#howto-dialog")).to_be_visible()
    await expect(page.locator("#howto-body svg").first).to_be_visible()
    await audit(page, f"{game} how-to-play dialog ({scheme}, {viewport['width']} px)")
    await page.keyboard.press("Escape")
    await expect(page.locator("#howto-dialog")).to_be_hidden()
    await expect(page.locator("#room-rules-link")).to_be_focused()
    await open_table(page, sqlite_server.url, game)
    await page.wait_for_timeout(1200)  # let the bots make a move or two
    await audit(page, f"{game} game ({scheme}, {viewport['width']} px)")
