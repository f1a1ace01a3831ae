"""``learning``: a player going through the chosen game's lesson while the room waits shows on their seat for
everyone ("learning 3/6"). Presence only: held by the process that serves the room, never stored, cleared
when they stop, when their last socket closes and when the game starts; refused outside the lobby."""

from __future__ import annotations

import contextlib
from typing import Any

import httpx
import pytest

from app.client import ClientError, RoomSocket, ThreefoldClient
from app.live import lobby
from app.live.messages import Learning, ProtocolError
from app.live.records import RoomRecord, SeatRecord
from app.live.room_state import LiveRoom
from tests.app.helpers import open_table
from tests.app.test_scale_out import cluster
from tests.support.server import ServerProcess

Room = dict[str, Any]


def learning_at(room: Room, seat: int) -> Any:
    player = room["seats"][seat]["player"]
    return None if player is None else player["learning"]


async def room_now(sock: RoomSocket) -> Room:
    """The room as the server holds it now: a ``sync`` answers with its summary."""
    await sock.request({"type": "sync", "id": "now"})
    return await sock.wait_room(lambda r: True)


async def test_progress_shows_on_the_seat_for_everyone_until_they_stop(sqlite_server: ServerProcess) -> None:
    table = await open_table(sqlite_server.url, "tri-tac", start=False)
    try:
        host, ben = table.sockets
        watcher = table.spectator
        assert watcher is not None
        assert learning_at(await room_now(host), 1) is None
        await ben.request({"type": "learning", "step": 3, "of": 6})
        for sock in (host, ben, watcher):
            room = await sock.wait_room(lambda r: learning_at(r, 1) is not None)
            assert learning_at(room, 1) == {"step": 3, "of": 6}
            assert learning_at(room, 0) is None
        # A spectator may learn too, and shows it on their line.
        await watcher.request({"type": "learning", "step": 1, "of": 4})
        room = await host.wait_room(lambda r: r["spectators"][0]["learning"] is not None)
        assert room["spectators"][0]["learning"] == {"step": 1, "of": 4}
        await ben.request({"type": "learning", "step": 4, "of": 6})
        assert learning_at(await host.wait_room(lambda r: learning_at(r, 1)["step"] == 4), 1) == {"step": 4, "of": 6}
        await ben.request({"type": "learning", "step": None})
        room = await host.wait_room(lambda r: learning_at(r, 1) is None)
        assert room["spectators"][0]["learning"] == {"step": 1, "of": 4}  # only Ben stopped
        await ben.request({"type": "learning", "step": None})  # stopping twice is no change, not an error
    finally:
        await table.close()


async def test_the_lessons_close_when_the_game_starts(sqlite_server: ServerProcess) -> None:
    table = await open_table(sqlite_server.url, "tri-tac", start=False)
    try:
        host, ben = table.sockets
        await ben.request({"type": "learning", "step": 2, "of": 6})
        await host.wait_room(lambda r: learning_at(r, 1) is not None)
        await host.send({"type": "start"})
        room = await ben.wait_room(lambda r: r["status"] == "playing")
        assert learning_at(room, 1) is None
        await ben.wait_state()
        # Progress is refused while the game runs, and shows nothing; stopping is still taken (a page that
        # closes its lesson as the game starts must not get an error).
        with pytest.raises(ClientError) as err:
            await ben.request({"type": "learning", "step": 3, "of": 6})
        assert err.value.code == "not_in_lobby"
        await ben.request({"type": "learning", "step": None})
        assert learning_at(await room_now(host), 1) is None
    finally:
        await table.close()


async def test_progress_clears_when_the_learners_last_socket_closes(sqlite_server: ServerProcess) -> None:
    table = await open_table(sqlite_server.url, "tri-tac", start=False)
    try:
        host, ben = table.sockets
        second = await table.stack.enter_async_context(table.clients[1].connect(table.code))
        await second.next(lambda m: m["type"] == "room")
        await ben.request({"type": "learning", "step": 5, "of": 6})
        await host.wait_room(lambda r: learning_at(r, 1) is not None)
        await second.close()  # Ben's other socket is still open: still learning
        await ben.request({"type": "ping", "id": "after-close"})
        assert learning_at(await room_now(host), 1) == {"step": 5, "of": 6}
        await ben.close()
        room = await host.wait_room(lambda r: not r["seats"][1]["player"]["connected"])
        assert learning_at(room, 1) is None
        # Back again: nothing is remembered; the page sends its progress again.
        again = await table.stack.enter_async_context(table.clients[1].connect(table.code))
        room = await again.wait_room(lambda r: r["seats"][1]["player"]["connected"])
        assert learning_at(room, 1) is None
    finally:
        await table.close()


