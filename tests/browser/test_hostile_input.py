"""Hostile names and chat are shown as text everywhere, never run; pages carry a strict CSP."""

from __future__ import annotations

import re

from playwright.async_api import expect

from tests.browser.conftest import NewPlayer

HOSTILE = '<img src=x onerror="window.pwned=1">'


async def test_hostile_names_and_chat_are_plain_text(new_player: NewPlayer) -> None:
    host = await new_player(HOSTILE[:24])
    guest = await new_player("<script>pwned=1</script>"[:24])
    dialogs: list[str] = []
    for page in (host, guest):
        page.on("dialog", lambda d: dialogs.append(d.message))
    await host.goto("/")
    response = await host.goto("/")
    assert response is not None
    csp = response.headers.get("content-security-policy", "")
    assert "script-src 'self'" in csp and "object-src 'none'" in csp
    await host.locator('.game-card-create[data-game="tri-tac"]').click()
    await host.wait_for_url(re.compile(r"/r/[A-Z0-9]{5}$"))
    await guest.goto(host.url)
    await expect(host.locator("#conn")).to_have_attribute("data-status", "online")
    await expect(guest.locator("#conn")).to_have_attribute("data-status", "online")
    # The names show up literally, as text.
    await expect(host.locator("body")).to_contain_text(HOSTILE[:24])
    await expect(host.locator("body")).to_contain_text("<script>pwned=1</script>"[:24])
    chat = guest.get_by_placeholder(re.compile("message", re.I)).first
    await chat.fill(HOSTILE + " <b>bold</b>")
    await chat.press("Enter")
    await expect(host.locator("body")).to_contain_text("<b>bold</b>")
    for page in (host, guest):
        assert await page.evaluate("() => window.pwned === undefined")
        assert await page.locator("img[src='x']").count() == 0
        assert await page.locator("b", has_text="bold").count() == 0
    assert dialogs == []
