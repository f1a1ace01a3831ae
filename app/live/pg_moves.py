"""The per-move write on PostgreSQL, on asyncpg directly: the moves of one turn of the event loop in one
round trip.

Through SQLAlchemy's async session a move cost four round trips (BEGIN, UPDATE, INSERT, COMMIT), each one a
greenlet switch, a statement coercion and asyncpg's own work. One statement a move (a data-modifying CTE,
atomic on its own) still paid a pool acquire, a bind, a round trip and a release for every move, and the
loop's wake-ups for each. Now every move asked for while the previous group was on its way (across all the
rooms this process owns) goes in one statement over arrays (``unnest``), through the group commit SQLite's
writer uses too (app.live.group_commit): each row still checks its own room's lease and game version, so one
stale move is refused by itself, and each caller is answered only once the statement has committed.
"""

from __future__ import annotations

import asyncio
import functools
import re
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import asyncpg
import orjson
from sqlalchemy.util import await_, greenlet_spawn

from app.live.group_commit import GroupCommit, Waiting
from app.live.records import LeaseLost, MoveWrite, VersionConflict
from app.sql import Sql, Statement, move_update

T = TypeVar("T")


def positional(sql: str) -> tuple[str, tuple[str, ...]]:
    """``:name`` parameters to asyncpg's ``$n``; returns the text and the names in ``$n`` order."""
    names: list[str] = []

    def number(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in names:
            names.append(name)
        return f"${names.index(name) + 1}"

    return re.sub(r"(?<!:):([a-z_]+)", number, sql), tuple(names)


_GROUP = (
    # The moves as rows, one per game; ``epoch`` NULL where rooms have no owners.
    "WITH m AS MATERIALIZED (SELECT * FROM unnest($1::int[], $2::bigint[], $3::int[], $4::int[], $5::text[], "
    "$6::float8[], $7::json[], $8::json[], $9::int[], $10::json[], $11::text[], $12::float8[]) "
    "AS m(room_id, epoch, game_id, version, timer_key, deadline, snapshot, result, seat, action, actor, created_at) "
    "ORDER BY room_id), "
    # The rooms still owned at the move's epoch; their lease rows share-locked to the commit, as FENCE does,
    # in room order (app.live.leases locks several in that order too). Lateral: one primary-key lookup a
    # move, never a scan of every lease.
    "fence AS MATERIALIZED (SELECT m.game_id FROM m, LATERAL (SELECT 1 FROM room_leases l "
    "WHERE l.room_id = m.room_id AND l.epoch = m.epoch FOR SHARE) held), "
    f"moved AS ({move_update(new='m.', old='g.', rows='FROM m')} "
    "AND (m.epoch IS NULL OR m.game_id IN (SELECT game_id FROM fence)) RETURNING g.id), "
    "added AS (INSERT INTO game_actions (game_id, version, seat, action, actor, created_at) "
    "SELECT m.game_id, m.version, m.seat, m.action, m.actor, m.created_at FROM m JOIN moved ON moved.id = m.game_id "
    "RETURNING game_id) "
    "SELECT (SELECT array_agg(game_id) FROM added), (SELECT array_agg(game_id) FROM fence)"
)
"""The moves of many games at once (``PostgresMoves._commit``): the games whose move was stored, and those
whose room's lease still holds (a move neither stored nor fenced out met another version)."""

GROUP_LIMIT = 500
"""Moves in one statement at most; the rest go in the next."""

_Move = tuple[MoveWrite, int | None]
"""A move and its room's epoch (None where rooms have no owners)."""


def _json(value: Any) -> str | None:
    """asyncpg takes a ``json`` parameter as its text."""
    return None if value is None else orjson.dumps(value).decode()


async def _rollback_if_open(connection: asyncpg.Connection) -> None:
    """Instead of asyncpg's reset on release (``RESET ALL``, ``UNLISTEN *``, ...: a round trip each time):
    these statements leave no session state, only a transaction interrupted by a cancellation."""
    if connection.is_in_transaction():
        await connection.execute("ROLLBACK")


async def in_transaction(connection: asyncpg.Connection, work: Callable[[Sql], T]) -> T:
    """Run ``work`` (plain SQL, app.sql) in one transaction on ``connection``; its result once committed."""
    async with connection.transaction():
        result: T = await greenlet_spawn(work, AsyncpgSql(connection))
        return result


class AsyncpgSql:
    """``Sql`` on an asyncpg connection, for synchronous work run in a greenlet (``in_transaction``): each
    statement waits for its round trip as SQLAlchemy's own async connections do, without a session's work
    per statement (compiled-statement lookup, parameter processing, result wrapping)."""

    def __init__(self, connection: asyncpg.Connection) -> None:
        self.connection = connection

    def run(self, statement: Statement, **params: Any) -> int:
        sql, args = _bound(statement, params)
        status: str = await_(self.connection.execute(sql, *args))
        return int(status.rsplit(" ", 1)[-1])  # "UPDATE 1", "INSERT 0 1", "DELETE 3"

    def rows(self, statement: Statement, **params: Any) -> Sequence[Sequence[Any]]:
        sql, args = _bound(statement, params)
        rows: list[asyncpg.Record] = await_(self.connection.fetch(sql, *args))
        return rows


@functools.cache
def _positional_statement(statement: Statement) -> tuple[str, tuple[str, ...]]:
    return positional(statement.sql)


def _bound(statement: Statement, params: dict[str, Any]) -> tuple[str, list[Any]]:
    sql, names = _positional_statement(statement)
    return sql, [_json(params[name]) if name in statement.json else params[name] for name in names]


class PostgresMoves:
    """A small asyncpg pool of its own, opened on first use (the app's SQLAlchemy pool serves the rest), and the
    moves' group commit (app.live.group_commit) on it."""

    def __init__(self, dsn: str, max_connections: int = 10) -> None:
        self._dsn = dsn
        self._max = max_connections
        self._pool: asyncpg.Pool | None = None
        self._opening = asyncio.Lock()
        self._group: GroupCommit[_Move, None] = GroupCommit(self._commit, _take_group)

    async def connections(self) -> asyncpg.Pool:
        if self._pool is None:
            async with self._opening:
                if self._pool is None:
                    self._pool = await asyncpg.create_pool(
                        self._dsn, min_size=1, max_size=self._max, reset=_rollback_if_open
                    )
        return self._pool

    async def connect_alone(self) -> asyncpg.Connection:
        """A connection outside the pool, for work that must not queue behind the moves."""
        return await asyncpg.connect(self._dsn)

    async def record(self, move: MoveWrite, epoch: int | None = None) -> None:
        """Store one applied action, with the other moves asked for meanwhile; returns once it is committed.
        VersionConflict if the game is no longer at ``move.version - 1``. With ``epoch``, only while the
        room's lease is still at it (else LeaseLost)."""
        await self._group.write((move, epoch))

    async def _commit(self, group: list[Waiting[_Move, None]]) -> list[Exception | None]:
        created_at = time.time()
        moves = [move for (move, _epoch), _future in group]
        pool = await self.connections()
        try:
            stored, owned = await pool.fetchrow(
                _GROUP,
                [move.room_id for move in moves],
                [epoch for (_move, epoch), _future in group],
                [move.game_id for move in moves],
                [move.version for move in moves],
                [move.timer_key for move in moves],
                [move.deadline for move in moves],
                [_json(move.snapshot) for move in moves],
                [_json(move.result) for move in moves],
                [move.seat for move in moves],
                [_json(move.action) for move in moves],
                [move.actor for move in moves],
                [created_at] * len(moves),
            )
        except asyncpg.UniqueViolationError as err:  # an action's version is already stored
            if len(group) == 1:
                raise VersionConflict(str(err)) from None
            raise  # which one: each is tried alone
        stored_games, owned_games = set(stored or ()), set(owned or ())
        outcomes: list[Exception | None] = []
        for move, epoch in (waiting[0] for waiting in group):
            if move.game_id in stored_games:
                outcomes.append(None)
            elif epoch is not None and move.game_id not in owned_games:
                outcomes.append(LeaseLost(f"room {move.room_id} is no longer owned at epoch {epoch}"))
            else:
                outcomes.append(VersionConflict(f"game {move.game_id} is no longer at version {move.version - 1}"))
        return outcomes

    async def close(self) -> None:
        await self._group.drain()  # the moves already asked for are stored (or refused) first
        if self._pool is not None:
            await self._pool.close()
            self._pool = None


def _take_group(pending: list[Waiting[_Move, None]]) -> tuple[list[Waiting[_Move, None]], list[Waiting[_Move, None]]]:
    """The next group (one move a game: a statement updates a row once) and what is left for the one after."""
    if len(pending) <= 1:
        return pending, []
    group: list[Waiting[_Move, None]] = []
    rest: list[Waiting[_Move, None]] = []
    games: set[int] = set()
    for waiting in pending:
        game_id = waiting[0][0].game_id
        if game_id in games or len(group) >= GROUP_LIMIT:
            rest.append(waiting)
        else:
            games.add(game_id)
            group.append(waiting)
    return group, rest
