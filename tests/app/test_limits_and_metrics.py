"""Room codes cannot be brute-forced; health and Prometheus metrics report what the server is doing."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from app.client import ThreefoldClient
from tests.app.helpers import open_table
from tests.app.test_ws_tri_tac import play_one
from tests.support.inprocess import InProcessServer
from tests.support.server import ServerProcess


@pytest.fixture
def strict_server(sqlite_url: str) -> Iterator[InProcessServer]:
    proc = InProcessServer(sqlite_url, extra_env={"THREEFOLD_JOIN_ATTEMPTS_PER_MINUTE": "5"}).start()
    yield proc
    proc.stop()


async def test_guessing_room_codes_is_refused(strict_server: ServerProcess) -> None:
    async with ThreefoldClient(strict_server.url) as ann:
        await ann.set_name("Ann")
        code = await ann.create_room("tri-tac")
        assert (await ann.http.get(f"/api/rooms/{code}")).status_code == 200
        statuses = [
            (await ann.http.get(f"/api/rooms/{guess}")).status_code
            for guess in ("AAAAA", "CCCCC", "DDDDD", "EEEEE", "FFFFF")
        ]
        assert statuses == [404] * 5
        # Now even a right code is refused for this address, over HTTP, on the page and on the socket.
        blocked = await ann.http.get(f"/api/rooms/{code}")
        assert blocked.status_code == 429 and "wrong room codes" in blocked.json()["detail"]
        assert (await ann.http.get(f"/r/{code}")).status_code == 429
        sock = ann.connect(code)
        await sock.open()
        refused = await sock.next(lambda m: m["type"] == "error")
        assert refused["code"] == "rate_limited"
        # The server keeps serving everything else.
        assert (await ann.http.get("/healthz")).json()["ok"] is True


async def test_the_history_of_a_room_shares_the_guessing_budget(strict_server: ServerProcess) -> None:
    async with ThreefoldClient(strict_server.url) as ann:
        await ann.set_name("Ann")
        code = await ann.create_room("tri-tac")
        assert (await ann.http.get(f"/api/history/rooms/{code.lower()}")).status_code == 200
        # Wrong codes on the history count like wrong codes anywhere else...
        statuses = [(await ann.http.get(f"/api/history/rooms/{guess}")).status_code for guess in ("AAAAA", "CCCCC")]
        statuses += [(await ann.http.get(f"/api/rooms/{guess}")).status_code for guess in ("DDDDD", "EEEEE")]
        statuses.append((await ann.http.get("/api/history/rooms/FFFFF")).status_code)
        assert statuses == [404] * 5
        # ...and once the budget is spent the history refuses even a right code, as the room lookup does.
        blocked = await ann.http.get(f"/api/history/rooms/{code}")
        assert blocked.status_code == 429 and blocked.json()["code"] == "rate_limited"
        assert (await ann.http.get(f"/api/rooms/{code}")).status_code == 429


async def test_health_and_metrics(sqlite_server: ServerProcess) -> None:
    table = await open_table(sqlite_server.url, "tri-tac", {"size": 4}, seed=2)
    try:
        await play_one(table)
        await play_one(table)
        await table.sockets[0].send_raw("{oops")
        await table.sockets[0].next(lambda m: m["type"] == "error")
        with httpx.Client(base_url=sqlite_server.url) as http:
            health = http.get("/healthz").json()
            assert health == {"ok": True, "rooms": 1, "moves": 2}
            text = http.get("/metrics").text
        values = {
            line.split(" ")[0]: float(line.split(" ")[1])
            for line in text.splitlines()
            if line and not line.startswith("#")
        }
        assert values["threefold_moves_total"] == 2
        assert values["threefold_sockets_open"] == 3
        assert values["threefold_rooms_active"] == 1
        assert values['threefold_errors_total{code="bad_json"}'] == 1
        assert values["threefold_move_seconds_count"] == 2
        assert any(name.startswith("threefold_gc_pause_seconds") for name in values)
    finally:
        await table.close()


@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.real_process
async def test_the_guessing_budget_is_shared_by_every_process() -> None:
    import redis as redis_sync

    from tests.support.server import migrate
    from tests.support.services import postgres_database, require_redis

    base = require_redis().rsplit("/", 1)[0]
    redis_url = f"{base}/7"  # a database of its own, emptied first: the budget is counted per address
    redis_sync.Redis.from_url(redis_url).flushdb()
    with postgres_database() as db:
        migrate(db)
        env = {"THREEFOLD_JOIN_ATTEMPTS_PER_MINUTE": "4"}
        one = ServerProcess(db, redis_url=redis_url, extra_env=env).start()
        two = ServerProcess(db, redis_url=redis_url, extra_env=env).start()
        try:
            async with httpx.AsyncClient() as http:
                for i, guess in enumerate(("AAAAA", "CCCCC", "DDDDD", "EEEEE")):
                    server = (one, two)[i % 2]
                    assert (await http.get(f"{server.url}/api/rooms/{guess}")).status_code == 404
                for server in (one, two):
                    assert (await http.get(f"{server.url}/api/rooms/FFFFF")).status_code == 429
        finally:
            one.stop()
            two.stop()


async def test_without_redis_each_process_counts_guesses_on_its_own() -> None:
    """Every socket's connect asks the limiter: with Redis away it must answer from this process' own count,
    not fail the connect (nothing listens on port 1)."""
    from app.limits import RedisAttemptLimiter

    limiter = RedisAttemptLimiter("redis://127.0.0.1:1/0", limit=2)
    try:
        assert not await limiter.blocked("client-a")
        await limiter.failed("client-a")
        await limiter.failed("client-a")
        assert await limiter.blocked("client-a")
        assert not await limiter.blocked("client-b")
    finally:
        await limiter.close()
