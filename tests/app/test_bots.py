"""Bots fill seats and play through the same path as people, with a short pause."""

from __future__ import annotations

import pytest

from app.client import ClientError, ThreefoldClient
from tests.support.server import ServerProcess


async def test_host_adds_a_bot_and_the_game_plays_out(sqlite_server: ServerProcess) -> None:
    async with ThreefoldClient(sqlite_server.url) as ann, ThreefoldClient(sqlite_server.url) as ben:
        await ann.set_name("Ann")
        await ben.set_name("Ben")
        code = await ann.create_room("tri-tac", {"size": 3}, seed=4)
        async with ann.connect(code) as host, ben.connect(code) as guest:
            await host.next(lambda m: m["type"] == "room")
            await host.send({"type": "sit", "seat": 0})
            await host.send({"type": "add_bot", "seat": 1})
            room = await guest.wait_room(lambda r: r["seats"][1]["player"] is not None)
            assert room["seats"][1]["player"]["bot"] is True
            # Only the host may add bots; a taken seat cannot get one.
            with pytest.raises(ClientError) as err:
                await guest.request({"type": "add_bot", "seat": 0})
            assert err.value.code == "not_host"
            with pytest.raises(ClientError) as err:
                await host.request({"type": "add_bot", "seat": 0})
            assert err.value.code == "seat_taken"
            await host.send({"type": "start"})
            state = await host.wait_state()
            while state["outcome"] is None:
                if 0 in state["to_act"]:
                    board = state["view"]["board"]
                    cell = next([r, c] for r, row in enumerate(board) for c, v in enumerate(row) if v is None)
                    await host.act({"type": "place", "cell": cell}, version=state["version"])
                v = state["version"]
                state = await host.wait_state(lambda s, v=v: s["version"] > v)
            # Nine moves in all, and the host only ever moved for seat 0: the bot made the others.
            assert state["version"] == 9
            # The spectator-side view (Ben) saw the same final board.
            final = await guest.wait_state(lambda s: s["version"] == 9)
            assert final["view"]["board"] == state["view"]["board"]
