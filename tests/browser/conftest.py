"""Real Chromium (Debian's package) driven by Playwright; skipped with the reason when Chromium is missing,
a failure under CI=true.

One Chromium per test process, launched by the first browser test and shared by the rest: launching it is
3–5 s under load, a new BrowserContext a few milliseconds. Each test still starts clean: ``browser`` hands
it the shared Chromium with no context open, and whatever contexts the test opened (``new_player``'s or its
own) are closed when it ends, so no cookie, storage, viewport, locale or page outlives the test. A Chromium
that went away (crashed, or killed by a timed-out test) is launched again for the next test, and one whose
contexts would not close is replaced, so one broken test does not fail the ones after it.

Playwright's objects belong to the event loop that made them, so the browser tests (and their async
fixtures) all run in pytest-asyncio's session loop (``pytest_collection_modifyitems`` below)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest
import pytest_asyncio
from playwright.async_api import Browser, BrowserContext, Page, Playwright, async_playwright
from pytest_asyncio import is_async_test

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
    "--in-process-gpu",  # headless draws in software: a GPU process of its own only adds IPC for every frame
]
PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1280, "height": 860}

log = logging.getLogger(__name__)
HERE = Path(__file__).parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The browser tests run in the session's event loop, the one the shared Chromium was launched from."""
    session_loop = pytest.mark.asyncio(loop_scope="session")
    for item in items:
        if is_async_test(item) and HERE in item.path.parents:
            item.add_marker(session_loop, append=False)


class Chromium:
    """The test process's Chromium: launched on first use, and again whenever the last one is gone."""

    def __init__(self, playwright: Playwright, executable: str) -> None:
        self.playwright = playwright
        self.executable = executable
        self.browser: Browser | None = None
        self.launches = 0

    async def get(self) -> Browser:
        if self.browser is None or not self.browser.is_connected():
            self.browser = await self.playwright.chromium.launch(
                executable_path=self.executable, headless=True, args=CHROMIUM_ARGS
            )
            self.launches += 1
        return self.browser

    async def tidy(self) -> None:
        """Close every context the test left open; a Chromium that cannot do so is closed, to be relaunched."""
        browser = self.browser
        if browser is None or not browser.is_connected():
            return
        try:
            for context in list(browser.contexts):
                await context.close()
        except Exception:  # the next test must get a working browser, whatever state this one left it in
            log.warning("could not close a browser context: relaunching Chromium", exc_info=True)
            await self.close()

    async def close(self) -> None:
        browser, self.browser = self.browser, None
        if browser is not None and browser.is_connected():
            try:
                await browser.close()
            except Exception:
                log.warning("could not close Chromium", exc_info=True)


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def chromium() -> AsyncIterator[Chromium]:
    executable = require_chromium()
    async with async_playwright() as pw:
        shared = Chromium(pw, executable)
        try:
            yield shared
        finally:
            await shared.close()


@pytest_asyncio.fixture(loop_scope="session")
async def browser(chromium: Chromium) -> AsyncIterator[Browser]:
    """The shared Chromium, with no context open; the test's contexts are closed when it ends."""
    b = await chromium.get()
    if b.contexts:  # a fixture or test before this one left something open
        await chromium.tidy()
        b = await chromium.get()
    assert not b.contexts
    yield b
    await chromium.tidy()


NewPlayer = Callable[..., Awaitable[Page]]


@pytest_asyncio.fixture(loop_scope="session")
async def new_player(browser: Browser, sqlite_server: ServerProcess) -> AsyncIterator[NewPlayer]:
    """A fresh browser context (its own cookies = its own player) on the live server, named ``name``. It
    prefers reduced motion, as a test that checks motion says otherwise (``emulate_media``): an endless CSS
    animation (the player to move, a legal cell) has Chromium draw frames for every open page as long as it is
    open, and Chromium is most of the suite's CPU; the tests look at what is shown, not at how it moves."""
    contexts: list[BrowserContext] = []
    errors: list[str] = []

    async def make(name: str | None = None, viewport: dict[str, int] | None = None) -> Page:
        context = await browser.new_context(
            viewport=viewport or LAPTOP, base_url=sqlite_server.url, reduced_motion="reduce"
        )
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
