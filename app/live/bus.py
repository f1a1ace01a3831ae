"""Pub/sub between app processes. In-process by default (nothing to tell anyone); Redis when several
processes serve the same rooms. Only ``{room, game, version}`` crosses the wire: every process reloads or
replays from the database, so secret state never travels through Redis."""

from __future__ import annotations

import asyncio
import contextlib
import logging
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
    async def presence(self, code: str, player_id: int, connected: bool) -> None: ...


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

    async def presence(self, code: str, player_id: int, connected: bool) -> None:
        return None


class RedisBus:
    def __init__(self, url: str) -> None:
        self.redis: Any = open_redis(url)
        self.origin = uuid.uuid4().hex
        self._task: asyncio.Task[None] | None = None
        self._hub: Hub | None = None

    async def start(self, hub: Hub) -> None:
        self._hub = hub
        await self.redis.ping()
        pubsub = self.redis.pubsub()
        await pubsub.subscribe(CHANNEL)
        self._task = asyncio.create_task(self._listen(pubsub))

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        await self.redis.aclose()

    async def _publish(self, message: dict[str, Any]) -> None:
        message["origin"] = self.origin
        await self.redis.publish(CHANNEL, orjson.dumps(message))

    async def moved(self, code: str, game_id: int, version: int) -> None:
        await self._publish({"kind": "move", "room": code, "game": game_id, "version": version})

    async def room_changed(self, code: str) -> None:
        await self._publish({"kind": "room", "room": code})

    async def presence(self, code: str, player_id: int, connected: bool) -> None:
        assert self._hub is not None
        live = self._hub.rooms.get(code)
        players = sorted(live.local_players()) if live is not None else []
        await self._publish({"kind": "presence", "room": code, "players": players})

    async def _listen(self, pubsub: Any) -> None:
        assert self._hub is not None
        hub = self._hub
        async for item in pubsub.listen():
            if item.get("type") != "message":
                continue
            try:
                msg = orjson.loads(item["data"])
                if msg.get("origin") == self.origin:
                    continue
                code = str(msg["room"])
                if msg["kind"] == "move":
                    await hub.on_remote_move(code, int(msg["game"]), int(msg["version"]))
                elif msg["kind"] == "room":
                    await hub.on_remote_room(code)
                elif msg["kind"] == "presence":
                    await hub.on_remote_presence(code, msg["origin"], {int(p) for p in msg["players"]})
            except Exception:  # keep listening whatever one message did
                log.exception("bad bus message")


def make_bus(redis_url: str | None) -> Bus:
    return RedisBus(redis_url) if redis_url else LocalBus()
