"""Server-rendered pages answer, with the credits the rules require."""

from __future__ import annotations

import httpx

from tests.support.server import ServerProcess


def test_pages_render(sqlite_server: ServerProcess) -> None:
    with httpx.Client(base_url=sqlite_server.url) as http:
        assert http.get("/").status_code == 200
        index = http.get("/rules")
        assert index.status_code == 200
        for game in ("tri-tac", "trick-tac-foe", "tic-tac-match", "tricky-tactics", "tic-tac-top"):
            assert f"/rules/{game}" in index.text
            assert http.get(f"/rules/{game}").status_code == 200
        assert "CC BY-SA 4.0" in http.get("/rules/tri-tac").text
        assert "/leaderboard/tri-tac" in http.get("/rules/tri-tac").text
        assert http.get("/leaderboard/tri-tac").status_code == 200
        assert "reconstruction" in http.get("/rules/tricky-tactics").text
        assert http.get("/rules/chess").status_code == 404
        assert http.get("/r/ZZZZZ").status_code == 404
        http.post("/api/me", json={"name": "Pat"})
        code = http.post("/api/rooms", json={"game": "tri-tac"}).json()["code"]
        page = http.get(f"/r/{code.lower()}")
        assert page.status_code == 200 and code in page.text
        qr = http.get(f"/api/rooms/{code}/qr.svg")
        assert qr.status_code == 200 and qr.headers["content-type"].startswith("image/svg")
