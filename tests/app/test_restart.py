"""kill -9 the server mid-game, start it again on the same database: play continues from the last
acknowledged move, and no acknowledged move is lost or applied twice."""

from __future__ import annotations

import asyncio

import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine

from app.client import ClientError, ThreefoldClient
from tests.app.test_ws_tri_tac import empty_cells
from tests.support.server import ServerProcess

pytestmark = pytest.mark.real_process  # kill -9 and restart


async def action_versions(database_url: str) -> list[tuple[int, int]]:
    engine = create_async_engine(database_url)
    try:
        async with engine.connect() as conn:
            rows = await conn.execute(sa.text("SELECT game_id, version FROM game_actions ORDER BY game_id, version"))
            return [(int(g), int(v)) for g, v in rows]
    finally:
        await engine.dispose()


async def test_kill_and_restart_mid_game(database_url: str) -> None:
    server = ServerProcess(database_url).start()
    try:
        async with ThreefoldClient(server.url) as a, ThreefoldClient(server.url) as b:
            await a.set_name("Ann")
            await b.set_name("Ben")
            code = await a.create_room("tri-tac", {"size": 4}, seed=21)
            acked = 0
            for round_ in range(3):
                async with a.connect(code) as sa_, b.connect(code) as sb:
                    socks = {0: sa_, 1: sb}
                    for seat, sock in socks.items():
                        await sock.next(lambda m: m["type"] == "room")
                        if round_ == 0 and seat > 0:  # Ann took seat 0 creating the room
                            await sock.send({"type": "sit", "seat": seat})
                            await sock.next(lambda m, seat=seat: m["type"] == "welcome" and m["you"]["seat"] == seat)
                    if round_ == 0:
                        await sa_.send({"type": "start"})
                    state = await sa_.wait_state()
                    # After a restart the game is exactly at the last acknowledged move.
                    assert state["version"] == acked
                    await sb.wait_state(lambda s, v=acked: s["version"] == v)
                    for _ in range(4):
                        mover = socks[state["to_act"][0]]
                        ack = await mover.act(
                            {"type": "place", "cell": empty_cells(state)[0]}, version=state["version"]
                        )
                        acked = ack["version"]
                        state = await sa_.wait_state(lambda s, v=acked: s["version"] == v)
                    if round_ < 2:
                        server.kill()
                        server.start()
                        await asyncio.sleep(0.1)
                        continue
                    # Finish the game after the last restart.
                    while state["outcome"] is None:
                        mover = socks[state["to_act"][0]]
                        ack = await mover.act(
                            {"type": "place", "cell": empty_cells(state)[0]}, version=state["version"]
                        )
                        acked = ack["version"]
                        state = await sa_.wait_state(lambda s, v=acked: s["version"] == v)
                    assert acked == 16
                    try:
                        await mover.act({"type": "place", "cell": [0, 0]}, version=acked)
                        raise AssertionError("acting on a finished game must fail")
                    except ClientError as err:
                        assert err.code == "not_playing"
        versions = await action_versions(database_url)
        assert [v for _g, v in versions] == list(range(1, 17)), "every acknowledged move exactly once"
    finally:
        server.stop()
