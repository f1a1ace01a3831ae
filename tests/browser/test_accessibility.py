"""axe-core, run inside Chromium, finds no serious or critical accessibility violation on the home page, the
rules pages, each game's lobby and each game in progress (seat 0 human, bots in the other seats), in light and
dark mode, at laptop and phone size; and every game in play and at its result, as a seated player and as a
spectator."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from axe_playwright_python.async_playwright import Axe
from playwright.async_api import Browser, Page, expect

from app.client import ThreefoldClient
from tests.browser.conftest import LAPTOP, PHONE, NewPlayer
from tests.browser.tables import games, open_table, token_of
from tests.support.server import ServerProcess

AXE = Axe()
BLOCKING = {"serious", "critical"}
OPTIONS = {
    "resultTypes": ["violations"],
    # Experimental in axe, so off unless asked for: a control's accessible name must contain its visible
    # text (speech users say what they see: "click 7♠").
    "rules": {"label-content-name-mismatch": {"enabled": True}},
}


async def audit(page: Page, where: str) -> None:
    results = await AXE.run(page, options=OPTIONS)
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
            for url in ("/", "/rules", *(f"/rules/{game}" for game in games())):
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
@pytest.mark.parametrize("game", games())
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
    # The game in play: the bots before the player have moved and it is the player's turn.
    await page.wait_for_function(
        """() => {
          const st = window.threefold?.S?.state;
          return !!st && !st.outcome && (st.to_act || []).includes(0);
        }"""
    )
    await audit(page, f"{game} game ({scheme}, {viewport['width']} px)")


# Every game, in play and at its result, as a seated player (1366x768, light: Tricky Tactics' map is a column
# there) and as a spectator (phone, dark). A game not listed plays with its default options.
# TODO(lead): engine data (quick option sets to play to the end): take them from each package's VARIANTS.
RESULT_OPTIONS: dict[str, dict[str, Any]] = {
    "tri-tac": {"size": 3},
    "trick-tac-foe": {"players": 2},
    "tic-tac-match": {"players": 2},
    "tricky-tactics": {"mode": "automa"},
    "tic-tac-top": {"players": 3, "reveal_pause": 1, "score_pause": 2},
}


async def finished(base_url: str, token: str, code: str) -> None:
    """Wait (polling the room's summary) for its game to end."""
    async with ThreefoldClient(base_url, token=token) as me:
        for _ in range(600):
            if (await me.room(code))["status"] == "finished":
                return
            await asyncio.sleep(0.25)
    raise AssertionError(f"room {code}: the game did not finish")


@pytest.mark.parametrize("game", games())
async def test_every_game_in_play_and_at_its_result(
    new_player: NewPlayer, sqlite_server: ServerProcess, game: str
) -> None:
    options = RESULT_OPTIONS.get(game, {})
    player = await new_player("Ada", viewport={"width": 1366, "height": 768})
    await player.emulate_media(color_scheme="light", reduced_motion="reduce")
    watcher = await new_player("Sam", viewport=PHONE)
    await watcher.emulate_media(color_scheme="dark", reduced_motion="reduce")
    # The player's room: a bot stands in five seconds after they leave, and plays the game to its end.
    token = await token_of(player)
    mine = await open_table(player, sqlite_server.url, game, options, settings={"grace_seconds": 5})
    await expect(player.locator("#board > *").first).to_be_visible()
    await expect(player.locator("#game")).to_be_visible()
    await audit(player, f"{game} in play, as a player")
    await player.goto("about:blank")  # away: the stand-in plays on
    watched = await open_table(watcher, sqlite_server.url, game, options, seat=None)
    await audit(watcher, f"{game} in play, as a spectator")
    await expect(watcher.locator("#result")).to_be_visible(timeout=90_000)
    await audit(watcher, f"{game} at its result, as a spectator")
    await finished(sqlite_server.url, token, mine)
    await player.goto(f"/r/{mine}")
    await expect(player.locator("#result")).to_be_visible()
    await audit(player, f"{game} at its result, as a player")
    assert watched != mine
