"""Two browsers create and join a Tri-Tac room by code and play to a result; a third spectates."""

from __future__ import annotations

import asyncio
import re

from playwright.async_api import Locator, Page, expect

from tests.browser.conftest import PHONE, NewPlayer
from tests.browser.tables import expect_in_first_seat


async def sit(page: Page, seat_label: str) -> None:
    await page.get_by_role("button", name=re.compile(f"{seat_label}$")).click()


async def first_visible(*locators: Locator, timeout: float = 15) -> None:
    """Wait until one of ``locators`` (on any page) shows something."""
    waits = [asyncio.ensure_future(locator.first.wait_for(state="visible")) for locator in locators]
    done, pending = await asyncio.wait(waits, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    for wait in pending:
        wait.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    assert done, f"nothing of {locators} showed in {timeout} s"
    for wait in done:
        wait.result()


async def test_two_players_and_a_spectator_play_tri_tac(new_player: NewPlayer) -> None:
    host = await new_player("Ada")
    guest = await new_player("Bob", viewport=PHONE)
    watcher = await new_player("Cy")

    # The host creates a room from the home page.
    await host.goto("/")
    await host.locator('.game-card-create[data-game="tri-tac"]').click()
    await host.wait_for_url(re.compile(r"/r/[A-Z0-9]{5}$"))
    code = host.url.rsplit("/", 1)[1]
    await expect(host.locator("#room-code-small")).to_have_text(code)

    # The guest types the code (lower case, with a dash) on the home page.
    await guest.goto("/")
    await guest.locator("#code-input").fill(f"{code[:2].lower()}-{code[2:].lower()}")
    await guest.locator("#code-input").press("Enter")
    await guest.wait_for_url(re.compile(f"/r/{code}$"))

    await watcher.goto(f"/r/{code}")

    await expect_in_first_seat(host, "Ada")
    await guest.locator("#seat-list button", has_text=re.compile("Sit", re.I)).first.click()
    await expect(host.locator("#seat-list")).to_contain_text("Bob")
    start = host.locator("#start-btn")
    await expect(start).to_be_enabled()
    await start.click()

    for page in (host, guest, watcher):
        await expect(page.locator("#game")).to_be_visible()
    await expect(watcher.locator("#spectator-badge")).to_be_visible()

    # Play: whoever has playable cells clicks the first one, until the result shows.
    board_cells = 25
    clicks = 0
    while not await host.locator("#result").is_visible():
        for page in (host, guest):
            playable = page.locator("#board .is-playable")
            if await playable.count() > 0:
                moves = page.locator("#log li:not(.log-empty)")
                before = await moves.count()
                await playable.first.click()
                await expect(moves).to_have_count(before + 1)
                clicks += 1
                assert clicks <= board_cells, "more moves than cells and still no result"
                break
        else:  # the last move has not reached the next player yet: wait for it (or for the result)
            await first_visible(
                host.locator("#result"), host.locator("#board .is-playable"), guest.locator("#board .is-playable")
            )
    for page in (host, guest, watcher):
        await expect(page.locator("#result")).to_be_visible()
    # The spectator never had a playable cell.
    assert await watcher.locator("#board .is-playable").count() == 0
    await expect(watcher.locator("#log li:not(.log-empty)")).to_have_count(board_cells)


async def test_the_creator_sees_themselves_in_the_first_seat(new_player: NewPlayer) -> None:
    """Creating a room from the home page seats its creator in the first seat, marked as them and as the host;
    they may stand up, and the seat is then free like the others."""
    host = await new_player("Ada")
    await host.goto("/")
    await host.locator('.game-card-create[data-game="tri-tac"]').click()
    await host.wait_for_url(re.compile(r"/r/[A-Z0-9]{5}$"))
    await expect_in_first_seat(host, "Ada")
    first = host.locator("#seat-list .seat-card").first
    await expect(first.locator(".tag-you")).to_be_visible()
    await expect(first.locator(".tag-host")).to_be_visible()
    await expect(host.get_by_role("button", name="Sit here: Player 1")).to_have_count(0)
    await expect(host.get_by_role("button", name="Sit here: Player 2")).to_be_visible()
    await first.get_by_role("button", name="Stand up").click()
    await expect(host.get_by_role("button", name="Sit here: Player 1")).to_be_visible()
    await expect(host.locator("#seat-list .seat-mine")).to_have_count(0)
