"""Learn while the room waits: a guest opens the chosen game's lesson in a panel of the lobby, the host's
lobby shows "learning 3/6" on the guest's seat, and when the host starts the game the lesson closes and the
game opens for the guest.

The lesson page (``/learn/<game>?embed=1``) is stood in for by a page this test serves in its place: the
panel only relies on what the lesson page posts to it (``threefold:lesson``, ``threefold:lesson-close``)."""

from __future__ import annotations

import re

from playwright.async_api import Frame, Page, Route, expect

from tests.browser.conftest import PHONE, NewPlayer
from tests.browser.tables import expect_in_first_seat

LESSON_STAND_IN = "<!doctype html><html lang='en'><title>Lesson</title><main><p>A lesson</p></main></html>"


async def lesson_stand_in(route: Route) -> None:
    await route.fulfill(status=200, content_type="text/html", body=LESSON_STAND_IN)


async def lesson_frame(page: Page, game: str) -> Frame:
    frame_element = page.locator("#learn-panel iframe")
    await expect(frame_element).to_have_attribute("src", re.compile(rf"^/learn/{game}\?embed=1&from=\w+$"))
    handle = await frame_element.element_handle()
    assert handle is not None
    frame = await handle.content_frame()
    assert frame is not None
    await frame.wait_for_load_state()
    return frame


async def post_from(frame: Frame, message: dict[str, object]) -> None:
    """What the lesson page does: post to the room page, for this site only."""
    await frame.evaluate("(message) => window.parent.postMessage(message, location.origin)", message)


async def room_with_a_guest(new_player: NewPlayer, guest_viewport: dict[str, int] | None = None) -> tuple[Page, Page]:
    host = await new_player("Ada")
    guest = await new_player("Bob", viewport=guest_viewport)
    await guest.route("**/learn/**", lesson_stand_in)
    response = await host.context.request.post("/api/rooms", data={"game": "tri-tac", "options": {"size": 4}})
    assert response.ok, await response.text()
    code = (await response.json())["code"]
    await host.goto(f"/r/{code}")
    await expect_in_first_seat(host, "Ada")
    await guest.goto(f"/r/{code}")
    await guest.get_by_role("button", name=re.compile(r"^Sit here")).first.click()
    await expect(host.locator("#seat-list .seat-card").nth(1)).to_contain_text("Bob")
    return host, guest


async def test_a_guest_learning_shows_on_their_seat_and_the_game_closes_the_lesson(new_player: NewPlayer) -> None:
    host, guest = await room_with_a_guest(new_player)
    bobs_seat = host.locator("#seat-list .seat-card").nth(1)
    learn = guest.get_by_role("button", name="Learn Tri-Tac")
    await learn.click()
    panel = guest.locator("#learn-panel")
    await expect(panel).to_be_visible()
    await expect(panel.get_by_role("heading")).to_have_text("Lesson: Tri-Tac")
    frame = await lesson_frame(guest, "tri-tac")
    # The side panel leaves the lobby usable: the guest can still stand up or chat.
    await expect(guest.get_by_role("button", name="Stand up")).to_be_visible()

    await post_from(frame, {"type": "threefold:lesson", "game": "tri-tac", "step": 3, "of": 6, "finished": False})
    await expect(bobs_seat.locator(".learning-note")).to_have_text("learning 3/6")
    # Only that iframe speaks for the lesson: the same message from the page itself, or about another game,
    # is not relayed.
    await guest.evaluate(
        "() => window.postMessage({type: 'threefold:lesson', game: 'tri-tac', step: 5, of: 6}, location.origin)"
    )
    await post_from(frame, {"type": "threefold:lesson", "game": "tic-tac-match", "step": 4, "of": 6})
    await post_from(frame, {"type": "threefold:lesson", "game": "tri-tac", "step": 9, "of": 9})
    await post_from(frame, {"type": "threefold:lesson", "game": "tri-tac", "step": 4, "of": 6})
    await expect(bobs_seat.locator(".learning-note")).to_have_text("learning 4/6")
    # The guest sees it on their own seat too, and the host's own seat says nothing of it.
    await expect(guest.locator("#seat-list .seat-card").nth(1).locator(".learning-note")).to_have_text("learning 4/6")
    await expect(host.locator("#seat-list .seat-card").first.locator(".learning-note")).to_have_count(0)

    # The lesson page's close: the panel closes and the seat no longer says it.
    await post_from(frame, {"type": "threefold:lesson-close"})
    await expect(panel).to_be_hidden()
    await expect(bobs_seat.locator(".learning-note")).to_have_count(0)
    await expect(learn).to_be_focused()

    await learn.click()
    frame = await lesson_frame(guest, "tri-tac")
    await post_from(frame, {"type": "threefold:lesson", "game": "tri-tac", "step": 2, "of": 6, "finished": False})
    await expect(bobs_seat.locator(".learning-note")).to_have_text("learning 2/6")

    # The host starts: the lesson closes and the game opens for the guest, who waited for nothing.
    await host.get_by_role("button", name="Start game").click()
    await expect(guest.locator("#game")).to_be_visible()
    await expect(panel).to_be_hidden()
    await expect(guest.locator("#learn-panel iframe")).to_have_count(0)
    await expect(host.locator("#game")).to_be_visible()
    summary = await (await host.context.request.get(f"/api/rooms/{guest.url.rsplit('/', 1)[-1]}")).json()
    assert [seat["player"]["learning"] for seat in summary["seats"]] == [None, None]


async def test_on_a_phone_the_lesson_is_a_dialog_closed_by_its_button(new_player: NewPlayer) -> None:
    host, guest = await room_with_a_guest(new_player, guest_viewport=PHONE)
    await guest.get_by_role("button", name="Learn Tri-Tac").click()
    panel = guest.locator("#learn-panel")
    await expect(panel).to_be_visible()
    assert await panel.evaluate("(dialog) => dialog.matches(':modal')")
    box = await panel.bounding_box()
    assert box is not None and box["width"] == PHONE["width"] and box["height"] == PHONE["height"]
    frame = await lesson_frame(guest, "tri-tac")
    await post_from(frame, {"type": "threefold:lesson", "game": "tri-tac", "step": 1, "of": 6, "finished": False})
    bobs_seat = host.locator("#seat-list .seat-card").nth(1)
    await expect(bobs_seat.locator(".learning-note")).to_have_text("learning 1/6")
    await guest.get_by_role("button", name="Close the lesson").click()
    await expect(panel).to_be_hidden()
    await expect(bobs_seat.locator(".learning-note")).to_have_count(0)
