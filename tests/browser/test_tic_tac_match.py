"""Two people play Tic Tac Match in Chromium (one on a phone-sized screen) while a third watches.

Seed 75 deals the first player (the host, seat 0) a Double Play, a Flip and two Symbol cards, and the second
player a Wipe-Out: so the host plays Double Play, then Flip (every ID turns over) and a Symbol card chosen with
the keyboard; the guest wipes the host out and the host plays again; then a few ordinary turns. Every time a
Symbol card is selected, the cells offered are checked against the stacking rule computed from what the page
shows (empty, or matching the top card's colour or symbol but not both).
"""

from __future__ import annotations

import re

from playwright.async_api import Page, expect

from tests.browser.conftest import PHONE, NewPlayer
from tests.browser.tables import expect_in_first_seat

SEED = 75
COLOURS = ("blue", "green", "red", "yellow")


def describe(card_id: int) -> tuple[int, int]:
    """(colour, symbol) of a Symbol card id, as docs/games/tic-tac-match.md defines the ids."""
    return card_id // 12, card_id // 6 % 2


async def log_count(page: Page) -> int:
    return await page.locator("#log li:not(.log-empty)").count()


async def expected_cells(page: Page, card_id: int) -> set[tuple[int, int]]:
    colour, symbol = describe(card_id)
    legal = set()
    for r in range(3):
        for c in range(3):
            top = page.locator(f'.ttm-cell[data-r="{r}"][data-c="{c}"] .ttm-top')
            if await top.count() == 0:
                legal.add((r, c))
                continue
            top_colour, top_symbol = describe(int(await top.get_attribute("data-card") or -1))
            if (top_colour == colour) != (top_symbol == symbol):
                legal.add((r, c))
    return legal


async def offered_cells(page: Page) -> set[tuple[int, int]]:
    cells = page.locator(".ttm-cell.is-legal")
    out = set()
    for i in range(await cells.count()):
        cell = cells.nth(i)
        out.add((int(await cell.get_attribute("data-r") or -1), int(await cell.get_attribute("data-c") or -1)))
    return out


async def select_symbol(page: Page) -> set[tuple[int, int]]:
    """Select the first playable Symbol card; check the offered cells are exactly the legal ones."""
    card = page.locator('.ttm-hand-card.is-playable[data-kind="symbol"]').first
    await card.click()
    await expect(card).to_have_attribute("aria-pressed", "true")
    card_id = int(await card.get_attribute("data-card-id") or -1)
    offered = await offered_cells(page)
    assert offered, "a playable Symbol card offered no cell"
    assert offered == await expected_cells(page, card_id)
    return offered


async def play_symbol(page: Page, others: list[Page]) -> None:
    before = await log_count(page)
    await select_symbol(page)
    await page.locator(".ttm-cell.is-legal").first.click()
    for p in [page, *others]:
        await expect(p.locator("#log li:not(.log-empty)")).to_have_count(before + 1)


