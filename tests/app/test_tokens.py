"""Player tokens stay out of URLs and logs, and can be rotated."""

from __future__ import annotations

import httpx
import orjson
import pytest
import websockets

from app.client import ThreefoldClient
from tests.support.server import ServerProcess, serving


@pytest.mark.real_process  # the access log of uvicorn as it runs in production
async def test_no_token_reaches_the_access_log(sqlite_url: str) -> None:
    with serving(sqlite_url, log_level="info") as server:
        async with ThreefoldClient(server.url) as ann:
            token = await ann.set_name("Ann")
            code = await ann.create_room("tri-tac")
            async with ann.connect(code) as sock:
                await sock.next(lambda m: m["type"] == "welcome")
            # A careless client that still puts the token in the URL: it is not read, and not written either.
            careless = f"{server.url.replace('http://', 'ws://')}/ws/{code}?token={token}&v=1"
            async with websockets.connect(careless, additional_headers=ann._headers()) as ws:
                assert orjson.loads(await ws.recv())["type"] == "welcome"
            assert (await ann.http.get(f"/api/rooms/{code}?token={token}")).status_code == 200
    log = server.log_path.read_text()
    assert f'"WebSocket /ws/{code}' in log and f"GET /api/rooms/{code}" in log  # the log has the requests...
    assert token not in log  # ...and never the token
    assert f"/ws/{code}?token=[redacted]&v=1" in log


async def test_a_token_in_the_url_does_not_authenticate(sqlite_server: ServerProcess) -> None:
    async with ThreefoldClient(sqlite_server.url) as ann:
        token = await ann.set_name("Ann")
        code = await ann.create_room("tri-tac")
        url = f"{sqlite_server.url.replace('http://', 'ws://')}/ws/{code}?token={token}"
        async with websockets.connect(url) as ws:
            first = orjson.loads(await ws.recv())
            assert first["code"] == "unauthorized"
        assert ws.close_code == 4401


async def test_rotating_the_token_revokes_the_old_one(sqlite_server: ServerProcess) -> None:
    async with ThreefoldClient(sqlite_server.url) as ann:
        old = await ann.set_name("Ann")
        code = await ann.create_room("tri-tac")
        async with httpx.AsyncClient(base_url=sqlite_server.url) as http:
            assert (await http.post("/api/me/token/rotate")).status_code == 401  # nobody to rotate
            rotated = await http.post("/api/me/token/rotate", headers={"Authorization": f"Bearer {old}"})
            assert rotated.status_code == 200
            body = rotated.json()
            new = body["token"]
            assert new != old and body["id"] == ann.player_id and body["name"] == "Ann"
            assert http.cookies["tf_token"] == new
            assert (await http.get("/api/me", headers={"Authorization": f"Bearer {old}"})).status_code == 401
            assert (await http.get("/api/me", headers={"Authorization": f"Bearer {new}"})).json()["id"] == body["id"]
            assert (await http.get("/api/me")).json()["id"] == body["id"]  # the new cookie
        async with ann.connect(code) as stale:
            refused = await stale.next(lambda m: m["type"] == "error")
            assert refused["code"] == "unauthorized"
        ann.token = new
        async with ann.connect(code) as sock:
            welcome = await sock.next(lambda m: m["type"] == "welcome")
            assert welcome["you"]["id"] == body["id"]
            room = await sock.next(lambda m: m["type"] == "room")
            assert room["room"]["host"] == body["id"]  # still the host: the same player