BAD = [
    {"type": "learning", "step": 0, "of": 6},
    {"type": "learning", "step": 7, "of": 6},
    {"type": "learning", "step": 9, "of": 9},
    {"type": "learning", "step": 3},
    {"type": "learning", "of": 6},
    {"type": "learning"},
    {"type": "learning", "step": None, "of": 6},
    {"type": "learning", "step": 3.0, "of": 6},
    {"type": "learning", "step": "3", "of": 6},
    {"type": "learning", "step": True, "of": 6},
    {"type": "learning", "step": 3, "of": 6, "game": "tri-tac"},
    {"type": "learning", "step": -1, "of": -1},
]


async def test_bad_progress_is_refused_and_changes_nothing(sqlite_server: ServerProcess) -> None:
    table = await open_table(sqlite_server.url, "tri-tac", start=False, spectator=False)
    try:
        host, ben = table.sockets
        await ben.request({"type": "learning", "step": 3, "of": 6})
        before = await host.wait_room(lambda r: learning_at(r, 1) is not None)
        for index, bad in enumerate(BAD):
            with pytest.raises(ClientError) as err:
                await ben.request({**bad, "id": f"bad{index}"})
            assert err.value.code == "bad_message", bad
        assert await room_now(host) == before
        assert learning_at(before, 1) == {"step": 3, "of": 6}
    finally:
        await table.close()


async def test_progress_counts_against_the_sockets_message_budget(sqlite_server: ServerProcess) -> None:
    """A page that posts progress in a loop is slowed down like any other flood of messages."""
    table = await open_table(sqlite_server.url, "tri-tac", start=False, spectator=False)
    try:
        ben = table.sockets[1]
        for step in range(200):
            await ben.send({"type": "learning", "step": step % 6 + 1, "of": 6})
        refused = await ben.next(lambda m: m["type"] == "error")
        assert refused["code"] == "rate_limited"
    finally:
        await table.close()


def test_the_lobby_keeps_progress_apart_from_the_room_record() -> None:
    """Learning changes presence only: the record to save, and the rematch acceptances, are untouched."""
    record = RoomRecord(1, "ACDEF", 1, "tri-tac", {}, "lobby", None, [SeatRecord(1), SeatRecord(2)], {})
    live = LiveRoom(record, {1: "Ann", 2: "Ben"})
    saved = repr(live.record)
    assert lobby.learn(live, 2, Learning(type="learning", step=3, of=6))
    assert not lobby.learn(live, 2, Learning(type="learning", step=3, of=6))
    assert live.learning == {2: (3, 6)} and repr(live.record) == saved
    # Another game makes the lesson under way one of a game no longer chosen.
    lobby.configure(live, 1, lobby.Configure(type="configure", game="tic-tac-match"))
    assert live.learning == {}
    live.record.status = "playing"
    with pytest.raises(ProtocolError) as err:
        lobby.learn(live, 2, Learning(type="learning", step=1, of=6))
    assert err.value.code == "not_in_lobby" and live.learning == {}


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.real_process
async def test_progress_sent_through_another_process_reaches_the_owner() -> None:
    """Ben's socket reached the process that does not own the room: it is relayed to the owner, which holds
    the room's presence and builds every summary."""
    with cluster() as servers:
        one, two = servers.start(), servers.start()
        async with ThreefoldClient(one.url) as ann, ThreefoldClient(two.url) as ben:
            await ann.set_name("Ann")
            await ben.set_name("Ben")
            code = await ann.create_room("tri-tac", seed=2)
            async with contextlib.AsyncExitStack() as sockets:
                on_one = await sockets.enter_async_context(ann.connect(code))
                await on_one.next(lambda m: m["type"] == "room")  # process one owns the room now
                on_two = await sockets.enter_async_context(ben.connect(code))
                await on_two.next(lambda m: m["type"] == "room")
                await on_two.request({"type": "sit", "seat": 1})
                await on_two.request({"type": "learning", "step": 3, "of": 6})
                room = await on_one.wait_room(lambda r: learning_at(r, 1) is not None)
                assert learning_at(room, 1) == {"step": 3, "of": 6}
                await on_two.close()
                room = await on_one.wait_room(lambda r: learning_at(r, 1) is None)
                assert not room["seats"][1]["player"]["connected"]


def test_the_lesson_page_may_be_framed_by_this_site_only(sqlite_server: ServerProcess) -> None:
    """The room's lesson panel frames ``/learn/<game>``: this origin may, no other site may, and every other
    page stays unframeable."""
    with httpx.Client(base_url=sqlite_server.url) as http:
        lesson, room_page = http.get("/learn/tri-tac?embed=1&from=ACDEF"), http.get("/")
    assert lesson.headers["x-frame-options"] == "SAMEORIGIN"
    assert "frame-ancestors 'self'" in lesson.headers["content-security-policy"]
    assert room_page.headers["x-frame-options"] == "DENY"
    assert "frame-ancestors 'none'" in room_page.headers["content-security-policy"]
