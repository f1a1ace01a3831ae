"""The live rooms of this process: seat checks → engine → persist → fan out per-seat views (app.live.fanout).

One writer per game: every change to a room happens under that room's ``asyncio.Lock`` and is committed
(with its version) before anyone is told. Across processes each room has one owner (app.live.leases: a
lease whose epoch every write checks), which serves all of the room's sockets; another process relays the
sockets it gets to the owner, and takes the room over when the owner's lease runs out (docs/deploy.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import os
import random
import secrets
import signal
import time
from collections.abc import Awaitable, Callable
from typing import Any

from app.codes import new_code
from app.live import chat, lobby
from app.live.bus import Bus
from app.live.connection import Connection
from app.live.fanout import Fanout
from app.live.leases import Elsewhere
from app.live.lobby import LobbyMessage
from app.live.messages import (
    Act,
    Chat,
    ClientMessage,
    Ping,
    ProtocolError,
    Rematch,
    Start,
    Sync,
    encode,
    error,
)
from app.live.records import GameEnd, LeaseLost, MoveWrite, RoomConflict, VersionConflict
from app.live.room import CHAT_LINES, LiveGame, LiveRoom, bot_name, log_entries
from app.live.store import Store
from app.live.thinking import Thinker, Thought, needs_worker
from app.metrics import Metrics
from app.settings import Settings
from engines.base import EngineError, IllegalAction, Seat
from engines.bots import DEFAULT_LEVEL, STAND_IN_LEVEL, STRONG_BUDGET_SECONDS, level_bot, parse_level
from engines.registry import get_bot, get_engine

log = logging.getLogger("threefold.hub")

ROOM_CONFLICT_RETRIES = 3
"""Attempts at a lobby change while other processes keep saving the same room first."""

KILL_POINT_VARIABLE = "THREEFOLD_TEST_KILL_AT"
"""A test-only fault point (honoured with ``testing`` on): the process kills itself with SIGKILL there.
``game_end_stored``: right after a game's last move is committed, before anything else is done or told."""

SNAPSHOT_EVERY = 16
"""Moves between full-state snapshots: a dump costs more than the rest of a move's write, and a reload
replays at most this many actions on top of the last snapshot."""


