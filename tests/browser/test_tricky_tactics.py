"""Two people play a few tricks of Tricky Tactics against the automa in Chromium; a third watches."""

from __future__ import annotations

import re

from playwright.async_api import Page, expect

from tests.browser.conftest import PHONE, NewPlayer
from tests.browser.tables import expect_in_first_seat, first_attached, open_table
from tests.support.server import ServerProcess

SUIT_OF_SYMBOL = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


async def must_follow(page: Page) -> str | None:
    """The suit the hand's hint says must be followed (None when any card may be played)."""
    text = await page.locator(".tk-hand-hint").inner_text()
    found = re.search(r"must follow ([♠♥♦♣])", text)
    return SUIT_OF_SYMBOL[found.group(1)] if found else None


async def moves(page: Page) -> int:
    return await page.locator("#log li:not(.log-empty)").count()


async def test_two_humans_and_the_automa_play_tricks(new_player: NewPlayer) -> None:
    host = await new_player("Ada")
    guest = await new_player("Bob", viewport=PHONE)
    watcher = await new_player("Cy")

    response = await host.context.request.post(
        "/api/rooms", data={"game": "tricky-tactics", "options": {"mode": "automa"}, "seed": 3}
    )
    assert response.ok, await response.text()
    code = (await response.json())["code"]
    for page in (host, guest, watcher):
        await page.goto(f"/r/{code}")
    await expect_in_first_seat(host, "Ada")
    await guest.locator("#seat-list button", has_text=re.compile("Sit", re.I)).first.click()
    await expect(host.locator("#seat-list")).to_contain_text("Bob")
    await host.locator("#start-btn").click()

    for page in (host, guest, watcher):
        await expect(page.locator(".tk")).to_be_visible()
        # The map: four Areas with K, Q and J each; the automa with its Reveal Row and face-down deck.
        await expect(page.locator(".tk-area")).to_have_count(4)
        await expect(page.locator(".tk-loc")).to_have_count(12)
        await expect(page.locator(".tk-automa .tk-reveal")).to_be_visible()
        await expect(page.locator(".tk-automa .tk-deck-count")).to_contain_text("face down")
        await expect(page.locator(".tk-player")).to_have_count(3)
    # Real cards in the hands: 12 each, sorted by suit; the spectator has no hand.
    await expect(host.locator(".tk-hand-card")).to_have_count(12)
    await expect(guest.locator(".tk-hand-card")).to_have_count(12)
    assert await watcher.locator(".tk-hand-card").count() == 0
    await expect(watcher.locator(".tk-spectating")).to_be_visible()

    checked_follow = False
    keyboard_played = False
    acted = 0
    blocked_card: str | None = None
    hand_before_play = 0
    for _ in range(40):
        # Whichever comes first: the fourth trick, or a human's move to make (a Location or a card).
        ready = await first_attached(
            host.locator(".tk-chip", has_text="Trick 4 of 12"),
            host.locator(".tk-target, .tk-hand-card.is-playable"),
            guest.locator(".tk-target, .tk-hand-card.is-playable"),
        )
        if ready == 0:
            break
        page = host if ready == 1 else guest
        before = await moves(page)
        # Between the automa's turns at most its carryover is face up; the rest are backs.
        assert await page.locator(".tk-reveal .tk-card[data-card]").count() <= 1
        targets = page.locator(".tk-target")
        if await targets.count():
            # After winning a trick: only the led suit's Locations are offered.
            locations = await targets.evaluate_all("els => els.map(e => e.dataset.location)")
            pending = await page.locator(".tk-area.is-pending").get_attribute("data-suit")
            assert locations and all(loc[1] == pending for loc in locations)
            await targets.first.click()
        else:
            playable = await page.locator(".tk-hand-card.is-playable").evaluate_all(
                "els => els.map(e => e.dataset.card)"
            )
            hand = await page.locator(".tk-hand-card").evaluate_all("els => els.map(e => e.dataset.card)")
            led = await must_follow(page)
            if led:
                assert any(c[-1] == led for c in hand)
                assert sorted(playable) == sorted(c for c in hand if c[-1] == led)
                blocked = page.locator(".tk-hand-card.is-blocked")
                if await blocked.count() and not checked_follow:
                    # An off-suit card is not playable: clicking it does nothing.
                    await expect(blocked.first).to_have_attribute("aria-disabled", "true")
                    blocked_card = await blocked.first.get_attribute("data-card")
                    await blocked.first.click(force=True)
                    # The click handler sends nothing for it (checked again below, once the legal play that
                    # follows on the same socket is answered: any answer to this click comes before it).
                    assert await moves(page) == before
                    assert await page.locator(".tk-hand-card").count() == len(hand)
                    hand_before_play = len(hand)
                    checked_follow = True
            else:
                assert sorted(playable) == sorted(hand)
            if not keyboard_played:
                card = page.locator(f'.tk-hand-card[data-card="{playable[0]}"]')
                await card.focus()
                await page.keyboard.press("Enter")
                keyboard_played = True
            else:
                await page.locator(".tk-hand-card.is-playable").last.click()
        # The move is logged (followed by what the automa did on its own: its plays and Actions).
        await expect(page.locator("#log li:not(.log-empty)").nth(before)).to_have_text(re.compile(r"^(Ada|Bob) "))
        if blocked_card is not None:
            # The barrier for the blocked click: the one card played is the legal one; the off-suit card is
            # still in the hand.
            await expect(page.locator(".tk-hand-card")).to_have_count(hand_before_play - 1)
            await expect(page.locator(f'.tk-hand-card[data-card="{blocked_card}"]')).to_have_count(1)
            blocked_card = None
        acted += 1
    await expect(host.locator(".tk-chip", has_text="Trick 4 of 12")).to_be_visible()
    assert acted >= 6 and keyboard_played and checked_follow

    for page in (host, guest, watcher):
        # The automa explained its play in one line; the feed shows the tricks and the Actions.
        await expect(page.locator(".tk-automa .tk-reason-text").first).not_to_be_empty()
        await expect(page.locator(".tk-feed-list")).to_contain_text("won trick")
        # Three tricks won means three cubes somewhere on the map (or removed: supplies account for it).
        assert await page.locator(".tk-loc-cubes .tk-cube").count() >= 1
    # Nobody sees an unrevealed automa card: the spectator's page shows no more face-up automa cards
    # than the carryover, and no hand at all.
    assert await watcher.locator(".tk-hand-card").count() == 0
    assert await watcher.locator(".tk-reveal .tk-card[data-card]").count() <= 1
    # The phone layout fits its 360 px.
    assert await guest.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


async def test_the_result_lists_every_place_once(new_player: NewPlayer, sqlite_server: ServerProcess) -> None:
    """Two bots and the automa play a whole game: every place, the automa's too, is listed once, under one
    heading naming the winner."""
    page = await new_player("Cy")
    await open_table(page, sqlite_server.url, "tricky-tactics", {"mode": "automa"}, seat=None)
    result = page.locator("#result")
    await expect(result).to_be_visible(timeout=90_000)
    rows = page.locator("#board .tk-final-table tbody tr")
    await expect(rows).to_have_count(3)
    await expect(rows.filter(has_text="Automa")).to_have_count(1)
    await expect(result.locator(".result-scores")).to_have_count(0)
    await expect(page.locator("#game").get_by_role("heading", name=re.compile("wins|draw", re.I))).to_have_count(1)
