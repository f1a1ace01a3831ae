"""Tic Tac Top party: a host screen (laptop, not seated) and three phones, plus a bot, play one turn."""

from __future__ import annotations

import re

from playwright.async_api import Page, expect

from tests.browser.conftest import LAPTOP, PHONE, NewPlayer

# The longest pause between words: the Leader's taps pace the reveal, and a loaded machine must not let the
# show's own timer step in between two taps.
OPTIONS = {"players": 4, "reveal_pause": 10, "score_pause": 30}


async def sit(page: Page, seat: int, name: str) -> None:
    """Take a seat in the lobby (the lobby redraws as others sit, so a click may land on a stale button)."""
    card = page.locator("#seat-list > li").nth(seat)
    for _ in range(5):
        button = card.get_by_role("button", name=re.compile("^sit here", re.I))
        if await button.count():
            await button.first.click()
        try:
            await expect(card).to_contain_text(name, timeout=2000)
            return
        except AssertionError:
            continue
    await expect(card).to_contain_text(name)


async def fill_word_then_cell(page: Page, words: list[str]) -> None:
    """Tap a word, then a cell, nine times."""
    board = page.locator("#board")
    for cell, word in enumerate(words):
        await board.locator(".ttt-chip", has_text=word).click()
        await board.locator(".ttt-grid.is-editable .ttt-cell").nth(cell).click()
        await expect(board.locator(".ttt-grid.is-editable .ttt-cell").nth(cell)).to_have_text(word)


async def fill_cell_then_words(page: Page, words: list[str]) -> None:
    """Tap the first cell, then nine words: the cursor moves on to the next empty cell by itself."""
    board = page.locator("#board")
    await board.locator(".ttt-grid.is-editable .ttt-cell").first.click()
    for word in words:
        await board.locator(".ttt-chip", has_text=word).click()
    for cell, word in enumerate(words):
        await expect(board.locator(".ttt-grid .ttt-cell").nth(cell)).to_have_text(word)


