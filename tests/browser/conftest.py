"""Real Chromium (Debian's package) driven by Playwright; skipped with the reason when Chromium is missing,
a failure under CI=true."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
from playwright.async_api import Browser, BrowserContext, Page, async_playwright

from tests.support.server import ServerProcess
from tests.support.services import require_chromium

pytestmark = pytest.mark.browser

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1280, "height": 860}


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    executable = require_chromium()
    async with async_playwright() as pw:
        b = await pw.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            await b.close()


NewPlayer = Callable[..., Awaitable[Page]]


@pytest.fixture
async def new_player(browser: Browser, sqlite_server: ServerProcess) -> AsyncIterator[NewPlayer]:
    """A fresh browser context (its own cookies = its own player) on the live server, named ``name``."""
    contexts: list[BrowserContext] = []
    errors: list[str] = []

    async def make(name: str | None = None, viewport: dict[str, int] | None = None) -> Page:
        context = await browser.new_context(viewport=viewport or LAPTOP, base_url=sqlite_server.url)
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = await context.new_page()
        page.on("pageerror", lambda exc: errors.append(f"{name}: {exc}"))
        if name is not None:
            response = await context.request.post("/api/me", data={"name": name})
            assert response.ok, await response.text()
        return page

    yield make
    for context in contexts:
        await context.close()
    assert not errors, f"JavaScript errors in the page: {errors}"
