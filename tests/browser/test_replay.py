"""A finished game replays in the browser, step by step, from a seat's view or everything revealed."""

from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.async_api import expect

from app.client import ThreefoldClient
from app.replay import replay
from tests.browser.conftest import NewPlayer
from tests.browser.tables import open_table
from tests.support.server import ServerProcess


async def test_step_through_a_finished_game(
    new_player: NewPlayer, sqlite_server: ServerProcess, tmp_path: Path
) -> None:
    async with ThreefoldClient(sqlite_server.url) as host:
        await host.set_name("Host")
        code = await host.create_room("tri-tac", {"size": 3}, seed=12)
        async with host.connect(code) as sock:
            await sock.next(lambda m: m["type"] == "room")
            await sock.request({"type": "stand"})  # bots take both seats, the one the host took creating the room too
            await sock.send({"type": "add_bot", "seat": 0})
            await sock.send({"type": "add_bot", "seat": 1})
            room = await sock.wait_room(lambda r: all(s["player"] for s in r["seats"]))
            await sock.send({"type": "start"})
            final = await sock.wait_state(lambda s: s["outcome"] is not None, timeout=60)
            room = await sock.wait_room(lambda r: r["status"] == "finished")
    page = await new_player("Viewer")
    await page.goto(f"/replay/{room['game_id']}")
    count = page.locator("#replay-count")
    await expect(count).to_have_text(f"0 / {final['version']}")
    await expect(page.locator("#replay-boards svg").first).to_be_visible()
    await page.locator("#replay-next").click()
    await expect(count).to_have_text(f"1 / {final['version']}")
    await expect(page.locator("#replay-line")).not_to_be_empty()
    await page.keyboard.press("ArrowRight")
    await expect(count).to_have_text(f"2 / {final['version']}")
    await page.locator("#replay-seat").select_option("all")
    await expect(page.locator(".replay-board")).to_have_count(2)
    await page.locator("#replay-last").click()
    await expect(count).to_have_text(f"{final['version']} / {final['version']}")

    # Export → import in the browser → the same final state.
    exported = await (await page.request.get(f"/api/history/{room['game_id']}/export")).json()
    local = replay(exported["engine"], exported["options"], exported["seed"], exported["actions"])
    path = tmp_path / "game.json"
    path.write_text(json.dumps(exported))
    await page.goto("/replay/import")
    await page.locator("#import-file").set_input_files(str(path))
    await expect(page.locator("#import-result")).to_contain_text(local.fingerprint())
    await expect(page.locator("#import-result")).to_contain_text(f"{final['version']} moves replayed")


async def test_the_result_and_the_room_link_to_the_replays(new_player: NewPlayer, sqlite_server: ServerProcess) -> None:
    page = await new_player("Ada")
    code = await open_table(page, sqlite_server.url, "tri-tac", {"size": 3}, seat=None)
    replay_link = page.locator("#result .result-replay")
    await expect(replay_link).to_be_visible(timeout=60_000)
    async with ThreefoldClient(sqlite_server.url) as anyone:
        game_id = (await anyone.room(code))["game_id"]
    await expect(replay_link).to_have_attribute("href", f"/replay/{game_id}")
    await page.locator("#result .result-actions .btn-secondary").click()  # to the lobby
    past = page.locator("#past-games")
    await expect(past.get_by_role("link", name="Game 1 — replay")).to_have_attribute("href", f"/replay/{game_id}")
    await past.get_by_role("link", name="Game 1 — replay").click()
    export = page.locator("#replay-export")
    await expect(export).to_have_attribute("download", re.compile(rf"^tri-tac-game-{game_id}-\d{{4}}-\d\d-\d\d\.json$"))
