"""One screen to play: for every game and seat count, as a seated player and as a spectator, at two
laptop and two phone sizes, a game in play does not scroll the page, and the board, the player's own hand and
the prompt are inside the viewport. Tic Tac Top's TV mode fits 1280x720 through a whole turn with the room
code in view, and a phone that did not lock its grid sees the reveal when the Leader submits.

One server; one room per table and role, its page resized through the four viewports."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.async_api import Page, expect

from app import game_folders
from app.client import ThreefoldClient
from engines.registry import all_engines, games
from tests.browser.conftest import NewPlayer
from tests.browser.tables import open_table, token_of
from tests.browser.test_accessibility import audit
from tests.support.server import ServerProcess, migrate


@pytest.fixture(scope="module")
def sqlite_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for the module, its bots at a human pace so that a spectator catches a game in play."""
    url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('one-screen') / 'threefold.db'}"
    migrate(url)
    proc = ServerProcess(url, extra_env={"THREEFOLD_BOT_PACE": "0.6"}).start()
    yield proc
    proc.stop()


VIEWPORTS = [(1366, 768), (1280, 720), (390, 844), (360, 740)]
TV_VIEWPORTS = [(1920, 1080), (1280, 720)]
SEATS_COLUMN = ".lobby-col:has(.seats-panel)"
"""The lobby's column of seats: on the TV it scrolls what does not fit, so a seat below its box is cut off."""
# Every game at each of its table sizes: the served games at the sizes chosen here, any other game of the
# registry at each of its variants (engines/game.py).
CHOSEN: list[tuple[str, dict[str, Any]]] = [
    ("tri-tac", {"size": 5}),
    ("trick-tac-foe", {"players": 2}),
    ("trick-tac-foe", {"players": 4}),
    ("tic-tac-match", {"players": 2}),
    ("tic-tac-match", {"players": 4}),
    ("tricky-tactics", {"mode": "automa"}),
    ("tricky-tactics", {"mode": "3p"}),
    ("tricky-tactics", {"mode": "4p"}),
    ("tic-tac-top", {"players": 3}),
    ("tic-tac-top", {"players": 7}),
]
TABLES = CHOSEN + [
    (game.name, dict(options))
    for game in games()
    if game.name not in {name for name, _ in CHOSEN}
    for options in game.variants
]


def parts(game: str) -> tuple[str, str | None, str]:
    """What the move needs, from the game's folder (parts.json, the renderer's class names): the board (or
    trick), the seated player's hand (None: no hand), the prompt."""
    found = json.loads((game_folders.folder(game) / "parts.json").read_text())
    return found["board"], found["hand"], found["prompt"]


def test_every_game_has_its_tables() -> None:
    """A game of the registry missing here would be skipped by the layout tests below: fail instead."""
    games = {engine.name for engine in all_engines()}
    assert games <= {game for game, _ in TABLES}, "games without a table in TABLES"
    assert all((game_folders.folder(game) / "parts.json").is_file() for game in games), "games without parts.json"


# The box of every element of `selectors` that is shown, the page's scroll height and the viewport.
MEASURE = """(selectors) => {
  const boxes = {};
  for (const sel of selectors) {
    const el = document.querySelector(sel);
    if (!el || !el.getClientRects().length) { boxes[sel] = null; continue; }
    const r = el.getBoundingClientRect();
    boxes[sel] = [Math.round(r.left), Math.round(r.top), Math.round(r.right), Math.round(r.bottom)];
  }
  return {scroll: document.scrollingElement.scrollHeight, width: innerWidth, height: innerHeight, boxes};
}"""


async def settled(page: Page) -> None:
    """Two animation frames: the layout after a resize."""
    await page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


