"""The lobby's rules on a room in memory (app/live/lobby.py): who may change what, and what a refusal leaves."""

from __future__ import annotations

import copy
from typing import Any, cast

import pytest

from app.live import lobby
from app.live.connection import Connection
from app.live.messages import Configure, ProtocolError
from app.live.records import RoomRecord, SeatRecord
from app.live.room_state import LiveRoom

HOST, GUEST, OTHER = 1, 2, 3


def room(status: str = "lobby") -> LiveRoom:
    record = RoomRecord(1, "ACDEF", HOST, "tri-tac", {}, status, None, [SeatRecord(None), SeatRecord(None)], {})
    return LiveRoom(record, {HOST: "Ann", GUEST: "Ben", OTHER: "Cy"})


def connect(live: LiveRoom, player_id: int) -> Connection:
    conn = Connection(cast(Any, object()), player_id, 8, 10, 10)
    live.connections.add(conn)
    return conn


def refused(code: str, live: LiveRoom, call: Any, *args: Any) -> None:
    """``call`` raises ``code`` and leaves the room record as it was."""
    before = copy.deepcopy(live.record)
    with pytest.raises(ProtocolError) as err:
        call(live, *args)
    assert err.value.code == code
    assert live.record == before


def test_seats_are_taken_once_and_moved_by_their_owner() -> None:
    live = room()
    assert lobby.sit(live, GUEST, 1).changed
    refused("seat_taken", live, lobby.sit, OTHER, 1)
    refused("bad_message", live, lobby.sit, OTHER, 2)
    assert not lobby.sit(live, GUEST, 1).changed  # already there: nothing to save
    lobby.sit(live, GUEST, 0)  # moving frees the old seat
    assert [s.player_id for s in live.record.seats] == [GUEST, None]
    lobby.stand(live, GUEST)
    assert [s.player_id for s in live.record.seats] == [None, None]
    refused("not_in_lobby", room("playing"), lobby.sit, GUEST, 0)


def test_only_the_host_controls_the_room() -> None:
    live = room()
    connect(live, GUEST)
    for call, args in [
        (lobby.set_bot, (GUEST, 0, True)),
        (lobby.kick, (GUEST, HOST)),
        (lobby.make_host, (GUEST, GUEST)),
        (lobby.move_seat, (GUEST, 0, 1)),
        (lobby.shuffle, (GUEST,)),
        (lobby.configure, (GUEST, Configure(type="configure", game="tic-tac-match"))),
    ]:
        refused("not_host", live, call, *args)


def test_configure_fits_the_seats_to_the_game() -> None:
    live = room()
    lobby.sit(live, GUEST, 1)
    lobby.configure(live, HOST, Configure(type="configure", game="trick-tac-foe", options={"players": 4}))
    assert [s.player_id for s in live.record.seats] == [None, GUEST, None, None]
    refused("bad_options", live, lobby.configure, HOST, Configure(type="configure", options={"players": 5}))


def test_a_kick_bans_frees_the_seat_and_hands_back_the_sockets() -> None:
    live = room()
    lobby.sit(live, GUEST, 1)
    socket = connect(live, GUEST)
    change = lobby.kick(live, HOST, GUEST)
    assert change.removed == [socket] and socket not in live.connections
    assert live.settings.banned == [GUEST] and live.record.seats[1].player_id is None
    refused("bad_message", live, lobby.kick, HOST, HOST)
    lobby.invite(live, HOST, GUEST)
    assert live.settings.banned == []
    refused("bad_message", live, lobby.invite, HOST, GUEST)


def test_bots_fill_empty_seats_only() -> None:
    live = room()
    lobby.sit(live, GUEST, 0)
    refused("seat_taken", live, lobby.set_bot, HOST, 0, True)
    lobby.set_bot(live, HOST, 1, True)
    assert live.record.seats[1].is_bot
    refused("bad_message", live, lobby.set_bot, HOST, 0, False)
    lobby.set_bot(live, HOST, 1, False)
    assert not live.record.seats[1].is_bot


def test_the_host_swaps_seats_that_exist_only() -> None:
    live = room()
    lobby.sit(live, GUEST, 1)
    assert lobby.move_seat(live, HOST, 1, 0).changed
    assert [s.player_id for s in live.record.seats] == [GUEST, None]
    for seat, to in [(0, 2), (-1, 0), (5, 1)]:
        refused("bad_message", live, lobby.move_seat, HOST, seat, to)
    refused("not_in_lobby", room("playing"), lobby.move_seat, HOST, 0, 1)
