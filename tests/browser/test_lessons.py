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
from playwright.async_api import Browser, BrowserContext, FrameLocator, Locator, Page, Route, expect

from app import i18n
from engines.registry import get_game
from tests.browser.conftest import NewPlayer
from tests.browser.tables import games, open_table
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


async def make_the_move(page: Page, game: str, keyboard: bool, root: Page | FrameLocator | None = None) -> None:
    """Show me, then use each ringed control in turn until the step gives its verdict (in `root`: the page, or
    the frame the lesson is in)."""
    root = root or page
    await press(page, root.locator("#learn-actions [data-learn=hint]"), keyboard)
    verdict_css = "#learn-actions [data-learn=next], #learn-actions [data-learn=again]"
    verdict = root.locator(verdict_css)
    either = root.locator(f'#board [data-hint-step="1"], {verdict_css}')
    for _ in range(MAX_CLICKS):
        await expect(either.first).to_be_visible()
        if await verdict.count():
            return
        await press(page, root.locator('#board [data-hint-step="1"]'), keyboard)
    step = await root.locator("#learn").get_attribute("data-step-id")
    raise AssertionError(f"{game}: the hinted controls of step {step} never made its move")


async def assert_no_english(root: Page | FrameLocator, game: str, lang: str) -> None:
    """None of the English texts of the page or of the game (their own, of two words or more) is shown."""
    english, other = catalogue("en"), catalogue(lang)
    shown = plain(await root.locator("body").inner_text())
    prefixes = ("learn.", f"{game}.", "room.", "common.")
    left = [
        text
        for key, text in english.items()
        if key.startswith(prefixes) and "{" not in text and len(text.split()) >= 2 and text != other.get(key)
        if plain(text) in shown
    ]
    assert not left, f"{game}: English on a {lang} page: {left}"


async def complete_lesson(
    page: Page, game: str, lang: str, keyboard: bool, root: Page | FrameLocator | None = None
) -> None:
    """Every step of the lesson, asserting its counter, prompt and done text, up to the end screen."""
    texts = catalogue(lang)
    embedded = root is not None
    root = root or page
    lesson = get_game(game).lesson
    assert lesson is not None
    total = len(lesson.steps)
    for n, step in enumerate(lesson.steps, 1):
        where = f"{game} ({lang}) step {n} {step.id}"
        await expect(root.locator("#learn")).to_have_attribute("data-step", str(n))
        counter = root.locator("#learn-counter")
        await expect(counter).to_have_text(f"{n} / {total}")
        label = await counter.get_attribute("aria-label")
        assert label and str(n) in label and str(total) in label, where
        prompt = await root.locator("#learn-prompt").text_content()
        assert plain(prompt or "") == plain(texts[f"{game}.lesson.{step.id}.prompt"]), where
        await make_the_move(page, game, keyboard, root)
        next_button = root.locator("#learn-actions [data-learn=next]")
        await expect(next_button, where).to_be_visible()
        await expect(next_button).to_be_focused()
        feedback = await root.locator("#learn-feedback").text_content()
        assert plain(feedback or "") == plain(texts[f"{game}.lesson.{step.id}.done"]), where
        if lang != "en":
            await assert_no_english(root, game, lang)
        await press(page, next_button, keyboard)
    end = root.locator("#learn-end")
    await expect(end).to_be_visible()
    await expect(end).to_be_focused()
    finished = await end.locator(".learn-end-text").text_content()
    assert plain(finished or "") == plain(texts[f"{game}.lesson.finished"])
    if embedded:  # a panel in a room: only the way back
        await expect(end.locator("[data-learn=close]")).to_be_visible()
        await expect(end.locator("[data-learn=bot]")).to_have_count(0)
    else:
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
        where = f"{game} lesson at {width}x{height}"
        await assert_one_screen(page, where, ["#learn-prompt", "#learn-actions", "#board"])
        await page.locator("#learn-actions [data-learn=hint]").click()
        await assert_one_screen(page, f"{where}, with its hint", ["#board [data-hint-step='1']"])
        if n == 0:
            for scheme in ("light", "dark"):
                await page.emulate_media(color_scheme=scheme, reduced_motion="reduce")  # type: ignore[arg-type]
                await audit(page, f"{game} lesson at {width}x{height} ({scheme})")
        await page.context.close()


