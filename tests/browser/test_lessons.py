"""The lesson page (/learn/<game>, static/js/learn.js): every game's lesson completed in English by mouse at a
laptop size and in French by keyboard at a phone size; a refused move explained with its rule; the hint after
two misses; a legal move that misses the point played out then taken back; a 404 for an unknown game; and at
each size, a step that fits the screen and that axe-core finds clean.

A step's move is made through the page as a learner would after pressing "Show me": each control the hint rings
(``[data-hint-step="1"]``, the next one left to use) is clicked, or focused and pressed with Enter, until the
step gives its verdict. Every renderer's ``hint`` hook rings its own controls (a card, a cell, a button), so no
game needs an adapter of its own; one whose move cannot be made that way fails here."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from playwright.async_api import Browser, BrowserContext, Locator, Page, expect

from app import i18n
from engines.registry import get_game
from tests.browser.tables import games
from tests.browser.test_accessibility import audit
from tests.browser.test_one_screen import assert_one_screen
from tests.support.server import ServerProcess

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
SIZES = [(1366, 768), (1280, 720), (390, 844), (360, 740)]
MAX_CLICKS = 12  # controls a step's move may need (Tic Tac Top's ranking: a removal, an addition, Submit)

# A move each game's rules refuse on its first step, as the page would send it: what it says is the
# refusal's own text (the rule it breaks), phrased like a refusal in a game.
REFUSED: dict[str, dict[str, Any]] = {
    "tri-tac": {"type": "place", "cell": [0, 0]},
    "trick-tac-foe": {"type": "commit", "card": "KD"},
    "tic-tac-match": {"type": "play", "card": 26, "cell": [1, 1]},
    "tricky-tactics": {"type": "play", "card": "KD"},
    "tic-tac-top": {"type": "place", "cell": 4, "word": "Sushi"},
}


def lesson_games() -> list[str]:
    return [game for game in games() if get_game(game).lesson is not None]


def plain(text: str) -> str:
    """Text as compared here: French typography's narrow and non-breaking spaces as plain ones."""
    return re.sub(r"\s+", " ", text.replace("\u202f", " ").replace("\u00a0", " ")).strip()


def catalogue(lang: str) -> dict[str, str]:
    found: dict[str, str] = json.loads(i18n.catalogue_json(lang))
    return found


def fixed_part(template: str) -> str:
    """The words of a catalogue text before its first placeholder (what any filling of it shows)."""
    return plain(template.split("{", 1)[0]).rstrip(" :")


@pytest_asyncio.fixture(loop_scope="session")
async def contexts(browser: Browser, sqlite_server: ServerProcess) -> AsyncIterator[Any]:
    made: list[BrowserContext] = []
    errors: list[str] = []

    async def open_lesson(game: str, lang: str = "en", viewport: dict[str, int] = LAPTOP, query: str = "") -> Page:
        context = await browser.new_context(
            viewport=viewport,  # type: ignore[arg-type]
            base_url=sqlite_server.url,
            reduced_motion="reduce",
        )
        context.set_default_timeout(10_000)
        made.append(context)
        await context.add_cookies([{"name": "tf_lang", "value": lang, "url": sqlite_server.url}])
        page = await context.new_page()
        page.on("pageerror", lambda exc: errors.append(f"{game} {lang}: {exc}"))
        await page.goto(f"/learn/{game}{query}")
        await expect(page.locator("#learn")).to_have_attribute("data-step", "1")
        return page

    yield open_lesson
    for context in made:
        await context.close()
    assert not errors, f"JavaScript errors in the page: {errors}"


async def press(page: Page, target: Locator, keyboard: bool) -> None:
    if keyboard:
        await target.focus()
        await page.keyboard.press("Enter")
    else:
        await target.click()


async def make_the_move(page: Page, game: str, keyboard: bool) -> None:
    """Show me, then use each ringed control in turn until the step gives its verdict."""
    await press(page, page.locator("#learn-actions [data-learn=hint]"), keyboard)
    verdict = page.locator("#learn-actions [data-learn=next], #learn-actions [data-learn=again]")
    either = page.locator('#board [data-hint-step="1"], #learn-actions [data-learn=next], #learn-actions [data-learn=again]')
    for _ in range(MAX_CLICKS):
        await expect(either.first).to_be_visible()
        if await verdict.count():
            return
        await press(page, page.locator('#board [data-hint-step="1"]'), keyboard)
    step = await page.locator("#learn").get_attribute("data-step-id")
    raise AssertionError(f"{game}: the hinted controls of step {step} never made its move")


async def complete_lesson(page: Page, game: str, lang: str, keyboard: bool) -> None:
    texts = catalogue(lang)
    lesson = get_game(game).lesson
    assert lesson is not None
    total = len(lesson.steps)
    for n, step in enumerate(lesson.steps, 1):
        where = f"{game} ({lang}) step {n} {step.id}"
        await expect(page.locator("#learn")).to_have_attribute("data-step", str(n))
        counter = page.locator("#learn-counter")
        await expect(counter).to_have_text(f"{n} / {total}")
        label = await counter.get_attribute("aria-label")
        assert label and str(n) in label and str(total) in label, where
        prompt = await page.locator("#learn-prompt").text_content()
        assert plain(prompt or "") == plain(texts[f"{game}.lesson.{step.id}.prompt"]), where
        await make_the_move(page, game, keyboard)
        next_button = page.locator("#learn-actions [data-learn=next]")
        await expect(next_button, where).to_be_visible()
        await expect(next_button).to_be_focused()
        feedback = await page.locator("#learn-feedback").text_content()
        assert plain(feedback or "") == plain(texts[f"{game}.lesson.{step.id}.done"]), where
        await press(page, next_button, keyboard)
    end = page.locator("#learn-end")
    await expect(end).to_be_visible()
    await expect(end).to_be_focused()
    finished = await end.locator(".learn-end-text").text_content()
    assert plain(finished or "") == plain(texts[f"{game}.lesson.finished"])
    await expect(end.locator("[data-learn=bot]")).to_be_visible()