async def test_two_players_and_a_spectator_play_tic_tac_match(new_player: NewPlayer) -> None:
    host = await new_player("Ada")
    guest = await new_player("Bob", viewport=PHONE)
    watcher = await new_player("Cy")

    response = await host.request.post("/api/rooms", data={"game": "tic-tac-match", "seed": SEED})
    assert response.ok, await response.text()
    code = (await response.json())["code"]
    for page in (host, guest, watcher):
        await page.goto(f"/r/{code}")
    await expect_in_first_seat(host, "Ada")
    await guest.locator("#seat-list button", has_text=re.compile("Sit", re.I)).first.click()
    await expect(host.locator("#seat-list")).to_contain_text("Bob")
    await host.locator("#start-btn").click()

    everyone = [host, guest, watcher]
    for page in everyone:
        await expect(page.locator(".ttm-grid")).to_be_visible()
        await expect(page.locator(".ttm-cell")).to_have_count(9)
        # The centre card is turned up; the piles show their counts.
        await expect(page.locator('.ttm-cell[data-r="1"][data-c="1"] .ttm-top')).to_have_count(1)
        draw_pile = page.locator(".ttm-pile-draw")
        await expect(draw_pile).to_have_attribute("aria-label", re.compile(r"Draw pile: \d+ cards"))
    # Each player holds 4 real cards; the spectator holds none and sees no hand at all.
    await expect(host.locator(".ttm-hand-card")).to_have_count(4)
    await expect(guest.locator(".ttm-hand-card")).to_have_count(4)
    assert await watcher.locator(".ttm-hand-card").count() == 0
    await expect(watcher.locator(".ttm-hand-area")).to_be_hidden()
    await expect(host.locator(".ttm-status")).to_contain_text("Your turn")
    await expect(guest.locator(".ttm-status")).to_contain_text("Waiting for Ada")
    # Colour is never the only cue: a card names its colour.
    first = host.locator(".ttm-hand-card").first
    assert re.search(r"blue|green|red|yellow|Flip|Wipe-Out|Double Play", await first.get_attribute("aria-label") or "")
    # The guest cannot select anything while it is not their turn.
    assert await guest.locator(".ttm-hand-card.is-playable").count() == 0

    # 1. The host plays Double Play: two plays are owed, and the page says so.
    n = await log_count(host)
    await host.locator('.ttm-hand-card[data-kind="double"]').click()
    await host.locator('[data-action="double"]').click()
    for page in everyone:
        await expect(page.locator("#log li:not(.log-empty)")).to_have_count(n + 1)
    await expect(host.locator(".ttm-status")).to_contain_text("Double Play: 2 more plays")
    await expect(host.locator(".ttm-double-pill")).to_be_visible()
    await expect(watcher.locator(".ttm-status")).to_contain_text("Double Play")

    # 2. First play: Flip. Every ID card turns over, on every screen.
    my_id = await host.locator(".ttm-id-block").first.locator(".ttm-id").get_attribute("data-sym")
    their_id = await guest.locator(".ttm-id-block").first.locator(".ttm-id").get_attribute("data-sym")
    assert {my_id, their_id} == {"X", "O"}
    await host.locator('.ttm-hand-card[data-kind="flip"]').click()
    await host.locator('[data-action="flip"]').click()
    for page in everyone:
        await expect(page.locator("#log li:not(.log-empty)")).to_have_count(n + 2)
    await expect(host.locator(".ttm-id-block").first.locator(".ttm-id")).to_have_attribute("data-sym", their_id or "")
    await expect(guest.locator(".ttm-id-block").first.locator(".ttm-id")).to_have_attribute("data-sym", my_id or "")
    await expect(host.locator(".ttm-status")).to_contain_text("1 more play")

    # 3. Second play, with the keyboard only: focus a Symbol card, Enter selects it and jumps to a legal cell,
    # Enter plays there.
    card = host.locator('.ttm-hand-card.is-playable[data-kind="symbol"]').first
    card_id = int(await card.get_attribute("data-card-id") or -1)
    await card.focus()
    await host.keyboard.press("Enter")
    await expect(card).to_have_attribute("aria-pressed", "true")
    assert await offered_cells(host) == await expected_cells(host, card_id)
    focused = host.locator(".ttm-cell:focus")
    await expect(focused).to_have_class(re.compile("is-legal"))
    await expect(focused).to_have_attribute("aria-label", re.compile("you can play here"))
    await host.keyboard.press("Enter")
    for page in everyone:
        await expect(page.locator("#log li:not(.log-empty)")).to_have_count(n + 3)
    # The card landed (it is the top of some cell now) and the turn passed.
    await expect(host.locator(f'.ttm-top[data-card="{card_id}"]')).to_have_count(1)
    await expect(guest.locator(".ttm-status")).to_contain_text("Your turn")
    await expect(host.locator(".ttm-hand-card")).to_have_count(4)  # drawn back up to four

    # 4. The guest (phone) wipes the host out: only other players are offered; the host plays next.
    await guest.locator('.ttm-hand-card[data-kind="wipeout"]').click()
    targets = guest.locator('[data-action="wipeout"]')
    await expect(targets).to_have_count(1)
    await expect(targets).to_contain_text("Ada")
    await targets.click()
    for page in everyone:
        await expect(page.locator("#log li:not(.log-empty)")).to_have_count(n + 4)
        await expect(page.locator(".ttm-news")).to_contain_text("wiped out Ada")
    await expect(host.locator(".ttm-status")).to_contain_text("Your turn")
    await expect(host.locator(".ttm-hand-card")).to_have_count(4)

    # 5. A few ordinary turns with the mouse, each checked against the stacking rule.
    players = [host, guest]
    turn = 0
    for _ in range(4):
        page = players[turn]
        await expect(page.locator(".ttm.is-my-turn")).to_have_count(1)
        if await page.locator('.ttm-hand-card.is-playable[data-kind="symbol"]').count() == 0:
            break
        await play_symbol(page, [p for p in everyone if p is not page])
        turn = 1 - turn
    # Escape cancels a selection.
    page = players[turn]
    if await page.locator('.ttm-hand-card.is-playable[data-kind="symbol"]').count():
        await select_symbol(page)
        await page.keyboard.press("Escape")
        await expect(page.locator(".ttm-cell.is-legal")).to_have_count(0)

    # The spectator's picture matches the players' (grid and counts), and it never got a hand.
    host_grid = await host.locator(".ttm-top").evaluate_all("els => els.map(e => e.dataset.card)")
    await expect(watcher.locator(".ttm-top")).to_have_count(len(host_grid))
    assert await watcher.locator(".ttm-top").evaluate_all("els => els.map(e => e.dataset.card)") == host_grid
    assert await watcher.locator(".ttm-hand-card").count() == 0
    assert await watcher.locator(".ttm-cell.is-legal").count() == 0
    labels = await watcher.locator(".ttm-cell").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    assert all(label and "cell" in label for label in labels)
