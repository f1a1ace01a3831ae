"""A shared screen (the room page's TV mode: ``/ws/{code}?watch=1``) shows the public view, as a spectator's,
even when its player holds a seat; their phone still plays that seat."""

from __future__ import annotations

import pytest

from app.client import ClientError, ThreefoldClient
from tests.support.server import ServerProcess


async def test_a_seated_hosts_tv_gets_the_public_view(sqlite_server: ServerProcess) -> None:
    async with ThreefoldClient(sqlite_server.url) as ada, ThreefoldClient(sqlite_server.url) as sam:
        await ada.set_name("Ada")
        await sam.set_name("Sam")
        code = await ada.create_room("tic-tac-top", {"players": 3, "reveal_pause": 10}, seed=3)
        async with ada.connect(code) as phone, sam.connect(code) as spectator:
            await phone.next(lambda m: m["type"] == "room")
            await phone.send({"type": "sit", "seat": 0})
            await phone.send({"type": "add_bot", "seat": 1})
            await phone.send({"type": "add_bot", "seat": 2})
            await phone.wait_room(lambda r: all(s["player"] for s in r["seats"]))
            async with ada.connect(code, watch=True) as tv:
                await tv.next(lambda m: m["type"] == "room")
                assert tv.you is not None and tv.you["seat"] is None and tv.you["host"]
                assert phone.you is not None and phone.you["seat"] == 0
                await phone.send({"type": "start"})
                # Ada leads the first turn: her phone sees both themes' words, the room only their names.
                mine = await phone.wait_state(lambda s: s["view"]["phase"] == "choose")
                assert mine["view"]["leader"] == 0
                public = await spectator.wait_state(lambda s: s["version"] == mine["version"])
                shown = await tv.wait_state(lambda s: s["version"] == mine["version"])
                assert shown["view"] == public["view"] != mine["view"]
                # The TV is no seat: it cannot play hers, though it may pace the show as the host.
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
