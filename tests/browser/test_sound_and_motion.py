"""Sound effects are off until switched on, remembered, and synthesised with WebAudio as the game goes on;
moves and results are animated briefly, and not at all when the browser asks for reduced motion."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest
from playwright.async_api import Page, expect
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from tests.browser.conftest import LAPTOP, PHONE, NewPlayer
from tests.browser.tables import games, open_table, quick_options
from tests.support.inprocess import InProcessServer
from tests.support.server import ServerProcess

# Records every CSS animation and transition that starts, with its computed duration in seconds.
MOTION_RECORDER = """
window.__motion = [];
const seconds = (raw) => Math.max(0, ...String(raw).split(',').map((x) => {
  const v = parseFloat(x);
  return x.trim().endsWith('ms') ? v / 1000 : v;
}));
const note = (kind) => (event) => {
  const style = getComputedStyle(event.target);
  const raw = kind === 'animation' ? style.animationDuration : style.transitionDuration;
  const cls = event.target.getAttribute && event.target.getAttribute('class');
  window.__motion.push({kind, name: event.animationName || event.propertyName, secs: seconds(raw), cls});
};
document.addEventListener('animationstart', note('animation'), true);
document.addEventListener('transitionstart', note('transition'), true);
"""

# Counts the oscillators the page creates (every synthesised blip uses at least one).
AUDIO_COUNTER = """
window.__oscillators = 0;
for (const Ctor of [window.AudioContext, window.webkitAudioContext].filter(Boolean)) {
  const original = Ctor.prototype.createOscillator;
  Ctor.prototype.createOscillator = function () {
    window.__oscillators += 1;
    return original.call(this);
  };
}
"""

# Small tables that bots play quickly (a game not listed: its first variant).
QUICK = {
    "tri-tac": {"size": 3},
    "trick-tac-foe": {"players": 2, "one_shot": True},
    "tic-tac-match": {"players": 2},
    "tricky-tactics": {"mode": "automa", "rounds": 1},
    "tic-tac-top": {"players": 3},
}


async def log_lines(page: Page) -> int:
    return await page.locator("#log li:not(.log-empty)").count()


async def watch_bots(page: Page, server: ServerProcess, game: str, moves: int = 3) -> None:
    """Open a room where bots hold every seat and the page's player watches, until `moves` log lines."""
    await open_table(page, server.url, game, QUICK.get(game) or quick_options(game), seat=None)
    await expect(page.locator("#log li:not(.log-empty)").nth(moves - 1)).to_be_attached(timeout=30_000)
    # Animation and transition events are sent in the rendering step of the frame after the one that drew
    # the move: two frames on, every animation the moves started has been recorded.
    await page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


# True once the recorder has seen the board itself move (not the log's fade, the connection dot, the result).
BOARD_MOVED = """() => window.__motion.some((m) => m.secs > 0.05
  && !['log-new', 'conn-dot', 'result'].some((c) => (m.cls || '').includes(c)))"""


@pytest.fixture
def sqlite_server(sqlite_url: str) -> Iterator[InProcessServer]:
    """This module's server (and so its pages' ``new_player``): bots at a pace a person could follow (~0.2 s
    a move). At the suite's usual pace (~40 ms) a slow machine's browser may not paint a frame between two
    moves, and an animation that is never painted never starts: the test would measure the machine."""
    server = InProcessServer(sqlite_url, extra_env={"THREEFOLD_BOT_PACE": "0.25"}).start()
    yield server
    server.stop()


@pytest.mark.parametrize("game", games())
async def test_moves_are_animated_unless_motion_is_reduced(
    new_player: NewPlayer, sqlite_server: ServerProcess, game: str
) -> None:
    for reduced in ("no-preference", "reduce"):
        page = await new_player(f"Viewer {reduced}", viewport=PHONE)
        await page.add_init_script(MOTION_RECORDER)
        await page.emulate_media(reduced_motion=reduced)  # type: ignore[arg-type]
        await watch_bots(page, sqlite_server, game)
        if reduced == "no-preference":
            # A move's animation may start after its log line (a timeline's later step): wait for it (the
            # assertion below reports what moved if it never comes).
            with contextlib.suppress(PlaywrightTimeoutError):
                await page.wait_for_function(BOARD_MOVED, timeout=10_000)
        motion = await page.evaluate("window.__motion")
        moving = [m for m in motion if m["secs"] > 0.05]
        if reduced == "reduce":
            assert not moving, f"{game}: animations with reduced motion: {moving[:8]}"
        else:
            # The board itself moves, not only the page around it (the log's fade, the connection dot).
            board = [m for m in moving if not any(c in (m["cls"] or "") for c in ("log-new", "conn-dot", "result"))]
            assert board, f"{game}: no move animation on the board while bots played ({moving[:8]})"
        await page.close()


