"""The host removes someone and lets them back in from the lobby's host panel."""

from __future__ import annotations

import asyncio

from playwright.async_api import expect

from app.client import ThreefoldClient
from tests.browser.conftest import NewPlayer
from tests.browser.tables import expect_in_first_seat
from tests.support.server import ServerProcess


async def test_host_lets_a_removed_player_back_in(new_player: NewPlayer, sqlite_server: ServerProcess) -> None:
    host_page = await new_player(None)
    response = await host_page.context.request.post("/api/me", data={"name": "Hana"})
    host_token = (await response.json())["token"]
    async with (
        ThreefoldClient(sqlite_server.url, token=host_token) as host,
        ThreefoldClient(sqlite_server.url) as guest,
    ):
        await guest.set_name("Gus")
        code = await host.create_room("tri-tac")
        await host_page.goto(f"/r/{code}")
        await expect(host_page.locator("#conn")).to_have_attribute("data-status", "online")
        async with guest.connect(code) as gsock:
            await gsock.next(lambda m: m["type"] == "welcome")
            async with host.connect(code) as hsock:
                await hsock.next(lambda m: m["type"] == "room")
                await hsock.request({"type": "kick", "player": guest.player_id})
            await asyncio.wait_for(gsock.closed.wait(), 5)
        await host_page.locator("#lobby-host-panel > summary").click()
        removed = host_page.locator("#lobby-host-panel .host-removed")
        await expect(removed).to_contain_text("Gus")
        await removed.get_by_role("button").click()
        await expect(removed).not_to_contain_text("Gus")
        async with guest.connect(code) as again:
            first = await again.next(lambda m: m["type"] in ("welcome", "error"))
            assert first["type"] == "welcome"


async def test_a_press_on_one_seat_survives_another_seat_changing(new_player: NewPlayer) -> None:
    """The host presses "Add a bot" on West; before the press is released, a friend sits down on East. The
    seat list redraws East only and every card keeps its height, so the release still lands on West's button
    and the bot sits there."""
    host = await new_player("Ada")
    friend = await new_player("Bob")
    response = await host.context.request.post("/api/rooms", data={"game": "trick-tac-foe", "options": {"players": 4}})
    assert response.ok, await response.text()
    code = (await response.json())["code"]
    await host.goto(f"/r/{code}")
    await expect(host.locator("#conn")).to_have_attribute("data-status", "online")
    await expect_in_first_seat(host, "Ada")
    add_west = host.get_by_role("button", name="Add a bot: West")
    box = await add_west.bounding_box()
    assert box is not None
    await host.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    await host.mouse.down()
    await friend.goto(f"/r/{code}")
    await friend.get_by_role("button", name="Sit here: East").click()
    seats = host.locator("#seat-list")
    await expect(seats).to_contain_text("Bob")
    await host.mouse.up()
    await expect(add_west).to_have_count(0)
    await expect(seats.locator(".seat-card").nth(3)).to_contain_text("Bot")