async def assert_one_screen(page: Page, where: str, selectors: list[str]) -> None:
    await settled(page)
    m = await page.evaluate(MEASURE, selectors)
    problems = []
    if m["scroll"] > m["height"]:
        problems.append(f"the page scrolls: {m['scroll']} px tall in a {m['height']} px window")
    for sel, box in m["boxes"].items():
        if box is None:
            problems.append(f"{sel} is not shown")
            continue
        left, top, right, bottom = box
        if top < 0 or left < 0 or bottom > m["height"] + 1 or right > m["width"] + 1:
            problems.append(f"{sel} at {top}-{bottom} px (x {left}-{right}) is not inside {m['width']}x{m['height']}")
    assert not problems, f"{where}: " + "; ".join(problems)


async def in_play(page: Page, seat: int | None) -> None:
    """Wait for a game in play: for a player, their move (after the bots before them, if any); for a
    spectator, the bots have moved."""
    await page.wait_for_function(
        """(seat) => {
          const st = window.threefold?.S?.state;
          if (!st || st.outcome) return false;
          return seat === null ? (st.log || []).length > 0 : (st.to_act || []).includes(seat);
        }""",
        arg=seat,
    )


@pytest.mark.parametrize(
    ("game", "options"), TABLES, ids=[f"{g}-{next(iter(o.values()), 'default')}" for g, o in TABLES]
)
async def test_a_game_in_play_fits_one_screen(
    new_player: NewPlayer, sqlite_server: ServerProcess, game: str, options: dict[str, Any]
) -> None:
    board, hand, prompt = parts(game)
    for role, seat in (("player", 1), ("spectator", None)):
        page = await new_player("Ada" if role == "player" else "Sam", viewport={"width": 1366, "height": 768})
        await page.emulate_media(reduced_motion="reduce")
        await open_table(page, sqlite_server.url, game, options, seat=seat)
        await in_play(page, seat)
        selectors = ["#players", board, prompt] + ([hand] if hand and seat is not None else [])
        for width, height in VIEWPORTS:
            await page.set_viewport_size({"width": width, "height": height})
            await assert_one_screen(page, f"{game} {options} as {role} at {width}x{height}", selectors)
        await page.close()


# Tic Tac Top's reveal: the last of everyone else's grids, the last tile of the layout.
LAST_GRID = ".ttt-gridwall > .ttt-gridcard:last-child"


async def assert_inside(page: Page, where: str, inner: str, outer: str) -> None:
    """The last of ``inner`` lies inside ``outer``'s box: a panel that clips its overflow cuts nothing off."""
    boxes = await page.evaluate(
        """([inner, outer]) => [inner, outer].map((sel) => {
          const all = document.querySelectorAll(sel);
          const r = all[all.length - 1].getBoundingClientRect();
          return [Math.round(r.top), Math.round(r.bottom)];
        })""",
        [inner, outer],
    )
    (top, bottom), (outer_top, outer_bottom) = boxes
    assert outer_top <= top and bottom <= outer_bottom + 1, (
        f"{where}: {inner} at {top}-{bottom} px is cut off by {outer} at {outer_top}-{outer_bottom} px"
    )