@pytest.mark.parametrize("game", lesson_games())
async def test_every_lesson_by_mouse_in_english_at_a_laptop_size(contexts: Any, game: str) -> None:
    page = await contexts(game, "en", LAPTOP)
    await complete_lesson(page, game, "en", keyboard=False)


@pytest.mark.parametrize("game", lesson_games())
async def test_every_lesson_by_keyboard_in_french_at_a_phone_size(contexts: Any, game: str) -> None:
    page = await contexts(game, "fr", PHONE)
    await complete_lesson(page, game, "fr", keyboard=True)


def test_every_lesson_has_a_refused_move() -> None:
    assert set(REFUSED) >= set(lesson_games()), f"add a refused first move for {set(lesson_games()) - set(REFUSED)}"


@pytest.mark.parametrize("game", lesson_games())
async def test_a_refused_move_is_explained_and_two_misses_show_the_move(contexts: Any, game: str) -> None:
    page = await contexts(game, "en", LAPTOP)
    texts = catalogue("en")
    action = REFUSED[game]
    # The move the learner makes reaches the page through the renderer's ctx.act, as in a game.
    refused = await page.evaluate("(a) => threefold.act(a).then(() => null, (err) => err.reason)", action)
    assert refused and refused["key"], f"{game}: {action} was not refused"
    feedback = page.locator("#learn-feedback")
    await expect(feedback).to_contain_text("Not allowed:")
    shown = plain(await feedback.text_content() or "")
    assert fixed_part(texts[refused["key"]]) in shown, f"{game}: {shown!r} does not say {texts[refused['key']]!r}"
    assert refused["key"] not in shown
    await expect(page.locator("#learn")).to_have_attribute("data-step", "1")
    await expect(page.locator("#board [data-hint-step]")).to_have_count(0)
    await page.evaluate("(a) => threefold.act(a).catch(() => null)", action)
    await expect(page.locator('#board [data-hint-step="1"]')).to_have_count(1)
    await expect(feedback).to_contain_text(plain(texts["learn.hint_shown"]))
    await expect(page.locator(".learn-hint-ring").first).to_be_visible()


async def test_a_move_that_misses_is_played_out_then_taken_back(contexts: Any) -> None:
    page = await contexts("tri-tac", "en", LAPTOP)
    texts = catalogue("en")
    cell = page.locator('.tt-cell[data-r="1"][data-c="0"]')
    await cell.click()
    await expect(page.locator("#learn-feedback")).to_have_text(plain(texts["tri-tac.lesson.goal.miss"]))
    again = page.locator("#learn-actions [data-learn=again]")
    await expect(again).to_be_focused()
    await expect(cell).to_have_attribute("aria-label", re.compile(r"\bX\b"))  # played out
    await again.click()
    await expect(page.locator('.tt-cell[data-r="1"][data-c="0"]')).to_have_attribute("aria-label", re.compile("empty"))
    await expect(page.locator("#learn")).to_have_attribute("data-step", "1")


async def test_an_unknown_game_or_step_is_a_404(contexts: Any, sqlite_server: ServerProcess, browser: Browser) -> None:
    page = await contexts(lesson_games()[0], "en", LAPTOP)
    response = await page.goto("/learn/no-such-game")
    assert response is not None and response.status == 404
    await expect(page.locator(".error-page")).to_be_visible()


async def test_a_lesson_from_a_room_goes_back_to_it(contexts: Any) -> None:
    game = lesson_games()[0]
    page = await contexts(game, "en", LAPTOP, query="?from=K7HXM")
    await expect(page.locator('.learn-links a[href="/r/K7HXM"]')).to_be_visible()
    page = await contexts(game, "en", LAPTOP, query="?from=<script>")
    await expect(page.locator(".learn-links a[href^='/r/']")).to_have_count(0)


@pytest.mark.parametrize(("width", "height"), SIZES)
async def test_a_step_fits_the_screen_and_is_accessible(contexts: Any, width: int, height: int) -> None:
    for n, game in enumerate(lesson_games()):
        page = await contexts(game, "en", {"width": width, "height": height})
        await expect(page.locator("#board > *").first).to_be_visible()
        await assert_one_screen(page, f"{game} lesson at {width}x{height}", ["#learn-prompt", "#learn-actions", "#board"])
        await page.locator("#learn-actions [data-learn=hint]").click()
        await assert_one_screen(page, f"{game} lesson with its hint at {width}x{height}", ["#board [data-hint-step='1']"])
        if n == 0:
            for scheme in ("light", "dark"):
                await page.emulate_media(color_scheme=scheme, reduced_motion="reduce")  # type: ignore[arg-type]
                await audit(page, f"{game} lesson at {width}x{height} ({scheme})")
        await page.context.close()
