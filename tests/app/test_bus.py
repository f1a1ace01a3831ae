"""The bus: one room's slow news does not hold up another room's, only a few rooms' news is handled at
once, news goes out without the room waiting on the channel, and a lost channel is subscribed to again (no
Redis needed: the listener is fed fake subscriptions, and what would be published is recorded)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from typing import Any

import orjson
import pytest

from app.live import bus as bus_module
from app.live.bus import NEWS_AT_ONCE, PubSubBus, RedisBus, Subscription


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
            item = await self.queue.get()
            if isinstance(item, BaseException):
                raise item
            yield item

    def lose(self) -> None:
        """The channel drops: the listener's next read fails."""
        self.queue.put_nowait(ConnectionError("the channel dropped"))  # type: ignore[arg-type]

    async def aclose(self) -> None:
        self.closed = True


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

    async def send(data: bytes) -> None:
        message = orjson.loads(data)
        del message["origin"]
        published.append(message)

    bus._send = send  # type: ignore[method-assign]
    feed = FakeSubscription()
    listener = asyncio.create_task(bus._listen(feed))
    sender = asyncio.create_task(bus._send_outbox())
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
        sender.cancel()
        await bus.redis.aclose()


class ScriptedBus(PubSubBus):
    """A bus over a channel the test controls: each subscription is the next of ``feeds`` (an exception in
    its place fails that attempt), and ``_send`` records, waits on ``sending`` and fails while ``down``."""

    def __init__(self, feeds: list[FakeSubscription | Exception]) -> None:
        super().__init__(heartbeat_seconds=60)
        self.feeds = feeds
        self.sent: list[dict[str, Any]] = []
        self.sending = asyncio.Event()
        self.sending.set()
        self.down = False

    async def _subscribe(self) -> Subscription:
        feed = self.feeds.pop(0)
        if isinstance(feed, Exception):
            raise feed
        return feed

    async def _send(self, data: bytes) -> None:
        await self.sending.wait()
        if self.down:
            raise ConnectionError("the channel is away")
        message = orjson.loads(data)
        if message["kind"] != "alive":
            self.sent.append({k: v for k, v in message.items() if k != "origin"})

    async def _close(self) -> None:
        return None


async def test_a_room_announces_without_waiting_on_the_channel_and_news_goes_out_in_order(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A room announces under its lock: a channel that hangs or is away must not hold it up. News waits in
    the outbox and goes out in order; while the channel is away it is dropped (the others read the database
    when they need the room), and what is announced after it is back goes out."""
    hub = FakeHub()
    hub.players = {"R1": {1}}
    bus = ScriptedBus([FakeSubscription()])
    await bus.start(hub)
    try:
        bus.sending.clear()  # the channel hangs
        async with asyncio.timeout(1):  # a bound, not a pause: each call returns at once
            await bus.room_changed("R1")
            await bus.chat("R1")
            await bus.presence("R1")
        assert bus.sent == []
        bus.sending.set()
        await until(lambda: len(bus.sent) == 3)
        assert bus.sent == [
            {"kind": "room", "room": "R1"},
            {"kind": "chat", "room": "R1"},
            {"kind": "presence", "room": "R1", "players": [1]},
        ]

        bus.down = True
        with caplog.at_level(logging.WARNING, logger="threefold.bus"):
            await bus.room_changed("R1")
            await until(lambda: "unreachable" in caplog.text and not bus._outbox)
        bus.down = False
        await bus.chat("R2")
        await until(lambda: len(bus.sent) == 4)
        assert bus.sent[3] == {"kind": "chat", "room": "R2"}
        assert "reachable again" in caplog.text
    finally:
        await bus.stop()
    assert bus.sent[-1] == {"kind": "gone"}


async def test_a_lost_channel_is_subscribed_to_again_and_asks_who_is_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """The listener outlives its channel: when the subscription fails it subscribes again (a failed attempt
    is tried again later), asks who is in the rooms it serves (presence said meanwhile was missed), and
    hears the news on the new subscription."""
    monkeypatch.setattr(bus_module, "RESUBSCRIBE_SECONDS", (0.001, 0.002))
    hub = FakeHub()
    hub.players = {"R1": {1}, "R2": set()}
    first, second = FakeSubscription(), FakeSubscription()
    bus = ScriptedBus([first, ConnectionError("still away"), second])
    await bus.start(hub)
    try:
        first.say(kind="room", room="R1")
        await until(lambda: hub.calls == [("room", "R1")])
        first.lose()
        await until(lambda: {"kind": "who", "rooms": ["R1", "R2"]} in bus.sent)
        assert bus.feeds == [] and getattr(first, "closed", False)
        second.say(kind="chat", room="R2")
        await until(lambda: ("chat", "R2") in hub.calls)
    finally:
        await bus.stop()