@pytest.mark.parametrize("players", [3, 7])
async def test_tic_tac_top_tv_mode_through_a_turn(
    new_player: NewPlayer, sqlite_server: ServerProcess, players: int
) -> None:
    """The host's TV: before the game the code and QR fill it beside every seat; every phase of a bot turn
    fits 1920x1080 and 1280x720, its buttons and "Next in…" line included, with the code in the corner; at
    seven players too, every scoring row and standing whole."""
    tv = await new_player("Host", viewport={"width": 1280, "height": 720})
    await tv.emulate_media(reduced_motion="reduce")
    # Paced slowly enough to measure each phase at two sizes before the show moves on.
    options = {"players": players, "reveal_pause": 3, "score_pause": 8}
    async with ThreefoldClient(sqlite_server.url, token=await token_of(tv)) as me:
        code = await me.create_room("tic-tac-top", options, seed=7)
        async with me.connect(code) as sock:
            await sock.next(lambda m: m["type"] == "room")
            await sock.request({"type": "stand"})  # the TV leaves the seat it took creating the room to a bot
            for seat in range(players):
                await sock.send({"type": "add_bot", "seat": seat})
            await sock.wait_room(lambda r: sum(1 for s in r["seats"] if s["player"]) == players)
            await tv.goto(f"/r/{code}?tv=1")
            await expect(tv.locator("body")).to_have_class(re.compile(r"\btv-mode\b"))
            await expect(tv.locator(".site-header")).to_be_hidden()
            await expect(tv.locator("#seat-list .seat-card")).to_have_count(players)
            await assert_one_screen(
                tv, "TV lobby", [".room-code", ".qr img", "#start-btn", "#seat-list .seat-card:last-child"]
            )
            await assert_inside(tv, "TV lobby", "#seat-list .seat-card", SEATS_COLUMN)
            code_box = await tv.locator(".room-code").bounding_box()
            qr_box = await tv.locator(".qr img").bounding_box()
            assert code_box and qr_box and code_box["height"] >= 70 and qr_box["height"] >= 280, (code_box, qr_box)
            await tv.locator("#start-btn").click()
            screen = tv.locator("#board .ttt")
            await expect(screen).to_have_class(re.compile("ttt-tv"))
            # What the room watches in each phase: the words and who has finished, the announced word and
            # the grids (the last one, which ends the layout), the turn's scoring and the standings; from the
            # reveal on, the host's Next button and the "Next in…" line under it.
            pace = [".ttt-next", ".ttt-clock-auto"]
            shown = {
                "write": [".ttt-wordboard", ".ttt-writers"],
                "reveal": [".ttt-announce", LAST_GRID, *pace],
                "score": [".ttt-scoring", ".ttt-standings", *pace],
            }
            for phase, parts in shown.items():
                await expect(screen).to_have_attribute("data-phase", phase, timeout=30_000)
                for part in parts:
                    await expect(screen.locator(part).first).to_be_visible()
                for width, height in TV_VIEWPORTS:
                    await tv.set_viewport_size({"width": width, "height": height})
                    where = f"TV, {phase} phase, {width}x{height}"
                    await assert_one_screen(tv, where, ["#players", ".ttt-head", "#tv-corner", *parts])
                    if phase == "score":
                        await assert_inside(tv, where, ".ttt-score-row", ".ttt-scoring")
                        await assert_inside(tv, where, ".ttt-standing", ".ttt-standings")
                await expect(tv.locator("#tv-corner")).to_contain_text(code)
            await expect(screen.locator(".ttt-turn")).to_have_text(re.compile("Turn 2"), timeout=30_000)
            await assert_one_screen(tv, "TV, second turn", ["#players", ".ttt-main", ".ttt-head", "#tv-corner"])
            await tv.locator("#tv-exit").click()
            await expect(tv.locator("body")).not_to_have_class(re.compile(r"\btv-mode\b"))


async def test_a_seated_hosts_tv_shows_the_table_as_a_spectator_sees_it(
    new_player: NewPlayer, sqlite_server: ServerProcess
) -> None:
    """A host who sits at the table and turns TV mode on: the TV shows the public table, never their seat's
    cards or words, while their phone (another page of the same player) still plays the seat."""
    tv = await new_player("Ada", viewport={"width": 1280, "height": 720})
    await tv.emulate_media(reduced_motion="reduce")
    code = await open_table(tv, sqlite_server.url, "tic-tac-top", {"players": 3}, seed=3, seat=0)
    board = tv.locator("#board")
    # Ada leads the first turn: her page shows the two themes' words, which only she may see.
    await expect(board.locator(".ttt-offer:not(.is-facedown)")).to_have_count(2)
    await expect(board.locator(".ttt-offer-words").first).to_be_visible()
    spectator = await new_player("Sam", viewport={"width": 1280, "height": 720})
    await spectator.goto(f"/r/{code}")
    await expect(spectator.locator("#board .ttt-offer.is-facedown")).to_have_count(2)
    public = await spectator.evaluate("() => JSON.stringify(window.threefold.S.state.view)")

    await tv.locator("#tv-toggle").click()
    await expect(tv.locator("body")).to_have_class(re.compile(r"\btv-mode\b"))
    await expect(board.locator(".ttt")).to_have_class(re.compile("ttt-tv"))
    await expect(board.locator(".ttt-offer.is-facedown")).to_have_count(2)
    await expect(board.locator(".ttt-offer-words")).to_have_count(0)
    assert await tv.evaluate("() => JSON.stringify(window.threefold.S.state.view)") == public

    # Her phone still plays the seat: she picks the theme there; the TV shows the words everyone may see.
    phone = await tv.context.new_page()
    await phone.set_viewport_size({"width": 390, "height": 844})
    await phone.goto(f"/r/{code}")
    await phone.locator("#board .ttt-offer:not(.is-facedown)").first.click()
    await expect(phone.locator("#board .ttt-ranker")).to_be_visible()
    await expect(board.locator(".ttt-wordboard")).to_be_visible()
    await expect(board.locator(".ttt-ranker, .ttt-own, .ttt-chip")).to_have_count(0)
    # The leader's draft ranking stays on her phone: the TV's view has none.
    assert await tv.evaluate("() => window.threefold.S.state.view.draft") is None
    await phone.close()


