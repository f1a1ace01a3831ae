"""A shared screen (the room page's TV mode: ``/ws/{code}?watch=1``) shows the public view, as a spectator's,
even when its player holds a seat; their phone still plays that seat."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from app.client import ClientError, ThreefoldClient
from tests.app.helpers import open_table
from tests.support.inprocess import InProcessServer
from tests.support.server import ServerProcess

GRACE_SECONDS = 5
"""The shortest grace period a host may set: a stand-in comes after it."""


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


@pytest.fixture
def quick_handover_server(sqlite_url: str) -> Iterator[InProcessServer]:
    with InProcessServer(sqlite_url, extra_env={"THREEFOLD_HOST_GRACE_SECONDS": "0.5"}) as running:
        yield running


async def test_a_tv_left_open_is_not_its_seated_host(quick_handover_server: InProcessServer) -> None:
    """The host's phone drops while their TV stays open: a screen is nobody's presence, so the host is away
    like anyone whose phone went. The role passes to the longest-present person, and after the grace period
    a stand-in plays the host's seat; the TV goes on showing the public table."""
    table = await open_table(quick_handover_server.url, "tri-tac", {"size": 5}, seed=3)
    phone, guest = table.sockets
    spectator = table.spectator
    assert spectator is not None and guest.you is not None and phone.you is not None
    guest_id, host_seat = guest.you["id"], phone.you["seat"]
    try:
        await phone.request({"type": "room_settings", "grace_seconds": GRACE_SECONDS})
        async with table.clients[0].connect(table.code, watch=True) as tv:
            await tv.wait_state()
            assert tv.you is not None and tv.you["host"] and tv.you["seat"] is None
            state = await guest.wait_state()
            assert state["to_act"] == [host_seat], "the host's seat must be the one the game waits on"
            await phone.close()
            await spectator.wait_room(lambda r: not r["seats"][host_seat]["player"]["connected"])
            # The host role goes to the guest, who came before the spectator; the TV is told it no longer hosts.
            await spectator.wait_room(lambda r: r["host"] == guest_id)
            await tv.next(lambda m: m["type"] == "welcome" and not m["you"]["host"])
            # Then a stand-in plays the seat the game waited on, the host's, as the TV sees.
            played = await tv.wait_state(
                lambda s: any(e.get("actor") == "standin" for e in s["log"]), timeout=GRACE_SECONDS + 10
            )
            assert played["version"] == state["version"] + 1 and played["to_act"] != [host_seat]
            room = await spectator.wait_room(lambda r: r["seats"][host_seat]["player"]["standin"])
            assert room["seats"][host_seat]["player"]["connected"] is False
    finally:
        await table.close()


async def test_a_seatless_host_runs_the_room_from_the_tv(quick_handover_server: InProcessServer) -> None:
    """A party host who holds no seat and keeps only the TV open stays host (their TV paces the show), while
    their seated guests are counted as anyone is; once the TV closes too, the role passes on."""
    url = quick_handover_server.url
    async with ThreefoldClient(url) as host, ThreefoldClient(url) as ann, ThreefoldClient(url) as ben:
        for client, name in ((host, "Host"), (ann, "Ann"), (ben, "Ben")):
            await client.set_name(name)
        code = await host.create_room("tri-tac", {"size": 5}, seed=3)
        async with host.connect(code) as phone, ann.connect(code) as anns, ben.connect(code) as bens:
            await phone.next(lambda m: m["type"] == "room")
            await phone.request({"type": "stand"})  # the seat taken creating the room
            await phone.request({"type": "room_settings", "grace_seconds": GRACE_SECONDS})
            for sock, seat in ((bens, 0), (anns, 1)):
                await sock.next(lambda m: m["type"] == "room")
                await sock.request({"type": "sit", "seat": seat})
            await phone.request({"type": "start"})
            state = await anns.wait_state()
            assert state["to_act"] == [0]
            async with host.connect(code, watch=True) as tv:
                await tv.wait_state()
                await phone.close()
                await bens.close()
                # Ben's stand-in comes after the grace period, long after a handover would have.
                await anns.wait_state(
                    lambda s: any(e.get("actor") == "standin" for e in s["log"]), timeout=GRACE_SECONDS + 10
                )
                assert anns.room is not None and tv.you is not None and anns.room["host"] == tv.you["id"]
                assert tv.you["host"]
            assert anns.you is not None
            await anns.wait_room(lambda r: r["host"] == anns.you["id"])  # type: ignore[index]
