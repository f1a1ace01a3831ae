"""The room store on PostgreSQL: rooms have owner processes (app.live.leases), and the moves of a loop turn go
in one asyncpg round trip (app.live.pg_moves)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.live.leases import Leases
from app.live.pg_moves import PostgresMoves, in_transaction
from app.live.records import GameEnd, LeaseLost, MoveWrite
from app.live.sql_store import SqlStore
from app.sql import Sql

T = TypeVar("T")


class PostgresStore(SqlStore):
    def __init__(self, sessions: async_sessionmaker[AsyncSession], dsn: str, move_connections: int = 10) -> None:
        """The per-move path on asyncpg, at most ``move_connections`` connections (taking and releasing leases
        share them; renewing has one of its own)."""
        super().__init__(sessions)
        self._pg = PostgresMoves(dsn, move_connections)

    def own_rooms(self, address: str, seconds: float, owner: str | None = None) -> Leases:
        """Give rooms owners from now on (app.live.leases), this process reached at ``address``."""
        self.leases = Leases(self._pg, address, seconds, owner)
        return self.leases

    async def close(self) -> None:
        if self.leases is not None:
            await self.leases.close()
        await self._pg.close()

    async def _write(self, work: Callable[[Sql], T]) -> T:
        """A game end, a new game or a chat line in a transaction on a connection of the moves' asyncpg pool
        (app.live.pg_moves.AsyncpgSql): without a session's work per statement (compiled-statement lookup,
        parameter and result processing), the larger part of a game end's CPU, and without the session
        pool's ping before each use (a BEGIN and a ROLLBACK, two round trips at every game's end and start).
        A connection that a cancellation left inside the transaction is rolled back as it goes back to the
        pool (app.live.pg_moves)."""
        pool = await self._pg.connections()
        async with pool.acquire() as driver:
            return await in_transaction(driver, work)

    async def record_move(self, move: MoveWrite, end: GameEnd | None = None) -> list[dict[str, Any]] | None:
        """A move in the next group statement (app.live.pg_moves); a game's end, with the room's finish and
        standings, in a transaction of its own."""
        if end is not None:
            return await super().record_move(move, end)
        await self._pg.record(move, self._epoch(move.room_id))
        return None

    def _epoch(self, room_id: int | None) -> int | None:
        """The epoch a move of this room must find, or None where rooms have no owners."""
        if self.leases is None:
            return None
        epoch = self.leases.epochs.get(room_id) if room_id is not None else None
        if epoch is None:
            raise LeaseLost(f"room {room_id} is not owned by this process")
        return epoch
