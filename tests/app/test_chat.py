"""app/live/chat.py: what a room keeps of its chat and who is sent each line."""

from __future__ import annotations

from typing import Any, cast

import orjson

from app.live import chat
from app.live.connection import Connection
from app.live.records import ChatRecord, RoomRecord, SeatRecord
from app.live.room_state import CHAT_LINES, LiveRoom

HOST, GUEST = 1, 2


def room() -> LiveRoom:
    record = RoomRecord(1, "ACDEF", HOST, "tri-tac", {}, "lobby", None, [SeatRecord(None), SeatRecord(None)], {})
    return LiveRoom(record, {HOST: "Ann", GUEST: "Ben"})


def listener(live: LiveRoom, player_id: int) -> list[bytes]:
    """A socket in the room that takes every write; returns the frames it was sent."""
    frames: list[bytes] = []

    def write(frame: bytes) -> bool:
        frames.append(frame)
        return True

    live.connections.add(Connection(cast(Any, object()), player_id, 8, 10, 10, write_frames=write))
    return frames


def line(line_id: int, text: str) -> ChatRecord:
    return ChatRecord(line_id, GUEST, "Ben", text, None, 1_700_000_000.0)


def kept_ids(live: LiveRoom) -> list[int]:
    return [orjson.loads(payload)["id"] for _id, _team, payload in live.chat]


def test_lines_are_kept_in_id_order_whatever_order_they_are_read_in() -> None:
    """With two processes, a line of our own can be shown before another process' earlier line is read: a
    newcomer's history must still be in the room's one order, whichever process it joins through."""
    live = room()
    frames = listener(live, HOST)
    for line_id in (7, 5, 6, 9):
        chat.show(live, line(line_id, f"line {line_id}"))
    assert kept_ids(live) == [5, 6, 7, 9]
    assert [line_id for line_id, _team, _payload in live.chat] == [5, 6, 7, 9]
    assert len(frames) == 4  # each sent once, as it came: the client orders them by id
    assert all(b'"id":' in frame for frame in frames)


def test_a_line_already_shown_is_not_sent_again() -> None:
    live = room()
    frames = listener(live, HOST)
    chat.show(live, line(3, "hello"))
    chat.show(live, line(3, "hello"))
    assert len(frames) == 1 and kept_ids(live) == [3]


def test_only_the_latest_lines_are_kept_however_they_arrive() -> None:
    live = room()
    for line_id in range(2, CHAT_LINES + 2):
        chat.show(live, line(line_id, "x"))
    chat.show(live, line(1, "older than all"))  # read late: too old to keep
    chat.show(live, line(CHAT_LINES + 3, "newest"))
    chat.show(live, line(CHAT_LINES + 2, "read after the newest"))
    ids = kept_ids(live)
    assert len(ids) == CHAT_LINES and ids == sorted(ids)
    assert ids[-2:] == [CHAT_LINES + 2, CHAT_LINES + 3] and 1 not in ids
