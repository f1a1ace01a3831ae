"""What the live rooms store and load: plain records, and the conflicts a write can meet."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple

from engines.base import SeatInfo

CHAT_KEPT = 200
"""Chat lines a room keeps in the database (it loads the last 50): each new line deletes those before the
latest 200, through the (room_id, id) index, so a long evening's chat does not grow the table for good."""


class VersionConflict(Exception):
    """Another writer got there first: the caller must reload the game."""


class LeaseLost(Exception):
    """This process no longer owns the room (app.live.leases): the write was refused, and the room must be
    let go of."""


class RoomConflict(Exception):
    """Another process changed the room first: the caller must reload the room and try again."""


@dataclass
class SeatRecord:
    player_id: int | None
    is_bot: bool = False
    level: str | None = None  # a bot's level ("easy", "normal", "strong"); None for a person


@dataclass
class RoomRecord:
    id: int
    code: str
    host_id: int
    game: str
    options: dict[str, Any]
    status: str
    test_seed: int | None
    seats: list[SeatRecord]
    settings: dict[str, Any]
    revision: int = 0


class MoveWrite(NamedTuple):
    """One applied action as the per-move write stores it: the action's row, and the game's new version,
    timer and (every few moves, and at the end) snapshot and result. Immutable; a named tuple rather than
    a frozen dataclass, whose ``__init__`` (one ``object.__setattr__`` a field) is slow for something made on
    every move."""

    game_id: int
    version: int
    seat: int
    action: dict[str, Any]
    actor: str
    snapshot: dict[str, Any] | None
    """The full state after the action, or None: the stored snapshot stays at an earlier version and loading
    replays the actions after it."""
    timer_key: str | None
    deadline: float | None
    result: dict[str, Any] | None
    """The outcome, when the action ended the game."""
    room_id: int | None = None
    """The game's room, whose lease the write checks where rooms have owners (app.live.leases)."""


class NewRoom(NamedTuple):
    """A room as it opens, in the lobby: what ``create_room`` stores."""

    code: str
    host_id: int
    game: str
    options: dict[str, Any]
    seat_count: int
    test_seed: int | None
    host_seat: int | None = None
    """Where the host sits (None: every seat is empty)."""


class NewGame(NamedTuple):
    """A game as it starts: what ``create_game`` stores."""

    room_id: int
    number: int
    engine: str
    options: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]
    snapshot: dict[str, Any]
    """The state at version 0."""
    timer_key: str | None
    deadline: float | None


@dataclass(frozen=True)
class GameEnd:
    """What a game's end adds to its room: the room's standings and the players' ratings."""

    room_id: int
    outcome: dict[str, Any]
    seats: list[dict[str, Any]]
    game: str
    """The engine's name (ratings are per game)."""
    infos: list[SeatInfo]
    """The seats' labels and teams, as the final state has them."""


@dataclass
class GameRecord:
    id: int
    number: int
    engine: str
    options: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]
    version: int
    status: str
    snapshot: dict[str, Any]
    result: dict[str, Any] | None
    timer_key: str | None
    deadline: float | None
    snapshot_version: int = 0


@dataclass(frozen=True)
class ChatRecord:
    """One chat line as stored; ``id`` is 0 until it is."""

    id: int
    player_id: int
    name: str
    text: str
    team: int | None
    """The team that may read it; None: everyone in the room."""
    at: float
    """Epoch seconds."""

    def message(self) -> dict[str, Any]:
        """The ``chat`` message it is sent as. ``id`` orders lines: lines posted at the same moment through
        different processes reach each socket in an order of their own, and clients show them by id."""
        return {
            "type": "chat",
            "id": self.id,
            "from": {"id": self.player_id, "name": self.name},
            "text": self.text,
            "team": self.team,
            "at": int(self.at * 1000),
        }


def players_seated(games: Iterable[list[Any]]) -> set[int]:
    """The people (not bots) seated in any of ``games`` (each game's stored seats)."""
    return {
        seat["player_id"]
        for seats in games
        for seat in seats
        if isinstance(seat, dict) and seat.get("player_id") is not None and not seat.get("bot")
    }
