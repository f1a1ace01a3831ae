"""The per-move write on PostgreSQL, on asyncpg directly: one round trip.

Through SQLAlchemy's async session a move cost four round trips (BEGIN, UPDATE, INSERT, COMMIT), each one a
greenlet switch, a statement coercion and asyncpg's own work: with two processes on one core that was about
3 ms of CPU a move, ten times SQLite's. Here the conditional update and the insert are one statement (a
data-modifying CTE, atomic on its own).
"""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

import asyncpg
import orjson

from app.live.records import LeaseLost, MoveWrite, VersionConflict
from app.sql import FENCE, move_update


def positional(sql: str) -> tuple[str, tuple[str, ...]]:
    """``:name`` parameters to asyncpg's ``$n``; returns the text and the names in ``$n`` order."""
    names: list[str] = []

    def number(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in names:
            names.append(name)
        return f"${names.index(name) + 1}"

    return re.sub(r"(?<!:):([a-z_]+)", number, sql), tuple(names)


def _move_sql(snapshot: bool, result: bool, fenced: bool) -> tuple[str, tuple[str, ...]]:
    if not fenced:
        return positional(
            f"WITH moved AS ({move_update(snapshot, result)} RETURNING id) "
            "INSERT INTO game_actions (game_id, version, seat, action, actor, created_at) "
            "SELECT id, :version, :seat, :action, :actor, :created_at FROM moved"
        )
    # The lease row's shared lock is held to the statement's commit: a takeover waits for this write, and a
    # write after a takeover finds the epoch raised and changes nothing.
    return positional(
        f"WITH fence AS ({FENCE}), "
        f"moved AS ({move_update(snapshot, result)} AND EXISTS (SELECT 1 FROM fence) RETURNING id) "
        "INSERT INTO game_actions (game_id, version, seat, action, actor, created_at) "
        "SELECT id, :version, :seat, :action, :actor, :created_at FROM moved"
    )


_MOVE = {
    (snapshot, result, fenced): _move_sql(snapshot, result, fenced)
    for snapshot in (False, True)
    for result in (False, True)
    for fenced in (False, True)
}
"""The per-move statement by (with a snapshot, with a result, checking the room's lease)."""

_FENCE_ONLY = positional(FENCE.replace(" FOR SHARE", ""))


def _json(value: Any) -> str | None:
    """asyncpg takes a ``json`` parameter as its text."""
    return None if value is None else orjson.dumps(value).decode()


async def _rollback_if_open(connection: asyncpg.Connection) -> None:
    """Instead of asyncpg's reset on release (``RESET ALL``, ``UNLISTEN *``, ...: a round trip each time):
    these statements leave no session state, only a transaction interrupted by a cancellation."""
    if connection.is_in_transaction():
        await connection.execute("ROLLBACK")


class PostgresMoves:
    """A small asyncpg pool of its own, opened on first use (the app's SQLAlchemy pool serves the rest)."""

    def __init__(self, dsn: str, max_connections: int = 10) -> None:
        self._dsn = dsn
        self._max = max_connections
        self._pool: asyncpg.Pool | None = None
        self._opening = asyncio.Lock()

    async def connections(self) -> asyncpg.Pool:
        if self._pool is None:
            async with self._opening:
                if self._pool is None:
                    self._pool = await asyncpg.create_pool(
                        self._dsn, min_size=1, max_size=self._max, reset=_rollback_if_open
                    )
        return self._pool

    async def record(self, move: MoveWrite, epoch: int | None = None) -> None:
        """Store one applied action; VersionConflict if the game is no longer at ``move.version - 1``. With
        ``epoch``, only while the room's lease is still at it (else LeaseLost)."""
        sql, names = _MOVE[move.snapshot is not None, move.result is not None, epoch is not None]
        values = {
            "room_id": move.room_id,
            "epoch": epoch,
            "version": move.version,
            "previous": move.version - 1,
            "game_id": move.game_id,
            "timer_key": move.timer_key,
            "deadline": move.deadline,
            "snapshot": _json(move.snapshot),
            "result": _json(move.result),
            "seat": move.seat,
            "action": _json(move.action),
            "actor": move.actor,
            "created_at": time.time(),
        }
        pool = await self.connections()
        try:
            status = await pool.execute(sql, *(values[name] for name in names))
        except asyncpg.UniqueViolationError as err:  # the action's version is already stored
            raise VersionConflict(str(err)) from None
        if status != "INSERT 0 1":
            if epoch is not None and not await pool.fetchval(_FENCE_ONLY[0], move.room_id, epoch):
                raise LeaseLost(f"room {move.room_id} is no longer owned at epoch {epoch}")
            raise VersionConflict(f"game {move.game_id} is no longer at version {move.version - 1}")

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.close()
            self._pool = None
