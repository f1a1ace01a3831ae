"""Everything the live rooms read from and write to the database.

The per-move path (``record_action``) is a plain-SQL insert + conditional update in one transaction:
``UNIQUE(game_id, version)`` and ``WHERE version = :previous`` make a stale or duplicate write fail instead
of being applied twice, even across processes.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import Session

from app.live.leases import Leases
from app.live.pg_moves import PostgresMoves
from app.live.records import (
    ChatRecord,
    GameEnd,
    GameRecord,
    LeaseLost,
    MoveWrite,
    RoomConflict,
    RoomRecord,
    SeatRecord,
    VersionConflict,
)
from app.models import ChatLine, Game, GameAction, Player, Room, RoomSeat
from app.ratings import rate_game
from app.sql import FENCE, SessionSql, Sql, SqliteSql, Statement, move_update

T = TypeVar("T")
log = logging.getLogger("threefold.store")


# The statements written on the event loop (app.sql): fixed texts, the same on SQLite and PostgreSQL.

_FENCE = Statement(FENCE)
_PLAYER_BY_TOKEN = Statement("SELECT id, name FROM players WHERE token_hash = :token_hash")
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
CHAT_KEPT = 200
"""Chat lines a room keeps in the database (it loads the last 50): each new line deletes those before the
latest 200, through the (room_id, id) index, so a long evening's chat does not grow the table for good."""
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


def _move_statement(snapshot: bool, result: bool) -> Statement:
    return Statement(
        move_update(snapshot, result),
        json=frozenset({"snapshot"} if snapshot else set()) | frozenset({"result"} if result else set()),
    )


_MOVE = {
    (snapshot, result): _move_statement(snapshot, result) for snapshot in (False, True) for result in (False, True)
}
"""The per-move update of the game row, by (with a snapshot, with a result)."""


class _StandingsNotStored(Exception):
    """A game's end could not add the game to the standings and ratings (the cause is chained)."""


