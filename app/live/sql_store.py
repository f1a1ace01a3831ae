"""The room store on a SQL database (app.live.store.RoomStore): reads through the ORM, writes as plain SQL
(app.sql) through an async session. ``SqliteStore`` and ``PostgresStore`` are this with their own fast paths.

The per-move path (``record_move``) is a plain-SQL insert + conditional update in one transaction:
``UNIQUE(game_id, version)`` and ``WHERE version = :previous`` make a stale or duplicate write fail instead
of being applied twice, even across processes.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import asyncpg
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import Session

from app.live.game import StoredAction
from app.live.leases import Leases
from app.live.records import (
    CHAT_KEPT,
    ChatRecord,
    GameEnd,
    GameRecord,
    LeaseLost,
    MoveWrite,
    NewGame,
    NewRoom,
    RoomConflict,
    RoomRecord,
    SeatRecord,
    VersionConflict,
    players_seated,
)
from app.models import ChatLine, Game, GameAction, Player, Room, RoomSeat, Standing
from app.ratings import rate_game
from app.sql import FENCE, SessionSql, Sql, Statement, move_update

T = TypeVar("T")
log = logging.getLogger("threefold.store")


# The statements written on the event loop (app.sql): fixed texts, the same on SQLite and PostgreSQL.

_FENCE = Statement(FENCE)
PLAYER_BY_TOKEN = Statement("SELECT id, name FROM players WHERE token_hash = :token_hash")
_START_ROOM = Statement("UPDATE rooms SET status = 'playing', revision = revision + 1 WHERE id = :room_id")
_START_ROOM_AT = Statement(
    "UPDATE rooms SET status = 'playing', revision = revision + 1 WHERE id = :room_id AND revision = :revision"
)
_NEW_GAME = Statement(
    "INSERT INTO games (room_id, number, engine, options, seed, seats, version, status, snapshot, "
    "snapshot_version, timer_key, deadline) VALUES (:room_id, :number, :engine, :options, :seed, :seats, 0, "
    "'playing', :snapshot, 0, :timer_key, :deadline) RETURNING id",
    json=frozenset({"options", "seats", "snapshot"}),
)
_ADD_CHAT = Statement(
    "INSERT INTO chat_lines (room_id, player_id, name, text, team, created_at) "
    "VALUES (:room_id, :player_id, :name, :text, :team, :created_at) RETURNING id"
)
_PRUNE_CHAT = Statement(
    "DELETE FROM chat_lines WHERE room_id = :room_id AND id < "
    "(SELECT id FROM chat_lines WHERE room_id = :room_id ORDER BY id DESC LIMIT 1 OFFSET :kept)"
)
_FINISH_ROOM = Statement("UPDATE rooms SET status = 'finished', revision = revision + 1 WHERE id = :room_id")
_FINISH_STUCK_ROOM = Statement(
    "UPDATE rooms SET status = 'finished', revision = revision + 1 "
    "WHERE id = :room_id AND status = 'playing' AND revision = :revision"
)
_ADD_TO_STANDINGS = Statement(
    "INSERT INTO standings (room_id, player_id, played, wins, draws, points) "
    "VALUES (:room_id, :player_id, 1, :won, :drew, :points) "
    "ON CONFLICT (room_id, player_id) DO UPDATE SET played = standings.played + 1, "
    "wins = standings.wins + excluded.wins, draws = standings.draws + excluded.draws, "
    "points = standings.points + excluded.points"
)
_STANDINGS = Statement(
    "SELECT standings.player_id, players.name, standings.played, standings.wins, standings.draws, "
    "standings.points FROM standings JOIN players ON players.id = standings.player_id "
    "WHERE standings.room_id = :room_id ORDER BY standings.wins DESC, standings.points DESC"
)
_ADD_ACTION = Statement(
    "INSERT INTO game_actions (game_id, version, seat, action, actor, created_at) "
    "VALUES (:game_id, :version, :seat, :action, :actor, :created_at)",
    json=frozenset({"action"}),
)


_MOVE = Statement(move_update(), json=frozenset({"snapshot", "result"}))


class _StandingsNotStored(Exception):
    """A game's end could not add the game to the standings and ratings (the cause is chained)."""


