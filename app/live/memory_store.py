"""A ``RoomStore`` in dictionaries, for tests: the same records, versions, revisions and conflicts as the
databases, without one. It keeps no ratings (they are the database's: app.ratings)."""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

from app.live.game import StoredAction
from app.live.leases import Leases
from app.live.records import (
    CHAT_KEPT,
    ChatRecord,
    GameEnd,
    GameRecord,
    MoveWrite,
    NewGame,
    NewRoom,
    RoomConflict,
    RoomRecord,
    SeatRecord,
    VersionConflict,
    players_seated,
)


class MemoryStore:
    def __init__(self) -> None:
        self.leases: Leases | None = None
        self.players: dict[int, tuple[str, str | None]] = {}
        """Player id → name and token hash."""
        self.rooms: dict[str, RoomRecord] = {}
        self.games: dict[int, tuple[int, GameRecord]] = {}
        """Game id → its room's id and the game as stored."""
        self.moves: dict[int, list[StoredAction]] = {}
        self.chat: dict[int, list[ChatRecord]] = {}
        self.table: dict[int, dict[int, dict[str, Any]]] = {}
        """Room id → player id → the player's row in the room's standings."""
        self._ids = 0

    def _next_id(self) -> int:
        self._ids += 1
        return self._ids

    def add_player(self, name: str, token_hash: str | None = None) -> int:
        player_id = self._next_id()
        self.players[player_id] = (name, token_hash)
        return player_id

    async def close(self) -> None:
        return None

    # ---- players -------------------------------------------------------------------------------

    async def player_names(self, ids: set[int]) -> dict[int, str]:
        return {pid: self.players[pid][0] for pid in ids if pid in self.players}

    async def player_by_token_hash(self, token_hash: str) -> tuple[int, str] | None:
        for pid, (name, stored) in self.players.items():
            if stored == token_hash:
                return pid, name
        return None

    # ---- rooms ---------------------------------------------------------------------------------

    async def create_room(self, room: NewRoom) -> bool:
        if room.code in self.rooms:
            return False
        seats = [SeatRecord(room.host_id if i == room.host_seat else None) for i in range(room.seat_count)]
        self.rooms[room.code] = RoomRecord(
            self._next_id(), room.code, room.host_id, room.game, dict(room.options), "lobby", room.test_seed, seats, {}
        )
        return True

    async def load_room(self, code: str) -> RoomRecord | None:
        record = self.rooms.get(code)
        return None if record is None else copy.deepcopy(record)

    def _room(self, room_id: int) -> RoomRecord:
        return next(record for record in self.rooms.values() if record.id == room_id)

    async def save_room(self, room: RoomRecord, game_seats: tuple[int, list[dict[str, Any]]] | None = None) -> None:
        stored = self._room(room.id)
        if stored.revision != room.revision:
            raise RoomConflict(f"room {room.code} changed since revision {room.revision}")
        self.rooms[room.code] = dataclasses.replace(copy.deepcopy(room), revision=room.revision + 1)
        if game_seats is not None:
            game_id, seats = game_seats
            room_id, game = self.games[game_id]
            self.games[game_id] = (room_id, dataclasses.replace(game, seats=copy.deepcopy(seats)))
        room.revision += 1

    def _set_room(self, room_id: int, **changes: Any) -> None:
        record = self._room(room_id)
        self.rooms[record.code] = dataclasses.replace(record, revision=record.revision + 1, **changes)

    # ---- games ---------------------------------------------------------------------------------

    async def load_game(self, room_id: int) -> tuple[GameRecord, list[StoredAction]] | None:
        games = [game for owner, game in self.games.values() if owner == room_id]
        if not games:
            return None
        latest = max(games, key=lambda game: game.number)
        return copy.deepcopy(latest), copy.deepcopy(self.moves.get(latest.id, []))

    async def create_game(self, game: NewGame, revision: int | None = None) -> int:
        if revision is not None and self._room(game.room_id).revision != revision:
            raise RoomConflict(f"room {game.room_id} changed since revision {revision}")
        self._set_room(game.room_id, status="playing")
        game_id = self._next_id()
        stored = GameRecord(
            game_id,
            game.number,
            game.engine,
            dict(game.options),
            game.seed,
            copy.deepcopy(game.seats),
            0,
            "playing",
            copy.deepcopy(game.snapshot),
            None,
            game.timer_key,
            game.deadline,
        )
        self.games[game_id] = (game.room_id, stored)
        self.moves[game_id] = []
        return game_id

    async def record_move(self, move: MoveWrite, end: GameEnd | None = None) -> list[dict[str, Any]] | None:
        self._record(move)
        if end is None:
            return None
        self._set_room(end.room_id, status="finished")
        return self._add_to_standings(end)

    def _record(self, move: MoveWrite) -> None:
        room_id, game = self.games[move.game_id]
        if game.version != move.version - 1:
            raise VersionConflict(f"game {move.game_id} is no longer at version {move.version - 1}")
        changes: dict[str, Any] = {"version": move.version, "timer_key": move.timer_key, "deadline": move.deadline}
        if move.snapshot is not None:
            changes |= {"snapshot": copy.deepcopy(move.snapshot), "snapshot_version": move.version}
        if move.result is not None:
            changes |= {"status": "finished", "result": copy.deepcopy(move.result)}
        self.games[move.game_id] = (room_id, dataclasses.replace(game, **changes))
        self.moves[move.game_id].append((move.version, move.seat, copy.deepcopy(move.action), move.actor))

    async def repair_finished_game(self, revision: int, end: GameEnd) -> list[dict[str, Any]] | None:
        record = self._room(end.room_id)
        if record.status != "playing" or record.revision != revision:
            return None
        self._set_room(end.room_id, status="finished")
        return self._add_to_standings(end)

    def _add_to_standings(self, end: GameEnd) -> list[dict[str, Any]]:
        table = self.table.setdefault(end.room_id, {})
        winners = set(end.outcome.get("winners", []))
        scores = end.outcome.get("scores", [])
        for index, seat in enumerate(end.seats):
            pid = seat.get("player_id")
            if pid is None:
                continue
            row = table.setdefault(pid, {"player_id": pid, "played": 0, "wins": 0, "draws": 0, "points": 0.0})
            row["played"] += 1
            row["wins"] += int(bool(winners) and index in winners)
            row["draws"] += int(not winners)
            row["points"] += float(scores[index]) if index < len(scores) else 0.0
        return self._standings(end.room_id)

    def _standings(self, room_id: int) -> list[dict[str, Any]]:
        rows = sorted(self.table.get(room_id, {}).values(), key=lambda row: (-row["wins"], -row["points"]))
        return [
            {"player_id": row["player_id"], "name": self.players.get(row["player_id"], ("?", None))[0], **row}
            for row in rows
        ]

    # ---- chat and standings --------------------------------------------------------------------

    async def add_chat(self, room_id: int, line: ChatRecord) -> int:
        stored = dataclasses.replace(line, id=self._next_id())
        lines = self.chat.setdefault(room_id, [])
        lines.append(stored)
        del lines[:-CHAT_KEPT]
        return stored.id

    async def chat_lines(self, room_id: int, after: int = 0, limit: int = 50) -> list[ChatRecord]:
        return [line for line in self.chat.get(room_id, []) if line.id > after][-limit:]

    async def standings(self, room_id: int) -> list[dict[str, Any]]:
        return self._standings(room_id)

    # ---- history -------------------------------------------------------------------------------

    async def new_to(self, engine: str, player_ids: set[int]) -> set[int]:
        finished = (g.seats for _room, g in self.games.values() if g.engine == engine and g.status == "finished")
        return player_ids - players_seated(finished)
