"""A shared screen (the room page's TV mode: ``/ws/{code}?watch=1``) shows the public view, as a spectator's,
even when its player holds a seat; their phone still plays that seat."""

from __future__ import annotations

import pytest

from app.client import ClientError
from tests.app.helpers import open_table
from tests.support.server import ServerProcess


async def test_a_seated_hosts_tv_gets_the_public_view(sqlite_server: ServerProcess) -> None:
    table = await open_table(sqlite_server.url, "tic-tac-top", {"players": 3}, seed=3, players=3, start=False)
    phone, spectator = table.sockets[0], table.spectator
    assert spectator is not None
    try:
        async with table.clients[0].connect(table.code, watch=True) as tv:
            await tv.next(lambda m: m["type"] == "room")
            assert tv.you is not None and tv.you["seat"] is None and tv.you["host"]
            assert phone.you is not None and phone.you["seat"] == 0
            await phone.send({"type": "start"})
            # The host leads the first turn: their phone sees both themes' words, the room only their names.
            mine = await phone.wait_state(lambda s: s["view"]["phase"] == "choose")
            assert mine["view"]["leader"] == 0
            public = await spectator.wait_state(lambda s: s["version"] == mine["version"])
            shown = await tv.wait_state(lambda s: s["version"] == mine["version"])
            assert shown["view"] == public["view"] != mine["view"]
            # The TV is no seat: it cannot play the host's, though it may pace the show as the host.
            with pytest.raises(ClientError) as err:
                await tv.act({"type": "choose_theme", "index": 0}, version=mine["version"])
            assert err.value.code == "not_seated"
            await phone.act({"type": "choose_theme", "index": 0}, version=mine["version"])
            mine = await phone.wait_state(lambda s: s["view"]["phase"] == "write")
            public = await spectator.wait_state(lambda s: s["version"] == mine["version"])
            shown = await tv.wait_state(lambda s: s["version"] == mine["version"])
            assert shown["view"] == public["view"] != mine["view"]
            assert shown["events"] == public["events"]
            # A resync sends the TV the public view again.
            await tv.send({"type": "sync"})
            again = await tv.next(lambda m: m["type"] == "state" and not m.get("log_since"))
            assert again["view"] == public["view"]
    finally:
        await table.close()
