"""Shared set-up for browser tests that need a game in progress: the page's player holds seat 0 and the
host's add_bot fills every other seat (as `make screenshots` does)."""

from __future__ import annotations

import asyncio
import re
from typing import Any

from playwright.async_api import Locator, Page, expect

from app.client import ThreefoldClient
from engines.registry import all_engines, get_game


def quick_options(game: str) -> dict[str, Any]:
    """A short game of ``game``: its package's first variant."""
    return dict(get_game(game).variants[0])


def games() -> list[str]:
    """Every game of the registry, in the lobby's order: the browser tests that cover every game loop over
    these (asked when needed, never kept: a test may register a game)."""
    return [engine.name for engine in all_engines()]


# The table these tests open for a game; a game not listed opens its first variant (engines/game.py), a short
# game of the shape its package chose.
OPTIONS: dict[str, dict[str, Any]] = {
    "tri-tac": {"size": 5},
    "trick-tac-foe": {"players": 2},
    "tic-tac-match": {"players": 2},
    "tricky-tactics": {"mode": "automa"},
    "tic-tac-top": {"players": 3},
}


async def token_of(page: Page) -> str:
    for cookie in await page.context.cookies():
        if cookie["name"] == "tf_token":
            return cookie["value"]
    raise AssertionError("the page's player has no tf_token cookie (name them with new_player first)")


async def expect_in_first_seat(page: Page, name: str) -> None:
    """The page's player, who created the room, sits in its first seat (the server seats a room's creator)."""
    first = page.locator("#seat-list .seat-card").first
    await expect(first).to_have_class(re.compile(r"\bseat-mine\b"))
    await expect(first.locator(".seat-name")).to_have_text(name)


async def open_table(
    page: Page,
    base_url: str,
    game: str,
    options: dict[str, Any] | None = None,
    seed: int = 7,
    start: bool = True,
    seat: int | None = 0,
    settings: dict[str, Any] | None = None,
) -> str:
    """Create a room for `game` hosted by the page's player, seated at `seat` (0) with bots elsewhere (or
    watching bots in every seat when `seat` is None); open it in the page; start the game if asked (and wait
    for the board). `settings` are room settings sent first. Returns the room code."""
    async with ThreefoldClient(base_url, token=await token_of(page)) as me:
        code = await me.create_room(game, options if options is not None else OPTIONS.get(game, {}), seed=seed)
        seats = len((await me.room(code))["seats"])
        async with me.connect(code) as sock:
            await sock.next(lambda m: m["type"] == "room")
            if settings:
                await sock.send({"type": "room_settings", **settings})
            if seat is None:  # watch: leave the seat taken creating the room to a bot
                await sock.send({"type": "stand"})
            elif seat != 0:  # seat 0 was taken creating the room
                await sock.send({"type": "sit", "seat": seat})
            for other in range(seats):
                if other != seat:
                    await sock.send({"type": "add_bot", "seat": other})
            await sock.wait_room(lambda r: sum(1 for s in r["seats"] if s["player"]) == seats)
            await page.goto(f"/r/{code}")
            await expect(page.locator("#conn")).to_have_attribute("data-status", "online")
            await expect(page.locator("#seat-list .seat-card")).to_have_count(seats)
            if start:
                await sock.send({"type": "start"})
                await expect(page.locator("#game")).to_be_visible()
                await expect(page.locator("#board > *").first).to_be_visible()
    return code


async def first_attached(*locators: Locator, timeout: float = 15_000) -> int:
    """Wait until one of `locators` (on one page or several) matches an element: the index of the first that
    does. Replaces polling loops: each locator is watched by Playwright, no fixed pause in between."""
    tasks = [asyncio.ensure_future(loc.first.wait_for(state="attached", timeout=timeout)) for loc in locators]
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    for i, task in enumerate(tasks):
        if task in done and not task.cancelled() and task.exception() is None:
            return i
    for task in tasks:
        if task in done and not task.cancelled() and (error := task.exception()) is not None:
            raise error
    raise AssertionError("no locator matched")  # unreachable: one task at least is done
