"""A room this process serves: seat checks → engine → persist → fan out per-seat views (app.live.fanout).

One writer per game: every change to a room happens under the room's ``asyncio.Lock`` and is committed (with
its version) before anyone is told. Every action, a person's, a bot's or a timer's, goes through ``apply``;
loading a game replays its stored actions through the same step (``LiveGame.play``). The room also keeps its
seats and host (handover), and the lobby changes its sockets ask for; its timer (app.live.timer) and its bots
and stand-ins (app.live.bot_turns) act through ``apply`` too.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import os
import secrets
import signal
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from app.live import chat, lobby
from app.live.bot_turns import BotTurns
from app.live.bus import Bus
from app.live.connection import Connection
from app.live.fanout import Fanout
from app.live.game import LiveGame
from app.live.lobby import LobbyMessage
from app.live.messages import (
    Act,
    Chat,
    ClientMessage,
    Learning,
    Ping,
    ProtocolError,
    Rematch,
    Start,
    Sync,
    encode,
    error,
)
from app.live.records import (
    GameEnd,
    LeaseLost,
    MoveWrite,
    NewGame,
    RoomConflict,
    RoomRecord,
    VersionConflict,
    players_seated,
)
from app.live.room_state import CHAT_LINES, LiveRoom, bot_name
from app.live.store import RoomStore
from app.live.thinking import Thinker
from app.live.timer import Timer, set_deadline
from app.metrics import Metrics
from app.settings import Settings
from engines.base import Action, IllegalAction, Seat
from engines.levels import DEFAULT_LEVEL

log = logging.getLogger("threefold.room")

ROOM_CONFLICT_RETRIES = 3
"""Attempts at a lobby change while other processes keep saving the same room first."""

KILL_POINT_VARIABLE = "THREEFOLD_TEST_KILL_AT"
"""A test-only fault point (honoured with ``testing`` on): the process kills itself with SIGKILL there.
``game_end_stored``: right after a game's last move is committed, before anything else is done or told."""

SNAPSHOT_EVERY = 16
"""Moves between full-state snapshots: a dump costs more than the rest of a move's write, and a reload
after a change of rules starts from the last snapshot."""


@dataclass
class RoomServices:
    """What the rooms of one process share."""

    store: RoomStore
    settings: Settings
    bus: Bus
    fanout: Fanout
    metrics: Metrics
    thinker: Thinker
    let_go: Callable[[Room], Coroutine[Any, Any, None]]
    """Stop serving a room this process no longer owns (the hub forgets it; ``Room.stop``)."""
    kill_point: str | None = None
    moves: int = 0
    """Actions applied in this process."""


