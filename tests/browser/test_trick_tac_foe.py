"""A host adds two bots to a 4-player Trick-Tac-Foe room and plays a trick set with them and a partner on a
phone; a spectator watches. Nobody's page shows a face-down card before its pair reveals."""

from __future__ import annotations

import re

from playwright.async_api import Page, expect

from tests.browser.conftest import PHONE, NewPlayer
from tests.browser.tables import expect_in_first_seat, first_attached, open_table
from tests.browser.test_accessibility import audit
from tests.support.server import ServerProcess


async def pick_wild_if_asked(page: Page) -> bool:
    """A human whose wild 10 won picks a cell (the first one): True if it did."""
    grid = page.locator(".tf-grid.is-wild")
    if await grid.count() == 0:
        return False
    await page.locator(".tf-grid.is-wild .tf-cell").first.click()
    await expect(page.locator(".tf-grid.is-wild")).to_have_count(0)
    return True


async def test_host_adds_two_bots_and_plays_a_trick_set(new_player: NewPlayer) -> None:
    host = await new_player("Ada")
    partner = await new_player("Bob", viewport=PHONE)
    watcher = await new_player("Cy")

    # The host creates a Trick-Tac-Foe room and makes it a 4-player game.
    await host.goto("/")
    await host.locator('.game-card-create[data-game="trick-tac-foe"]').click()
    await host.wait_for_url(re.compile(r"/r/[A-Z0-9]{5}$"))
    code = host.url.rsplit("/", 1)[1]
    await expect(host.locator("#conn")).to_have_attribute("data-status", "online")
    await host.get_by_label("Players", exact=True).select_option("4")
    await expect(host.get_by_role("button", name="Sit here: West")).to_be_visible()

    # North (Red) is the host; East (Red) is the partner; South and West (Black) are bots.
    await expect_in_first_seat(host, "Ada")
    # Each add re-renders the seats: wait for it, or the next click can land on a button being replaced.
    await host.get_by_role("button", name="Add a bot: South").click()
    await expect(host.get_by_role("button", name="Add a bot: South")).to_have_count(0)
    await host.get_by_role("button", name="Add a bot: West").click()
    await expect(host.get_by_role("button", name="Add a bot: West")).to_have_count(0)
    await partner.goto(f"/r/{code}")
    await expect(partner.locator("#conn")).to_have_attribute("data-status", "online")
    await partner.get_by_role("button", name="Sit here: East").click()
    await expect(host.locator("#seat-list")).to_contain_text("Bob")
    await watcher.goto(f"/r/{code}")
    start = host.locator("#start-btn")
    await expect(start).to_be_enabled()
    await start.click()

    # Everyone sees the table; the players see four real cards, the spectator none.
    for page in (host, partner, watcher):
        await expect(page.locator(".tf-table")).to_be_visible()
        await expect(page.locator(".tf-plate")).to_have_count(4)
        await expect(page.locator(".tf-progress-trick")).to_have_text("Trick set 1 of 10")
        await expect(page.locator(".tf-cell")).to_have_count(9)
    for page in (host, partner):
        await expect(page.locator(".tf-hand-card")).to_have_count(4)
    await expect(watcher.locator(".tf-hand-card")).to_have_count(0)
    await expect(watcher.locator(".tf-watch")).to_be_visible()
    # Each seat sits at the bottom of its own table: North's partner East is on its left.
    await expect(host.locator(".tf-plate.is-me")).to_have_class(re.compile("tf-pos-bottom"))
    await expect(host.locator('.tf-plate[data-seat="1"]')).to_have_class(re.compile("tf-pos-left"))
    await expect(partner.locator(".tf-plate.is-me")).to_have_class(re.compile("tf-pos-bottom"))
    await expect(partner.locator('.tf-plate[data-seat="0"]')).to_have_class(re.compile("tf-pos-right"))

    # The host picks a card (its target cell lights up on the grid), then plays it face down.
    first = host.locator(".tf-hand-card").first
    ada_card = await first.get_attribute("data-card")
    assert ada_card
    await first.click()
    await expect(host.locator(".tf-hand-card.is-selected")).to_have_count(1)
    if not ada_card.startswith("10"):
        await expect(host.locator(".tf-cell.is-preview")).to_have_count(1)
    await host.locator(".tf-play-btn").click()
    await expect(host.locator(".tf-hand-card")).to_have_count(3)

    # The partner and the spectator see only a card back for the host until the pair reveals.
    for page in (partner, watcher):
        await expect(page.locator('.tf-plate[data-seat="0"] .tf-card.is-down')).to_have_count(1)
        assert await page.locator(f'[data-card="{ada_card}"]').count() == 0

    # The partner plays from the keyboard: Enter picks the card, Enter again plays it.
    await expect(partner.locator(".tf-hand.is-playable")).to_be_visible()
    bob_first = partner.locator(".tf-hand-card").first
    bob_card = await bob_first.get_attribute("data-card")
    await bob_first.focus()
    await partner.keyboard.press("Enter")
    await expect(partner.locator(".tf-hand-card.is-selected")).to_have_count(1)
    await partner.keyboard.press("Enter")

    # Both pairs reveal and resolve (a human whose wild 10 wins picks a cell); the next set begins.
    for _ in range(40):
        # Whichever comes first: the next set, or a wild 10 asking a human for a cell.
        ready = await first_attached(
            host.locator(".tf-progress-trick", has_text="Trick set 2 of 10"),
            host.locator(".tf-grid.is-wild"),
            partner.locator(".tf-grid.is-wild"),
        )
        if ready == 0:
            break
        await pick_wild_if_asked(host) or await pick_wild_if_asked(partner)
    for page in (host, partner, watcher):
        await expect(page.locator(".tf-progress-trick")).to_have_text("Trick set 2 of 10", timeout=15_000)
        # Once the timeline has played, the last trick set's two tricks are listed: who won, which cell.
        await expect(page.locator(".tf-record")).to_have_count(2, timeout=15_000)
        await expect(page.locator(".tf-records")).to_contain_text("Last trick")
        # The host's card is face up now for everyone, and the partner's.
        for seat, card in ((0, ada_card), (1, bob_card)):
            shown = page.locator(f'.tf-plate[data-seat="{seat}"] .tf-card.is-up[data-card="{card}"]')
            await expect(shown).to_have_count(1, timeout=15_000)
        await expect(page.locator("#log")).to_contain_text("now starts")
    # Hands refilled to four from the personal decks (10 dealt, 4 in hand, 1 played, 1 drawn: 5 left).
    for page in (host, partner):
        await expect(page.locator(".tf-hand-card")).to_have_count(4)
        await expect(page.locator(".tf-hand-deck")).to_contain_text("5 in deck")
    # The discard pile counts the four cards played.
    await expect(watcher.locator(".tf-discard summary")).to_contain_text("4 cards played")


