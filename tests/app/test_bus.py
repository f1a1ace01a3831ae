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
    """Records what the bus asks of it; room SLOW's reload waits until ``release`` is set."""

    def __init__(self) -> None:
        self.players: dict[str, set[int]] = {}
        self.calls: list[tuple[Any, ...]] = []
        self.release = asyncio.Event()
        self.slow_started = asyncio.Event()

    def served(self) -> list[str]:
        return list(self.players)

    def local_players(self, code: str) -> set[int]:
        return self.players.get(code, set())

    async def on_remote_room(self, code: str) -> None:
        if code == "SLOW":
            self.slow_started.set()
            await self.release.wait()
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


async def test_a_room_reloaded_slowly_does_not_hold_up_the_others() -> None:
    bus = RedisBus("redis://127.0.0.1:1/0")  # never connected: nothing here publishes
    hub = FakeHub()
    bus._rooms = hub
    feed = FakeSubscription()
    listener = asyncio.create_task(bus._listen(feed))
    try:
        feed.say(kind="room", room="SLOW")
        await asyncio.wait_for(hub.slow_started.wait(), 2)
        feed.say(kind="chat", room="FAST")
        feed.say(kind="room", room="FAST")
        await until(lambda: len(hub.calls) == 2)
        assert hub.calls == [("chat", "FAST"), ("room", "FAST")], "FAST waited for SLOW"

        # SLOW's later news waits for its first, in order; chat news folds into chat news.
        feed.say(kind="chat", room="SLOW")
        feed.say(kind="chat", room="SLOW")
        feed.say(kind="room", room="SLOW")
        feed.say(kind="bogus-without-a-room")  # logged, and the listener goes on
        feed.say(kind="presence", room="SLOW", players=[7, 8])
        for _ in range(3):  # one read of the database brings all three lines
            feed.say(kind="chat", room="SLOW")
        await asyncio.sleep(0.05)
        assert len(hub.calls) == 2
        hub.release.set()
        await until(lambda: len(hub.calls) == 7)
        assert hub.calls[2:] == [
            ("room", "SLOW"),
            ("chat", "SLOW"),
            ("room", "SLOW"),
            ("presence", "SLOW", "other", frozenset({7, 8})),
            ("chat", "SLOW"),
        ]
        await until(lambda: not bus._news)  # a room's worker ends with its news
        assert not bus._workers

        # A process that stopped: its presence still waiting behind the room's other news is dropped.
        hub.release.clear()
        hub.calls.clear()
        feed.say(kind="room", room="SLOW")
        feed.say(kind="presence", room="SLOW", players=[9])
        feed.say(kind="gone")
        await until(lambda: ("gone", "other") in hub.calls)
        hub.release.set()
        await until(lambda: ("room", "SLOW") in hub.calls and not bus._news)
        assert not any(call[0] == "presence" and 9 in call[3] for call in hub.calls), hub.calls
    finally:
        listener.cancel()
        await bus.redis.aclose()


class BlockingHub(FakeHub):
    """Every room's reload waits until ``release`` is set; counts how many run at once."""

    def __init__(self) -> None:
        super().__init__()
        self.running = self.most = 0

    async def on_remote_room(self, code: str) -> None:
        self.running += 1
        self.most = max(self.most, self.running)
        try:
            await self.release.wait()
        finally:
            self.running -= 1
        self.calls.append(("room", code))


async def test_news_for_many_rooms_is_handled_a_few_rooms_at_a_time() -> None:
    """A reload reads the database through the connections this process' own moves are written through:
    news for every room at once queued ahead of those moves (bench/README.md, two processes)."""
    bus = RedisBus("redis://127.0.0.1:1/0")
    hub = BlockingHub()
    bus._rooms = hub
    feed = FakeSubscription()
    listener = asyncio.create_task(bus._listen(feed))
    rooms = 3 * NEWS_AT_ONCE
    try:
        for n in range(rooms):
            feed.say(kind="room", room=f"R{n}")
        await until(lambda: len(bus._news) == rooms)
        await asyncio.sleep(0.05)
        assert hub.running == NEWS_AT_ONCE
        hub.release.set()
        await until(lambda: not bus._news)
        assert hub.most == NEWS_AT_ONCE
        assert sorted(hub.calls) == sorted([("room", f"R{n}") for n in range(rooms)])
    finally:
        listener.cancel()
        await bus.redis.aclose()


async def test_who_is_asked_for_every_room_in_one_message_and_answered_room_by_room() -> None:
    """A process heard again after it fell silent is asked about every loaded room at once (asking room
    by room held the listener for a Redis round trip per room); an ask about many rooms is answered for
    each room this process has sockets in."""
    bus = RedisBus("redis://127.0.0.1:1/0")
    hub = FakeHub()
    hub.players = {"R1": {1}, "R2": set(), "R3": {3, 4}}
    bus._rooms = hub
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
