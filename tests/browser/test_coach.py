"""The coach on the room page: a switch at the table; on, one line about the last move and rings on where the
move at hand can go; off, neither. The player's choice is kept for that game kind."""

from __future__ import annotations

import re

from playwright.async_api import expect

from tests.browser.conftest import NewPlayer
from tests.browser.tables import open_table
from tests.support.server import ServerProcess


async def test_coach_on_shows_a_line_and_rings_and_off_shows_neither(
    new_player: NewPlayer, sqlite_server: ServerProcess
) -> None:
    page = await new_player("Ann")
    await open_table(page, sqlite_server.url, "tic-tac-toe")
    switch = page.get_by_role("switch", name=re.compile("Coach"))
    await expect(switch).to_be_visible()
    # Ann's first Tic-Tac-Toe: the server's welcome says so, and the coach is on.
    await expect(switch).to_have_attribute("aria-checked", "true")
    line = page.locator("#coach-line")
    await expect(line).to_be_visible()
    await expect(line).to_have_attribute("aria-live", "polite")

    # On my turn the empty cells are ringed; my move (and the bot's reply) is said in the line.
    rings = page.locator("#board .toe-cell.coach-target")
    await expect(rings.first).to_be_attached()
    empty = await rings.count()
    await rings.first.click()
    await expect(line).to_contain_text(re.compile(r"Ann \(.\) took row \d, column \d\."))
    await expect(rings).to_have_count(empty - 2)
    assert await page.locator("#board .coach-target").count() == empty - 2

    await switch.focus()
    await page.keyboard.press("Enter")  # keyboard-operable
    await expect(switch).to_have_attribute("aria-checked", "false")
    await expect(line).to_be_hidden()
    await expect(page.locator(".coach-target")).to_have_count(0)
    # Still off after another move, and after the page is opened again (remembered for this game kind).
    await page.locator("#board .toe-cell.is-playable").first.click()
    await expect(page.locator("#board .toe-cell.is-playable")).not_to_have_count(0)
    await expect(page.locator(".coach-target")).to_have_count(0)
    await expect(line).to_be_hidden()
    await page.reload()
    await expect(page.locator("#board > *").first).to_be_visible()
    await expect(switch).to_have_attribute("aria-checked", "false")
    await expect(page.locator(".coach-target")).to_have_count(0)
    await expect(line).to_be_hidden()