async def test_play_against_a_bot_seats_the_learner_with_bots(contexts: Any) -> None:
    """The end screen's "Play against a bot": a name first (none saved yet), then a room of the game where the
    learner sits and bots at the normal level fill the other seats, ready to start."""
    game = lesson_games()[0]
    page = await contexts(game, "en", LAPTOP)
    await complete_lesson(page, game, "en", keyboard=False)
    await page.locator("#learn-end [data-learn=bot]").click()
    await page.locator("#learn-name-input").fill("Ada")
    await page.locator("#learn-name button[type=submit]").click()
    await expect(page).to_have_url(re.compile(r"/r/[A-Z0-9]+$"))
    seats = page.locator("#seat-list .seat-card")
    await expect(seats.first).to_have_class(re.compile(r"\bseat-mine\b"))
    await expect(page.locator("#seat-list .seat-card .bot-level")).to_have_count(await seats.count() - 1)
    for select in await page.locator("#seat-list .bot-level").all():
        await expect(select).to_have_value("normal")
    await expect(page.locator("#start-btn")).to_be_enabled()


async def test_in_a_rooms_panel_the_lesson_tells_the_room_its_progress(contexts: Any) -> None:
    """embed=1: no site chrome, each step posted to the room page, and the end offers only the way back."""
    game = lesson_games()[0]
    page = await contexts(game, "en", LAPTOP)

    # The site forbids framing (app/security_headers.py); the room's panel is the place that lets its own
    # origin frame a lesson. Here the lesson's response is let into a frame as that panel will.
    async def frameable(route: Route) -> None:
        response = await route.fetch()
        headers = {
            k: v for k, v in response.headers.items() if k.lower() not in ("x-frame-options", "content-security-policy")
        }
        await route.fulfill(response=response, headers=headers)

    await page.route(re.compile(r"/learn/[^?]+\?embed=1"), frameable)
    await page.evaluate(
        """(src) => {
        window.lessonMessages = [];
        addEventListener("message", (event) => window.lessonMessages.push(event.data));
        const frame = document.createElement("iframe");
        frame.src = src;
        frame.style.cssText = "position:fixed;inset:0;width:100vw;height:100vh;z-index:99;background:#fff";
        document.body.append(frame);
    }""",
        f"/learn/{game}?embed=1",
    )
    frame = page.frame_locator("iframe")
    await expect(frame.locator("#learn")).to_have_attribute("data-step", "1")
    await expect(frame.locator(".learn-links")).to_have_count(0)
    await complete_lesson(page, game, "en", keyboard=False, root=frame)
    messages = await page.evaluate("window.lessonMessages")
    steps = [m for m in messages if m.get("type") == "threefold:lesson"]
    total = len(get_game(game).lesson.steps)  # type: ignore[union-attr]
    assert [m["step"] for m in steps if not m["finished"]] == list(range(1, total + 1))
    assert steps[-1] == {"type": "threefold:lesson", "game": game, "step": total, "of": total, "finished": True}
    await frame.locator("#learn-end [data-learn=close]").click()
    closed = """() => new Promise((resolve) => {
        const close = (m) => m?.type === "threefold:lesson-close";
        if (window.lessonMessages.some(close)) resolve(true);
        addEventListener("message", (event) => close(event.data) && resolve(true));
    })"""
    assert await page.evaluate(closed)


async def test_the_pages_link_to_the_lessons(
    contexts: Any, new_player: NewPlayer, sqlite_server: ServerProcess
) -> None:
    """The home page's game cards, each rules page and the room's "How to play" lead to the lesson."""
    page = await contexts(lesson_games()[0], "en", LAPTOP)
    await page.goto("/")
    for game in lesson_games():
        await expect(page.locator(f'.game-card[data-game="{game}"] a[href="/learn/{game}"]')).to_be_visible()
        await page.goto(f"/rules/{game}")
        await expect(page.locator(f'.rules a[href="/learn/{game}"]')).to_be_visible()
        await page.goto("/")
    game = lesson_games()[0]
    host = await new_player("Ada")
    code = await open_table(host, sqlite_server.url, game, start=False)
    await host.locator("#room-rules-link").click()
    learn = host.locator("#howto-learn")
    await expect(learn).to_be_visible()
    await expect(learn).to_have_attribute("href", f"/learn/{game}?from={code}")
