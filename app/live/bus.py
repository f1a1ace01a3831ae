"""Pub/sub between app processes. In-process by default (nothing to tell anyone); Redis when several
processes serve the same rooms. Only ``{room, game, version}`` crosses the wire: every process reloads or
replays from the database, so secret state never travels through Redis.

Presence (who is connected through which process) is each process' own word about its sockets, so a
process that dies cannot take it back: every process says it is alive every ``heartbeat_seconds``, and one
not heard from for three of them counts as gone, its players with it (the hub then treats them as having
left: away, stand-in bots, host handover). A process that stops cleanly says so at once. A process that
loads a room asks who is in it, since the others only speak up when someone comes or goes."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from typing import TYPE_CHECKING, Any, Protocol

import orjson

from app.redis_pool import open_redis

if TYPE_CHECKING:
    from app.live.hub import Hub

log = logging.getLogger("threefold.bus")
CHANNEL = "threefold:rooms"


class Bus(Protocol):
    async def start(self, hub: Hub) -> None: ...
    async def stop(self) -> None: ...
    async def moved(self, code: str, game_id: int, version: int) -> None: ...
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

    async def start(self, hub: Hub) -> None:
        return None

    async def stop(self) -> None:
        return None

    async def moved(self, code: str, game_id: int, version: int) -> None:
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
"""Rooms whose news is handled at the same time. Catching up reads the database through the same few
connections this process' own moves are written through, and news for every room at once queued ahead of
them: two processes flat out did 13-16 % fewer moves/s and twice the p99 (1.9-2.3 s against 0.9-1.1) than
with this bound (bench/README.md, "Two processes ... at 76a860f"). One room being loaded still holds up
only its own share."""


class RedisBus:
    def __init__(self, url: str, heartbeat_seconds: float = 5.0) -> None:
        self.redis: Any = open_redis(url)
        self.origin = uuid.uuid4().hex
        self.heartbeat_seconds = heartbeat_seconds
        self._tasks: list[asyncio.Task[None]] = []
        self._hub: Hub | None = None
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

    async def start(self, hub: Hub) -> None:
        self._hub = hub
        await self.redis.ping()
        pubsub = self.redis.pubsub()
        await pubsub.subscribe(CHANNEL)
        self._tasks = [asyncio.create_task(self._listen(pubsub)), asyncio.create_task(self._heartbeat())]

    async def stop(self) -> None:
        for task in [*self._tasks, *self._workers]:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(Exception):  # the others drop this process' players now, not in 15 s
            await self._publish({"kind": "gone"})
        await self.redis.aclose()

    async def _heartbeat(self) -> None:
        assert self._hub is not None
        while True:
            with contextlib.suppress(Exception):  # Redis away for a moment: the next beat
                await self._publish({"kind": "alive"})
            silent_since = time.monotonic() - PEER_SILENCE_BEATS * self.heartbeat_seconds
            for origin, heard in list(self._heard.items()):
                if heard < silent_since:
                    del self._heard[origin]
                    self._dropped.add(origin)
                    log.warning("process %s fell silent: its players count as gone", origin)
                    try:
                        await self._hub.on_peer_gone(origin)
                    except Exception:  # the heartbeat must outlive any one room's trouble
                        log.exception("dropping the players of process %s failed", origin)
            await asyncio.sleep(self.heartbeat_seconds)

    async def _publish(self, message: dict[str, Any]) -> None:
        message["origin"] = self.origin
        await self.redis.publish(CHANNEL, orjson.dumps(message))

    async def moved(self, code: str, game_id: int, version: int) -> None:
        await self._publish({"kind": "move", "room": code, "game": game_id, "version": version})

    async def room_changed(self, code: str) -> None:
        await self._publish({"kind": "room", "room": code})

    async def chat(self, code: str) -> None:
        await self._publish({"kind": "chat", "room": code})

    async def presence(self, code: str) -> None:
        assert self._hub is not None
        live = self._hub.rooms.get(code)
        players = sorted(live.local_players()) if live is not None else []
        await self._publish({"kind": "presence", "room": code, "players": players})

    async def ask_presence(self, codes: list[str]) -> None:
        try:
            await self._publish({"kind": "who", "rooms": codes})
        except Exception:  # Redis away: the room still loads; presence comes as people come and go
            log.warning("could not ask who is in rooms %s", codes, exc_info=True)

    async def _listen(self, pubsub: Any) -> None:
        assert self._hub is not None
        hub = self._hub
        async for item in pubsub.listen():
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
                    await hub.on_peer_gone(origin)
                    continue
                self._heard[origin] = time.monotonic()
                if origin in self._dropped:
                    self._dropped.discard(origin)
                    if hub.rooms:  # one message: asking room by room held this listener for a round trip each
                        await self.ask_presence(list(hub.rooms))
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
        one at a time, a room being loaded or caught up from the database held up every other room's moves
        behind it. A move is folded into a move of the same game still waiting (catching up to the later
        version plays both), and chat news into chat news."""
        queued = self._news.get(code)
        if queued is None:
            self._news[code] = [news]
            worker = asyncio.create_task(self._work_through(code))
            self._workers.add(worker)
            worker.add_done_callback(self._workers.discard)
        elif news[0] == "move" and queued and queued[-1][0] == "move" and queued[-1][1] == news[1]:
            queued[-1] = ("move", news[1], max(int(queued[-1][2]), int(news[2])))
        elif news == ("chat",) and queued and queued[-1] == news:
            return  # one read of the database brings every new line
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
        assert self._hub is not None
        hub = self._hub
        try:
            if news[0] == "who":
                live = hub.rooms.get(code)
                if live is not None and live.connections:
                    await self.presence(code)
            elif news[0] == "move":
                await hub.on_remote_move(code, int(news[1]), int(news[2]))
            elif news[0] == "room":
                await hub.on_remote_room(code)
            elif news[0] == "chat":
                await hub.on_remote_chat(code)
            elif news[0] == "presence" and news[1] not in self._stopped and news[1] not in self._dropped:
                await hub.on_remote_presence(code, str(news[1]), set(news[2]))
        except Exception:  # the room's later news still counts
            log.exception("handling %s news for room %s failed", news[0], code)


RoomNews = tuple[Any, ...]
"""("move", game id, version) | ("room",) | ("chat",) | ("presence", origin, player ids) | ("who",)"""


def _room_news(msg: dict[str, Any]) -> RoomNews | None:
    """A bus message about one room, checked (a malformed one raises here, on the listener)."""
    kind = msg["kind"]
    if kind == "move":
        return ("move", int(msg["game"]), int(msg["version"]))
    if kind == "presence":
        return ("presence", str(msg["origin"]), frozenset(int(p) for p in msg["players"]))
    if kind in ("room", "chat"):
        return (kind,)
    return None


def make_bus(redis_url: str | None, heartbeat_seconds: float = 5.0) -> Bus:
    return RedisBus(redis_url, heartbeat_seconds) if redis_url else LocalBus()