async def test_a_seated_hosts_tv_shows_the_lobbys_seats(new_player: NewPlayer, sqlite_server: ServerProcess) -> None:
    """Ada sits at the table, then keeps only her TV open: it shows the room's seats, hers among them as away
    (a screen is nobody's presence), a guest's, a bot's and the empty ones, with no "you", no Sit or Stand (a
    screen takes no seat) and her host tools. Each name is the TV's body text, never smaller than its label."""
    tv = await new_player("Ada", viewport={"width": 1920, "height": 1080})
    async with (
        ThreefoldClient(sqlite_server.url, token=await token_of(tv)) as me,
        ThreefoldClient(sqlite_server.url) as guest,
    ):
        await guest.set_name("Bartholomew")
        code = await me.create_room("tic-tac-top", {"players": 7}, seed=7)
        async with me.connect(code) as phone, guest.connect(code) as other:
            await phone.next(lambda m: m["type"] == "room")  # Ada took seat 0 creating the room
            await other.next(lambda m: m["type"] == "room")
            await other.request({"type": "sit", "seat": 1})
            await phone.request({"type": "add_bot", "seat": 2})
            await phone.close()
            await tv.goto(f"/r/{code}?tv=1")
            await expect(tv.locator("body")).to_have_class(re.compile(r"\btv-mode\b"))
            cards = tv.locator("#seat-list .seat-card")
            await expect(cards).to_have_count(7)
            ada, bart, bot = cards.nth(0), cards.nth(1), cards.nth(2)
            await expect(ada.locator(".seat-name")).to_have_text("Ada")
            await expect(ada.locator(".tag-host")).to_be_visible()
            await expect(ada.locator(".presence-away")).to_be_visible()
            await expect(bart.locator(".seat-name")).to_have_text("Bartholomew")
            await expect(bart.locator(".presence-on")).to_be_visible()
            await expect(bot.locator(".avatar-bot")).to_be_visible()
            await expect(bot.get_by_role("button", name=re.compile("Remove bot"))).to_be_visible()
            await expect(tv.locator("#seat-list .seat-empty")).to_have_count(4)
            await expect(
                tv.locator("#seat-list .seat-empty").first.get_by_role("button", name=re.compile("Add a bot"))
            ).to_be_visible()
            await expect(tv.locator("#seat-list .seat-mine, #seat-list .tag-you")).to_have_count(0)
            await expect(tv.get_by_role("button", name=re.compile("^(Sit here|Stand up)"))).to_have_count(0)
            await expect(tv.locator("#spectator-list .spectator")).to_have_count(0)
            await expect(tv.locator("#start-btn")).to_be_visible()
            for width, height in TV_VIEWPORTS:
                await tv.set_viewport_size({"width": width, "height": height})
                where = f"TV lobby, {width}x{height}"
                await assert_one_screen(
                    tv, where, [".room-code", ".qr img", "#start-btn", "#seat-list .seat-card:last-child"]
                )
                await assert_inside(tv, where, "#seat-list .seat-card", SEATS_COLUMN)
                sizes = await tv.evaluate(SEAT_TEXT_SIZES)
                body_text = await tv.evaluate(
                    "() => parseFloat(getComputedStyle(document.querySelector('.share-hint')).fontSize)"
                )
                for label, name, size_of_label, size_of_name in sizes:
                    assert size_of_name >= size_of_label, (
                        f"{where}: {name!r} ({size_of_name}px) under {label!r} ({size_of_label}px)"
                    )
                    assert size_of_name >= body_text, (
                        f"{where}: {name!r} is {size_of_name}px, the TV's text {body_text}px"
                    )
            await audit(tv, "TV lobby")


