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
    async def presence(self, code: str) -> None:
        """Tell the other processes who is connected to ``code`` through this one."""
        ...

    async def ask_presence(self, code: str) -> None:
        """Ask the other processes who is connected to ``code`` through them (this one just loaded it)."""
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

    async def presence(self, code: str) -> None:
        return None

    async def ask_presence(self, code: str) -> None:
        return None


PEER_SILENCE_BEATS = 3
"""Heartbeats a process may miss before the others count it as gone."""


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

    async def start(self, hub: Hub) -> None:
        self._hub = hub
        await self.redis.ping()
        pubsub = self.redis.pubsub()
        await pubsub.subscribe(CHANNEL)
        self._tasks = [asyncio.create_task(self._listen(pubsub)), asyncio.create_task(self._heartbeat())]

    async def stop(self) -> None:
        for task in self._tasks:
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

    async def presence(self, code: str) -> None:
        assert self._hub is not None
        live = self._hub.rooms.get(code)
        players = sorted(live.local_players()) if live is not None else []
        await self._publish({"kind": "presence", "room": code, "players": players})

    async def ask_presence(self, code: str) -> None:
        try:
            await self._publish({"kind": "who", "room": code})
        except Exception:  # Redis away: the room still loads; presence comes as people come and go
            log.warning("could not ask who is in room %s", code, exc_info=True)

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
                    self._heard.pop(origin, None)
                    await hub.on_peer_gone(origin)
                    continue
                self._heard[origin] = time.monotonic()
                if origin in self._dropped:
                    self._dropped.discard(origin)
                    for known in list(hub.rooms):
                        await self.ask_presence(known)
                if msg["kind"] == "alive":
                    continue
                code = str(msg["room"])
                if msg["kind"] == "who":
                    live = hub.rooms.get(code)
                    if live is not None and live.connections:
                        await self.presence(code)
                elif msg["kind"] == "move":
                    await hub.on_remote_move(code, int(msg["game"]), int(msg["version"]))
                elif msg["kind"] == "room":
                    await hub.on_remote_room(code)
                elif msg["kind"] == "presence":
                    await hub.on_remote_presence(code, msg["origin"], {int(p) for p in msg["players"]})
            except Exception:  # keep listening whatever one message did
                log.exception("bad bus message")


def make_bus(redis_url: str | None, heartbeat_seconds: float = 5.0) -> Bus:
    return RedisBus(redis_url, heartbeat_seconds) if redis_url else LocalBus()