class SqlStore:
    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        """Every write through the sessions: the store for a database without a faster path of its own (an
        in-memory SQLite in tests)."""
        self.sessions = sessions
        self.leases: Leases | None = None
        """Set where rooms have owners (``PostgresStore.own_rooms``): every write of a room then checks its
        lease. Here one process serves them all."""

    def _fence(self, sql: Sql, room_id: int) -> None:
        """First statement of a room's write: refused (LeaseLost) unless this process still owns the room,
        and the lease row stays share-locked until the write commits (app.live.leases)."""
        if self.leases is None:
            return
        epoch = self.leases.epochs.get(room_id)
        if epoch is None or not sql.rows(_FENCE, room_id=room_id, epoch=epoch):
            raise LeaseLost(f"room {room_id} is not owned by this process (epoch {epoch})")

    async def close(self) -> None:
        return None

    async def _write(self, work: Callable[[Sql], T]) -> T:
        """One write transaction running ``work`` (plain SQL, app.sql), in an async session (``run_sync``)."""
        async with self.sessions.begin() as s:
            return await s.run_sync(lambda session: work(SessionSql(session)))

    # ---- players -------------------------------------------------------------------------------

    async def player_names(self, ids: set[int]) -> dict[int, str]:
        if not ids:
            return {}
        async with self.sessions() as s:
            rows = await s.execute(select(Player.id, Player.name).where(Player.id.in_(ids)))
            return {pid: name for pid, name in rows}

    async def player_by_token_hash(self, token_hash: str) -> tuple[int, str] | None:
        """The player's id and name."""
        async with self.sessions() as s:
            rows = await s.run_sync(lambda session: SessionSql(session).rows(PLAYER_BY_TOKEN, token_hash=token_hash))
        return player_row(rows)

    # ---- rooms ---------------------------------------------------------------------------------

    async def create_room(self, room: NewRoom) -> bool:
        async with self.sessions.begin() as s:
            if (await s.execute(select(Room.id).where(Room.code == room.code))).first() is not None:
                return False
            row = Room(
                code=room.code,
                host_id=room.host_id,
                game=room.game,
                options=room.options,
                status="lobby",
                test_seed=room.test_seed,
                settings={},
            )
            s.add(row)
            await s.flush()
            s.add_all(
                RoomSeat(room_id=row.id, seat=i, player_id=room.host_id if i == room.host_seat else None)
                for i in range(room.seat_count)
            )
        return True

    async def load_room(self, code: str) -> RoomRecord | None:
        async with self.sessions() as s:
            room = (await s.execute(select(Room).where(Room.code == code))).scalar_one_or_none()
            if room is None:
                return None
            seat_rows = (
                await s.execute(select(RoomSeat).where(RoomSeat.room_id == room.id).order_by(RoomSeat.seat))
            ).scalars()
            seats = [SeatRecord(r.player_id, r.is_bot, r.bot_level) for r in seat_rows]
            return RoomRecord(
                room.id,
                room.code,
                room.host_id,
                room.game,
                dict(room.options),
                room.status,
                room.test_seed,
                seats,
                dict(room.settings or {}),
                room.revision,
            )

    async def save_room(self, room: RoomRecord, game_seats: tuple[int, list[dict[str, Any]]] | None = None) -> None:
        """Write the lobby-level fields and the seat table (small; not on the per-move path), and with
        ``game_seats`` (game id, seats) the running game's seats, in the same transaction.

        Raises RoomConflict if the room changed since ``room`` was read (another process saved it first);
        on success ``room.revision`` is the new revision."""
        async with self.sessions.begin() as s:
            await s.run_sync(lambda session: self._fence(SessionSql(session), room.id))
            changed = await s.execute(
                update(Room)
                .where(Room.id == room.id, Room.revision == room.revision)
                .values(
                    host_id=room.host_id,
                    game=room.game,
                    options=room.options,
                    status=room.status,
                    settings=room.settings,
                    revision=room.revision + 1,
                )
            )
            if changed.rowcount != 1:  # type: ignore[attr-defined]
                raise RoomConflict(f"room {room.code} changed since revision {room.revision}")
            existing = {
                r.seat: r for r in (await s.execute(select(RoomSeat).where(RoomSeat.room_id == room.id))).scalars()
            }
            for index, seat in enumerate(room.seats):
                row = existing.pop(index, None)
                if row is None:
                    s.add(
                        RoomSeat(
                            room_id=room.id,
                            seat=index,
                            player_id=seat.player_id,
                            is_bot=seat.is_bot,
                            bot_level=seat.level,
                        )
                    )
                else:
                    row.player_id, row.is_bot, row.bot_level = seat.player_id, seat.is_bot, seat.level
            for row in existing.values():
                await s.delete(row)
            if game_seats is not None:
                game_id, seats = game_seats
                await s.execute(update(Game).where(Game.id == game_id).values(seats=seats))
        room.revision += 1

    # ---- games ---------------------------------------------------------------------------------

    async def load_game(self, room_id: int) -> tuple[GameRecord, list[StoredAction]] | None:
        async with self.sessions() as s:
            game = (
                await s.execute(select(Game).where(Game.room_id == room_id).order_by(Game.number.desc()).limit(1))
            ).scalar_one_or_none()
            if game is None:
                return None
            return _game_record(game), await s.run_sync(_actions, game.id)

    async def create_game(self, game: NewGame, revision: int | None = None) -> int:
        """Insert the game and mark the room playing; with ``revision``, only if the room is still at it
        (else RoomConflict: another process changed or started it)."""

        def work(sql: Sql) -> int:
            self._fence(sql, game.room_id)
            if revision is None:
                changed = sql.run(_START_ROOM, room_id=game.room_id)
            else:
                changed = sql.run(_START_ROOM_AT, room_id=game.room_id, revision=revision)
            if changed != 1:
                raise RoomConflict(f"room {game.room_id} changed since revision {revision}")
            return int(sql.rows(_NEW_GAME, **game._asdict())[0][0])

        return await self._write(work)

    async def _write_move(self, work: Callable[[Sql], T]) -> T:
        """``_write`` for work that stores an action: its version already stored is a VersionConflict."""
        try:
            return await self._write(work)
        except (IntegrityError, sqlite3.IntegrityError, asyncpg.UniqueViolationError) as err:
            raise VersionConflict(str(err)) from None

    async def record_move(self, move: MoveWrite, end: GameEnd | None = None) -> list[dict[str, Any]] | None:
        """Persist one applied action; raises VersionConflict if ``move.version - 1`` is no longer current.

        With ``end``, together with the game's end: the room finished, the game in its standings and the
        players' ratings, one transaction (a crash between two left the room "playing" for good, without the
        game's standings). Returns the standings as they now are, read in the same transaction. If the
        standings or ratings cannot be stored, the action is still stored with the room's finish, and None is
        returned: the room must never stay "playing" after its game's end."""
        if end is None:
            await self._write_move(lambda sql: _record(sql, move))
            return None
        return await self._record_last(move, end)

    async def _record_last(self, move: MoveWrite, end: GameEnd) -> list[dict[str, Any]] | None:

        def room_finished(sql: Sql) -> None:
            self._fence(sql, end.room_id)
            _record(sql, move)
            sql.run(_FINISH_ROOM, room_id=end.room_id)

        def with_standings(sql: Sql) -> list[dict[str, Any]]:
            room_finished(sql)
            return _end_game(sql, end)

        try:
            return await self._write_move(with_standings)
        except _StandingsNotStored:
            log.exception("game %s ended, but its standings and ratings could not be stored", move.game_id)
        await self._write_move(room_finished)
        return None

    async def repair_finished_game(self, revision: int, end: GameEnd) -> list[dict[str, Any]] | None:
        """Finish a room still "playing" (at ``revision``) whose latest game is over: what a crash between a
        game's last move and the room's finish left behind before the two were one transaction. Records the
        game in the standings and ratings, which that crash never did. Only once: None (and nothing done) if
        the room is no longer playing at that revision (another process repaired or changed it first). As
        for a game's end, a room whose standings cannot be stored is still finished (the standings are then
        returned as they were)."""

        def finished(sql: Sql) -> bool:
            self._fence(sql, end.room_id)
            return sql.run(_FINISH_STUCK_ROOM, room_id=end.room_id, revision=revision) == 1

        def with_standings(sql: Sql) -> list[dict[str, Any]] | None:
            return _end_game(sql, end) if finished(sql) else None

        try:
            return await self._write(with_standings)
        except _StandingsNotStored:
            log.exception("room %s: the standings and ratings of its ended game could not be stored", end.room_id)
        if not await self._write(finished):
            return None
        return await self.standings(end.room_id)

    async def add_chat(self, room_id: int, line: ChatRecord) -> int:
        """Store a chat line, and forget the room's lines before its latest ``CHAT_KEPT``; the new line's id
        (ids grow with time, across rooms)."""

        def work(sql: Sql) -> int:
            self._fence(sql, room_id)
            rows = sql.rows(
                _ADD_CHAT,
                room_id=room_id,
                player_id=line.player_id,
                name=line.name,
                text=line.text,
                team=line.team,
                created_at=line.at,
            )
            sql.run(_PRUNE_CHAT, room_id=room_id, kept=CHAT_KEPT - 1)
            return int(rows[0][0])

        return await self._write(work)

    async def chat_lines(self, room_id: int, after: int = 0, limit: int = 50) -> list[ChatRecord]:
        """The room's latest ``limit`` chat lines with an id above ``after``, oldest first."""
        async with self.sessions() as s:
            rows = await s.execute(
                select(
                    ChatLine.id, ChatLine.player_id, ChatLine.name, ChatLine.text, ChatLine.team, ChatLine.created_at
                )
                .where(ChatLine.room_id == room_id, ChatLine.id > after)
                .order_by(ChatLine.id.desc())
                .limit(limit)
            )
            return [ChatRecord(*row) for row in reversed(rows.all())]

    async def standings(self, room_id: int) -> list[dict[str, Any]]:
        async with self.sessions() as s:
            return await s.run_sync(lambda session: _standings(SessionSql(session), room_id))

    # ---- history -------------------------------------------------------------------------------

    async def new_to(self, engine: str, player_ids: set[int]) -> set[int]:
        if not player_ids:
            return set()
        # A finished game adds to its seated players' standings in its room: only those rooms' games are read.
        rooms = select(Standing.room_id).where(Standing.player_id.in_(player_ids), Standing.played > 0)
        async with self.sessions() as s:
            rows = await s.execute(
                select(Game.seats).where(Game.engine == engine, Game.status == "finished", Game.room_id.in_(rooms))
            )
            return player_ids - players_seated(seats for (seats,) in rows)