SEAT_TEXT_SIZES = """() => [...document.querySelectorAll('#seat-list .seat-card')].map((card) => {
  const label = card.querySelector('.seat-label');
  const name = card.querySelector('.seat-name, .seat-player-empty');
  const size = (el) => parseFloat(getComputedStyle(el).fontSize);
  return [label.textContent, name.textContent, size(label), size(name)];
})"""
"""Each seat card's label and name (or "Empty seat"), and their font sizes in px."""


async def test_a_phone_sees_the_reveal(new_player: NewPlayer, sqlite_server: ServerProcess) -> None:
    """A writer on a phone who scrolled down to lock their grid: when the (bot) Leader submits, the announced
    word and the steps come into view and take the focus. On a laptop the reveal, grids included, fits."""
    phone = await new_player("Ada", viewport={"width": 360, "height": 740})
    await phone.emulate_media(reduced_motion="reduce")
    await open_table(phone, sqlite_server.url, "tic-tac-top", {"players": 3, "reveal_pause": 5}, seat=1)
    board = phone.locator("#board")
    lock = board.locator(".ttt-lock")
    await expect(lock).to_be_visible()
    await lock.scroll_into_view_if_needed()
    await lock.click()  # a grid with blanks asks for a second tap
    await lock.click()
    await expect(board.locator(".ttt")).to_have_attribute("data-phase", "reveal", timeout=30_000)
    announce = board.locator(".ttt-announce")
    await expect(announce).to_be_in_viewport()
    await expect(announce).to_be_focused()
    await assert_one_screen(phone, "phone at the reveal", [".ttt-announce"])
    # The same page on a laptop: the announced word beside every grid, none below the fold.
    for width, height in VIEWPORTS[:2]:
        await phone.set_viewport_size({"width": width, "height": height})
        await expect(board.locator(".ttt")).to_have_attribute("data-phase", "reveal")
        await assert_one_screen(
            phone, f"the reveal at {width}x{height}", [".ttt-announce", ".ttt-own-reveal .ttt-gridcard", LAST_GRID]
        )


async def test_a_big_tables_scoring_keeps_its_pace_in_view(new_player: NewPlayer, sqlite_server: ServerProcess) -> None:
    """Seven players on a laptop: the turn's scoring (ten rows) is whole on screen, and beside it the pacing
    ("Next in…", and the host's Next button when they may step) is in view without scrolling the column."""
    page = await new_player("Ada", viewport={"width": 1366, "height": 768})
    await page.emulate_media(reduced_motion="reduce")
    options = {"players": 7, "reveal_pause": 1, "score_pause": 60}
    await open_table(page, sqlite_server.url, "tic-tac-top", options, seat=1)
    board = page.locator("#board")
    lock = board.locator(".ttt-lock")
    await lock.click()  # a grid with blanks asks for a second tap
    await lock.click()
    await expect(board.locator(".ttt")).to_have_attribute("data-phase", "score", timeout=60_000)
    for width, height in VIEWPORTS[:2]:
        await page.set_viewport_size({"width": width, "height": height})
        await settled(page)
        await expect(board.locator(".ttt-scoring")).to_be_in_viewport(ratio=1)
        await expect(board.locator(".ttt-controls")).to_be_in_viewport(ratio=1)
        await assert_one_screen(page, f"the scoring at {width}x{height}", [".ttt-scoring", ".ttt-controls"])
