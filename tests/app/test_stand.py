"""``stand`` leaves the sender's seat; from someone without a seat it is refused with ``not_seated`` (and an
acknowledged no-op would tell a confused client that it had stood up)."""

from __future__ import annotations

import copy

import pytest

from app.client import ClientError, ThreefoldClient
from app.live import lobby
from app.live.messages import ProtocolError
from app.live.records import RoomRecord, SeatRecord
from app.live.room_state import LiveRoom
from tests.support.server import ServerProcess

HOST, GUEST = 1, 2


def test_stand_without_a_seat_is_refused_and_changes_nothing() -> None:
    record = RoomRecord(1, "ACDEF", HOST, "tri-tac", {}, "lobby", None, [SeatRecord(GUEST), SeatRecord(None)], {})
    live = LiveRoom(record, {HOST: "Ann", GUEST: "Ben"})
    before = copy.deepcopy(live.record)
    with pytest.raises(ProtocolError) as err:
        lobby.stand(live, HOST)
    assert err.value.code == "not_seated"
    assert live.record == before
    assert lobby.stand(live, GUEST).changed
    assert [seat.player_id for seat in live.record.seats] == [None, None]


async def test_stand_without_a_seat_gets_an_error_not_an_ack(sqlite_server: ServerProcess) -> None:
    async with ThreefoldClient(sqlite_server.url) as host:
        await host.set_name("Ann")
        code = await host.create_room("tri-tac")
        async with host.connect(code) as sock:
            await sock.next(lambda m: m["type"] == "room")
            await sock.request({"type": "stand", "id": "s0"})  # the seat she took creating the room
            with pytest.raises(ClientError) as err:
                await sock.request({"type": "stand", "id": "s1"})
            assert err.value.code == "not_seated"
            await sock.send({"type": "sit", "seat": 0})
            await sock.next(lambda m: m["type"] == "welcome" and m["you"]["seat"] == 0)
            reply = await sock.request({"type": "stand", "id": "s2"})
            assert reply == {"type": "ack", "id": "s2"}, reply
