"""Game imports are bounded (body size, number of actions) and replayed off the event loop."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import orjson
import pytest

from app.main import create_app
from app.routers import history
from app.settings import Settings
from tests.support.inprocess import InProcessServer

EMPTY_GAME = {"engine": "tri-tac", "options": {"size": 4}, "seed": 3, "seats": [], "actions": []}


@pytest.fixture
def bounded_server(sqlite_url: str) -> Iterator[InProcessServer]:
    env = {"THREEFOLD_MAX_BODY_BYTES": "20000", "THREEFOLD_IMPORT_MAX_ACTIONS": "100"}
    with InProcessServer(sqlite_url, extra_env=env) as proc:
        yield proc


def actions(count: int) -> list[dict[str, Any]]:
    return [{"seat": i % 2, "action": {"type": "place", "cell": [0, 0]}} for i in range(count)]


async def test_imports_are_bounded(bounded_server: InProcessServer) -> None:
    too_large = {"detail": "body_too_large", "code": "body_too_large", "params": {"max_bytes": 20000}}
    async with httpx.AsyncClient(base_url=bounded_server.url) as http:
        big = orjson.dumps({**EMPTY_GAME, "actions": actions(600)})
        assert len(big) > 20000
        declared = await http.post("/api/history/import", content=big, headers={"Content-Type": "application/json"})
        assert (declared.status_code, declared.json()) == (413, too_large)
        # Without a Content-Length (chunked), the body is counted as it arrives.

        async def chunks() -> AsyncIterator[bytes]:
            for start in range(0, len(big), 4096):
                yield big[start : start + 4096]

        chunked = await http.post("/api/history/import", content=chunks(), headers={"Content-Type": "application/json"})
        assert "content-length" not in chunked.request.headers
        assert (chunked.status_code, chunked.json()) == (413, too_large)
        many = await http.post("/api/history/import", json={**EMPTY_GAME, "actions": actions(101)})
        assert many.status_code == 422
        assert many.json() == {
            "detail": "too_many_actions",
            "code": "too_many_actions",
            "params": {"actions": 101, "max_actions": 100},
        }
        fine = await http.post("/api/history/import", json=EMPTY_GAME)
        assert fine.status_code == 200 and fine.json()["steps"] == 0
        assert (await http.get("/healthz")).json()["ok"] is True


async def test_the_loop_serves_others_while_an_import_replays(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The replay waits until another request has been answered: on the event loop it could never be (the
    bounded wait then fails the test instead of hanging it)."""
    other_answered = threading.Event()
    waited: list[bool] = []
    real_replay = history.replay

    def replay_after_the_other_request(*args: Any) -> Any:
        waited.append(other_answered.wait(timeout=10))
        return real_replay(*args)

    monkeypatch.setattr(history, "replay", replay_after_the_other_request)
    app = create_app(Settings(database_url=sqlite_url))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver") as http:

        async def other_request() -> int:
            response = await http.get("/api/games")
            other_answered.set()
            return response.status_code

        imported, other = await asyncio.gather(http.post("/api/history/import", json=EMPTY_GAME), other_request())
    assert waited == [True]
    assert imported.status_code == 200 and other == 200