async def test_keyboard_play_alone_with_bots_and_a_wild_ten(new_player: NewPlayer) -> None:
    """Alone with three bots, from the keyboard only: the host plays 10♠, wins, and picks the cell for the wild."""
    host = await new_player("Ada")
    # Seed 6 deals North 2♣ 3♠ 10♥ 10♠; North and South reveal first.
    response = await host.context.request.post(
        "/api/rooms", data={"game": "trick-tac-foe", "options": {"players": 4}, "seed": 6}
    )
    assert response.ok, await response.text()
    code = (await response.json())["code"]
    await host.goto(f"/r/{code}")
    await expect(host.locator("#conn")).to_have_attribute("data-status", "online")
    await expect_in_first_seat(host, "Ada")
    for seat in ("East", "South", "West"):
        await host.get_by_role("button", name=f"Add a bot: {seat}").click()
    start = host.locator("#start-btn")
    await expect(start).to_be_enabled()
    await start.click()

    cards = host.locator(".tf-hand-card")
    await expect(cards).to_have_count(4)
    assert [await c.get_attribute("data-card") for c in await cards.all()] == ["2C", "3S", "10H", "10S"]
    await expect(host.locator(".tf-order")).to_contain_text("North vs South")
    # Arrow keys walk the hand; Enter picks 10♠ (every cell is a possible target), Enter again plays it.
    await expect(host.locator(".tf-hand.is-playable")).to_be_visible()
    await cards.first.focus()
    for _ in range(3):
        await host.keyboard.press("ArrowRight")
    await expect(host.locator('.tf-hand-card[data-card="10S"]')).to_be_focused()
    await host.keyboard.press("Enter")
    await expect(host.locator('.tf-hand-card[data-card="10S"]')).to_have_class(re.compile("is-selected"))
    await expect(host.locator(".tf-cell.is-preview")).to_have_count(9)
    await host.keyboard.press("Enter")

    # The bots commit, North and South reveal: the wild 10 asks its winner for a cell and takes the focus.
    await expect(host.locator(".tf-grid.is-wild")).to_be_visible(timeout=15_000)
    await expect(host.locator(".tf-status")).to_contain_text("wild 10")
    await expect(host.locator('.tf-cell[data-number="5"]')).to_be_focused()
    await host.keyboard.press("ArrowRight")
    await expect(host.locator('.tf-cell[data-number="6"]')).to_be_focused()
    await host.keyboard.press("Enter")

    # North's 6 (the west edge) turns Red, then East and West reveal on that board; the next set begins.
    await expect(host.locator(".tf-grid.is-wild")).to_have_count(0)
    await expect(host.locator(".tf-progress-trick")).to_have_text("Trick set 2 of 10", timeout=15_000)
    await expect(host.locator(".tf-record").first).to_contain_text("North's 6", timeout=15_000)
    await expect(host.locator(".tf-record")).to_have_count(2)
    await expect(host.locator("#log")).to_contain_text(re.compile(r"\(North\) picks their 6 \(west edge\)"))