async def test_host_screen_and_three_phones_play_a_turn(new_player: NewPlayer) -> None:
    tv = await new_player("Host", viewport=LAPTOP)
    phones = [await new_player(name, viewport=PHONE) for name in ("Ada", "Bob", "Cy")]
    ada, bob, cy = phones

    created = await tv.context.request.post("/api/rooms", data={"game": "tic-tac-top", "options": OPTIONS, "seed": 8})
    assert created.ok, await created.text()
    code = (await created.json())["code"]
    await tv.goto(f"/r/{code}")
    await expect(tv.locator(".qr img")).to_be_visible()
    await tv.get_by_role("button", name="Stand up").click()  # the TV leaves the seat it took creating the room
    await expect(tv.locator("#seat-list .seat-mine")).to_have_count(0)
    for seat, phone in enumerate(phones):
        await phone.goto(f"/r/{code}")
        await sit(phone, seat, ["Ada", "Bob", "Cy"][seat])
        await expect(tv.locator("#seat-list > li").nth(seat)).to_contain_text(["Ada", "Bob", "Cy"][seat])
    await tv.locator("#seat-list > li").nth(3).get_by_role("button", name=re.compile("bot", re.I)).click()
    start = tv.locator("#start-btn")
    await expect(start).to_be_enabled()
    await start.click()

    # ---- choose: the Leader's phone shows two theme cards; the TV shows who is choosing ----
    screen = tv.locator("#board .ttt")
    await expect(screen).to_have_class(re.compile("ttt-tv"))
    await expect(screen.locator(".ttt-role")).to_have_text("Host screen")
    await expect(screen.locator(".ttt-waiting-title")).to_contain_text("Ada is choosing")
    await expect(screen.locator(".ttt-offer.is-facedown")).to_have_count(2)
    offers = ada.locator("#board button.ttt-offer")
    await expect(offers).to_have_count(2)
    await expect(bob.locator("#board button.ttt-offer")).to_have_count(0)
    theme = (await offers.first.locator(".ttt-offer-name").inner_text()).strip()
    await offers.first.click()

    # ---- writing: everyone sees the 12 words; Bob and Cy fill their grids on their phones ----
    await expect(screen.locator(".ttt-theme-name")).to_have_text(theme)
    await expect(screen.locator(".ttt-card-word")).to_have_count(12)
    words = [w.strip() for w in await screen.locator(".ttt-card-word").all_inner_texts()]
    await fill_word_then_cell(bob, words[:9])
    # Moving a word: tap a filled cell, then another filled cell: the two swap.
    bob_cells = bob.locator("#board .ttt-grid.is-editable .ttt-cell")
    await bob_cells.nth(0).click()
    await bob_cells.nth(8).click()
    await expect(bob_cells.nth(0)).to_have_text(words[8])
    await expect(bob_cells.nth(8)).to_have_text(words[0])
    await bob.locator("#board .ttt-lock").click()
    await expect(bob.locator("#board .ttt-own")).to_contain_text("Your grid is locked")

    await fill_cell_then_words(cy, list(reversed(words))[:9])
    # With blanks, locking asks for a second tap; Cy's grid is full, so one tap locks it.
    await cy.locator("#board .ttt-lock").click()
    await expect(cy.locator("#board .ttt-own")).to_contain_text("Your grid is locked")
    await expect(screen.locator(".ttt-writer.is-finished")).to_have_count(3)  # the bot finished too
    # The bot is named with its level, as in every other game (seat 4, the normal level by default).
    await expect(screen.locator(".ttt-writer .ttt-seat-name").filter(has_text="Bot 4")).to_have_text("Bot 4 (normal)")
    # The shared screen shows progress only: no grid, no word placement.
    assert await screen.locator(".ttt-grid").count() == 0

    # ---- the Leader ranks 7 words by tapping, reorders one, undoes one, submits ----
    board = ada.locator("#board")
    for word in words[2:9]:
        await board.locator(".ttt-chip", has_text=word).click()
    await expect(board.locator(".ttt-submit")).to_be_enabled()
    await board.get_by_role("button", name=f"Move “{words[8]}” up").click()
    # Dragging a number moves its word (there and back again).
    items = board.locator(".ttt-ranklist .ttt-rank-item")
    await items.nth(0).locator(".ttt-grip").drag_to(items.nth(2))
    await expect(items.nth(2)).to_contain_text(words[2])
    await expect(items.nth(0)).to_contain_text(words[3])
    await items.nth(2).locator(".ttt-grip").drag_to(items.nth(0))
    await expect(items.nth(0)).to_contain_text(words[2])
    await board.get_by_role("button", name=re.compile("Undo")).click()
    await expect(board.locator(".ttt-submit")).to_be_disabled()
    await board.locator(".ttt-chip", has_text=words[11]).click()
    ranking = [w.strip() for w in await board.locator(".ttt-ranklist .ttt-rank-word").all_inner_texts()]
    assert ranking == [*words[2:7], words[8], words[11]]
    await board.locator(".ttt-submit").click()

    # ---- the reveal: every grid is public now; the Leader's phone paces the words ----
    await expect(screen.locator(".ttt-gridcard")).to_have_count(3)
    await expect(screen.locator(".ttt-announce")).to_be_visible()
    next_word = board.locator(".ttt-next")
    for k in range(1, 8):
        await expect(screen.locator(".ttt-step.is-done")).to_have_count(k - 1)
        await next_word.click()
        if k < 7:
            await expect(screen.locator(".ttt-step.is-done")).to_have_count(k)
            await expect(screen.locator(".ttt-announce-word")).to_have_text(ranking[k - 1])
    # The Leader's taps did it, not the show's timer (whose steps are logged with the actor "pace").
    await expect(tv.locator("#log")).to_contain_text(f"Word 7 of the ranking: {ranking[6]}")
    announced = tv.locator('#log li[data-key="tic-tac-top.log.announced"]')
    await expect(announced).to_have_count(7)
    assert [await item.get_attribute("data-actor") for item in await announced.all()] == [""] * 7

    # ---- the turn's scoring, line by line, then the standings, on the TV and the phones ----
    await expect(screen.locator(".ttt-scoring")).to_be_visible()
    parts = [p.strip() for p in await screen.locator(".ttt-score-row .ttt-part").all_inner_texts()]
    assert parts[0] == "A" and "B" in parts and parts.count("D") == 3
    assert parts.index("B") < parts.index("D") and all(p == "C" for p in parts[1 : parts.index("B")])
    await expect(screen.locator(".ttt-standing")).to_have_count(4)
    # Each seat's tooltip is the seat itself, phrased by the page: the view only numbers seats.
    titles = await screen.locator(".ttt-standing .ttt-seat").evaluate_all("(chips) => chips.map((c) => c.title)")
    assert sorted(titles) == [f"Player {n}" for n in range(1, 5)]
    await expect(bob.locator("#board .ttt-standing")).to_have_count(4)
    # Bob's own grid leads his phone's reveal, circled where the Leader's words are.
    circled = await bob.locator("#board .ttt-own-reveal .ttt-cell.is-marked").count()
    assert circled == len(set(ranking) & set(words[:9]))
    await board.locator(".ttt-next").click()

    # ---- turn 2: Bob leads ----
    await expect(screen.locator(".ttt-turn")).to_have_text("Turn 2 of 4")
    await expect(bob.locator("#board button.ttt-offer")).to_have_count(2)
    await expect(ada.locator("#board .ttt-waiting-title")).to_contain_text("Bob is choosing")
