"""Lessons over HTTP: every served game has one, every text it names is in both catalogues, a step comes
with the learner's board, and a try is judged by the rules with nothing written anywhere."""

from __future__ import annotations

import sqlite3
from typing import Any

import httpx
import pytest

from app import i18n
from engines.registry import GAMES, games
from tests.app.test_cookie_and_metrics import app_client

LESSONS = [game for game in games() if game.lesson is not None]


def test_every_served_game_has_a_lesson() -> None:
    assert [game.name for game in GAMES if game.lesson is None] == []


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_lesson_text_is_in_both_catalogues(lang: str) -> None:
    catalogue = i18n.catalogue(lang)
    for game in LESSONS:
        assert game.lesson is not None
        keys = [*game.lesson.text_keys(), f"{game.name}.lesson.title", f"{game.name}.lesson.finished"]
        missing = [key for key in keys if key not in catalogue]
        assert not missing, f"{game.name} ({lang}) lacks {missing}"


def refusal(response: httpx.Response, status: int) -> tuple[str, dict[str, Any]]:
    assert response.status_code == status, response.text
    body = response.json()
    return body["code"], body["params"]


async def test_a_step_and_its_tries(sqlite_url: str) -> None:
    async with app_client(sqlite_url) as http:
        step = (await http.get("/api/learn/tri-tac/steps/1")).json()
        assert step["step"] == 1 and step["of"] >= 3 and step["seat"] in step["frame"]["to_act"]
        assert step["frame"]["view"]["board"] and step["hint"]["type"] == "place"
        done = (await http.post("/api/learn/tri-tac/steps/1/try", json={"action": step["hint"]})).json()
        assert done["verdict"] == "done" and done["reason"] is None
        assert any(entry["key"] == "tri-tac.log.placed_scored" for entry in done["frames"][0]["log"])
        row, column = step["hint"]["cell"]
        taken = next(
            [r, c]
            for r, cells in enumerate(step["frame"]["view"]["board"])
            for c, v in enumerate(cells)
            if v is not None
        )
        refused = (
            await http.post("/api/learn/tri-tac/steps/1/try", json={"action": {"type": "place", "cell": taken}})
        ).json()
        assert refused["verdict"] == "refused" and refused["frames"] == []
        assert refused["reason"]["key"] == "tri-tac.error.cell_taken"
        malformed = await http.post("/api/learn/tri-tac/steps/1/try", json={"action": {"type": "place", "cell": "b2"}})
        assert malformed.json()["reason"] == {"key": "tri-tac.error.bad_cell", "params": {}}
        empty = next(
            [r, c]
            for r, cells in enumerate(step["frame"]["view"]["board"])
            for c, v in enumerate(cells)
            if v is None and [r, c] != [row, column]
        )
        missed = (
            await http.post("/api/learn/tri-tac/steps/1/try", json={"action": {"type": "place", "cell": empty}})
        ).json()
        assert missed["verdict"] == "missed" and missed["frames"]
        # Every try starts from the step's position: the asked move is still done after a miss.
        again = (await http.post("/api/learn/tri-tac/steps/1/try", json={"action": step["hint"]})).json()
        assert again == done


async def test_bad_lesson_requests_are_refused_clearly(sqlite_url: str) -> None:
    async with app_client(sqlite_url) as http:
        assert refusal(await http.get("/api/learn/chess/steps/1"), 404) == ("unknown_game", {"game": "chess"})
        assert refusal(await http.get("/api/learn/tri-tac/steps/0"), 404) == ("bad_step", {"step": 0})
        assert refusal(await http.get("/api/learn/tri-tac/steps/99"), 404) == ("bad_step", {"step": 99})
        try_url = "/api/learn/tri-tac/steps/1/try"
        assert (await http.post(try_url, json={"act": {}})).status_code == 422
        assert (
            await http.post(try_url, content=b"{nope", headers={"content-type": "application/json"})
        ).status_code in (
            400,
            422,
        )
        assert (await http.post(try_url, json={"action": [1, 2]})).status_code == 422
        # The server keeps serving.
        assert (await http.get("/api/learn/tri-tac/steps/1")).status_code == 200


async def test_a_lesson_writes_nothing(sqlite_url: str) -> None:
    async with app_client(sqlite_url) as http:
        for game in LESSONS:
            for number in range(1, len(game.lesson.steps) + 1 if game.lesson else 1):
                step = (await http.get(f"/api/learn/{game.name}/steps/{number}")).json()
                tried = await http.post(f"/api/learn/{game.name}/steps/{number}/try", json={"action": step["hint"]})
                assert tried.json()["verdict"] == "done", (game.name, number)
    with sqlite3.connect(sqlite_url.partition("///")[2]) as db:
        for table in ("players", "rooms", "games", "game_actions", "standings", "ratings"):
            assert db.execute(f"SELECT count(*) FROM {table}").fetchone() == (0,), table
