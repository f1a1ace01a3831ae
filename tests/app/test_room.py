"""A room served from memory (app/live/room.py on a MemoryStore): every action goes through one apply, is
stored before anyone is told, and a room loaded again replays its game to the same place. Two hubs in one
process hear each other's lobby, chat and presence through the in-process bus."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, cast

import orjson

from app.live.bus import InProcessBus, LocalBus, Switchboard
from app.live.connection import Connection
from app.live.hub import Hub
from app.live.memory_store import MemoryStore
from app.live.messages import parse
from app.live.room import Room
from app.settings import Settings

SETTINGS = Settings(testing=True, bot_pace=0.01)


class Socket:
    """A socket that takes every write; ``sent`` holds the messages it was sent, decoded."""

    def __init__(self, player_id: int) -> None:
        self.sent: list[dict[str, Any]] = []
        self.conn = Connection(cast(Any, object()), player_id, 64, 1000, 1000, write_frames=self._write)

    def _write(self, frames: bytes) -> bool:
        while frames:  # whole unmasked text frames (app.ws_protocol.text_frame)
            size, start = frames[1], 2
            if size == 126:
                size, start = int.from_bytes(frames[2:4]), 4
            elif size == 127:
                size, start = int.from_bytes(frames[2:10]), 10
            self.sent.append(orjson.loads(frames[start : start + size]))
            frames = frames[start + size :]
        return True

    def last(self, kind: str) -> dict[str, Any]:
        return next(message for message in reversed(self.sent) if message["type"] == kind)


async def until(condition: Callable[[], bool], seconds: float = 5.0) -> None:
    async with asyncio.timeout(seconds):
        while not condition():
            await asyncio.sleep(0.005)


async def say(room: Room, socket: Socket, message: dict[str, Any]) -> None:
    await room.handle(socket.conn, parse(orjson.dumps(message), 4096))


async def table(store: MemoryStore, hub: Hub) -> tuple[Room, Socket, Socket]:
    """A Tri-Tac room on ``hub`` with Ann and Ben seated and the game started."""
    ann, ben = store.add_player("Ann"), store.add_player("Ben")
    code = await hub.create_room(ann, "tri-tac", {"size": 3}, seed=4)
    room = await hub.room(code)
    assert room is not None
    sockets = Socket(ann), Socket(ben)
    for seat, (socket, name) in enumerate(zip(sockets, ("Ann", "Ben"), strict=True)):
        assert await room.connect(socket.conn, name)
        await say(room, socket, {"type": "sit", "seat": seat})
    await say(room, sockets[0], {"type": "start"})
    return room, *sockets


def empty_cell(room: Room) -> list[int]:
    assert room.game is not None
    board = room.game.engine.view(room.game.state, None)["board"]
    return next([r, c] for r, row in enumerate(board) for c, cell in enumerate(row) if cell is None)


async def test_a_room_loaded_again_replays_its_game_to_the_same_place() -> None:
    store = MemoryStore()
    hub = Hub(store, SETTINGS, LocalBus(), "http://test")
    room, ann, ben = await table(store, hub)
    game = room.game
    assert game is not None
    for _ in range(4):
        mover = (ann, ben)[min(game.to_act)]
        await say(
            room, mover, {"type": "act", "action": {"type": "place", "cell": empty_cell(room)}, "version": game.version}
        )
        assert mover.last("ack")["version"] == game.version
    assert [version for version, *_ in store.moves[game.id]] == [1, 2, 3, 4]

    again = await Hub(store, SETTINGS, LocalBus(), "http://test").room(room.code)
    assert again is not None and again.game is not None
    engine = game.engine
    assert engine.dump(again.game.state) == engine.dump(game.state)
    assert (again.game.version, again.game.log, again.game.since) == (game.version, game.log, game.since)
    assert (again.game.timer_key, again.game.deadline) == (game.timer_key, game.deadline)


async def test_a_move_that_cannot_be_stored_is_not_played() -> None:
    store = MemoryStore()
    hub = Hub(store, SETTINGS, LocalBus(), "http://test")
    room, ann, _ben = await table(store, hub)
    game = room.game
    assert game is not None and min(game.to_act) == 0
    before = (game.engine.dump(game.state), game.version, list(game.log))
    stored = store.games[game.id]
    store.games[game.id] = (stored[0], type(stored[1])(**{**stored[1].__dict__, "version": 1}))  # written elsewhere
    await say(room, ann, {"type": "act", "action": {"type": "place", "cell": [0, 0]}, "version": 0, "id": "m1"})
    assert ann.last("error")["code"] == "stale_version"
    assert (game.engine.dump(game.state), game.version, game.log) == before  # the old object: untouched
    assert store.moves[game.id] == []


async def test_a_bot_moves_through_the_same_apply() -> None:
    store = MemoryStore()
    hub = Hub(store, SETTINGS, LocalBus(), "http://test")
    ann = store.add_player("Ann")
    code = await hub.create_room(ann, "tri-tac", {"size": 3}, seed=4)
    room = await hub.room(code)
    assert room is not None
    socket = Socket(ann)
    assert await room.connect(socket.conn, "Ann")
    await say(room, socket, {"type": "sit", "seat": 0})
    await say(room, socket, {"type": "add_bot", "seat": 1})
    await say(room, socket, {"type": "start"})
    game = room.game
    assert game is not None
    await say(room, socket, {"type": "act", "action": {"type": "place", "cell": [0, 0]}, "version": 0})
    await until(lambda: game.version == 2)
    actions = store.moves[game.id]
    assert [(version, seat, actor) for version, seat, _action, actor in actions] == [(1, 0, "player"), (2, 1, "bot")]
    assert socket.last("state")["version"] == 2
    await hub.close()


async def test_two_hubs_in_one_process_hear_each_other_through_the_in_process_bus() -> None:
    store, switchboard = MemoryStore(), Switchboard()
    one = Hub(store, SETTINGS, InProcessBus(switchboard), "http://one")
    two = Hub(store, SETTINGS, InProcessBus(switchboard), "http://two")
    for hub in (one, two):
        await hub.bus.start(hub)
    try:
        ann, ben = store.add_player("Ann"), store.add_player("Ben")
        code = await one.create_room(ann, "tri-tac", None, seed=1)
        here, there = await one.room(code), await two.room(code)
        assert here is not None and there is not None
        ann_socket, ben_socket = Socket(ann), Socket(ben)
        assert await here.connect(ann_socket.conn, "Ann")
        assert await there.connect(ben_socket.conn, "Ben")
        # Presence: each process shows the other's player connected.
        await until(lambda: ben in here.connected_players() and ann in there.connected_players())
        # A lobby change on one is loaded by two and shown to its sockets.
        await say(here, ann_socket, {"type": "sit", "seat": 0})
        await until(lambda: ben_socket.last("room")["room"]["seats"][0]["player"] is not None)
        assert there.record.seats[0].player_id == ann
        # A chat line said on two reaches one's sockets.
        await say(there, ben_socket, {"type": "chat", "text": "hello"})
        await until(lambda: any(m["type"] == "chat" and m["text"] == "hello" for m in ann_socket.sent))
        # A process that stops: its players are gone from the other at once.
        await two.bus.stop()
        await until(lambda: ben not in here.connected_players())
    finally:
        await one.bus.stop()
        await one.close()
        await two.close()