def _actions(s: Session, game_id: int) -> list[StoredAction]:
    """The game's actions, in order."""
    rows = s.execute(
        select(GameAction.version, GameAction.seat, GameAction.action, GameAction.actor)
        .where(GameAction.game_id == game_id)
        .order_by(GameAction.version)
    )
    return [(v, seat, dict(a), actor) for v, seat, a, actor in rows]


def player_row(rows: Sequence[Sequence[Any]]) -> tuple[int, str] | None:
    """A player's id and name from ``PLAYER_BY_TOKEN``'s rows."""
    return (int(rows[0][0]), str(rows[0][1])) if rows else None


def _standings(sql: Sql, room_id: int) -> list[dict[str, Any]]:
    """The room's running table, best first."""
    return [
        {"player_id": pid, "name": name, "played": played, "wins": wins, "draws": draws, "points": points}
        for pid, name, played, wins, draws, points in sql.rows(_STANDINGS, room_id=room_id)
    ]


def _end_game(sql: Sql, end: GameEnd) -> list[dict[str, Any]]:
    """A game's ratings and its place in the room's standings, in the caller's transaction; returns the
    standings as they now are. Raises _StandingsNotStored if the database refuses them."""
    try:
        return _add_to_standings(sql, end)
    except Exception as err:  # not a version conflict, whatever the database calls it
        raise _StandingsNotStored from err


