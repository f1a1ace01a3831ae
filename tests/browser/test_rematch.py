"""After a result every seated player may offer a rematch: the page counts the acceptances, and the game
starts once all have accepted."""

from __future__ import annotations

from contextlib import AsyncExitStack

from playwright.async_api import expect

from app.client import ThreefoldClient
from tests.browser.conftest import NewPlayer
from tests.browser.tables import token_of
from tests.support.server import ServerProcess


async def test_two_players_accept_a_rematch_and_it_starts(new_player: NewPlayer, sqlite_server: ServerProcess) -> None:
    ada, ben = await new_player("Ada"), await new_player("Ben")
    async with AsyncExitStack() as stack:
        host = await stack.enter_async_context(ThreefoldClient(sqlite_server.url))
        await host.set_name("Host")
        code = await host.create_room("tri-tac", {"size": 3}, seed=1)
        host_sock = await stack.enter_async_context(host.connect(code))
        await host_sock.wait_room(lambda r: True)
        await host_sock.request({"type": "stand"})  # the host watches: Ada and Ben take the seats
        socks = []
        for seat, page in enumerate((ada, ben)):
            client = await stack.enter_async_context(ThreefoldClient(sqlite_server.url, token=await token_of(page)))
            sock = await stack.enter_async_context(client.connect(code))
            await sock.wait_room(lambda r: True)
            await sock.request({"type": "sit", "seat": seat})
            socks.append(sock)
            await page.goto(f"/r/{code}")
            await expect(page.locator("#conn")).to_have_attribute("data-status", "online")
        await host_sock.request({"type": "start"})
        while True:  # each plays the first empty cell in turn
            state = await host_sock.wait_state(lambda s: True)
            if state["outcome"] is not None:
                break
            mover = socks[state["to_act"][0]]
            await mover.wait_state(lambda s, v=state["version"]: s["version"] >= v)
            board = state["view"]["board"]
            cells = [[r, c] for r, row in enumerate(board) for c, cell in enumerate(row) if cell is None]
            await mover.act({"type": "place", "cell": cells[0]}, state["version"])
            await host_sock.wait_state(lambda s, v=state["version"]: s["version"] > v)

        for page in (ada, ben):
            await expect(page.locator("#result")).to_be_visible()
        await ada.locator("#result").get_by_role("button", name="Rematch", exact=True).click()
        await expect(ada.locator("#result")).to_contain_text("Rematch accepted: waiting for the others (1/2)")
        accept = ben.locator("#result").get_by_role("button", name="Accept rematch (1/2)")
        await accept.click()
        for page in (ada, ben):
            await expect(page.locator("#result")).to_be_hidden()
        await host_sock.wait_room(lambda r: r["game_number"] == 2 and r["status"] == "playing")
