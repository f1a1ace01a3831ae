"""The header's EN/FR switch: remembered in a cookie, applied to the server's templates and to the scripts;
numbers and dates follow the language."""

from __future__ import annotations

import json
import re

import pytest
from playwright.async_api import Browser, Page, expect

from app.game_folders import catalogue_file
from tests.browser.conftest import PHONE, NewPlayer
from tests.browser.tables import games, open_table, quick_options
from tests.support.server import ServerProcess


async def lang_cookie(page: Page) -> str | None:
    for cookie in await page.context.cookies():
        if cookie["name"] == "tf_lang":
            return cookie["value"]
    return None


async def test_switch_to_french_and_back(new_player: NewPlayer) -> None:
    page = await new_player("Ada", viewport=PHONE)
    await page.goto("/")
    await expect(page.locator("html")).to_have_attribute("lang", "en")
    await expect(page.locator(".hero-title")).to_have_text("Three in a row, five ways.")

    # The switch is reachable and labelled for assistive technology.
    french = page.get_by_role("button", name=re.compile("Français"))
    await expect(french).to_have_attribute("aria-pressed", "false")
    await french.click()
    await expect(page.locator("html")).to_have_attribute("lang", "fr")
    await expect(page.locator(".hero-title")).to_have_text("Trois en ligne, de cinq façons.")
    await expect(page.get_by_role("button", name=re.compile("Français"))).to_have_attribute("aria-pressed", "true")
    assert await lang_cookie(page) == "fr"

    # Remembered: a new page load (and the room page's scripts) stay in French.
    await page.locator('.game-card-create[data-game="tri-tac"]').click()
    await page.wait_for_url(re.compile(r"/r/[A-Z0-9]{5}$"))
    await expect(page.locator("html")).to_have_attribute("lang", "fr")
    await expect(page.locator("#seat-list")).to_contain_text("S’asseoir ici")  # drawn by lobby.js
    await expect(page.locator("#setup")).to_contain_text("Taille du plateau")  # an option's French title
    await expect(page.locator("#conn-text")).to_have_text("Connecté")

    # Numbers and dates in the page's language.
    formatted = await page.evaluate(
        """async () => {
            const i18n = await import('/static/js/i18n.js');
            const date = i18n.formatDate(Date.UTC(2026, 0, 31, 12), {dateStyle: 'long', timeZone: 'UTC'});
            return [i18n.formatNumber(1234.5), date];
        }"""
    )
    assert formatted[0].replace("\u202f", " ").replace("\xa0", " ") == "1 234,5"
    assert formatted[1] == "31 janvier 2026"

    # Seat labels from the server ("Player 1") are shown in French.
    await expect(page.locator("#seat-list")).to_contain_text(re.compile("Joueur 1", re.I))

    # French typography in what the scripts wrote: no line can start with : ; ! ? or » (static/js/i18n.js).
    text = await page.evaluate(
        """() => [document.body.innerText,
                  ...[...document.querySelectorAll("[aria-label], [title], [placeholder]")].flatMap(
                    (el) => ["aria-label", "title", "placeholder"].map((name) => el.getAttribute(name) || ""))]
                .join(" ")"""
    )
    assert not re.findall(r".{0,20}[ \t\n][;:!?»]|«[ \t\n]", text)

    # Back to English.
    await page.get_by_role("button", name=re.compile("English")).click()
    await expect(page.locator("html")).to_have_attribute("lang", "en")
    await expect(page.locator("#seat-list")).to_contain_text("Sit here")
    assert await lang_cookie(page) == "en"


@pytest.mark.parametrize(
    ("lang", "label", "named"), [("en", "Your name", "Change name"), ("fr", "Votre nom", "Changer de nom")]
)
async def test_a_phone_without_a_name_sees_where_to_give_one(
    new_player: NewPlayer, sqlite_server: ServerProcess, lang: str, label: str, named: str
) -> None:
    """On a phone the header has room for a short label only: "Your name" on the button, not a cut-off
    "No name…" beside a bare pencil; once named, the name shows and the button is the pencil again."""
    page = await new_player(None, viewport=PHONE)
    await page.context.add_cookies([{"name": "tf_lang", "value": lang, "url": sqlite_server.url}])
    await page.goto("/")
    button = page.locator("#me-edit")
    await expect(button).to_contain_text(label)
    await expect(page.locator("#me-name")).to_be_hidden()
    box = await button.bounding_box()
    assert box is not None and box["x"] + box["width"] <= PHONE["width"], box
    assert await page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    await button.click()
    await page.get_by_role("dialog").get_by_role("textbox").fill("Zoé")
    await page.get_by_role("dialog").get_by_role("button", name=re.compile("Save|Enregistrer")).click()
    await expect(page.locator("#me-name")).to_have_text("Zoé")
    await expect(page.locator(".me-edit-short")).to_be_hidden()
    await expect(button).to_have_accessible_name(named)