async def test_the_result_shows_the_final_grid(new_player: NewPlayer, sqlite_server: ServerProcess) -> None:
    """The last trick's grid is cleared by the engine at the end of the round: the result still shows the
    final position (the tokens it held), not an empty grid, and so does the page opened again after the end."""
    page = await new_player("Cy")
    await page.emulate_media(reduced_motion="reduce")  # the clearing animation takes no time
    await open_table(page, sqlite_server.url, "trick-tac-foe", {"players": 2}, seat=None)
    await expect(page.locator("#result")).to_be_visible(timeout=90_000)
    grid = await page.evaluate("() => window.threefold.S.state.view.grid")
    assert not any(any(row) for row in grid), "the engine's final view has a cleared grid"
    # Once the last move's events have played (a few frames with reduced motion), tokens are still shown.
    frames = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r))))"
    await page.evaluate(frames)
    tokens = page.locator("#board .tf-grid .tf-cells .tf-token")
    shown = await tokens.count()
    assert shown > 0
    await page.reload()
    await expect(page.locator("#result")).to_be_visible()
    await expect(tokens).to_have_count(shown)


# The felt's parts at four players, and what each plate shows: each inside the felt, none over another.
FELT_PARTS = [".tf-grid", ".tf-pos-top", ".tf-pos-left", ".tf-pos-right", ".tf-pos-bottom", ".tf-lens"]
PLATE_TEXT = ".tf-plate :is(.tf-plate-name, .tf-plate-label, .tf-badge, .tf-plate-counts, .tf-plate-state, .tf-slot)"
BOXES = """([parts, words]) => {
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const shown = (el) => el.getClientRects().length > 0;
  return {
    felt: box(document.querySelector("#board .tf-table")),
    parts: Object.fromEntries(parts.map((s) => [s, box(document.querySelector(`#board ${s}`))])),
    words: [...document.querySelectorAll(`#board ${words}`)].filter(shown).map((el) => [el.className, box(el)]),
  };
}"""


def overlap(a: list[float], b: list[float]) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > 1 and min(a[3], b[3]) - max(a[1], b[1]) > 1


async def test_four_players_grid_is_big_and_nothing_spills(new_player: NewPlayer, sqlite_server: ServerProcess) -> None:
    """2v2 on a laptop: the grid is at least 240 px at 1024x700, and at every laptop size the plates, the grid
    and the lens lie inside the felt, none over another, and no plate's words run out of the felt."""
    for seat in (0, None):
        page = await new_player("Ada" if seat == 0 else "Sam", viewport={"width": 1024, "height": 700})
        await page.emulate_media(reduced_motion="reduce")
        await open_table(page, sqlite_server.url, "trick-tac-foe", {"players": 4}, seat=seat)
        await expect(page.locator("#board .tf-plate")).to_have_count(4)
        for width, height in ((1024, 700), (1280, 720), (1366, 768)):
            await page.set_viewport_size({"width": width, "height": height})
            await page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
            m = await page.evaluate(BOXES, [FELT_PARTS, PLATE_TEXT])
            where = f"{'seat 0' if seat == 0 else 'spectator'} at {width}x{height}"
            left, top, right, bottom = m["felt"]
            grid = m["parts"][".tf-grid"]
            if (width, height) == (1024, 700):
                assert min(grid[2] - grid[0], grid[3] - grid[1]) >= 240, f"{where}: the grid is {grid}"
            inside = [left - 1, top - 1, right + 1, bottom + 1]
            for name, box in [*m["parts"].items(), *m["words"]]:
                assert inside[0] <= box[0] and inside[1] <= box[1] and box[2] <= inside[2] and box[3] <= inside[3], (
                    f"{where}: {name} at {box} spills out of the felt {m['felt']}"
                )
            parts = list(m["parts"].items())
            for i, (a, box_a) in enumerate(parts):
                for b, box_b in parts[i + 1 :]:
                    assert not overlap(box_a, box_b), f"{where}: {a} {box_a} lies over {b} {box_b}"
        await page.close()


