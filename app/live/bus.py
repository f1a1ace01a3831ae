"""Pub/sub between app processes. In-process by default (nothing to tell anyone); Redis when several
processes serve the same rooms; ``InProcessBus`` for several hubs in one process (tests). Each room has one
owner process (app.live.leases), so moves never cross the bus; lobby and chat news name only the room, and
every process reads the rest from the database, so secret state never travels through Redis.

Presence (who is connected through which process) is each process' own word about its sockets, so a
process that dies cannot take it back: every process says it is alive every ``heartbeat_seconds``, and one
not heard from for three of them counts as gone, its players with it (the hub then treats them as having
left: away, stand-in bots, host handover). A process that stops cleanly says so at once. A process that
loads a room asks who is in it, since the others only speak up when someone comes or goes.

The channel is a hint, never the record: a room's news goes out through an outbox that the room does not
wait on, and a process cut off from the channel goes on serving its rooms (their leases are in the
database) while its news is dropped; it subscribes again when the channel is back (docs/deploy.md)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections import deque
from collections.abc import AsyncIterator
from typing import Any, Protocol, cast

import orjson

from app.redis_pool import open_redis

log = logging.getLogger("threefold.bus")
CHANNEL = "threefold:rooms"


class Rooms(Protocol):
    """What the bus needs of this process' rooms (app.live.hub.Hub): who is connected here, and the news."""

    def served(self) -> list[str]:
        """The codes of the rooms this process serves."""
        ...

    def local_players(self, code: str) -> set[int]:
        """Who is connected to ``code`` through this process."""
        ...

    async def on_remote_room(self, code: str) -> None: ...
    async def on_remote_chat(self, code: str) -> None: ...
    async def on_remote_presence(self, code: str, origin: str, player_ids: set[int]) -> None: ...
    async def on_peer_gone(self, origin: str) -> None:
        """Another process stopped or fell silent: whoever was connected only through it has left."""
        ...


class Bus(Protocol):
    async def start(self, rooms: Rooms) -> None: ...
    async def stop(self) -> None: ...
    async def room_changed(self, code: str) -> None: ...
    async def chat(self, code: str) -> None:
        """A chat line was stored for ``code``: the other processes read it from the database."""
        ...

    async def presence(self, code: str) -> None:
        """Tell the other processes who is connected to ``code`` through this one."""
        ...

    async def ask_presence(self, codes: list[str]) -> None:
        """Ask the other processes who is connected to these rooms through them, in one message (this one
        just loaded a room, or hears again from a process it had counted as gone)."""
        ...


class LocalBus:
    """One process: the hub already told every socket it has."""

    async def start(self, rooms: Rooms) -> None:
        return None

    async def stop(self) -> None:
        return None

    async def room_changed(self, code: str) -> None:
        return None

    async def chat(self, code: str) -> None:
        return None

    async def presence(self, code: str) -> None:
        return None

    async def ask_presence(self, codes: list[str]) -> None:
        return None


PEER_SILENCE_BEATS = 3
"""Heartbeats a process may miss before the others count it as gone."""

NEWS_AT_ONCE = 4
"""Rooms whose news is handled at the same time. A room reloaded from the database reads through the same
few connections this process' own moves are written through, and news for every room at once queued ahead
of them (bench/README.md, "Figures behind the code's choices"). One room being loaded still holds up only its
own share."""


OUTBOX_LIMIT = 10_000
"""News waiting to go out; past it the oldest is dropped (a room's news only says "read me again")."""

STOP_SECONDS = 1.0
"""How long a stopping process tries to send the news it still has queued."""

RESUBSCRIBE_SECONDS = (0.5, 5.0)
"""The first and the longest wait between attempts to subscribe again to a lost channel."""


class Subscription(Protocol):
    def listen(self) -> AsyncIterator[dict[str, Any]]:
        """The channel's messages as Redis' pub/sub gives them (``{"type": "message", "data": bytes}``)."""
        ...

    async def aclose(self) -> None: ...


