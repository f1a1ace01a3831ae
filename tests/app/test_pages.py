"""Server-rendered pages answer, with the credits the rules require."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import httpx

from engines.registry import all_engines
from tests.support.server import ServerProcess


def games() -> list[str]:
    """Every game of the registry: each has its pages (asked when needed: a test may register one)."""
    return [engine.name for engine in all_engines()]


def test_pages_render(sqlite_server: ServerProcess) -> None:
    with httpx.Client(base_url=sqlite_server.url) as http:
        assert http.get("/").status_code == 200
        index = http.get("/rules")
        assert index.status_code == 200
        for game in games():
            assert f"/rules/{game}" in index.text
            assert http.get(f"/rules/{game}").status_code == 200
            icon = f"/static/games/{game}/icon.svg"
            assert icon in index.text and icon in http.get("/").text
            assert http.get(icon).headers["content-type"].startswith("image/svg")
        assert "CC BY-SA 4.0" in http.get("/rules/tri-tac").text
        assert "/leaderboard/tri-tac" in http.get("/rules/tri-tac").text
        assert http.get("/leaderboard/tri-tac").status_code == 200
        assert "reconstruction" in http.get("/rules/tricky-tactics").text
        assert http.get("/rules/chess").status_code == 404
        missing = http.get("/r/ZZZZZ")  # the error page, in HTML like every page, not the API's JSON refusal
        assert missing.status_code == 404 and missing.headers["content-type"].startswith("text/html")
        assert "<title>" in missing.text and "ZZZZZ" in missing.text
        http.post("/api/me", json={"name": "Pat"})
        code = http.post("/api/rooms", json={"game": "tri-tac"}).json()["code"]
        page = http.get(f"/r/{code.lower()}")
        assert page.status_code == 200 and code in page.text
        qr = http.get(f"/api/rooms/{code}/qr.svg")
        assert qr.status_code == 200 and qr.headers["content-type"].startswith("image/svg")


def test_a_game_folder_serves_its_files_but_not_its_templates(sqlite_server: ServerProcess) -> None:
    """static/games/<game>/ holds the renderer, styles, icon and texts the browser loads, and the rules pages
    the server renders: those Jinja sources are not served as they are."""
    with httpx.Client(base_url=sqlite_server.url) as http:
        for game in games():
            folder = f"/static/games/{game}"
            assert http.get(f"{folder}/index.js").headers["content-type"].startswith("text/javascript")
            assert http.get(f"{folder}/style.css").headers["content-type"].startswith("text/css")
            for lang in ("en", "fr"):
                assert http.get(f"{folder}/rules/{lang}.html").status_code == 404
                assert http.get(f"{folder}/./rules/{lang}.html").status_code == 404
        http.post("/api/me", json={"name": "Pat"})
        code = http.post("/api/rooms", json={"game": games()[0]}).json()["code"]
        icons = re.search(
            r'<script type="application/json" id="game-icons">([^<]*)</script>', http.get(f"/r/{code}").text
        )
        assert icons and json.loads(icons.group(1)) == {game: f"/static/games/{game}/icon.svg" for game in games()}


class _Text(HTMLParser):
    """A page's text as read: text nodes and the attributes people see or hear (not scripts or styles)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._skip += tag in ("script", "style")
        self.parts += [value for name, value in attrs if name in ("aria-label", "title", "placeholder") and value]

    def handle_endtag(self, tag: str) -> None:
        self._skip -= tag in ("script", "style")

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def test_french_pages_keep_marks_with_their_words(sqlite_server: ServerProcess) -> None:
    """In French a line never starts with : ; ! ? or », so the space before them is a no-break one
    (app/typography.py). Catalogues and rules are written with plain spaces: this fails without it."""
    pages = ["/", "/rules", "/leaderboard/tri-tac"]
    pages += [f"/rules/{game}" for game in games()]
    with httpx.Client(base_url=sqlite_server.url, cookies={"tf_lang": "fr"}) as http:
        for path in pages:
            page = http.get(path)
            assert page.status_code == 200 and '<html lang="fr"' in page.text
            reader = _Text()
            reader.feed(page.text)
            text = " ".join(reader.parts)
            breakable = re.findall(r".{0,20}[ \t\n][;:!?»].{0,5}|«[ \t\n].{0,20}", text)
            assert not breakable, (path, breakable[:5])


def test_a_page_links_its_language_catalogue(sqlite_server: ServerProcess) -> None:
    """The scripts' catalogue: the page's language, named by its content, so a browser keeps it for good; an
    old name (a page from before a deploy) still gets the catalogue, not to be kept."""
    for lang, word in (("en", "Sit here"), ("fr", "S’asseoir ici")):
        with httpx.Client(base_url=sqlite_server.url, cookies={"tf_lang": lang}) as http:
            found = re.search(r'<link rel="preload" id="i18n-catalogue" href="([^"]+)"', http.get("/").text)
            assert found and found.group(1).startswith(f"/i18n/{lang}/"), found
            answer = http.get(found.group(1))
            assert answer.status_code == 200 and answer.headers["content-type"] == "application/json"
            assert "immutable" in answer.headers["cache-control"]
            assert answer.json()["room.sit"] == word
            old = http.get(f"/i18n/{lang}/0123456789abcdef.json")
            assert old.json() == answer.json() and old.headers["cache-control"] == "no-cache"
            assert http.get("/i18n/de/0123456789abcdef.json").status_code == 404