async def test_french_browser_gets_french_pages(browser: Browser, sqlite_server: ServerProcess) -> None:
    """Without a cookie, the browser's language decides (Accept-Language)."""
    context = await browser.new_context(locale="fr-FR", base_url=sqlite_server.url)
    try:
        page = await context.new_page()
        await page.goto("/rules/tri-tac")
        await expect(page.locator("html")).to_have_attribute("lang", "fr")
        await expect(page.locator(".rules")).to_contain_text("CC BY-SA 4.0")
        await expect(page.locator(".rules")).to_contain_text("Marquer")
        await page.goto("/rules/tricky-tactics")
        await expect(page.locator(".rules")).to_contain_text("reconstitution")
    finally:
        await context.close()


# A few words each game's French log must show while bots play, and English words it must not; a game not
# listed plays its first variant and must show the words of one of its French log entries.
FRENCH_LOG = {
    "tri-tac": ({"size": 3}, "joue en ligne"),
    "trick-tac-foe": ({"players": 2, "one_shot": True}, "a posé une carte"),
    "tic-tac-match": ({"players": 2}, "a joué"),
    "tricky-tactics": ({"mode": "automa", "rounds": 1}, "a "),
    "tic-tac-top": ({"players": 3}, "(Meneur) a choisi le thème"),
}


def french_words(game: str) -> list[str]:
    """The words between the placeholders of the game's French log entries (``{seat} a placé ...``)."""
    catalogue = json.loads(catalogue_file(game, "fr").read_text())
    texts = [text for key, text in catalogue.items() if key.startswith(f"{game}.log.")]
    assert texts, f"{game} has no French log entries"
    return [part.strip() for text in texts for part in re.split(r"\{[^}]*\}", text) if len(part.strip()) >= 4]


ENGLISH_WORDS = re.compile(r" (placed|played|committed|wrote|led|added|removed|chose|wins|share) ")


@pytest.mark.parametrize("game", games())
async def test_game_log_in_french(new_player: NewPlayer, sqlite_server: ServerProcess, game: str) -> None:
    """The server writes the log in English; in French the page shows each renderer's translation."""
    options, expected = FRENCH_LOG.get(game) or (quick_options(game), None)
    page = await new_player("Ada")
    await page.context.add_cookies([{"name": "tf_lang", "value": "fr", "url": sqlite_server.url}])
    await open_table(page, sqlite_server.url, game, options, seat=None)
    lines = page.locator("#log li:not(.log-empty)")
    await expect(lines.nth(2)).to_be_attached(timeout=30_000)
    if expected is not None:
        await expect(page.locator("#log")).to_contain_text(expected)
    else:
        shown = await lines.all_inner_texts()
        assert any(word in line for line in shown for word in french_words(game)), f"{game}: no French log line"
    english = [line for line in await lines.all_inner_texts() if ENGLISH_WORDS.search(f" {line} ")]
    assert not english, f"{game}: log lines left in English: {english[:5]}"
    # The bots, named by seat on the server ("Bot 2"), are "Robot 2" in the log and on the seats, with their
    # level (the default, normal, is "moyen").
    await expect(page.locator(".player-name-text").first).to_have_text(re.compile(r"^Robot \d \(moyen\)$"))
    named = [line for line in await lines.all_inner_texts() if re.search(r"\bBot \d", line)]
    assert not named, f"{game}: bots left with English names: {named[:5]}"


async def test_result_in_french(new_player: NewPlayer, sqlite_server: ServerProcess) -> None:
    page = await new_player("Ada")
    await page.context.add_cookies([{"name": "tf_lang", "value": "fr", "url": sqlite_server.url}])
    await open_table(page, sqlite_server.url, "tri-tac", {"size": 3}, seat=None)
    await expect(page.locator("#result")).to_be_visible(timeout=30_000)
    summary = await page.locator(".result-summary").inner_text()
    assert re.match(r"^(Robot \d \([XO]\) gagne \d+ à \d+|Match nul, \d+ à \d+)$", summary), summary