class Store:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        sqlite_path: str | None = None,
        postgres_dsn: str | None = None,
        postgres_move_connections: int = 10,
    ) -> None:
        """The per-move path runs on a plain ``sqlite3`` connection for a SQLite file, on asyncpg for
        PostgreSQL (``postgres_dsn``, at most ``postgres_move_connections`` connections), and through the
        sessions otherwise (in-memory SQLite in tests)."""
        self.sessions = sessions
        self._moves = SqliteMoveWriter(sqlite_path) if sqlite_path else None
        self._pg = PostgresMoves(postgres_dsn, postgres_move_connections) if postgres_dsn else None
        self.leases: Leases | None = None
        """Set where rooms have owners (``own_rooms``): every write of a room then checks its lease."""

    def own_rooms(self, address: str, seconds: float, owner: str | None = None) -> Leases | None:
        """On PostgreSQL, give rooms owners from now on (app.live.leases); None elsewhere (one process)."""
        if self._pg is not None:
            self.leases = Leases(self._pg, address, seconds, owner)
        return self.leases

    def _fence(self, sql: Sql, room_id: int) -> None:
        """First statement of a room's write: refused (LeaseLost) unless this process still owns the room,
        and the lease row stays share-locked until the write commits (app.live.leases)."""
        if self.leases is None:
            return
        epoch = self.leases.epochs.get(room_id)
        if epoch is None or not sql.rows(_FENCE, room_id=room_id, epoch=epoch):
            raise LeaseLost(f"room {room_id} is not owned by this process (epoch {epoch})")

    def _epoch(self, room_id: int | None) -> int | None:
        """The epoch a move of this room must find, or None where rooms have no owners."""
        if self.leases is None:
            return None
        epoch = self.leases.epochs.get(room_id) if room_id is not None else None
        if epoch is None:
            raise LeaseLost(f"room {room_id} is not owned by this process")
        return epoch

    async def close(self) -> None:
        if self._moves is not None:
            self._moves.close()
        if self._pg is not None:
            await self._pg.close()

    async def _write(self, work: Callable[[Sql], T]) -> T:
        """One write transaction running ``work`` (plain SQL, app.sql).

        On SQLite it runs on the move writer's connection, on the event loop: a game end or a new game then
        holds the write lock for the fraction of a millisecond it computes, not across a dozen thread hops
        (through an async session it held it for 5-10 ms while every move in every room retried).
        Elsewhere it runs in an async session (``run_sync``)."""
        moves = self._moves
        if moves is None:
            async with self.sessions.begin() as s:
                return await s.run_sync(lambda session: work(SessionSql(session)))
        return await moves.write(work)

    # ---- players -------------------------------------------------------------------------------

    async def player_names(self, ids: set[int]) -> dict[int, str]:
        if not ids:
            return {}
        async with self.sessions() as s:
            rows = await s.execute(select(Player.id, Player.name).where(Player.id.in_(ids)))
            return {pid: name for pid, name in rows}

    async def player_by_token_hash(self, token_hash: str) -> tuple[int, str] | None:
        """The player's id and name. On SQLite a plain read on the loop (~0.05 ms): every socket opens with
        this, and through the async session pool (15 connections, a thread hop per statement) a burst of
        7,000 sockets queued past the pool's 30 s timeout in the benchmark, failing sockets."""
        moves = self._moves
        if moves is not None:
            rows = await _when_not_busy(lambda: SqliteSql(moves.db).rows(_PLAYER_BY_TOKEN, token_hash=token_hash))
        else:
            async with self.sessions() as s:
                rows = await s.run_sync(
                    lambda session: SessionSql(session).rows(_PLAYER_BY_TOKEN, token_hash=token_hash)
                )
        return (int(rows[0][0]), str(rows[0][1])) if rows else None

    # ---- rooms ---------------------------------------------------------------------------------

    async def create_room(
        self, code: str, host_id: int, game: str, options: dict[str, Any], seat_count: int, test_seed: int | None
    ) -> None:
        async with self.sessions.begin() as s:
            room = Room(
                code=code, host_id=host_id, game=game, options=options, status="lobby", test_seed=test_seed, settings={}
            )
            s.add(room)
            await s.flush()
            s.add_all(RoomSeat(room_id=room.id, seat=i, player_id=None) for i in range(seat_count))

    async def code_exists(self, code: str) -> bool:
        async with self.sessions() as s:
            return (await s.execute(select(Room.id).where(Room.code == code))).first() is not None

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

    async def latest_game(self, room_id: int) -> GameRecord | None:
        async with self.sessions() as s:
            game = (
                await s.execute(select(Game).where(Game.room_id == room_id).order_by(Game.number.desc()).limit(1))
            ).scalar_one_or_none()
            return None if game is None else _game_record(game)

    async def create_game(
        self,
        room_id: int,
        number: int,
        engine: str,
        options: dict[str, Any],
        seed: int,
        seats: list[dict[str, Any]],
        snapshot: dict[str, Any],
        timer_key: str | None,
        deadline: float | None,
        revision: int | None = None,
    ) -> int:
        """Insert the game and mark the room playing; with ``revision``, only if the room is still at it
        (else RoomConflict: another process changed or started it)."""

        def work(sql: Sql) -> int:
            self._fence(sql, room_id)
            if revision is None:
                changed = sql.run(_START_ROOM, room_id=room_id)
            else:
                changed = sql.run(_START_ROOM_AT, room_id=room_id, revision=revision)
            if changed != 1:
                raise RoomConflict(f"room {room_id} changed since revision {revision}")
            rows = sql.rows(
                _NEW_GAME,
                room_id=room_id,
                number=number,
                engine=engine,
                options=options,
                seed=seed,
                seats=seats,
                snapshot=snapshot,
                timer_key=timer_key,
                deadline=deadline,
            )
            return int(rows[0][0])

        return await self._write(work)

    async def record_action(self, move: MoveWrite) -> None:
        """Persist one applied action; raises VersionConflict if ``move.version - 1`` is no longer current."""
        if self._pg is not None:
            await self._pg.record(move, self._epoch(move.room_id))
            return
        await self._write_move(lambda sql: _record(sql, move))

    async def _write_move(self, work: Callable[[Sql], T]) -> T:
        """``_write`` for work that stores an action: its version already stored is a VersionConflict."""
        try:
            return await self._write(work)
        except (IntegrityError, sqlite3.IntegrityError) as err:
            raise VersionConflict(str(err)) from None

    async def actions(self, game_id: int) -> list[tuple[int, int, dict[str, Any], str]]:
        """The game's actions, in order."""
        async with self.sessions() as s:
            return await s.run_sync(_actions, game_id, 0)

    async def record_last_action(self, move: MoveWrite, end: GameEnd) -> list[dict[str, Any]] | None:
        """Persist the action that ended a game together with the game's end: the room finished, the game in
        its standings and the players' ratings, one transaction (a crash between two left the room
        "playing" for good, without the game's standings). Returns the standings as they now are, read in
        the same transaction. If the standings or ratings cannot be stored, the action is still stored with
        the room's finish, and None is returned: the room must never stay "playing" after its game's end.
        Raises VersionConflict like ``record_action``."""

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


