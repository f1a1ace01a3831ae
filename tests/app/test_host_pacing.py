"""A host without a seat paces Tic Tac Top's reveal from the shared screen (the engine's host actions)."""

from __future__ import annotations

import pytest

from app.client import ClientError, ThreefoldClient
from tests.support.server import ServerProcess


async def test_seatless_host_announces_the_next_word(sqlite_server: ServerProcess) -> None:
    async with ThreefoldClient(sqlite_server.url) as tv, ThreefoldClient(sqlite_server.url) as lea:
        await tv.set_name("TV")
        await lea.set_name("Lea")
        code = await tv.create_room("tic-tac-top", {"players": 3, "reveal_pause": 10}, seed=3)
        async with tv.connect(code) as screen, lea.connect(code) as leader:
            await screen.next(lambda m: m["type"] == "room")
            await leader.next(lambda m: m["type"] == "room")
            await screen.request({"type": "stand"})  # the TV leaves the seat it took creating the room
            await leader.send({"type": "sit", "seat": 0})
            await screen.send({"type": "add_bot", "seat": 1})
            await screen.send({"type": "add_bot", "seat": 2})
            room = await screen.wait_room(lambda r: all(s["player"] for s in r["seats"]))
            assert room["host_actions"] == ["next"]
            await screen.send({"type": "start"})
            state = await leader.wait_state(lambda s: s["view"]["phase"] == "choose")
            # Outside the engine's host actions, a seatless host is a spectator like any other.
            with pytest.raises(ClientError) as err:
                await screen.act({"type": "choose_theme", "index": 0}, version=state["version"])
            assert err.value.code == "not_seated"
            await leader.act({"type": "choose_theme", "index": 0}, version=state["version"])
            state = await leader.wait_state(lambda s: s["view"]["phase"] == "write")
            words = state["view"]["theme"]["words"][:7]
            await leader.act({"type": "rank", "words": words}, version=state["version"])
            reveal = await screen.wait_state(lambda s: s["view"]["phase"] == "reveal", timeout=20)
            announced = len(reveal["view"].get("announced") or [])
            ack = await screen.act({"type": "next"}, version=reveal["version"])
            after = await screen.wait_state(lambda s: s["version"] == ack["version"])
            assert len(after["view"].get("announced") or []) == announced + 1
            assert after["log"][-1]["actor"] == "host"