class Room(LiveRoom):
    def __init__(self, record: RoomRecord, services: RoomServices) -> None:
        super().__init__(record, {})
        self.services = services
        self.lock = asyncio.Lock()
        self.timer = Timer(self)
        self.bots = BotTurns(self, services.settings, services.thinker)
        self.host_task: asyncio.Task[None] | None = None
        self.closing: set[asyncio.Task[None]] = set()
        self.idle_since: float | None = time.monotonic()
        """When the last socket left (monotonic clock); None while any is connected."""
        self.unloaded = False
        """Set when the hub lets go of the room: whoever still holds this object must load it again."""

    # ---- loading ---------------------------------------------------------------------------------

    async def load(self) -> None:
        """Everything about the room from the database: its game (replayed), names, standings and chat."""
        await self._load_game()
        await self._refresh_names()
        self.standings = await self.services.store.standings(self.record.id)
        await self.read_chat()

    async def _load_game(self) -> None:
        loaded = await self.services.store.load_game(self.record.id)
        self.game = None if loaded is None else LiveGame.from_record(*loaded)
        await self.find_coached()

    async def find_coached(self, before: LiveGame | None = None) -> None:
        """Who plays the current game as their first of its kind (the coach's default, per socket). Whoever
        was seated in ``before``, the room's game just finished, of the same kind, is known not to: only the
        others are looked up, so a rematch asks the store nothing."""
        game = self.game
        if game is None:
            self.coached = frozenset()
            return
        people = players_seated([game.seats])
        if before is not None and before.engine is game.engine and before.outcome_json() is not None:
            people -= players_seated([before.seats])
        self.coached = frozenset(await self.services.store.new_to(game.engine.name, people) if people else ())

    async def _refresh_names(self) -> None:
        ids = {s.player_id for s in self.record.seats if s.player_id is not None}
        ids |= self.connected_players() | {self.record.host_id}
        missing = ids - set(self.names)
        if missing:
            self.names.update(await self.services.store.player_names(missing))

    async def read_chat(self) -> None:
        """Show the room's chat lines stored since the last read (all of the latest, on a load)."""
        lines = await self.services.store.chat_lines(self.record.id, after=self.chat_read_to, limit=CHAT_LINES)
        for line in lines:
            chat.show(self, line)
        if lines:
            self.chat_read_to = max(self.chat_read_to, lines[-1].id)

    async def reload(self) -> None:
        """Take the room and its game as the database has them (another process changed them) and show
        everyone here. Must be called with the lock held."""
        record = await self.services.store.load_room(self.code)
        if record is None:
            return
        self.record = record
        if record.status == "playing":  # another process started the game: the lessons close here too
            self.learning.clear()
        await self._load_game()
        await self.finish_if_ended()
        await self._refresh_names()
        self.services.fanout.state(self, [], room=True, welcomes=True)
        self.after_change()

    async def finish_if_ended(self) -> None:
        """Finish a room still "playing" whose game is over, with the game's standings and ratings: a crash
        between a game's last move and the room's finish left such rooms before the two were stored in one
        transaction, and they could neither play on nor start another game. Must be called with the game
        fresh from the database (a stale room only costs a reload) and the lock held once it is loaded."""
        game, store = self.game, self.services.store
        outcome = None if game is None or self.record.status != "playing" else game.outcome_json()
        if game is None or outcome is None:
            return
        standings = await store.repair_finished_game(self.record.revision, self._game_end(game, outcome))
        if standings is None:  # another process finished or changed the room first: take it as it is now
            record = await store.load_room(self.code)
            if record is not None:
                self.record = record
            self.standings = await store.standings(self.record.id)
            return
        log.warning("room %s was still playing after game %s had ended: finished now", self.code, game.id)
        self.record.status = "finished"
        self.record.revision += 1
        self.standings = standings

    def _game_end(self, game: LiveGame, outcome: dict[str, Any]) -> GameEnd:
        engine = game.engine
        return GameEnd(self.record.id, outcome, game.seats, engine.name, engine.seats_of(game.state))

    def idle_for(self, now: float, seconds: float) -> bool:
        """Nobody connected for ``seconds`` and nothing pending that needs this process to hold the room."""
        tasks = (self.host_task, *self.closing)
        return (
            not self.connections
            and self.idle_since is not None
            and now - self.idle_since >= seconds
            and not self.timer.pending()
            and not self.bots.pending()
            and all(task is None or task.done() for task in tasks)
        )

    async def stop(self, close_code: int | None = None) -> None:
        """Stop its timers and bots and close its sockets (with ``close_code``, the browser's socket too)."""
        self.unloaded = True
        self.timer.cancel()
        self.bots.cancel()
        if self.host_task is not None and self.host_task is not asyncio.current_task():
            self.host_task.cancel()
        for conn in list(self.connections):
            with contextlib.suppress(Exception):
                if close_code is None:
                    await conn.close()
                else:
                    await conn.websocket.close(code=close_code)

    # ---- connections -----------------------------------------------------------------------------

    def admission(self, player_id: int) -> tuple[str, dict[str, Any]] | None:
        """Why this player may not enter the room now, or None if they may: an English note for developers
        and the reason the page phrases (``{"key": "room.refused.<why>", "params": {}}``)."""
        settings = self.settings
        if player_id in settings.banned:
            return "you were removed from this room by the host", refusal("banned")
        member = player_id == self.record.host_id or any(s.player_id == player_id for s in self.record.seats)
        if member:
            return None
        if settings.locked:
            return "the room is locked", refusal("locked")
        if not settings.spectators and self.record.status == "playing":
            return "the host does not allow spectators", refusal("no_spectators")
        return None

    async def connect(self, conn: Connection, name: str) -> bool:
        """Attach the socket to the room; False if the room was unloaded meanwhile (load it again)."""
        fanout = self.services.fanout
        conn.resync = lambda c: fanout.resync(self, c)
        async with self.lock:
            if self.unloaded:
                return False
            self.idle_since = None
            self.names[conn.player_id] = name
            was_present = conn.player_id in self.connected_players()
            self.connections.add(conn)
            self.services.metrics.sockets.inc()
            if not conn.watching:  # a shared screen is nobody's presence (LiveRoom.local_players)
                self.joined_at.setdefault(conn.player_id, time.time())
                self.away_since.pop(conn.player_id, None)
            conn.send(fanout.welcome(self, conn))
            if self.game is not None:
                conn.send(self.game.state_message(self.seat_of_socket(conn), []))
            team = self.team_of_seat(self.seat_of_socket(conn))
            for _line_id, line_team, payload in self.chat:
                if line_team is None or line_team == team:
                    conn.send(payload)
            if not was_present and not conn.watching:
                fanout.room(self)
            else:
                conn.send(fanout.room_message(self))
            self.after_change()
        if not conn.watching:
            await self.services.bus.presence(self.code)
        return True

    async def disconnect(self, conn: Connection) -> None:
        async with self.lock:
            if conn not in self.connections:  # already dropped (its relaying process fell silent)
                await conn.close()
                return
            self.connections.discard(conn)
            self.services.metrics.sockets.dec()
            if self.unloaded and self.services.store.leases is not None:  # another process serves it now
                await conn.close()
                return
            if not self.connections:
                self.idle_since = time.monotonic()
            self.players_left(self._people_of([conn]) - self.connected_players())
            self.screens_closed([conn])
        await conn.close()
        if not conn.watching and conn.player_id not in self.local_players():
            await self.services.bus.presence(self.code)

    @staticmethod
    def _people_of(conns: list[Connection]) -> set[int]:
        """Whose presence these sockets were: a shared screen's was nobody's."""
        return {conn.player_id for conn in conns if not conn.watching}

    def players_left(self, players: set[int]) -> None:
        """They are connected nowhere any more: away from now (a bot stands in after the grace period), and
        if the host is among them, a handover unless they come back. Must be called with the lock held."""
        if not players:
            return
        now = time.time()
        for player in players:
            self.away_since[player] = now
            self.learning.pop(player, None)
        self.services.fanout.room(self)
        if self.record.host_id in players:
            self._await_host()
        self.after_change()

    def screens_closed(self, conns: list[Connection]) -> None:
        """A seatless host ran the room from one of these shared screens (``LiveRoom.host_here``): if nothing
        else keeps them here, a handover unless they come back. Must be called with the lock held."""
        host = self.record.host_id
        if any(conn.watching and conn.player_id == host for conn in conns) and not self.host_here():
            self._await_host()

    def _await_host(self) -> None:
        if self.host_task is not None:
            self.host_task.cancel()
        self.host_task = asyncio.create_task(self._host_handover(self.record.host_id))

    async def _host_handover(self, host_id: int) -> None:
        """If the host stays away, the longest-present connected person becomes host."""
        await asyncio.sleep(self.services.settings.host_grace_seconds)

        async def hand_over() -> None:
            if self.record.host_id != host_id or self.host_here():
                return
            present = [p for p in self.local_players() if p not in self.settings.banned]
            if not present:
                return
            self.record.host_id = min(present, key=lambda p: self.joined_at.get(p, time.time()))
            await self._save_and_announce()

        async with self.lock:
            try:
                await self._retrying_conflicts(hand_over)
            except ProtocolError:
                log.warning("host handover in room %s gave up: the room kept changing", self.code)

    async def _retrying_conflicts(self, change: Callable[[], Awaitable[None]]) -> None:
        """Run a room change; if another process saved the room first, run it again on the room as that
        process left it. Must be called with the lock held."""
        for _attempt in range(ROOM_CONFLICT_RETRIES):
            try:
                await change()
                return
            except RoomConflict:
                await self.reload()
        raise ProtocolError("busy", "the room kept changing while this was tried; try again")

    async def _close_later(self, conn: Connection, code: int) -> None:
        await asyncio.sleep(0.2)  # let the error reach them first
        with contextlib.suppress(Exception):
            await conn.websocket.close(code=code)
        await conn.close()

    def close_later(self, conn: Connection, code: int) -> None:
        """Close the socket with ``code`` once what was just sent to it had time to reach it."""
        self.closing.add(asyncio.create_task(self._close_later(conn, code)))

    # ---- messages --------------------------------------------------------------------------------

    def refused(self, code: str) -> None:
        self.services.metrics.errors.labels(code).inc()

    async def handle(self, conn: Connection, msg: ClientMessage) -> None:
        msg_id = msg.id
        try:
            if isinstance(msg, Ping):
                conn.send(b'{"type":"pong"}')
            elif isinstance(msg, Sync):
                async with self.lock:
                    if self.game is not None and (msg.version is None or msg.version != self.game.version):
                        conn.send(self.game.state_message(self.seat_of_socket(conn), []))
                    conn.send(self.services.fanout.room_message(self))
            elif isinstance(msg, Learning):
                async with self.lock:
                    if lobby.learn(self, conn.player_id, msg):
                        self.show_room()  # presence: shown, never saved, so no other process is told
            else:
                await self._handle_locked(conn, msg)
        except LeaseLost:
            conn.send(error("moved", "this room moved to another server; reconnect", msg_id))
            await self.services.let_go(self)
            return
        except ProtocolError as err:
            self.refused(err.code)
            conn.send(error(err.code, err.message, err.msg_id or msg_id, err.reason))
            return
        if msg_id is not None and not isinstance(msg, Act):  # an act's ack carries its version (see _act)
            conn.send(encode({"type": "ack", "id": msg_id}))

    async def _handle_locked(self, conn: Connection, msg: ClientMessage) -> None:
        """Every message that changes the room runs under the room's lock. A lobby change that another
        process beat to the database is run again on the room as that process left it."""
        async with self.lock:
            if isinstance(msg, Act):
                await self._act(conn, msg)
            else:
                await self._retrying_conflicts(lambda: self._change_room(conn, msg))

    async def _change_room(self, conn: Connection, msg: ClientMessage) -> None:
        """Lobby, host and chat messages (RoomConflict if another process saved the room first)."""
        store, bus = self.services.store, self.services.bus
        if isinstance(msg, Chat):
            line = chat.check(self, conn, msg, self.services.settings.chat_max_length)
            chat.show(self, dataclasses.replace(line, id=await store.add_chat(self.record.id, line)))
            await bus.chat(self.code)
            return
        if isinstance(msg, Rematch) and self.record.host_id != conn.player_id:
            accepted = lobby.accept_rematch(self, conn.player_id)
            if lobby.rematch_ready(self):
                await self._new_game()
            elif accepted.changed:
                await self._save_and_announce()
            return
        if isinstance(msg, Start | Rematch):
            lobby.require_can_start(self, conn.player_id)
            await self._new_game()
            return
        assert isinstance(msg, LobbyMessage)
        change = lobby.change(self, conn.player_id, msg)
        if not change.changed:
            return
        for other in change.removed:
            other.send(error("kicked", "the host removed you from this room"))
            self.close_later(other, 4403)
        if change.timers and self.game is not None:
            set_deadline(self.game, self.settings.turn_seconds)
        game = self.game if change.game_seats else None
        await self._save_and_announce(None if game is None else (game.id, game.seats))
        if change.timers:
            self.after_change()

    async def _save_and_announce(self, game_seats: tuple[int, list[dict[str, Any]]] | None = None) -> None:
        await self.services.store.save_room(self.record, game_seats)
        await self._refresh_names()
        self.services.fanout.room(self)
        self.services.fanout.welcomes(self)
        await self.services.bus.room_changed(self.code)

    async def _new_game(self) -> None:
        engine, settings = self.engine, self.services.settings
        options = engine.parse_options(self.record.options)
        number = 1 if self.game is None else self.game.number + 1
        if self.record.test_seed is not None and settings.testing:
            seed = self.record.test_seed + number - 1
        else:
            seed = secrets.randbits(62)
        await self._refresh_names()
        seats = [
            {
                "player_id": rec.player_id,
                "name": self.names.get(rec.player_id, "?") if rec.player_id else bot_name(index),
                "bot": rec.is_bot,
                **({"level": rec.level or DEFAULT_LEVEL} if rec.is_bot else {}),
            }
            for index, rec in enumerate(self.record.seats)
        ]
        self.bots.get_ready(engine.name, seats)
        game = LiveGame.new(engine, options, seed, 0, number, seats)
        set_deadline(game, self.settings.turn_seconds)
        start = NewGame(
            self.record.id,
            number,
            engine.name,
            options.model_dump(mode="json"),
            seed,
            seats,
            engine.dump(game.state),
            game.timer_key,
            game.deadline,
        )
        game.id = await self.services.store.create_game(start, revision=self.record.revision)
        before, self.game = self.game, game
        await self.find_coached(before)
        self.record.status = "playing"
        self.record.revision += 1
        self.learning.clear()  # the lessons close as the game opens
        self.services.fanout.state(self, [], room=True, welcomes=True)
        await self.services.bus.room_changed(self.code)
        self.after_change()

    async def _act(self, conn: Connection, msg: Act) -> None:
        game = self.game
        if game is None or self.record.status != "playing":
            raise ProtocolError("not_playing", "no game is in progress", msg.id)
        seat = self.seat_of_socket(conn)
        actor = "player"
        if seat is None and self._is_host_action(conn, msg.action.get("type")):
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
        try:
            action = game.engine.parse_action(msg.action)  # the one place a move's JSON becomes an action
        except IllegalAction as err:
            raise ProtocolError("illegal", str(err), msg.id, err.reason()) from None
        await self.apply(seat, action, actor, msg.id, mover=conn)
        if msg.id is not None:
            conn.remember_id(msg.id)  # only what was applied: a refused move may be corrected and resent

    def _is_host_action(self, conn: Connection, kind: object) -> bool:
        game = self.game
        return (
            game is not None
            and conn.player_id == self.record.host_id
            and kind in game.engine.host_actions
            and len(game.to_act) == 1
        )

    async def apply(
        self,
        seat: Seat,
        action: Action,
        actor: str,
        msg_id: str | None = None,
        mover: Connection | None = None,
    ) -> None:
        """The one path for every action (players, host, timers, bots, stand-ins): play it, persist it, then
        fan out. The ``mover``'s socket (if a person moved) gets its ``ack`` with the new state, in the same
        write.

        Must be called with the lock held.
        """
        game = self.game
        assert game is not None
        services = self.services
        engine = game.engine
        started = time.perf_counter()
        try:
            played = game.play(seat, action, actor)
        except IllegalAction as err:
            raise ProtocolError("illegal", str(err), msg_id, err.reason()) from None
        set_deadline(game, self.settings.turn_seconds)
        outcome = game.outcome_json()
        # The full state every SNAPSHOT_EVERY moves and at the end.
        snapshot = engine.dump(game.state) if outcome is not None or game.version % SNAPSHOT_EVERY == 0 else None
        move = MoveWrite(
            game.id,
            game.version,
            seat,
            action.to_json(),
            actor,
            snapshot,
            game.timer_key,
            game.deadline,
            outcome,
            self.record.id,
        )
        standings: list[dict[str, Any]] | None = None
        try:
            if outcome is None:
                await services.store.record_move(move)
            else:
                standings = await services.store.record_move(move, self._game_end(game, outcome))
        except VersionConflict:
            # Another process wrote first: take its state and tell the client to look again.
            game.undo(played)
            await self._load_game()
            await self.finish_if_ended()
            services.fanout.state(self, [], room=True)
            raise ProtocolError("stale_version", "another move was made first; resynced", msg_id) from None
        except LeaseLost:
            # Another process owns the room now: nothing stored here, and nothing more will be.
            game.undo(played)
            asyncio.get_running_loop().create_task(services.let_go(self))
            raise ProtocolError("moved", "this room moved to another server; reconnect", msg_id) from None
        except BaseException:
            # Not stored, so not played: memory must match the database ("nothing changed").
            game.undo(played)
            raise
        if outcome is not None and services.kill_point == "game_end_stored":
            os.kill(os.getpid(), signal.SIGKILL)
        services.moves += 1
        services.metrics.moves.inc()
        game.log.extend(played.entries)
        if outcome is not None:
            # Stored with the move; if another process changed the room meanwhile, its next save reloads.
            self.record.status = "finished"
            self.record.revision += 1
            if standings is None:  # stored without the game in the standings and ratings (logged)
                self.refused("internal")
            else:
                self.standings = standings
        ack = None if mover is None else (mover, encode({"type": "ack", "id": msg_id, "version": game.version}))
        services.fanout.state(self, played.events, ack, room=outcome is not None, log_since=game.version - 1)
        services.metrics.move_latency.observe(time.perf_counter() - started)
        self.after_change()

    # ---- timer and bots (app.live.timer, app.live.bot_turns) -------------------------------------

    def playing(self, game_id: int) -> LiveGame | None:
        """The game ``game_id`` if it is still being played (a timer or bot armed for it may act)."""
        game = self.game
        if game is None or game.id != game_id or self.record.status != "playing":
            return None
        return game

    def after_change(self) -> None:
        """Re-arm the room's timer and let bots move; both go through ``apply`` like a person would."""
        game = self.game if self.record.status == "playing" else None
        self.timer.arm(game)
        self.bots.arm(game)  # with no game being played, the bots' armed moves are cancelled

    def show_room(self) -> None:
        """Send everyone the room's summary again."""
        self.services.fanout.room(self)

    # ---- news from other processes (app.live.bus) ------------------------------------------------

    async def on_chat(self) -> None:
        async with self.lock:
            await self.read_chat()

    async def on_room(self) -> None:
        async with self.lock:
            await self.reload()

    async def on_presence(self, origin: str, player_ids: set[int]) -> None:
        async with self.lock:
            self.remote_presence[origin] = player_ids
            await self._refresh_names()
            self.services.fanout.room(self)

    async def on_peer_gone(self, origin: str) -> None:
        """Another process stopped or fell silent: whoever was connected only through it has left. The
        sockets it relayed here are closed: if it was only slow, it connects them again."""
        relayed = [conn for conn in self.connections if conn.via == origin]
        if origin not in self.remote_presence and not relayed:
            return
        async with self.lock:
            players = self.remote_presence.pop(origin, set()) | self._people_of(relayed)
            for conn in relayed:  # gone from the room now, not when the silent process answers the close
                self.connections.discard(conn)
                self.services.metrics.sockets.dec()
                self.close_later(conn, 1012)
            self.players_left(players - self.connected_players())
            self.screens_closed(relayed)


def refusal(why: str) -> dict[str, Any]:
    """The reason a connection is refused entry (``forbidden``), as the page phrases it."""
    return {"key": f"room.refused.{why}", "params": {}}