def _actions(s: Session, game_id: int, after: int) -> list[tuple[int, int, dict[str, Any], str]]:
    """The game's actions with a version above ``after``, in order."""
    rows = s.execute(
        select(GameAction.version, GameAction.seat, GameAction.action, GameAction.actor)
        .where(GameAction.game_id == game_id, GameAction.version > after)
        .order_by(GameAction.version)
    )
    return [(v, seat, dict(a), actor) for v, seat, a, actor in rows]


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
    statement = _MOVE[move.snapshot is not None, move.result is not None]
    changed = sql.run(
        statement,
        version=move.version,
        previous=move.version - 1,
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


_Write = tuple[Callable[[Sql], Any], "asyncio.Future[Any]"]
"""A write waiting for the next group commit, and its caller's future."""


class SqliteMoveWriter:
    """The per-move write on SQLite, on a plain ``sqlite3`` connection (WAL, synchronous=NORMAL).

    Measured on this machine: 0.035 ms a move against 1.2 ms through an async session (aiosqlite hops to
    its thread twice per statement), which was more than half of the server's CPU per move. A WAL commit
    with synchronous=NORMAL does not wait for the disk, so running it on the event loop is cheaper than
    handing it to a thread; it is still committed before anyone is told (a crash of the process loses
    nothing committed; only a power cut can lose the last moments, as with any NORMAL WAL database).

    Checkpoints (copying the WAL back into the database file, with an fsync) are what does wait for the
    disk: SQLite runs one inside the commit that crosses 1,000 WAL pages, which here would stall the event
    loop every fraction of a second under load. This connection never checkpoints; a thread does it every
    ``checkpoint_seconds`` (PASSIVE: it never blocks a writer), outside the loop.

    The WAL only starts over from its beginning when a write begins with every frame already copied back;
    under a writer that never pauses for a checkpoint's length, that never happens, and the file grew for
    as long as the load lasted (450 MB in 50 s of the benchmark's saturation). So once the file passes
    ``wal_size_limit`` (64 MiB) the writer itself holds its next group for one more pass (off the loop;
    moves meanwhile queue up for the group after), and that group's write starts the WAL over and cuts the
    file back (``journal_size_limit``).
    """

    def __init__(self, path: str, *, checkpoint_seconds: float = 1.0, wal_size_limit: int = 64 << 20) -> None:
        self.checkpoint_seconds = checkpoint_seconds
        self.wal_size_limit = wal_size_limit
        # busy_timeout=0: a busy database answers at once, and Store.record_action retries without blocking.
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=0)
        for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON", "busy_timeout=0"):
            self.db.execute(f"PRAGMA {pragma}")
        self.db.execute("PRAGMA wal_autocheckpoint=0")  # the checkpointer thread does it (see above)
        self.db.execute(f"PRAGMA journal_size_limit={wal_size_limit}")
        self._wal_path = f"{path}-wal"
        # Its own connection: the pass runs in a thread while the loop may still read on ``db``.
        self._restarter = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=0)
        self.wal_oversized = False
        """Set by the checkpointer thread: the WAL file is past ``wal_size_limit`` (see above)."""
        self._stop = threading.Event()
        self._checkpointer = threading.Thread(target=self._checkpoints, args=(path,), daemon=True)
        self._checkpointer.start()
        self._sql = SqliteSql(self.db)
        self._pending: list[_Write] = []
        self._committer: asyncio.Task[None] | None = None

    def close(self) -> None:
        self._stop.set()
        self._checkpointer.join(timeout=5)
        self._restarter.close()
        self.db.close()

    def _checkpoints(self, path: str) -> None:
        db = sqlite3.connect(path, isolation_level=None, timeout=5)
        try:
            while not self._stop.wait(self.checkpoint_seconds):
                with contextlib.suppress(sqlite3.Error):  # busy now: the next round catches up
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
                self.note_wal_size()
        finally:
            with contextlib.suppress(sqlite3.Error):
                db.execute("PRAGMA wal_checkpoint(PASSIVE)")
            db.close()

    def note_wal_size(self) -> None:
        with contextlib.suppress(OSError):
            self.wal_oversized = os.path.getsize(self._wal_path) > self.wal_size_limit

    async def _restart_wal(self) -> None:
        """One checkpoint pass with no write of ours under way, so the next write starts the WAL over."""
        self.wal_oversized = False
        with contextlib.suppress(sqlite3.Error):  # the checkpointer thread's pass holds the lock: next time
            await asyncio.to_thread(lambda: self._restarter.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall())

    async def write(self, work: Callable[[Sql], T]) -> T:
        """Run ``work`` in the next group commit and return its result once that is committed.

        Every write asked for in one turn of the event loop (a move in each of many rooms, a game end) shares
        one transaction: one WAL append and one commit instead of one each (on this VM a commit is about
        half of a move's write). Nothing is answered before the commit, so "stored before anyone is told"
        holds. If one of them fails, the group is rolled back and each is run alone, so a stale or duplicate
        move fails by itself and the others are still stored."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending.append((work, future))
        if self._committer is None:
            self._committer = asyncio.create_task(self._commit_pending())
        result: T = await future
        return result

    async def _commit_pending(self) -> None:
        group: list[_Write] = []
        try:
            while self._pending:
                if self.wal_oversized:
                    await self._restart_wal()
                group, self._pending = self._pending, []
                try:
                    group, results = await _when_not_busy(functools.partial(self._commit_waited_for, group))
                except Exception:
                    for work, future in group:  # one of them failed: each alone
                        try:
                            alone, results = await _when_not_busy(
                                functools.partial(self._commit_waited_for, [(work, future)])
                            )
                        except Exception as err:
                            _settle(future, error=err)
                        else:
                            if alone:
                                _settle(future, result=results[0])
                else:
                    for (_work, future), result in zip(group, results, strict=True):
                        _settle(future, result=result)
        except BaseException as err:  # never leave a writer waiting forever
            for _work, future in group + self._pending:
                _settle(future, error=err if isinstance(err, Exception) else RuntimeError("writer stopped"))
            self._pending = []
            raise
        finally:
            self._committer = None

    def _commit_waited_for(self, group: list[_Write]) -> tuple[list[_Write], list[Any]]:
        """Commit the writes someone still waits for, and say which they were. Checked at every attempt: a
        writer cancelled while the database was busy (between ``_when_not_busy``'s tries) has already been
        told its write failed, and restored what it had changed, so that write must not be stored after all."""
        waited_for = [(work, future) for work, future in group if not future.cancelled()]
        return waited_for, self._commit([work for work, _ in waited_for]) if waited_for else []

    def _commit(self, works: list[Callable[[Sql], Any]]) -> list[Any]:
        """Run ``works`` in one transaction holding the write lock from the start (BEGIN IMMEDIATE: the
        connection is in autocommit mode); raises sqlite3.OperationalError at once if another connection
        holds it (``_when_not_busy`` retries)."""
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            results = [work(self._sql) for work in works]
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        return results


def _settle(future: asyncio.Future[Any], *, result: Any = None, error: BaseException | None = None) -> None:
    if future.done():  # the writer gave up waiting (cancelled)
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


async def _when_not_busy(write: Callable[[], T]) -> T:
    """Run a synchronous SQLite write; if another connection holds the write lock, yield and try again.

    Never wait for the lock on the event loop: the holder may be an async session that needs the loop to
    finish (busy_timeout=0 makes a busy database answer at once)."""
    deadline_at = time.monotonic() + 30
    pause = 0.001
    while True:
        try:
            return write()
        except sqlite3.OperationalError as err:
            busy = "locked" in str(err) or "busy" in str(err)
            if not busy or time.monotonic() > deadline_at:
                raise
        await asyncio.sleep(pause)
        pause = min(pause * 2, 0.05)
