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


async def test_the_host_picks_each_bots_level_and_a_strong_bot_plays_a_game_out(sqlite_server: ServerProcess) -> None:
    async with ThreefoldClient(sqlite_server.url) as ann:
        await ann.set_name("Ann")
        code = await ann.create_room("trick-tac-foe", {"players": 4, "one_shot": True}, seed=5)
        async with ann.connect(code) as host:
            await host.next(lambda m: m["type"] == "room")
            await host.send({"type": "add_bot", "seat": 1, "level": "strong"})
            await host.send({"type": "add_bot", "seat": 2, "level": "easy"})
            await host.send({"type": "add_bot", "seat": 3})
            room = await host.wait_room(lambda r: r["seats"][3]["player"] is not None)
            assert [s["player"]["level"] for s in room["seats"][1:]] == ["strong", "easy", "normal"]
            assert room["seats"][0]["player"]["level"] is None  # a person has no level
            # The host changes a bot's level in place; an unknown level is refused.
            await host.send({"type": "add_bot", "seat": 3, "level": "strong"})
            room = await host.wait_room(lambda r: r["seats"][3]["player"]["level"] == "strong")
            with pytest.raises(ClientError) as err:
                await host.request({"type": "add_bot", "seat": 2, "level": "hard"})
            assert err.value.code == "bad_message"
            await host.send({"type": "start"})
            state = await host.wait_state()
            while state["outcome"] is None:
                if 0 in state["to_act"]:
                    view = state["view"]
                    if view["phase"] == "wild":
                        await host.act({"type": "wild", "number": 5}, version=state["version"])
                    else:
                        await host.act({"type": "commit", "card": view["hand"][0]}, version=state["version"])
                v = state["version"]
                state = await host.wait_state(lambda s, v=v: s["version"] > v)
            # The result's room still names each bot's level.
            room = await host.wait_room(lambda r: r["status"] == "finished")
            assert [s["player"]["level"] for s in room["seats"][1:]] == ["strong", "easy", "strong"]
