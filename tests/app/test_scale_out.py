"""Two app processes against one PostgreSQL and one Redis: players of one room on different processes see
every move; when one process dies its player reconnects to the other and the game completes."""

from __future__ import annotations

import pytest

from app.client import ThreefoldClient
from tests.app.test_ws_tri_tac import empty_cells
from tests.support.server import ServerProcess, migrate
from tests.support.services import postgres_database, require_redis

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


async def test_one_room_across_two_processes() -> None:
    redis_url = require_redis()
    with postgres_database() as db:
        migrate(db)
        one = ServerProcess(db, redis_url=redis_url).start()
        two = ServerProcess(db, redis_url=redis_url).start()
        try:
            async with ThreefoldClient(one.url) as a, ThreefoldClient(one.url) as b:
                await a.set_name("Ann")
                await b.set_name("Ben")
                code = await a.create_room("tri-tac", {"size": 4}, seed=2)
                b_on_two = ThreefoldClient(two.url, token=b.token)
                async with a.connect(code) as sa, b_on_two.connect(code) as sb:
                    await sa.next(lambda m: m["type"] == "room")
                    await sb.next(lambda m: m["type"] == "room")
                    await sa.send({"type": "sit", "seat": 0})
                    await sb.wait_room(lambda r: r["seats"][0]["player"] is not None)
                    await sb.send({"type": "sit", "seat": 1})
                    await sa.wait_room(lambda r: r["seats"][1]["player"] is not None)
                    # Presence crosses processes too.
                    room = await sa.wait_room(lambda r: r["seats"][1]["player"]["connected"])
                    assert room["seats"][1]["player"]["name"] == "Ben"
                    await sa.send({"type": "start"})
                    socks = {0: sa, 1: sb}
                    state = await sb.wait_state()
                    for _ in range(6):
                        mover = socks[state["to_act"][0]]
                        cell = empty_cells(state)[0]
                        ack = await mover.act({"type": "place", "cell": cell}, version=state["version"])
                        v = ack["version"]
                        state = await sa.wait_state(lambda s, v=v: s["version"] == v)
                        await sb.wait_state(lambda s, v=v: s["version"] == v)
                await b_on_two.http.aclose()

                # Process one dies; Ann reconnects to process two and the game completes there.
                one.kill()
                a_on_two = ThreefoldClient(two.url, token=a.token)
                b_on_two = ThreefoldClient(two.url, token=b.token)
                async with a_on_two.connect(code) as sa, b_on_two.connect(code) as sb:
                    state = await sa.wait_state()
                    assert state["version"] == 6
                    socks = {0: sa, 1: sb}
                    while state["outcome"] is None:
                        mover = socks[state["to_act"][0]]
                        cell = empty_cells(state)[0]
                        ack = await mover.act({"type": "place", "cell": cell}, version=state["version"])
                        v = ack["version"]
                        state = await sa.wait_state(lambda s, v=v: s["version"] == v)
                    assert state["version"] == 16
                await a_on_two.http.aclose()
                await b_on_two.http.aclose()
        finally:
            one.stop()
            two.stop()
