"""The host removes someone and lets them back in from the lobby's host panel."""

from __future__ import annotations

import asyncio

from playwright.async_api import expect

from app.client import ThreefoldClient
from tests.browser.conftest import NewPlayer
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