def _add_to_standings(sql: Sql, end: GameEnd) -> list[dict[str, Any]]:
    rate_game(sql, end.game, end.seats, end.infos, list(end.outcome.get("ranks", [])))
    winners = set(end.outcome.get("winners", []))
    scores = end.outcome.get("scores", [])
    for index, seat in enumerate(end.seats):
        if seat.get("player_id") is None:
            continue
        sql.run(
            _ADD_TO_STANDINGS,
            room_id=end.room_id,
            player_id=seat["player_id"],
            won=int(bool(winners) and index in winners),
            drew=int(not winners),
            points=float(scores[index]) if index < len(scores) else 0.0,
        )
    return _standings(sql, end.room_id)


def _record(sql: Sql, move: MoveWrite) -> None:
    """The per-move write: the game's new version (only over the previous one) and the action's row."""
    changed = sql.run(
        _MOVE,
        version=move.version,
        game_id=move.game_id,
        timer_key=move.timer_key,
        deadline=move.deadline,
        snapshot=move.snapshot,
        result=move.result,
    )
    if changed != 1:
        raise VersionConflict(f"game {move.game_id} is no longer at version {move.version - 1}")
    add_action(sql, move)


def add_action(sql: Sql, move: MoveWrite) -> None:
    """The action's row, the part of ``_record`` that is not the game row's update."""
    sql.run(
        _ADD_ACTION,
        game_id=move.game_id,
        version=move.version,
        seat=move.seat,
        action=move.action,
        actor=move.actor,
        created_at=time.time(),
    )


def _game_record(game: Game) -> GameRecord:
    return GameRecord(
        game.id,
        game.number,
        game.engine,
        dict(game.options),
        game.seed,
        list(game.seats),
        game.version,
        game.status,
        dict(game.snapshot),
        None if game.result is None else dict(game.result),
        game.timer_key,
        game.deadline,
        game.snapshot_version,
    )
