"""Room ownership on PostgreSQL: at most one process applies a room's moves (docs/deploy.md, "One owner").

A process owns a room while it holds the room's row in ``room_leases`` unexpired. Taking a free or expired
lease raises its ``epoch`` (the fencing token); every write of the room checks the epoch it was taken at
(app.live.sql_store, app.live.pg_moves), under a shared row lock, so a process that lost its lease cannot write
even before it has noticed, and a takeover waits for a write in flight instead of passing it. Expiry is
compared on the database server's clock only, so the processes' clocks need not agree.

The owner renews all its leases in one statement every third of ``seconds``, on a connection of its own (a
burst of moves and loads holding every pooled connection must not make it miss its turn); one that cannot renew
for two thirds of it lets its rooms go before anyone may take them (it would be refused anyway).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING

import asyncpg

if TYPE_CHECKING:  # the interface (app.live.store) names Leases without importing an implementation
    from app.live.pg_moves import PostgresMoves

_NOW = "extract(epoch from clock_timestamp())"

_ACQUIRE = (
    "INSERT INTO room_leases (room_id, owner, address, epoch, expires_at) "
    f"SELECT id, $2, $3, 1, {_NOW} + $4 FROM rooms WHERE code = $1 "
    "ON CONFLICT (room_id) DO UPDATE SET owner = excluded.owner, address = excluded.address, "
    "epoch = room_leases.epoch + 1, expires_at = excluded.expires_at "
    f"WHERE room_leases.expires_at < {_NOW} OR room_leases.owner = excluded.owner "
    "RETURNING room_id, epoch"
)
_HOLDER = (
    f"SELECT r.id, l.owner, l.address, l.expires_at - {_NOW} FROM rooms r "
    "LEFT JOIN room_leases l ON l.room_id = r.id WHERE r.code = $1"
)
# Several lease rows are locked in room order, as the grouped move write share-locks them (app.live.pg_moves):
# in any other order the two could each hold a row the other waits for (a deadlock, one of them aborted).
_RENEW = (
    f"UPDATE room_leases SET expires_at = {_NOW} + $2 WHERE owner = $1 AND room_id IN "
    "(SELECT room_id FROM room_leases WHERE owner = $1 ORDER BY room_id FOR NO KEY UPDATE) RETURNING room_id, epoch"
)
_RELEASE = (
    "UPDATE room_leases SET expires_at = 0 WHERE owner = $1 AND room_id IN "
    "(SELECT room_id FROM room_leases WHERE owner = $1 AND room_id = ANY($2::int[]) ORDER BY room_id "
    "FOR NO KEY UPDATE)"
)


@dataclass(frozen=True)
class Elsewhere:
    """Another process holds the room's lease: serve its sockets there."""

    address: str
    expires_in: float
    """Seconds until the lease runs out unless its holder renews it."""


class Leases:
    def __init__(self, database: PostgresMoves, address: str, seconds: float = 3.0, owner: str | None = None) -> None:
        """Taking and releasing leases goes through the per-move writer's pool; renewing, through a connection
        of its own."""
        self.owner = owner or uuid.uuid4().hex
        self.address = address
        self.seconds = seconds
        self.epochs: dict[int, int] = {}
        """The rooms this process owns: room id → the epoch it took the lease at."""
        self._database = database
        self._renewer: asyncpg.Connection | None = None

    async def acquire(self, code: str) -> int | Elsewhere | None:
        """Take the room's lease if it is free, expired or already ours: the room id (its epoch is then in
        ``epochs``); where it lives if another process holds it; None if there is no such room."""
        pool = await self._database.connections()
        row = await pool.fetchrow(_ACQUIRE, code, self.owner, self.address, self.seconds)
        if row is not None:
            self.epochs[row[0]] = row[1]
            return int(row[0])
        holder = await pool.fetchrow(_HOLDER, code)
        if holder is None:
            return None
        if holder[1] is None:  # the room appeared between the two statements' snapshots: try again
            return await self.acquire(code)
        return Elsewhere(str(holder[2]), max(0.0, float(holder[3])))

    async def renew(self) -> set[int]:
        """Extend every lease of this process; the rooms it no longer owns (taken over by another)."""
        before = dict(self.epochs)  # a room taken while the statement runs is not lost
        if self._renewer is None or self._renewer.is_closed():
            self._renewer = await self._database.connect_alone()
        try:
            rows = await self._renewer.fetch(_RENEW, self.owner, self.seconds)
        except BaseException:  # cut off or cancelled mid-statement: the next renewal starts on a new connection
            renewer, self._renewer = self._renewer, None
            renewer.terminate()
            raise
        held = {row[0]: row[1] for row in rows}
        return {
            room_id
            for room_id, epoch in before.items()
            if held.get(room_id) != epoch and self.epochs.get(room_id) == epoch
        }

    async def close(self) -> None:
        renewer, self._renewer = self._renewer, None
        if renewer is not None and not renewer.is_closed():
            await renewer.close()

    async def release(self, room_ids: list[int]) -> None:
        """Give the rooms up at once (unloaded, or this process stops): the next process need not wait."""
        for room_id in room_ids:
            self.epochs.pop(room_id, None)
        if room_ids:
            pool = await self._database.connections()
            await pool.execute(_RELEASE, self.owner, room_ids)
