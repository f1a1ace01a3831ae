"""Every game, on a 360×740 phone, played for one move by keyboard alone.

The page's player holds seat 0 and bots fill the other seats. No mouse and no programmatic focus: Tab walks
from the top of the game to the board or hand, arrow keys move within it (roving tabindex), Enter plays. The
move counts when the server acknowledges an `act` the page sent (watched on the WebSocket). On the way the
test checks that the focus is visible (the focused control looks different from the same control unfocused)
and that the page never scrolls sideways at phone size."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest
from playwright.async_api import Page, WebSocket, expect

from app import game_folders
from tests.browser.conftest import PHONE, NewPlayer
from tests.browser.tables import games, open_table
from tests.support.server import ServerProcess

MAX_TABS = 80


class Wire:
    """The page's WebSocket traffic: the `act`s it sent and the acks and errors that came back."""

    def __init__(self, page: Page) -> None:
        self.acts: dict[str, Any] = {}
        self.acks: set[str] = set()
        self.errors: dict[str, str] = {}
        page.on("websocket", self._socket)

    def _socket(self, ws: WebSocket) -> None:
        ws.on("framesent", self._sent)
        ws.on("framereceived", self._received)

    @staticmethod
    def _json(payload: str | bytes) -> dict[str, Any]:
        try:
            msg = json.loads(payload)
        except ValueError:
            return {}
        return msg if isinstance(msg, dict) else {}

    def _sent(self, payload: str | bytes) -> None:
        msg = self._json(payload)
        if msg.get("type") == "act" and msg.get("id"):
            self.acts[msg["id"]] = msg["action"]

    def _received(self, payload: str | bytes) -> None:
        msg = self._json(payload)
        if msg.get("type") == "ack" and msg.get("id"):
            self.acks.add(msg["id"])
        elif msg.get("type") == "error" and msg.get("id"):
            self.errors[msg["id"]] = f"{msg.get('code')}: {msg.get('message')}"

    def mark(self) -> int:
        return len(self.acts)

    async def acked_since(self, mark: int, timeout: float = 10) -> Any:
        """The first action sent after `mark` that the server accepted."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            ids = list(self.acts)[mark:]
            for act_id in ids:
                assert act_id not in self.errors, f"the server refused {self.acts[act_id]}: {self.errors[act_id]}"
                if act_id in self.acks:
                    return self.acts[act_id]
            await asyncio.sleep(0.05)
        raise AssertionError(f"no acknowledged act (sent: {list(self.acts.values())[mark:]})")


async def focused_matches(page: Page, selector: str) -> bool:
    return bool(await page.evaluate("s => !!document.activeElement && document.activeElement.matches(s)", selector))


async def tab_to(page: Page, selector: str) -> None:
    """Press Tab until the focus is on an element matching `selector`."""
    for _ in range(MAX_TABS):
        if await focused_matches(page, selector):
            return
        await page.keyboard.press("Tab")
    where = await page.evaluate("() => document.activeElement?.outerHTML?.slice(0, 160)")
    raise AssertionError(f"{MAX_TABS} presses of Tab never reached {selector} (focus on {where})")


async def arrow_to(page: Page, selector: str, keys: list[str]) -> None:
    """Press the given keys one by one until the focus matches `selector`."""
    for key in keys:
        if await focused_matches(page, selector):
            return
        await page.keyboard.press(key)
    assert await focused_matches(page, selector), f"arrow keys never reached {selector}"


async def assert_focus_visible(page: Page) -> None:
    """The focused control looks different when it has the focus (compared with Tab away, Shift+Tab back)."""
    handle = await page.evaluate_handle("() => document.activeElement")
    box = await handle.as_element().bounding_box()  # type: ignore[union-attr]
    assert box, "the focused element is not visible"
    await page.evaluate("() => document.activeElement.scrollIntoView({block: 'center'})")
    box = await handle.as_element().bounding_box()  # type: ignore[union-attr]
    assert box
    clip = {
        "x": max(0, box["x"] - 6),
        "y": max(0, box["y"] - 6),
        "width": min(box["width"] + 12, PHONE["width"]),
        "height": box["height"] + 12,
    }
    focused = await page.screenshot(clip=clip)  # type: ignore[arg-type]
    await page.keyboard.press("Tab")
    away = await page.screenshot(clip=clip)  # type: ignore[arg-type]
    await page.keyboard.press("Shift+Tab")
    assert await page.evaluate("h => document.activeElement === h", handle), "Shift+Tab did not come back"
    assert focused != away, "the focused control looks the same with and without the focus"


MY_TURN = """seat => {
    const s = window.threefold?.S?.state;
    return !!s && !s.outcome && (s.to_act || []).includes(seat);
}"""


async def my_turn(page: Page, seat: int, timeout: float = 20_000) -> None:
    await page.wait_for_function(MY_TURN, arg=seat, timeout=timeout)


async def phase(page: Page) -> str:
    return str(await page.evaluate("() => window.threefold.S.state.view.phase ?? ''"))


# ---- one keyboard move per game --------------------------------------------------------------------


async def move_tri_tac(page: Page) -> None:
    await tab_to(page, ".tt-cell[tabindex='0']")
    await assert_focus_visible(page)
    # Walk the board row by row to an empty cell.
    keys = (["ArrowRight"] * 4 + ["ArrowDown", "Home"]) * 5
    await arrow_to(page, ".tt-cell.is-playable", keys)
    await page.keyboard.press("Enter")


async def move_trick_tac_foe(page: Page) -> None:
    await tab_to(page, ".tf-hand-card[tabindex='0']")
    await assert_focus_visible(page)
    await page.keyboard.press("ArrowRight")
    await page.keyboard.press("Enter")  # choose the card
    await page.keyboard.press("Enter")  # play it face down


async def move_tic_tac_match(page: Page) -> None:
    await tab_to(page, ".ttm-hand-card[tabindex='0']")
    await assert_focus_visible(page)
    await arrow_to(page, ".ttm-hand-card.is-playable", ["ArrowRight"] * 5)
    await page.keyboard.press("Enter")  # select: the focus jumps to a legal cell (or the card's action)
    await page.keyboard.press("Enter")  # play there


async def move_tricky_tactics(page: Page) -> None:
    await tab_to(page, ".tk-hand-card[tabindex='0']")
    await assert_focus_visible(page)
    await arrow_to(page, ".tk-hand-card.is-playable", ["ArrowRight"] * 12 + ["Home"] + ["ArrowRight"] * 12)
    await page.keyboard.press("Enter")


async def move_tic_tac_top(page: Page) -> None:
    if await phase(page) == "choose":  # seat 0 leads: pick a theme
        await tab_to(page, ".ttt-offer:not([disabled])")
        await assert_focus_visible(page)
        await page.keyboard.press("Enter")
        return
    # A writer: choose a word, then a cell for it.
    await tab_to(page, ".ttt-chip")
    await assert_focus_visible(page)
    await page.keyboard.press("Enter")
    await expect(page.locator(".ttt-chip[aria-pressed='true']")).to_have_count(1)
    await tab_to(page, ".ttt-cell[tabindex='0']")
    await page.keyboard.press("Enter")


async def move_from_parts(page: Page, game: str) -> None:
    """The keyboard move a game's folder describes (parts.json ``keyboard``: the element the Tab key reaches
    first, then the keys that play from there), for a game without its own function here."""
    parts = json.loads((game_folders.folder(game) / "parts.json").read_text())
    assert "keyboard" in parts, f"{game}: write its keyboard move in MOVES or in its folder's parts.json"
    await tab_to(page, parts["keyboard"]["focus"])
    await assert_focus_visible(page)
    for key in parts["keyboard"]["keys"]:
        await page.keyboard.press(key)


# One keyboard move per game that needs steps of its own; any other game's comes from its folder.
MOVES = {
    "tri-tac": move_tri_tac,
    "trick-tac-foe": move_trick_tac_foe,
    "tic-tac-match": move_tic_tac_match,
    "tricky-tactics": move_tricky_tactics,
    "tic-tac-top": move_tic_tac_top,
}


# Tic Tac Top's first Leader is seat 0 (who picks a theme); from seat 1 the player fills a grid instead.
CASES = [(game, 0) for game in games()] + [("tic-tac-top", 1)]


@pytest.mark.parametrize(("game", "seat"), CASES, ids=[f"{g}-seat{s}" for g, s in CASES])
async def test_one_keyboard_move_on_a_phone(
    new_player: NewPlayer, sqlite_server: ServerProcess, game: str, seat: int
) -> None:
    page = await new_player("Ada", viewport=PHONE)
    await page.emulate_media(reduced_motion="reduce")
    wire = Wire(page)
    await open_table(page, sqlite_server.url, game, seat=seat)
    await my_turn(page, seat)
    if game == "tic-tac-top" and await phase(page) == "write":
        await expect(page.locator(".ttt-chip").first).to_be_visible()

    # No sideways scrolling at phone width.
    overflow = await page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{game}: the page is {overflow} px wider than the phone"

    # Start from the game section (where the page puts the focus when a game starts), then keys only.
    await expect(page.locator("#game")).to_be_focused()
    mark = wire.mark()
    if game in MOVES:
        await MOVES[game](page)
    else:
        await move_from_parts(page, game)
    action = await wire.acked_since(mark)
    assert isinstance(action, dict) and action.get("type"), action
