"""Every refusal of the HTTP API that a page shows carries a code and its params, which the page phrases in
its own language: the English ``detail`` is a note for developers."""

from __future__ import annotations

from typing import Any

import httpx

from tests.app.test_cookie_and_metrics import app_client


def refusal(response: httpx.Response, status: int) -> tuple[str, dict[str, Any]]:
    assert response.status_code == status, response.text
    body = response.json()
    return body["code"], body["params"]


async def test_refused_names_rooms_and_options_carry_codes(sqlite_url: str) -> None:
    async with app_client(sqlite_url) as http:
        assert refusal(await http.post("/api/me", json={"name": "   "}), 422) == ("name_empty", {})
        code, params = refusal(await http.post("/api/me", json={"name": "x" * 200}), 422)
        assert code == "name_too_long" and isinstance(params["max"], int)
        assert refusal(await http.get("/api/me"), 401) == ("unauthorized", {})
        assert refusal(await http.post("/api/rooms", json={"game": "tri-tac"}), 401) == ("unauthorized", {})
        token = (await http.post("/api/me", json={"name": "Ann"})).json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        created = await http.post("/api/rooms", json={"game": "tri-tac", "options": {"size": 99}}, headers=auth)
        assert refusal(created, 422) == (
            "bad_options",
            {"reason": {"key": "options.at_most", "params": {"game": "tri-tac", "field": "size", "max": 12}}},
        )
        assert "size" in created.json()["detail"]
        assert refusal(await http.get("/api/rooms/ZZZZZ"), 404) == ("unknown_room", {"room": "ZZZZZ"})
        assert refusal(await http.get("/api/ratings/no-such-game"), 404) == ("unknown_game", {"game": "no-such-game"})
        assert refusal(await http.get("/api/history/999999/views"), 404) == ("no_game", {"game_id": 999999})
