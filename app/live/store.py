"""What a room reads from and writes to storage, behind one small interface (``RoomStore``).

Three implementations: ``SqliteStore`` (a SQLite file, one process), ``PostgresStore`` (PostgreSQL, rooms with
owner processes) and ``MemoryStore`` (dictionaries, for tests). Each keeps its own fast path for a move inside
itself; the room only calls these methods.

Every write of a room that another process could make too is conditional: a move only over the game's
previous version (VersionConflict), a lobby change only over the room's revision (RoomConflict), and where
rooms have owners only under the room's lease (LeaseLost).
"""

from __future__ import annotations

from typing import Any, Protocol

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.live.game import StoredAction
from app.live.leases import Leases
from app.live.postgres_store import PostgresStore
from app.live.records import ChatRecord, GameEnd, GameRecord, MoveWrite, NewGame, NewRoom, RoomRecord
from app.live.sql_store import SqlStore
from app.live.sqlite_store import SqliteStore


class RoomStore(Protocol):
    leases: Leases | None
    """Set where rooms have owners (``own_rooms``): every write of a room then checks its lease."""

    def own_rooms(self, address: str, seconds: float, owner: str | None = None) -> Leases | None:
        """Give rooms owners from now on where several processes share the database; None elsewhere."""
        ...

    async def close(self) -> None: ...

    # players
    async def player_names(self, ids: set[int]) -> dict[int, str]: ...
    async def player_by_token_hash(self, token_hash: str) -> tuple[int, str] | None:
        """The player's id and name."""
        ...

    # rooms
    async def create_room(self, room: NewRoom) -> None: ...

    async def code_exists(self, code: str) -> bool: ...
    async def load_room(self, code: str) -> RoomRecord | None: ...
    async def save_room(self, room: RoomRecord, game_seats: tuple[int, list[dict[str, Any]]] | None = None) -> None:
        """The lobby-level fields and seats, and with ``game_seats`` (game id, seats) the running game's seats.
        RoomConflict if the room changed since ``room`` was read; on success ``room.revision`` is the new one."""
        ...

    # games
    async def latest_game(self, room_id: int) -> GameRecord | None: ...
    async def actions(self, game_id: int) -> list[StoredAction]:
        """The game's actions, in order."""
        ...

    async def create_game(self, game: NewGame, revision: int | None = None) -> int:
        """Insert the game and mark the room playing; with ``revision``, only if the room is still at it
        (else RoomConflict). The new game's id."""
        ...

    async def record_action(self, move: MoveWrite) -> None:
        """Persist one applied action; VersionConflict if ``move.version - 1`` is no longer current."""
        ...

    async def record_last_action(self, move: MoveWrite, end: GameEnd) -> list[dict[str, Any]] | None:
        """The action that ended a game, with the room's finish and the game's standings and ratings, at
        once. The standings as they now are; None if only those could not be stored (the room is finished
        all the same)."""
        ...

    async def repair_finished_game(self, revision: int, end: GameEnd) -> list[dict[str, Any]] | None:
        """Finish a room still "playing" at ``revision`` whose game is over, with its standings; None (and
        nothing done) if the room is no longer playing at that revision."""
        ...

    # chat and standings
    async def add_chat(self, room_id: int, line: ChatRecord) -> int:
        """Store a chat line; its id (ids grow with time, across rooms)."""
        ...

    async def chat_lines(self, room_id: int, after: int = 0, limit: int = 50) -> list[ChatRecord]:
        """The room's latest ``limit`` chat lines with an id above ``after``, oldest first."""
        ...

    async def standings(self, room_id: int) -> list[dict[str, Any]]:
        """The room's running table, best first."""
        ...

    # history
    async def new_to(self, engine: str, player_ids: set[int]) -> set[int]:
        """Those of ``player_ids`` who have finished no game of ``engine`` in a seat (the coach's default)."""
        ...


def open_store(
    sessions: async_sessionmaker[AsyncSession],
    sqlite_path: str | None,
    postgres_dsn: str | None,
    postgres_move_connections: int = 10,
) -> RoomStore:
    """The store for the app's database: a SQLite file's, PostgreSQL's, else through the sessions alone."""
    if postgres_dsn is not None:
        return PostgresStore(sessions, postgres_dsn, postgres_move_connections)
    if sqlite_path is not None:
        return SqliteStore(sessions, sqlite_path)
    return SqlStore(sessions)