async def test_sound_is_off_until_switched_on_and_remembered(
    new_player: NewPlayer, sqlite_server: ServerProcess
) -> None:
    page = await new_player("Ada", viewport=PHONE)
    await page.add_init_script(AUDIO_COUNTER)
    await open_table(page, sqlite_server.url, "tri-tac", QUICK["tri-tac"], start=False, seat=None)
    toggle = page.locator("#sound-toggle")
    await expect(toggle).to_have_attribute("aria-pressed", "false")
    await expect(toggle).to_have_accessible_name("Sound effects")

    # Off: bots play a whole game in silence.
    await open_table(page, sqlite_server.url, "tri-tac", QUICK["tri-tac"], seat=None)
    await expect(page.locator("#result")).to_be_visible(timeout=30_000)
    assert await page.evaluate("window.__oscillators") == 0

    # Switched on from the keyboard: a confirming blip, and the choice survives a reload.
    await toggle.focus()
    await page.keyboard.press("Enter")
    await expect(toggle).to_have_attribute("aria-pressed", "true")
    assert await page.evaluate("localStorage.getItem('tf_sound')") == "on"
    assert await page.evaluate("window.__oscillators") >= 1
    await page.reload()
    await expect(page.locator("#sound-toggle")).to_have_attribute("aria-pressed", "true")

    # On: a live game makes sounds (moves, the result).
    await open_table(page, sqlite_server.url, "tri-tac", QUICK["tri-tac"], seat=None)
    await expect(page.locator("#result")).to_be_visible(timeout=30_000)
    await page.wait_for_function("window.__oscillators >= 3")

    # And off again.
    await page.locator("#sound-toggle").focus()
    await page.keyboard.press("Enter")
    await expect(page.locator("#sound-toggle")).to_have_attribute("aria-pressed", "false")
    assert await page.evaluate("localStorage.getItem('tf_sound')") == "off"


async def test_the_colour_scheme_switch_is_remembered(new_player: NewPlayer) -> None:
    """Light, dark or as the device, from the header, and remembered on the next page."""
    page = await new_player("Ada", viewport=PHONE)
    await page.emulate_media(color_scheme="light")
    await page.goto("/")
    background = "() => getComputedStyle(document.body).backgroundColor"
    light = await page.evaluate(background)
    dark_button = page.get_by_role("button", name="Dark")
    await dark_button.click()
    await expect(dark_button).to_have_attribute("aria-pressed", "true")
    assert await page.evaluate(background) != light
    await page.goto("/rules/tri-tac")
    await expect(page.get_by_role("button", name="Dark")).to_have_attribute("aria-pressed", "true")
    assert await page.evaluate(background) != light
    await page.get_by_role("button", name="As the device").click()
    assert await page.evaluate(background) == light


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["side-column", "drawer"])
async def test_the_colour_scheme_switch_is_within_reach_at_the_table(
    new_player: NewPlayer, sqlite_server: ServerProcess, viewport: dict[str, int]
) -> None:
    """At the table the site header, and its switch, is hidden: the side column (a drawer on a phone) has the
    same switch, labelled and reached from the keyboard, and flipping it mid-game recolours the page."""
    page = await new_player("Ada", viewport=viewport)
    await page.emulate_media(color_scheme="light")
    await open_table(page, sqlite_server.url, "tri-tac", QUICK["tri-tac"])
    await expect(page.locator(".site-header")).to_be_hidden()
    background = "() => getComputedStyle(document.body).backgroundColor"
    light = await page.evaluate(background)
    if viewport == PHONE:
        await page.locator("#side-toggle").click()
    switch = page.locator("#side-col").get_by_role("group", name="Colours")
    await expect(switch).to_be_visible()
    await switch.get_by_role("button", name="Light").focus()
    await page.keyboard.press("Tab")
    dark = switch.get_by_role("button", name="Dark")
    await expect(dark).to_be_focused()
    await page.keyboard.press("Enter")
    await expect(dark).to_have_attribute("aria-pressed", "true")
    assert await page.evaluate(background) != light
    assert await page.evaluate("localStorage.getItem('tf_theme')") == "dark"
    await expect(page.locator("#room")).to_have_attribute("data-status", "playing")  # still mid-game
    await switch.get_by_role("button", name="As the device").click()
    assert await page.evaluate(background) == light