class Hub:
    def __init__(
        self, store: Store, settings: Settings, bus: Bus, base_url: str, metrics: Metrics | None = None
    ) -> None:
        self.metrics = metrics or Metrics()
        self.store = store
        self.settings = settings
        self.bus = bus
        self.base_url = base_url
        self.fanout = Fanout(base_url)
        self.rooms: dict[str, LiveRoom] = {}
        self._loading: dict[str, tuple[asyncio.Lock, int]] = {}
        """Rooms being loaded: the lock, and how many wait for it."""
        self.moves = 0
        self.kill_point = os.environ.get(KILL_POINT_VARIABLE) if settings.testing else None
        self.thinker = Thinker()

    # ---- rooms -----------------------------------------------------------------------------------

    async def create_room(self, host_id: int, game: str, options: dict[str, Any] | None, seed: int | None) -> str:
        """A new room; its creator takes the first seat (they may stand, move or hand it to a bot)."""
        engine = get_engine(game)
        parsed = engine.parse_options(options)
        for _ in range(20):
            code = new_code()
            if not await self.store.code_exists(code):
                break
        else:  # pragma: no cover - 21^5 codes
            raise RuntimeError("could not find a free room code")
        await self.store.create_room(
            code, host_id, game, parsed.model_dump(mode="json"), len(engine.seats(parsed)), seed, host_seat=0
        )
        return code

    async def room(self, code: str) -> LiveRoom | None:
        """The live room for ``code``, loaded from the database on first use in this process. Where another
        process owns it, a look at it as the database has it, which this process does not keep or change."""
        found = await self.claim(code)
        return await self._view(code) if isinstance(found, Elsewhere) else found

    async def _view(self, code: str) -> LiveRoom | None:
        record = await self.store.load_room(code)
        if record is None:
            return None
        live = LiveRoom(record, {})
        live.unloaded = True  # a socket must not attach to it
        await self._load_game(live)
        await self._refresh_names(live)
        live.standings = await self.store.standings(live.record.id)
        await self._read_chat(live)
        return live

    async def claim(self, code: str) -> LiveRoom | Elsewhere | None:
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
                    self._players_left(live, seated | {live.record.host_id})
                self.rooms[code] = live
                self.metrics.rooms.set(len(self.rooms))
                self._after_change(live)
        finally:
            lock, waiting = self._loading[code]
            if waiting == 1:
                del self._loading[code]
            else:
                self._loading[code] = (lock, waiting - 1)
        if self.store.leases is None:  # with owners, every socket of the room is here
            await self.bus.ask_presence([code])
        return live

    async def _load(self, code: str) -> LiveRoom | None:
        record = await self.store.load_room(code)
        if record is None:
            return None
        live = LiveRoom(record, {})
        await self._load_game(live)
        await self._finish_if_ended(live)
        await self._refresh_names(live)
        live.standings = await self.store.standings(live.record.id)
        await self._read_chat(live)
        return live

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

    async def let_go(self, live: LiveRoom) -> None:
        """Stop serving a room this process no longer owns. Its sockets are closed with 1012 (service restart):
        browsers and relaying processes connect again and reach the new owner, and resync by version."""
        if self.rooms.get(live.code) is live:
            del self.rooms[live.code]
            self.metrics.rooms.set(len(self.rooms))
        live.unloaded = True
        if self.store.leases is not None:
            self.store.leases.epochs.pop(live.record.id, None)
        for task in (live.timer_task, live.bot_task, live.host_task):
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        for conn in list(live.connections):
            with contextlib.suppress(Exception):
                await conn.websocket.close(code=1012)

    async def _loaded(self, code: str) -> LiveRoom | None:
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
        it ever served (a few KiB to tens of KiB each, its game log and chat included) until it restarted.
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

    async def _load_game(self, live: LiveRoom) -> None:
        record = await self.store.latest_game(live.record.id)
        if record is None:
            live.game = None
            return
        live.game = LiveGame.from_record(record, await self.store.actions(record.id))

    async def _refresh_names(self, live: LiveRoom) -> None:
        ids = {s.player_id for s in live.record.seats if s.player_id is not None}
        ids |= live.connected_players() | {live.record.host_id}
        missing = ids - set(live.names)
        if missing:
            live.names.update(await self.store.player_names(missing))

    # ---- connections -----------------------------------------------------------------------------

    def admission(self, live: LiveRoom, player_id: int) -> tuple[str, dict[str, Any]] | None:
        """Why this player may not enter the room now, or None if they may: an English note for developers
        and the reason the page phrases (``{"key": "room.refused.<why>", "params": {}}``)."""
        settings = live.settings
        if player_id in settings.banned:
            return "you were removed from this room by the host", refusal("banned")
        member = player_id == live.record.host_id or any(s.player_id == player_id for s in live.record.seats)
        if member:
            return None
        if settings.locked:
            return "the room is locked", refusal("locked")
        if not settings.spectators and live.record.status == "playing":
            return "the host does not allow spectators", refusal("no_spectators")
        return None

    async def connect(self, live: LiveRoom, conn: Connection, name: str) -> bool:
        """Attach the socket to the room; False if the room was unloaded meanwhile (load it again)."""
        conn.resync = lambda c: self.fanout.resync(live, c)
        async with live.lock:
            if live.unloaded:
                return False
            live.idle_since = None
            live.names[conn.player_id] = name
            was_present = conn.player_id in live.connected_players()
            live.connections.add(conn)
            self.metrics.sockets.inc()
            live.joined_at.setdefault(conn.player_id, time.time())
            live.away_since.pop(conn.player_id, None)
            conn.send(self.fanout.welcome(live, conn))
            if live.game is not None:
                conn.send(live.game.state_message(live.seat_of_socket(conn), []))
            team = live.team_of_seat(live.seat_of_socket(conn))
            for _line_id, line_team, payload in live.chat:
                if line_team is None or line_team == team:
                    conn.send(payload)
            if not was_present:
                self.fanout.room(live)
            else:
                conn.send(self.fanout.room_message(live))
            self._after_change(live)
        await self.bus.presence(live.code)
        return True

    async def disconnect(self, live: LiveRoom, conn: Connection) -> None:
        async with live.lock:
            if conn not in live.connections:  # already dropped (its relaying process fell silent)
                await conn.close()
                return
            live.connections.discard(conn)
            self.metrics.sockets.dec()
            if live.unloaded and self.store.leases is not None:  # let go of: another process serves it now
                await conn.close()
                return
            if not live.connections:
                live.idle_since = time.monotonic()
            self._players_left(live, {conn.player_id} - live.connected_players())
        await conn.close()
        if conn.player_id not in live.local_players():
            await self.bus.presence(live.code)

    def _players_left(self, live: LiveRoom, players: set[int]) -> None:
        """They are connected nowhere any more: away from now (a bot stands in after the grace period), and
        if the host is among them, a handover unless they come back. Must be called with ``live.lock`` held."""
        if not players:
            return
        now = time.time()
        for player in players:
            live.away_since[player] = now
        self.fanout.room(live)
        if live.record.host_id in players:
            self._schedule_host_handover(live)
        self._after_change(live)

    def _schedule_host_handover(self, live: LiveRoom) -> None:
        if live.host_task is not None:
            live.host_task.cancel()
        live.host_task = asyncio.create_task(self._host_handover(live, live.record.host_id))

    async def _host_handover(self, live: LiveRoom, host_id: int) -> None:
        """If the host stays away, the longest-present connected person becomes host."""
        await asyncio.sleep(self.settings.host_grace_seconds)

        async def hand_over() -> None:
            if live.record.host_id != host_id or host_id in live.connected_players():
                return
            present = [p for p in live.local_players() if p not in live.settings.banned]
            if not present:
                return
            live.record.host_id = min(present, key=lambda p: live.joined_at.get(p, time.time()))
            await self._save_and_announce(live)

        async with live.lock:
            try:
                await self._retrying_conflicts(live, hand_over)
            except ProtocolError:
                log.warning("host handover in room %s gave up: the room kept changing", live.code)

    async def _retrying_conflicts(self, live: LiveRoom, change: Callable[[], Awaitable[None]]) -> None:
        """Run a room change; if another process saved the room first, run it again on the room as that
        process left it. Must be called with ``live.lock`` held."""
        for _attempt in range(ROOM_CONFLICT_RETRIES):
            try:
                await change()
                return
            except RoomConflict:
                await self._reload_room(live)
        raise ProtocolError("busy", "the room kept changing while this was tried; try again")

    # ---- messages --------------------------------------------------------------------------------

    async def handle(self, live: LiveRoom, conn: Connection, msg: ClientMessage) -> None:
        msg_id = msg.id
        try:
            if isinstance(msg, Ping):
                conn.send(b'{"type":"pong"}')
            elif isinstance(msg, Sync):
                async with live.lock:
                    if live.game is not None and (msg.version is None or msg.version != live.game.version):
                        conn.send(live.game.state_message(live.seat_of_socket(conn), []))
                    conn.send(self.fanout.room_message(live))
            else:
                await self._handle_locked(live, conn, msg)
        except LeaseLost:
            conn.send(error("moved", "this room moved to another server; reconnect", msg_id))
            await self.let_go(live)
            return
        except ProtocolError as err:
            self.refused(err.code)
            conn.send(error(err.code, err.message, err.msg_id or msg_id, err.reason))
            return
        if msg_id is not None and not isinstance(msg, Act):  # an act's ack carries its version (see _act)
            conn.send(encode({"type": "ack", "id": msg_id}))

    async def _handle_locked(self, live: LiveRoom, conn: Connection, msg: ClientMessage) -> None:
        """Every message that changes the room runs under the room's lock. A lobby change that another
        process beat to the database is run again on the room as that process left it."""
        async with live.lock:
            if isinstance(msg, Act):
                await self._act(live, conn, msg)
            else:
                await self._retrying_conflicts(live, lambda: self._change_room(live, conn, msg))

    async def _change_room(self, live: LiveRoom, conn: Connection, msg: ClientMessage) -> None:
        """Lobby, host and chat messages (RoomConflict if another process saved the room first)."""
        if isinstance(msg, Chat):
            line = chat.check(live, conn, msg, self.settings.chat_max_length)
            chat.show(live, dataclasses.replace(line, id=await self.store.add_chat(live.record.id, line)))
            await self.bus.chat(live.code)
            return
        if isinstance(msg, Rematch) and live.record.host_id != conn.player_id:
            accepted = lobby.accept_rematch(live, conn.player_id)
            if lobby.rematch_ready(live):
                await self._new_game(live)
            elif accepted.changed:
                await self._save_and_announce(live)
            return
        if isinstance(msg, Start | Rematch):
            lobby.require_can_start(live, conn.player_id)
            await self._new_game(live)
            return
        assert isinstance(msg, LobbyMessage)
        change = lobby.change(live, conn.player_id, msg)
        if not change.changed:
            return
        for other in change.removed:
            other.send(error("kicked", "the host removed you from this room"))
            live.closing.add(asyncio.create_task(self._close_later(other, 4403)))
        if change.timers and live.game is not None:
            self._update_timer(live, live.game)
        game = live.game if change.game_seats else None
        await self._save_and_announce(live, None if game is None else (game.id, game.seats))
        if change.timers:
            self._after_change(live)

    def refused(self, code: str) -> None:
        self.metrics.errors.labels(code).inc()

    async def _close_later(self, conn: Connection, code: int) -> None:
        await asyncio.sleep(0.2)  # let the error reach them first
        with contextlib.suppress(Exception):
            await conn.websocket.close(code=code)
        await conn.close()

    async def _save_and_announce(
        self, live: LiveRoom, game_seats: tuple[int, list[dict[str, Any]]] | None = None
    ) -> None:
        await self.store.save_room(live.record, game_seats)
        await self._refresh_names(live)
        self.fanout.room(live)
        self.fanout.welcomes(live)
        await self.bus.room_changed(live.code)

    async def _new_game(self, live: LiveRoom) -> None:
        engine = live.engine
        options = engine.parse_options(live.record.options)
        number = 1 if live.game is None else live.game.number + 1
        if live.record.test_seed is not None and self.settings.testing:
            seed = live.record.test_seed + number - 1
        else:
            seed = secrets.randbits(62)
        state = engine.new_game(options, seed)
        await self._refresh_names(live)
        seats = [
            {
                "player_id": rec.player_id,
                "name": live.names.get(rec.player_id, "?") if rec.player_id else bot_name(index),
                "bot": rec.is_bot,
                **({"level": rec.level or DEFAULT_LEVEL} if rec.is_bot else {}),
            }
            for index, rec in enumerate(live.record.seats)
        ]
        if any(needs_worker(engine.name, parse_level(s.get("level", DEFAULT_LEVEL))) for s in seats if s["bot"]):
            self.thinker.start()
        game = LiveGame(
            id=0, number=number, engine=engine, state=state, version=0, seats=seats, timer_key=None, deadline=None
        )
        game.mark_since(frozenset(), None)
        self._update_timer(live, game)
        game.id = await self.store.create_game(
            live.record.id,
            number,
            engine.name,
            options.model_dump(mode="json"),
            seed,
            seats,
            engine.dump(state),
            game.timer_key,
            game.deadline,
            revision=live.record.revision,
        )
        live.game = game
        live.record.status = "playing"
        live.record.revision += 1
        self.fanout.state(live, [], room=True, welcomes=True)
        await self.bus.room_changed(live.code)
        self._after_change(live)

    async def _act(self, live: LiveRoom, conn: Connection, msg: Act) -> None:
        game = live.game
        if game is None or live.record.status != "playing":
            raise ProtocolError("not_playing", "no game is in progress", msg.id)
        seat = live.seat_of_socket(conn)
        actor = "player"
        if seat is None and self._is_host_action(live, conn, msg.action):
            # The host paces the show from the shared screen: act for the seat the game is waiting on.
            seat, actor = min(game.to_act), "host"
        if seat is None:
            raise ProtocolError("not_seated", "spectators cannot act", msg.id)
        if msg.id is not None and msg.id in conn.recent_ids:
            raise ProtocolError("duplicate", f"action {msg.id!r} was already received", msg.id)
        if seat not in game.to_act:
            raise ProtocolError("not_your_turn", "it is not your turn", msg.id)
        oldest = game.since.get(seat, game.version)
        if not oldest <= msg.version <= game.version:
            raise ProtocolError(
                "stale_version",
                f"your view is at version {msg.version} but the game is at {game.version}; resynced",
                msg.id,
            )
        await self.apply(live, seat, msg.action, actor, msg.id, mover=conn)
        if msg.id is not None:
            conn.remember_id(msg.id)  # only what was applied: a refused move may be corrected and resent

    def _is_host_action(self, live: LiveRoom, conn: Connection, action: dict[str, Any]) -> bool:
        game = live.game
        return (
            game is not None
            and conn.player_id == live.record.host_id
            and action.get("type") in game.engine.host_actions
            and len(game.to_act) == 1
        )

    async def apply(
        self,
        live: LiveRoom,
        seat: Seat,
        action: dict[str, Any],
        actor: str,
        msg_id: str | None = None,
        mover: Connection | None = None,
    ) -> None:
        """The one path for every action (players, timers, bots): validate, persist, then fan out. The
        ``mover``'s socket (if a person moved) gets its ``ack`` with the new state, in the same write.

        Must be called with ``live.lock`` held.
        """
        game = live.game
        assert game is not None
        engine = game.engine
        started = time.perf_counter()
        try:
            state, events = engine.apply(game.state, seat, action)
        except IllegalAction as err:
            raise ProtocolError("illegal", str(err), msg_id, err.reason()) from None
        entries = log_entries(engine, game.state, seat, action, actor, game.version + 1, (state, events))
        before = game.to_act
        previous = (game.state, game.version, game.timer_key, game.deadline, dict(game.since))
        game.state, game.version = state, game.version + 1
        game.mark_since(before, seat)
        self._update_timer(live, game)
        outcome = game.outcome_json()
        # The full state every SNAPSHOT_EVERY moves and at the end; loading replays the few actions since.
        snapshot = engine.dump(state) if outcome is not None or game.version % SNAPSHOT_EVERY == 0 else None
        move = MoveWrite(
            game.id, game.version, seat, action, actor, snapshot, game.timer_key, game.deadline, outcome, live.record.id
        )
        standings: list[dict[str, Any]] | None = None
        try:
            if outcome is None:
                await self.store.record_action(move)
            else:
                standings = await self.store.record_last_action(move, self._game_end(live, game, outcome))
        except VersionConflict:
            # Another process wrote first: take its state and tell the client to look again.
            game.state, game.version, game.timer_key, game.deadline, game.since = previous
            await self._load_game(live)
            await self._finish_if_ended(live)
            self.fanout.state(live, [], room=True)
            raise ProtocolError("stale_version", "another move was made first; resynced", msg_id) from None
        except LeaseLost:
            # Another process owns the room now: nothing stored here, and nothing more will be.
            game.state, game.version, game.timer_key, game.deadline, game.since = previous
            asyncio.get_running_loop().create_task(self.let_go(live))
            raise ProtocolError("moved", "this room moved to another server; reconnect", msg_id) from None
        except BaseException:
            # Not stored, so not played: memory must match the database ("nothing changed").
            game.state, game.version, game.timer_key, game.deadline, game.since = previous
            raise
        if outcome is not None and self.kill_point == "game_end_stored":
            os.kill(os.getpid(), signal.SIGKILL)
        self.moves += 1
        self.metrics.moves.inc()
        game.log.extend(entries)
        if outcome is not None:
            # Stored with the move; if another process changed the room meanwhile, its next save reloads.
            live.record.status = "finished"
            live.record.revision += 1
            if standings is None:  # stored without the game in the standings and ratings (logged)
                self.refused("internal")
            else:
                live.standings = standings
        ack = None if mover is None else (mover, encode({"type": "ack", "id": msg_id, "version": game.version}))
        self.fanout.state(live, events, ack, room=outcome is not None, log_since=game.version - 1)
        self.metrics.move_latency.observe(time.perf_counter() - started)
        if self.store.leases is None:  # with owners no other process has the room
            await self.bus.moved(live.code, game.id, game.version)
        self._after_change(live)

    @staticmethod
    def _game_end(live: LiveRoom, game: LiveGame, outcome: dict[str, Any]) -> GameEnd:
        engine = game.engine
        return GameEnd(live.record.id, outcome, game.seats, engine.name, engine.seats_of(game.state))

    async def _finish_if_ended(self, live: LiveRoom) -> None:
        """Finish a room still "playing" whose game is over, with the game's standings and ratings: a crash
        between a game's last move and the room's finish left such rooms before the two were stored in one
        transaction, and they could neither play on nor start another game. Must be called with the game
        fresh from the database (a stale room only costs a reload) and ``live.lock`` held once it is loaded."""
        game = live.game
        outcome = None if game is None or live.record.status != "playing" else game.outcome_json()
        if game is None or outcome is None:
            return
        standings = await self.store.repair_finished_game(live.record.revision, self._game_end(live, game, outcome))
        if standings is None:  # another process finished or changed the room first: take it as it is now
            record = await self.store.load_room(live.code)
            if record is not None:
                live.record = record
            live.standings = await self.store.standings(live.record.id)
            return
        log.warning("room %s was still playing after game %s had ended: finished now", live.code, game.id)
        live.record.status = "finished"
        live.record.revision += 1
        live.standings = standings

    # ---- timers and bots -------------------------------------------------------------------------

    def _update_timer(self, live: LiveRoom, game: LiveGame) -> None:
        """The game's own timer if its rules set one, else the room's turn timer if the host set one.

        The room timer's key is the oldest version any waiting seat was asked at, so it keeps running
        while others act on a simultaneous step and restarts when a new step begins.
        """
        timer = game.engine.timer(game.state)
        key: str | None = None
        seconds = 0.0
        if timer is not None:
            key, seconds = timer.key, timer.seconds
        elif live.settings.turn_seconds and game.to_act:
            oldest = min(game.since.get(s, game.version) for s in game.to_act)
            key, seconds = f"room-{oldest}-{live.settings.turn_seconds}", float(live.settings.turn_seconds)
        if key is None:
            game.timer_key, game.deadline = None, None
        elif key != game.timer_key:
            game.timer_key, game.deadline = key, time.time() + seconds

    def _after_change(self, live: LiveRoom) -> None:
        """Re-arm the room's timer and let bots move; both go through ``apply`` like a person would."""
        # Never cancel the task we are running in (a timer applying several timeouts calls back here).
        if live.timer_task is not None and live.timer_task is not asyncio.current_task():
            live.timer_task.cancel()
        live.timer_task = None
        game = live.game
        if game is None or live.record.status != "playing":
            return
        if game.deadline is not None:
            live.timer_task = asyncio.create_task(self._fire_timer(live, game.id, game.timer_key, game.deadline))
        if live.bot_task is not None and not live.bot_task.done():
            if live.bot_version == game.version or live.bot_task is asyncio.current_task():
                return
            # Armed for an earlier position (say, a stand-in for a player who has come back and moved since,
            # with a bot to move now): wait for this one instead.
            live.bot_task.cancel()
        now = time.time()
        waits = []
        for seat in sorted(game.to_act):
            info = game.seats[seat]
            if info.get("bot"):
                waits.append(self._bot_pause(game))
            elif (pid := info.get("player_id")) in live.away_since and pid not in live.connected_players():
                ready = live.away_since[pid] + live.settings.grace_seconds
                waits.append(max(ready - now, self._bot_pause(game)))
        if waits:
            live.bot_task = asyncio.create_task(self._bot_move(live, game.id, min(waits)))
            live.bot_version = game.version

    async def _fire_timer(self, live: LiveRoom, game_id: int, key: str | None, deadline: float) -> None:
        await asyncio.sleep(max(0.0, deadline - time.time()))
        async with live.lock:
            game = live.game
            if game is None or game.id != game_id or game.timer_key != key or live.record.status != "playing":
                return
            for seat in sorted(game.to_act):
                if game.timer_key != key or seat not in game.to_act:
                    continue
                try:
                    await self.apply(live, seat, game.engine.timeout_action(game.state, seat), "timer")
                except ProtocolError as err:  # pragma: no cover - an engine bug, logged
                    log.error("timeout action refused in room %s: %s", live.code, err.message)

    def _bot_pause(self, game: LiveGame) -> float:
        """A human-like pause: the game's own hint for this step, else the default, jittered."""
        bot = get_bot(game.engine.name)
        hint = None
        for seat in sorted(game.to_act):
            if bot is not None and game.seats[seat].get("bot"):
                hint = bot.delay(game.state, seat)
                break
        base = self.settings.bot_delay_seconds if hint is None else hint
        return base * self.settings.bot_pace * (0.75 + 0.5 * random.random())

    async def _bot_move(self, live: LiveRoom, game_id: int, wait: float) -> None:
        """Play one move for a bot seat, or for a person away longer than the grace period (a stand-in).

        A bot that searches thinks in a worker during its pause, without the room's lock: the room's
        sockets and every other room go on meanwhile."""
        started = time.monotonic()
        thought = await self._think(live, game_id, started + self._think_budget())
        await asyncio.sleep(max(0.0, wait - (time.monotonic() - started)))
        async with live.lock:
            game = live.game
            if game is None or game.id != game_id or live.record.status != "playing":
                return
            for seat in sorted(game.to_act):
                is_bot = bool(game.seats[seat].get("bot"))
                if not is_bot and not live.standing_in(seat):
                    continue
                level = parse_level(game.seats[seat].get("level", DEFAULT_LEVEL)) if is_bot else STAND_IN_LEVEL
                if needs_worker(game.engine.name, level):
                    level = DEFAULT_LEVEL  # the worker's answer is late or stale: the normal bot answers at once
                bot = level_bot(game.engine.name, level)
                if thought is not None and thought.fits(game, seat):
                    action = thought.action
                elif bot is not None:
                    action = bot.choose(game.state, seat, random.Random(game.version * 31 + seat))
                else:
                    action = game.engine.timeout_action(game.state, seat)
                try:
                    await self.apply(live, seat, action, "bot" if is_bot else "standin")
                except ProtocolError as err:  # pragma: no cover - a bot bug, logged
                    log.error("bot move refused in room %s: %s", live.code, err.message)
                if not is_bot:
                    self.fanout.room(live)  # seats show "a bot is standing in"
                break
        # apply() re-armed bots if they still have to move.
        if live.bot_task is asyncio.current_task():
            live.bot_task = None
            self._after_change(live)

    def _think_budget(self) -> float:
        """A strong bot's search time per move: scaled like its pauses (tests run bots fast)."""
        return STRONG_BUDGET_SECONDS * min(1.0, self.settings.bot_pace)

    async def _think(self, live: LiveRoom, game_id: int, deadline_at: float) -> Thought | None:
        """The move of the first bot seat to act, if its level searches: thought out in a worker."""
        game = live.game
        if game is None or game.id != game_id or live.record.status != "playing":
            return None
        for seat in sorted(game.to_act):
            info = game.seats[seat]
            if not info.get("bot"):
                continue
            level = parse_level(info.get("level", DEFAULT_LEVEL))
            if not needs_worker(game.engine.name, level):
                return None
            version = game.version
            dumped = game.engine.dump(game.state)
            seed = version * 31 + seat
            action = await self.thinker.choose(game.engine.name, level, dumped, seat, seed, deadline_at)
            return None if action is None else Thought(game_id, version, seat, action)
        return None

    # ---- other processes -------------------------------------------------------------------------

    async def on_remote_move(self, code: str, game_id: int, version: int) -> None:
        live = await self._loaded(code)
        if live is None:
            return
        async with live.lock:
            game = live.game if live.game is not None and live.game.id == game_id else None
            if game is not None and game.version >= version:
                return
            if game is not None and await self._catch_up(live, game):
                self.metrics.remote_moves.labels("catch_up").inc()
                return
            self.metrics.remote_moves.labels("reload").inc()
            await self._load_game(live)
            record = await self.store.load_room(code)
            if record is not None:
                live.record = record
            await self._finish_if_ended(live)
            live.standings = await self.store.standings(live.record.id)
            await self._refresh_names(live)
            self.fanout.state(live, [], room=True)
            self._after_change(live)

    async def _catch_up(self, live: LiveRoom, game: LiveGame) -> bool:
        """Play the moves another process stored since our version, read from the database (the bus carries
        only versions: secret moves never travel through Redis), and show each one here. Much cheaper than
        reloading the game. False when only a full reload will do: a gap, a refusal, or a game end (which
        also changed the room and its standings)."""
        stored, timer_key, deadline, actions = await self.store.actions_since(game.id, game.version)
        engine = game.engine
        for version, seat, action, actor in actions:
            if version != game.version + 1 or version > stored:
                return False
            try:
                state, events = engine.apply(game.state, seat, action)
            except EngineError:
                return False
            if engine.outcome(state) is not None:
                return False
            game.log.extend(log_entries(engine, game.state, seat, action, actor, version, (state, events)))
            before = game.to_act
            game.state, game.version = state, version
            game.mark_since(before, seat)
            if version == stored:
                game.timer_key, game.deadline = timer_key, deadline  # the writer's clock, not ours
            else:
                self._update_timer(live, game)
            self.fanout.state(live, events, log_since=version - 1)
        self._after_change(live)
        return game.version >= stored

    async def _read_chat(self, live: LiveRoom) -> None:
        """Show the room's chat lines stored since the last read (all of the latest, on a load)."""
        lines = await self.store.chat_lines(live.record.id, after=live.chat_read_to, limit=CHAT_LINES)
        for line in lines:
            chat.show(live, line)
        if lines:
            live.chat_read_to = max(live.chat_read_to, lines[-1].id)

    async def on_remote_chat(self, code: str) -> None:
        live = await self._loaded(code)
        if live is None:
            return
        async with live.lock:
            await self._read_chat(live)

    async def on_remote_room(self, code: str) -> None:
        live = await self._loaded(code)
        if live is None:
            return
        async with live.lock:
            await self._reload_room(live)

    async def _reload_room(self, live: LiveRoom) -> None:
        """Take the room and its game as the database has them (another process changed them) and show
        everyone here. Must be called with ``live.lock`` held."""
        record = await self.store.load_room(live.code)
        if record is None:
            return
        live.record = record
        await self._load_game(live)
        await self._finish_if_ended(live)
        await self._refresh_names(live)
        self.fanout.state(live, [], room=True, welcomes=True)
        self._after_change(live)

    async def on_peer_gone(self, origin: str) -> None:
        """Another process stopped or fell silent: whoever was connected only through it has left. The
        sockets it relayed here are closed: if it was only slow, it connects them again."""
        for live in list(self.rooms.values()):
            relayed = [conn for conn in live.connections if conn.via == origin]
            if origin not in live.remote_presence and not relayed:
                continue
            async with live.lock:
                players = live.remote_presence.pop(origin, set())
                for conn in relayed:  # gone from the room now, not when the silent process answers the close
                    live.connections.discard(conn)
                    self.metrics.sockets.dec()
                    players.add(conn.player_id)
                    live.closing.add(asyncio.create_task(self._close_later(conn, 1012)))
                self._players_left(live, players - live.connected_players())

    async def on_remote_presence(self, code: str, origin: str, player_ids: set[int]) -> None:
        live = await self._loaded(code)
        if live is None:
            return
        async with live.lock:
            live.remote_presence[origin] = player_ids
            await self._refresh_names(live)
            self.fanout.room(live)

    async def close(self) -> None:
        self.thinker.close()
        for live in self.rooms.values():
            for task in (live.timer_task, live.bot_task):
                if task is not None:
                    task.cancel()
            for conn in list(live.connections):
                with contextlib.suppress(Exception):
                    await conn.close()
        if self.store.leases is not None:  # a drain: the next owner need not wait for the leases to run out
            with contextlib.suppress(Exception):
                await self.store.leases.release(list(self.store.leases.epochs))


def refusal(why: str) -> dict[str, Any]:
    """The reason a connection is refused entry (``forbidden``), as the page phrases it."""
    return {"key": f"room.refused.{why}", "params": {}}
