"""The Redis bus' listener: one room's slow news does not hold up another room's, and only a few rooms'
news is handled at once (no Redis needed: the listener is fed a fake subscription, and nothing here
publishes)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import orjson

from app.live.bus import NEWS_AT_ONCE, RedisBus


class FakeHub:
    """Records what the bus asks of it; room SLOW's catch-up waits until ``release`` is set."""

    def __init__(self) -> None:
        self.rooms: dict[str, Any] = {}
        self.calls: list[tuple[Any, ...]] = []
        self.release = asyncio.Event()
        self.slow_started = asyncio.Event()

    async def on_remote_move(self, code: str, game_id: int, version: int) -> None:
        if code == "SLOW":
            self.slow_started.set()
            await self.release.wait()
        self.calls.append(("move", code, game_id, version))

    async def on_remote_room(self, code: str) -> None:
        self.calls.append(("room", code))

    async def on_remote_chat(self, code: str) -> None:
        self.calls.append(("chat", code))

    async def on_remote_presence(self, code: str, origin: str, players: set[int]) -> None:
        self.calls.append(("presence", code, origin, frozenset(players)))

    async def on_peer_gone(self, origin: str) -> None:
        self.calls.append(("gone", origin))


class FakeSubscription:
    def __init__(self) -> None:
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    def say(self, **message: Any) -> None:
        self.queue.put_nowait({"type": "message", "data": orjson.dumps({"origin": "other", **message})})

    async def listen(self) -> AsyncIterator[dict[str, Any]]:
        while True:
            yield await self.queue.get()


async def until(condition: Any, seconds: float = 2.0) -> None:
    async with asyncio.timeout(seconds):
        while not condition():
            await asyncio.sleep(0.005)


async def test_a_room_caught_up_slowly_does_not_hold_up_the_others() -> None:
    bus = RedisBus("redis://127.0.0.1:1/0")  # never connected: nothing here publishes
    hub = FakeHub()
    bus._hub = hub  # type: ignore[assignment]
    feed = FakeSubscription()
    listener = asyncio.create_task(bus._listen(feed))
    try:
        feed.say(kind="move", room="SLOW", game=1, version=1)
        await asyncio.wait_for(hub.slow_started.wait(), 2)
        feed.say(kind="move", room="FAST", game=2, version=1)
        feed.say(kind="room", room="FAST")
        await until(lambda: len(hub.calls) == 2)
        assert hub.calls == [("move", "FAST", 2, 1), ("room", "FAST")], "FAST waited for SLOW"

        # SLOW's later news waits for its first, in order; moves of the same game fold into the latest, chat into chat.
        feed.say(kind="move", room="SLOW", game=1, version=2)
        feed.say(kind="move", room="SLOW", game=1, version=3)
        feed.say(kind="room", room="SLOW")
        feed.say(kind="move", room="SLOW", game=1, version=4)
        feed.say(kind="bogus-without-a-room")  # logged, and the listener goes on
        feed.say(kind="presence", room="SLOW", players=[7, 8])
        for _ in range(3):  # one read of the database brings all three lines
            feed.say(kind="chat", room="SLOW")
        await asyncio.sleep(0.05)
        assert len(hub.calls) == 2
        hub.release.set()
        await until(lambda: len(hub.calls) == 8)
        assert hub.calls[2:] == [
            ("move", "SLOW", 1, 1),
            ("move", "SLOW", 1, 3),
            ("room", "SLOW"),
            ("move", "SLOW", 1, 4),
            ("presence", "SLOW", "other", frozenset({7, 8})),
            ("chat", "SLOW"),
        ]
        await until(lambda: not bus._news)  # a room's worker ends with its news
        assert not bus._workers

        # A process that stopped: its presence still waiting behind the room's other news is dropped.
        hub.release.clear()
        feed.say(kind="move", room="SLOW", game=1, version=5)
        feed.say(kind="presence", room="SLOW", players=[9])
        feed.say(kind="gone")
        await until(lambda: ("gone", "other") in hub.calls)
        hub.release.set()
        await until(lambda: ("move", "SLOW", 1, 5) in hub.calls and not bus._news)
        assert not any(call[0] == "presence" and 9 in call[3] for call in hub.calls), hub.calls
    finally:
        listener.cancel()
        await bus.redis.aclose()


class BlockingHub(FakeHub):
    """Every room's catch-up waits until ``release`` is set; counts how many run at once."""

    def __init__(self) -> None:
        super().__init__()
        self.running = self.most = 0

    async def on_remote_move(self, code: str, game_id: int, version: int) -> None:
        self.running += 1
        self.most = max(self.most, self.running)
        try:
            await self.release.wait()
        finally:
            self.running -= 1
        self.calls.append(("move", code, game_id, version))


async def test_news_for_many_rooms_is_handled_a_few_rooms_at_a_time() -> None:
    """Catching up reads the database through the connections this process' own moves are written
    through: news for every room at once queued ahead of those moves (bench/README.md, two processes)."""
    bus = RedisBus("redis://127.0.0.1:1/0")
    hub = BlockingHub()
    bus._hub = hub  # type: ignore[assignment]
    feed = FakeSubscription()
    listener = asyncio.create_task(bus._listen(feed))
    rooms = 3 * NEWS_AT_ONCE
    try:
        for n in range(rooms):
            feed.say(kind="move", room=f"R{n}", game=n, version=1)
        await until(lambda: len(bus._news) == rooms)
        await asyncio.sleep(0.05)
        assert hub.running == NEWS_AT_ONCE
        feed.say(kind="move", room="R0", game=0, version=2)  # waiting news still folds
        hub.release.set()
        await until(lambda: not bus._news)
        assert hub.most == NEWS_AT_ONCE
        assert sorted(hub.calls) == sorted([("move", f"R{n}", n, 1) for n in range(rooms)] + [("move", "R0", 0, 2)])
    finally:
        listener.cancel()
        await bus.redis.aclose()


class Room:
    def __init__(self, players: set[int]) -> None:
        self.connections = players
        self.players = players

    def local_players(self) -> set[int]:
        return self.players


async def test_who_is_asked_for_every_room_in_one_message_and_answered_room_by_room() -> None:
    """A process heard again after it fell silent is asked about every loaded room at once (asking room
    by room held the listener for a Redis round trip per room); an ask about many rooms is answered for
    each room this process has sockets in."""
    bus = RedisBus("redis://127.0.0.1:1/0")
    hub = FakeHub()
    hub.rooms = {"R1": Room({1}), "R2": Room(set()), "R3": Room({3, 4})}
    bus._hub = hub  # type: ignore[assignment]
    published: list[dict[str, Any]] = []

    async def publish(message: dict[str, Any]) -> None:
        published.append(message)

    bus._publish = publish  # type: ignore[method-assign]
    feed = FakeSubscription()
    listener = asyncio.create_task(bus._listen(feed))
    try:
        feed.say(kind="who", rooms=["R1", "R2", "R3", "UNKNOWN"])
        await until(lambda: len(published) == 2 and not bus._news)
        assert sorted((m["room"], m["players"]) for m in published) == [("R1", [1]), ("R3", [3, 4])]
        assert all(m["kind"] == "presence" for m in published)

        published.clear()
        bus._dropped.add("other")  # it fell silent; now it speaks again
        feed.say(kind="alive")
        await until(lambda: bool(published))
        await asyncio.sleep(0.05)
        assert published == [{"kind": "who", "rooms": ["R1", "R2", "R3"]}]
    finally:
        listener.cancel()
        await bus.redis.aclose()
