"""The host sets a bot seat's level from the seat; the level follows the bot's name on the seat, in French
too, and on the table once the game starts."""

from __future__ import annotations

import re

from playwright.async_api import expect

from tests.browser.conftest import NewPlayer
from tests.browser.tables import expect_in_first_seat


async def test_host_sets_a_bots_level_on_its_seat(new_player: NewPlayer) -> None:
    host = await new_player("Ada")
    await host.goto("/")
    await host.locator('.game-card-create[data-game="tri-tac"]').click()
    await host.wait_for_url(re.compile(r"/r/[A-Z0-9]{5}$"))
    await expect(host.locator("#conn")).to_have_attribute("data-status", "online")
    await expect_in_first_seat(host, "Ada")
    await host.get_by_role("button", name="Add a bot: Player 2").click()
    seats = host.locator("#seat-list")
    await expect(seats).to_contain_text("Bot 2 (normal)")
    await host.get_by_label("Bot level: Player 2").select_option("strong")
    await expect(seats).to_contain_text("Bot 2 (strong)")
    await expect(host.get_by_label("Bot level: Player 2")).to_have_value("strong")
    await host.locator("#start-btn").click()
    await expect(host.locator(".player-name-text").filter(has_text="Bot 2 (strong)")).to_be_visible()
