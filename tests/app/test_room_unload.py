"""A room nobody is connected to is let go after a while, and comes back whole when someone returns."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import httpx
import pytest

from app.client import ThreefoldClient
from tests.app.helpers import open_table
from tests.app.test_ws_tri_tac import empty_cells, play_one
from tests.support.inprocess import InProcessServer
from tests.support.server import ServerProcess

FORGETFUL = {
    "THREEFOLD_ROOM_IDLE_SECONDS": "1",
    "THREEFOLD_ROOM_SWEEP_SECONDS": "0.2",
    "THREEFOLD_HOST_GRACE_SECONDS": "0.5",
}
"""A server that lets a room go a second after its last socket leaves."""


@pytest.fixture
def forgetful_server(sqlite_url: str) -> Iterator[InProcessServer]:
    proc = InProcessServer(sqlite_url, extra_env=FORGETFUL).start()
    yield proc
    proc.stop()


async def rooms_loaded(server: ServerProcess) -> int:
    async with httpx.AsyncClient(base_url=server.url) as http:
        return int((await http.get("/healthz")).json()["rooms"])


async def wait_rooms_loaded(server: ServerProcess, expected: int, timeout: float = 10) -> None:
    for _ in range(int(timeout * 10)):
        if await rooms_loaded(server) == expected:
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"rooms loaded: {await rooms_loaded(server)}, expected {expected}")


async def test_an_idle_room_is_unloaded_and_reloaded_whole(forgetful_server: ServerProcess) -> None:
    table = await open_table(forgetful_server.url, "tri-tac", {"size": 4}, seed=3)
    tokens = [client.token for client in table.clients]
    while table.sockets[0].state and table.sockets[0].state["outcome"] is None:
        await play_one(table)
    finished = await table.sockets[0].wait_room(lambda r: r["status"] == "finished")
    final = table.sockets[0].state
    assert final is not None
    # Someone connected keeps the room loaded, however long they stay.
    await asyncio.sleep(1.5)
    assert await rooms_loaded(forgetful_server) == 1
    # Once everyone has left and nothing is pending (the host handover's wait included), it is let go.
    await table.close()
    await wait_rooms_loaded(forgetful_server, 0)

    # The players come back: the room is loaded again as it was, and the table plays on.
    ann_client = ThreefoldClient(forgetful_server.url, tokens[0])
    bob_client = ThreefoldClient(forgetful_server.url, tokens[1])
    async with ann_client as ann, bob_client as bob, ann.connect(table.code) as host, bob.connect(table.code) as guest:
        for sock in (host, guest):
            state = await sock.wait_state()
            assert (state["version"], state["outcome"]) == (final["version"], final["outcome"])
            assert state["view"]["board"] == final["view"]["board"]
            assert state["log"] == final["log"]
            room = await sock.wait_room(lambda r: r["status"] == "finished")
            assert room["standings"] == finished["standings"]
        assert await rooms_loaded(forgetful_server) == 1
        await host.send({"type": "rematch"})
        for sock in (host, guest):  # both hold the new game before either moves in it
            fresh = await sock.wait_state(lambda s: s["version"] == 0 and s["outcome"] is None)
        mover = host if host.you is not None and host.you["seat"] in fresh["to_act"] else guest
        ack = await mover.act({"type": "place", "cell": empty_cells(fresh)[0]})
        assert ack["version"] == 1