class PubSubBus:
    """The bus over one pub/sub channel, whatever carries it: heartbeats, presence, and each room's news
    handled in order but without waiting for other rooms'. ``_subscribe``, ``_send`` and ``_close`` are the
    transport's."""

    def __init__(self, heartbeat_seconds: float = 5.0) -> None:
        self.origin = uuid.uuid4().hex
        self.heartbeat_seconds = heartbeat_seconds
        self._tasks: list[asyncio.Task[None]] = []
        self._rooms: Rooms | None = None
        self._heard: dict[str, float] = {}
        """When each other process was last heard from (monotonic clock)."""
        self._dropped: set[str] = set()
        """Processes counted as gone for their silence: one heard again was only slow, and its players are
        asked for again."""
        self._stopped: set[str] = set()
        """Processes that said they stopped: their presence news still queued behind a room's must not bring
        their players back."""
        self._news: dict[str, list[RoomNews]] = {}
        """Each room's news not handled yet, oldest first; a room is in here while a task works through it."""
        self._workers: set[asyncio.Task[None]] = set()
        self._handling = asyncio.Semaphore(NEWS_AT_ONCE)
        self._outbox: deque[bytes] = deque(maxlen=OUTBOX_LIMIT)
        self._outbox_filled = asyncio.Event()

    async def _subscribe(self) -> Subscription:
        raise NotImplementedError

    async def _send(self, data: bytes) -> None:
        raise NotImplementedError

    async def _close(self) -> None:
        raise NotImplementedError

    async def start(self, rooms: Rooms) -> None:
        self._rooms = rooms
        subscription = await self._subscribe()
        self._tasks = [
            asyncio.create_task(self._listen_while_running(subscription)),
            asyncio.create_task(self._heartbeat()),
            asyncio.create_task(self._send_outbox()),
        ]

    async def stop(self) -> None:
        for task in [*self._tasks, *self._workers]:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._flush_outbox(), STOP_SECONDS)
        with contextlib.suppress(Exception):  # the others drop this process' players now, not in 15 s
            await self._publish({"kind": "gone"})
        await self._close()

    async def _flush_outbox(self) -> None:
        while self._outbox:
            await self._send(self._outbox.popleft())

    async def _heartbeat(self) -> None:
        assert self._rooms is not None
        while True:
            with contextlib.suppress(Exception):  # the channel away for a moment: the next beat
                await self._publish({"kind": "alive"})
            silent_since = time.monotonic() - PEER_SILENCE_BEATS * self.heartbeat_seconds
            for origin, heard in list(self._heard.items()):
                if heard < silent_since:
                    del self._heard[origin]
                    self._dropped.add(origin)
                    log.warning("process %s fell silent: its players count as gone", origin)
                    try:
                        await self._rooms.on_peer_gone(origin)
                    except Exception:  # the heartbeat must outlive any one room's trouble
                        log.exception("dropping the players of process %s failed", origin)
            await asyncio.sleep(self.heartbeat_seconds)

    def _signed(self, message: dict[str, Any]) -> bytes:
        return orjson.dumps({**message, "origin": self.origin})

    async def _publish(self, message: dict[str, Any]) -> None:
        await self._send(self._signed(message))

    def _announce(self, message: dict[str, Any]) -> None:
        """Queue news for the other processes, in order. A room holds its lock while it announces, so it
        must not wait on the channel: a channel that is slow or gone would stall the room's moves."""
        self._outbox.append(self._signed(message))
        self._outbox_filled.set()

    async def _send_outbox(self) -> None:
        unreachable = False
        while True:
            await self._outbox_filled.wait()
            self._outbox_filled.clear()
            while self._outbox:
                data = self._outbox.popleft()
                try:
                    await self._send(data)
                except Exception:
                    # News is a hint to read the database again: what is dropped here, the others learn
                    # when they load the room or hear this process again (they then ask who is here).
                    if not unreachable:
                        log.warning("the bus channel is unreachable: news to other processes is dropped", exc_info=True)
                    unreachable = True
                    self._outbox.clear()
                else:
                    if unreachable:
                        log.warning("the bus channel is reachable again")
                    unreachable = False

    async def room_changed(self, code: str) -> None:
        self._announce({"kind": "room", "room": code})

    async def chat(self, code: str) -> None:
        self._announce({"kind": "chat", "room": code})

    async def presence(self, code: str) -> None:
        assert self._rooms is not None
        self._announce({"kind": "presence", "room": code, "players": sorted(self._rooms.local_players(code))})

    async def ask_presence(self, codes: list[str]) -> None:
        self._announce({"kind": "who", "rooms": codes})

    async def _listen_while_running(self, subscription: Subscription) -> None:
        """Listen; when the channel is lost, subscribe again (waiting longer after each failed attempt), and
        ask who is in this process' rooms: presence news sent meanwhile was missed."""
        assert self._rooms is not None
        while True:
            try:
                await self._listen(subscription)
            except Exception:
                log.warning("lost the bus channel: subscribing again", exc_info=True)
            with contextlib.suppress(Exception):
                await subscription.aclose()
            wait, longest = RESUBSCRIBE_SECONDS
            while True:
                await asyncio.sleep(wait)
                try:
                    subscription = await self._subscribe()
                    break
                except Exception:
                    wait = min(wait * 2, longest)
            log.warning("subscribed to the bus channel again")
            served = self._rooms.served()
            if served:
                await self.ask_presence(served)

    async def _listen(self, subscription: Subscription) -> None:
        assert self._rooms is not None
        rooms = self._rooms
        async for item in subscription.listen():
            if item.get("type") != "message":
                continue
            try:
                msg = orjson.loads(item["data"])
                origin = msg.get("origin")
                if origin == self.origin:
                    continue
                if msg["kind"] == "gone":
                    self._stopped.add(origin)
                    self._heard.pop(origin, None)
                    await rooms.on_peer_gone(origin)
                    continue
                self._heard[origin] = time.monotonic()
                if origin in self._dropped:
                    self._dropped.discard(origin)
                    served = rooms.served()
                    if served:  # one message: asking room by room held this listener for a round trip each
                        await self.ask_presence(served)
                if msg["kind"] == "alive":
                    continue
                if msg["kind"] == "who":  # about many rooms: each answers in its own turn
                    for code in msg["rooms"]:
                        self._queue(str(code), ("who",))
                    continue
                news = _room_news(msg)
                if news is not None:
                    self._queue(str(msg["room"]), news)
            except Exception:  # keep listening whatever one message did
                log.exception("bad bus message")

    def _queue(self, code: str, news: RoomNews) -> None:
        """Handle a room's news after that room's earlier news, but without waiting for other rooms'. Handled
        one at a time, a room being loaded from the database held up every other room's news behind it.
        Chat news is folded into chat news still waiting (one read of the database brings every new line)."""
        queued = self._news.get(code)
        if queued is None:
            self._news[code] = [news]
            worker = asyncio.create_task(self._work_through(code))
            self._workers.add(worker)
            worker.add_done_callback(self._workers.discard)
        elif news == ("chat",) and queued and queued[-1] == news:
            return
        else:
            queued.append(news)

    async def _work_through(self, code: str) -> None:
        queued = self._news[code]
        try:
            while queued:
                async with self._handling:
                    await self._handle(code, queued.pop(0))
        finally:
            del self._news[code]

    async def _handle(self, code: str, news: RoomNews) -> None:
        assert self._rooms is not None
        rooms = self._rooms
        try:
            if news[0] == "who":
                if rooms.local_players(code):
                    await self.presence(code)
            elif news[0] == "room":
                await rooms.on_remote_room(code)
            elif news[0] == "chat":
                await rooms.on_remote_chat(code)
            elif news[0] == "presence" and news[1] not in self._stopped and news[1] not in self._dropped:
                await rooms.on_remote_presence(code, str(news[1]), set(news[2]))
        except Exception:  # the room's later news still counts
            log.exception("handling %s news for room %s failed", news[0], code)