async def test_the_colours_switch_during_a_game(new_player: NewPlayer, sqlite_server: ServerProcess) -> None:
    """At the table (no site header), the room bar's toggle swaps light and dark from the keyboard; the felt's
    grid repaints each way, the choice outlives a reload, and the French page names it in French."""
    page = await new_player("Ada", viewport={"width": 1024, "height": 700})
    await page.emulate_media(color_scheme="light", reduced_motion="reduce")
    await open_table(page, sqlite_server.url, "trick-tac-foe", {"players": 4}, seat=0)
    await expect(page.locator(".site-header")).to_be_hidden()
    toggle = page.get_by_role("button", name="Dark colours", exact=True)
    cell = page.locator("#board .tf-cell-bg").first
    fill = "(el) => getComputedStyle(el).fill"
    await expect(toggle).to_be_in_viewport(ratio=1)
    await expect(toggle).to_have_attribute("aria-pressed", "false")
    light = await cell.evaluate(fill)
    await toggle.focus()
    await page.keyboard.press("Enter")
    await expect(toggle).to_have_attribute("aria-pressed", "true")
    await expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    await expect(cell).not_to_have_css("fill", light)
    dark = await cell.evaluate(fill)
    await audit(page, "Trick-Tac-Foe in play, switched to dark")
    await page.reload()
    await expect(toggle).to_have_attribute("aria-pressed", "true")
    await expect(cell).to_have_css("fill", dark)
    await toggle.focus()
    await page.keyboard.press("Space")
    await expect(toggle).to_have_attribute("aria-pressed", "false")
    await expect(cell).to_have_css("fill", light)
    await page.set_viewport_size({"width": 1280, "height": 720})
    await expect(toggle).to_be_in_viewport(ratio=1)
    # A phone's room bar has no room for it: its menu opens the side drawer, where the switch is.
    await page.set_viewport_size({"width": 360, "height": 740})
    await page.locator("#side-toggle").focus()
    await page.keyboard.press("Enter")
    dark_button = page.locator("#side-col .theme-btn[data-theme='dark']")
    await expect(dark_button).to_be_in_viewport(ratio=1)
    await dark_button.focus()
    await page.keyboard.press("Enter")
    await expect(cell).to_have_css("fill", dark)
    await page.set_viewport_size({"width": 1024, "height": 700})
    await page.context.add_cookies([{"name": "tf_lang", "value": "fr", "url": sqlite_server.url}])
    await page.reload()
    await expect(page.get_by_role("button", name="Couleurs sombres", exact=True)).to_be_in_viewport(ratio=1)


async def test_a_page_opened_after_a_four_player_game_shows_its_last_grid(
    new_player: NewPlayer, sqlite_server: ServerProcess
) -> None:
    """Bots play a one-round 2v2 to its end; a page opened afterwards shows the result and, on the felt, the
    tokens of the position the game ended on (the engine's ``final``), not the grid the end cleared."""
    watcher = await new_player("Cy")
    await watcher.emulate_media(reduced_motion="reduce")
    options = {"players": 4, "one_shot": True}
    code = await open_table(watcher, sqlite_server.url, "trick-tac-foe", options, seat=None)
    await expect(watcher.locator("#result")).to_be_visible(timeout=90_000)
    late = await new_player("Dee", viewport={"width": 1024, "height": 700})
    await late.emulate_media(reduced_motion="reduce")
    await late.goto(f"/r/{code}")
    await expect(late.locator("#result")).to_be_visible()
    view = await late.evaluate("() => window.threefold.S.state.view")
    assert not any(any(row) for row in view["grid"]), "the game ended on a cleared grid"
    tokens = sum(1 for row in view["final"]["grid"] for cell in row if cell)
    assert tokens > 0
    await expect(late.locator("#board .tf-grid .tf-cells .tf-token")).to_have_count(tokens)
