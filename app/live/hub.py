"""The rooms this process serves: it finds them, loads them on first use, and unloads them (app.live.room).

Across processes each room has one owner (app.live.leases: a lease whose epoch every write checks), which
serves all of the room's sockets; another process relays the sockets it gets to the owner, and takes the room
over when the owner's lease runs out (docs/deploy.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from typing import Any

from app.codes import new_code
from app.live.bus import Bus
from app.live.fanout import Fanout
from app.live.leases import Elsewhere
from app.live.records import NewRoom
from app.live.room import KILL_POINT_VARIABLE, Room, RoomServices
from app.live.store import RoomStore
from app.live.thinking import Thinker
from app.metrics import Metrics
from app.settings import Settings
from engines.registry import get_engine

log = logging.getLogger("threefold.hub")


class Hub:
    def __init__(
        self, store: RoomStore, settings: Settings, bus: Bus, base_url: str, metrics: Metrics | None = None
    ) -> None:
        self.metrics = metrics or Metrics()
        self.store = store
        self.settings = settings
        self.bus = bus
        self.base_url = base_url
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, tuple[asyncio.Lock, int]] = {}
        """Rooms being loaded: the lock, and how many wait for it."""
        self.thinker = Thinker()
        self.services = RoomServices(
            store,
            settings,
            bus,
            Fanout(base_url),
            self.metrics,
            self.thinker,
            self.let_go,
            os.environ.get(KILL_POINT_VARIABLE) if settings.testing else None,
        )

    @property
    def moves(self) -> int:
        """Actions applied in this process."""
        return self.services.moves

    # ---- rooms -----------------------------------------------------------------------------------

    async def create_room(self, host_id: int, game: str, options: dict[str, Any] | None, seed: int | None) -> str:
        """A new room; its creator takes the first seat (they may stand, move or hand it to a bot)."""
        engine = get_engine(game)
        parsed = engine.parse_options(options)
        seat_count = len(engine.seats(parsed))
        for _ in range(20):
            code = new_code()
            room = NewRoom(code, host_id, game, parsed.model_dump(mode="json"), seat_count, seed, host_seat=0)
            if await self.store.create_room(room):
                return code
        raise RuntimeError("could not find a free room code")  # pragma: no cover - 21^5 codes

    async def room(self, code: str) -> Room | None:
        """The live room for ``code``, loaded from the database on first use in this process. Where another
        process owns it, a look at it as the database has it, which this process does not keep or change."""
        found = await self.claim(code)
        return await self._view(code) if isinstance(found, Elsewhere) else found

    async def _view(self, code: str) -> Room | None:
        record = await self.store.load_room(code)
        if record is None:
            return None
        room = Room(record, self.services)
        room.unloaded = True  # a socket must not attach to it
        await room.load()
        return room

    async def claim(self, code: str) -> Room | Elsewhere | None:
        """The live room for ``code``, loaded on first use; where rooms have owners (PostgreSQL), only once
        this process holds its lease, and where another process holds it, that process' address."""
        live = self.rooms.get(code)
        if live is not None:
            return live
        # One load at a time per code; the lock lives while anyone waits on it (a lock per code ever
        # asked for, unknown codes included, was kept for good).
        lock, waiting = self._loading.get(code) or (asyncio.Lock(), 0)
        self._loading[code] = (lock, waiting + 1)
        try:
            async with lock:
                live = self.rooms.get(code)
                if live is not None:
                    return live
                leases = self.store.leases
                held = None if leases is None else await leases.acquire(code)  # before anything is read
                if held is None and leases is not None:
                    return None
                if isinstance(held, Elsewhere):
                    return held
                try:
                    live = await self._load(code)
                except BaseException:
                    if leases is not None and held is not None:
                        await leases.release([held])
                    raise
                if live is None:
                    return None
                if leases is not None and held is not None and leases.epochs.get(held, 1) > 1:
                    # Taken over: whoever was connected through the previous owner is away from now (a
                    # stand-in after the grace period, a new host if the host stays away), as if they had
                    # left here. The first lease of a new room has nobody to count away.
                    seated = {seat.player_id for seat in live.record.seats if seat.player_id is not None}
                    live.players_left(seated | {live.record.host_id})
                self.rooms[code] = live
                self.metrics.rooms.set(len(self.rooms))
                live.after_change()
        finally:
            lock, waiting = self._loading[code]
            if waiting == 1:
                del self._loading[code]
            else:
                self._loading[code] = (lock, waiting - 1)
        if self.store.leases is None:  # with owners, every socket of the room is here
            await self.bus.ask_presence([code])
        return live

    async def _load(self, code: str) -> Room | None:
        record = await self.store.load_room(code)
        if record is None:
            return None
        room = Room(record, self.services)
        await room.load()
        await room.finish_if_ended()
        return room

    async def keep_leases_forever(self) -> None:
        """Renew this process' room leases every third of their length; let go of the rooms another process
        took over, and of every room once renewing has failed for two thirds of it (cut off from the
        database: another process may take them soon, and this one could not write them anyway)."""
        leases = self.store.leases
        if leases is None:
            return
        interval = leases.seconds / 3
        renewed_at = time.monotonic()
        while True:
            await asyncio.sleep(interval)
            started = time.monotonic()
            try:
                lost = await asyncio.wait_for(leases.renew(), interval)
            except Exception:
                log.warning("renewing the room leases failed", exc_info=True)
                if time.monotonic() - renewed_at < leases.seconds * 2 / 3:
                    continue
                lost = set(leases.epochs)
            else:
                renewed_at = started
            for live in [live for live in self.rooms.values() if live.record.id in lost]:
                log.warning("room %s: lease lost, no longer served here", live.code)
                await self.let_go(live)

    async def let_go(self, live: Room) -> None:
        """Stop serving a room this process no longer owns. Its sockets are closed with 1012 (service restart):
        browsers and relaying processes connect again and reach the new owner, and resync by version."""
        if self.rooms.get(live.code) is live:
            del self.rooms[live.code]
            self.metrics.rooms.set(len(self.rooms))
        if self.store.leases is not None:
            self.store.leases.epochs.pop(live.record.id, None)
        await live.stop(close_code=1012)

    async def _loaded(self, code: str) -> Room | None:
        """The room if this process has it, waiting for it if it is being loaded right now: news from
        another process that arrives during a load may describe a change the load read too early."""
        live = self.rooms.get(code)
        if live is None and code in self._loading:
            live = await self.room(code)
        return live

    async def unload_idle_rooms(self) -> int:
        """Let go of rooms nobody has been connected to for ``room_idle_seconds`` and that wait for nothing
        (no timer, bot, host handover or closing socket): everything about them is in the database, and the
        next socket or request loads them again, as after a restart. Without this a process kept every room
        it ever served (each with its game log and chat) until it restarted.
        Returns how many were unloaded."""
        now = time.monotonic()
        released: list[int] = []
        for code, live in list(self.rooms.items()):
            if not live.idle_for(now, self.settings.room_idle_seconds) or live.lock.locked():
                continue
            async with live.lock:
                if not live.idle_for(time.monotonic(), self.settings.room_idle_seconds):
                    continue
                live.unloaded = True  # a socket that got this object a moment ago loads the room again
                del self.rooms[code]
                released.append(live.record.id)
        if released:
            self.metrics.rooms.set(len(self.rooms))
            if self.store.leases is not None:
                await self.store.leases.release(released)
        return len(released)

    async def unload_idle_rooms_forever(self) -> None:
        while True:
            await asyncio.sleep(self.settings.room_sweep_seconds)
            try:
                await self.unload_idle_rooms()
            except Exception:  # the sweep must outlive any one room
                log.exception("unloading idle rooms failed")

    # ---- news from other processes (app.live.bus) ------------------------------------------------

    def local_players(self, code: str) -> set[int]:
        """Who is connected to ``code`` through this process (none if it does not serve the room)."""
        live = self.rooms.get(code)
        return set() if live is None else live.local_players()

    def served(self) -> list[str]:
        """The codes of the rooms this process serves."""
        return list(self.rooms)

    async def on_remote_chat(self, code: str) -> None:
        live = await self._loaded(code)
        if live is not None:
            await live.on_chat()

    async def on_remote_room(self, code: str) -> None:
        live = await self._loaded(code)
        if live is not None:
            await live.on_room()

    async def on_remote_presence(self, code: str, origin: str, player_ids: set[int]) -> None:
        live = await self._loaded(code)
        if live is not None:
            await live.on_presence(origin, player_ids)

    async def on_peer_gone(self, origin: str) -> None:
        for live in list(self.rooms.values()):
            await live.on_peer_gone(origin)

    async def close(self) -> None:
        self.thinker.close()
        for live in self.rooms.values():
            await live.stop()
        if self.store.leases is not None:  # a drain: the next owner need not wait for the leases to run out
            with contextlib.suppress(Exception):
                await self.store.leases.release(list(self.store.leases.epochs))