class RedisBus(PubSubBus):
    """Processes on several machines (or containers), through a Redis channel."""

    def __init__(self, url: str, heartbeat_seconds: float = 5.0) -> None:
        super().__init__(heartbeat_seconds)
        self.redis: Any = open_redis(url)

    async def _subscribe(self) -> Subscription:
        await self.redis.ping()
        pubsub = self.redis.pubsub()
        await pubsub.subscribe(CHANNEL)
        return cast(Subscription, pubsub)

    async def _send(self, data: bytes) -> None:
        await self.redis.publish(CHANNEL, data)

    async def _close(self) -> None:
        await self.redis.aclose()


class Switchboard:
    """The channel of ``InProcessBus``: every message reaches every bus joined to it, in order, as bytes."""

    def __init__(self) -> None:
        self._queues: set[asyncio.Queue[dict[str, Any]]] = set()

    def join(self) -> InProcessSubscription:
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._queues.add(queue)
        return InProcessSubscription(self, queue)

    def leave(self, subscription: InProcessSubscription) -> None:
        self._queues.discard(subscription.queue)

    def send(self, data: bytes) -> None:
        for queue in self._queues:
            queue.put_nowait({"type": "message", "data": data})


class InProcessSubscription:
    def __init__(self, switchboard: Switchboard, queue: asyncio.Queue[dict[str, Any]]) -> None:
        self.switchboard, self.queue = switchboard, queue

    async def listen(self) -> AsyncIterator[dict[str, Any]]:
        while True:
            yield await self.queue.get()

    async def aclose(self) -> None:
        self.switchboard.leave(self)


class InProcessBus(PubSubBus):
    """Several hubs in one process (tests), through a ``Switchboard`` they share: what Redis carries between
    processes, without Redis."""

    def __init__(self, switchboard: Switchboard, heartbeat_seconds: float = 5.0) -> None:
        super().__init__(heartbeat_seconds)
        self.switchboard = switchboard
        self._subscription: InProcessSubscription | None = None

    async def _subscribe(self) -> Subscription:
        self._subscription = self.switchboard.join()
        return self._subscription

    async def _send(self, data: bytes) -> None:
        self.switchboard.send(data)

    async def _close(self) -> None:
        if self._subscription is not None:
            self.switchboard.leave(self._subscription)


RoomNews = tuple[Any, ...]
"""("room",) | ("chat",) | ("presence", origin, player ids) | ("who",)"""


def _room_news(msg: dict[str, Any]) -> RoomNews | None:
    """A bus message about one room, checked (a malformed one raises here, on the listener)."""
    kind = msg["kind"]
    if kind == "presence":
        return ("presence", str(msg["origin"]), frozenset(int(p) for p in msg["players"]))
    if kind in ("room", "chat"):
        return (kind,)
    return None


def make_bus(redis_url: str | None, heartbeat_seconds: float = 5.0) -> Bus:
    return RedisBus(redis_url, heartbeat_seconds) if redis_url else LocalBus()
