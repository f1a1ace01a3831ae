"""What a room reads from and writes to storage, behind one small interface (``RoomStore``).

Four implementations, chosen from the settings by app.live.open_store: ``SqliteStore`` (a SQLite file, one
process), ``PostgresStore`` (PostgreSQL, rooms with owner processes), ``SqlStore`` (any SQL database through
the ORM's sessions alone: an in-memory SQLite) and ``MemoryStore`` (dictionaries, for the room's unit tests).
Each keeps its own fast path for a move inside itself; the room only calls these methods.

Every write of a room that another process could make too is conditional: a move only over the game's
previous version (VersionConflict), a lobby change only over the room's revision (RoomConflict), and where
rooms have owners only under the room's lease (LeaseLost).
"""

from __future__ import annotations

from typing import Any, Protocol

from app.live.game import StoredAction
from app.live.leases import Leases
from app.live.records import ChatRecord, GameEnd, GameRecord, MoveWrite, NewGame, NewRoom, RoomRecord


class RoomStore(Protocol):
    leases: Leases | None
    """Set where rooms have owners (PostgreSQL): every write of a room then checks its lease."""

    async def close(self) -> None: ...

    # players
    async def player_names(self, ids: set[int]) -> dict[int, str]: ...
    async def player_by_token_hash(self, token_hash: str) -> tuple[int, str] | None:
        """The player's id and name."""
        ...

    # rooms
    async def create_room(self, room: NewRoom) -> bool:
        """Store the new room; False (and nothing stored) if its code is taken."""
        ...

    async def load_room(self, code: str) -> RoomRecord | None: ...
    async def save_room(self, room: RoomRecord, game_seats: tuple[int, list[dict[str, Any]]] | None = None) -> None:
        """The lobby-level fields and seats, and with ``game_seats`` (game id, seats) the running game's seats.
        RoomConflict if the room changed since ``room`` was read; on success ``room.revision`` is the new one."""
        ...

    # games
    async def load_game(self, room_id: int) -> tuple[GameRecord, list[StoredAction]] | None:
        """The room's latest game and its actions, in order; None before its first game."""
        ...

    async def create_game(self, game: NewGame, revision: int | None = None) -> int:
        """Insert the game and mark the room playing; with ``revision``, only if the room is still at it
        (else RoomConflict). The new game's id."""
        ...

    async def record_move(self, move: MoveWrite, end: GameEnd | None = None) -> list[dict[str, Any]] | None:
        """Persist one applied action; VersionConflict if ``move.version - 1`` is no longer current.

        With ``end`` (the action ended the game), the room's finish and the game's standings and ratings at
        once: the standings as they now are, or None if only those could not be stored (the room is finished
        all the same). None without ``end``."""
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
