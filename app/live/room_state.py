"""A room as one process holds it in memory: the room record, its game, its people and what they see of it.

Plain state and the questions asked of it (who sits where, who is connected, the room's summary); the lobby's
rules (app.live.lobby) and chat (app.live.chat) change it, and ``app.live.room.Room`` adds what a served room
does (its lock, moves and fan-out; its timer and bots in app.live.timer and app.live.bot_turns).
"""

from __future__ import annotations

import time
from collections import deque
from typing import Any

from app.live.connection import Connection
from app.live.game import LiveGame
from app.live.records import RoomRecord
from app.live.room_settings import RoomSettings
from engines.base import Engine, Seat
from engines.levels import DEFAULT_LEVEL
from engines.registry import get_engine

CHAT_LINES = 50
"""Chat lines a room keeps for people who join later (and loads from the database)."""


def bot_name(seat: Seat) -> str:
    """Bots are told apart by their seat ("Bot 3")."""
    return f"Bot {seat + 1}"


class LiveRoom:
    def __init__(self, record: RoomRecord, names: dict[int, str]) -> None:
        self.record = record
        self.names = names
        self.game: LiveGame | None = None
        self.connections: set[Connection] = set()
        self.standings: list[dict[str, Any]] = []
        self.remote_presence: dict[str, set[int]] = {}
        """Players connected through other app processes, by process id (fed by the bus)."""
        self.joined_at: dict[int, float] = {}
        """When each player first connected (host handover goes to the longest-present player)."""
        self.away_since: dict[int, float] = {}
        self.chat: deque[tuple[int, int | None, bytes]] = deque(maxlen=CHAT_LINES)
        """Recent chat lines as sent, with their ids and the team that may read each (None: everyone)."""
        self.chat_read_to = 0
        """The newest chat line id read from the database: other processes' lines come after it."""
        self.coached: frozenset[int] = frozenset()
        """The players seated in the game who had finished no game of its kind when it started: their
        ``welcome`` says ``coach: true``, the coach's default for a first game (app.live.room ``find_coached``)."""
        self.learning: dict[int, tuple[int, int]] = {}
        """Who is going through the chosen game's lesson while the room waits: step and number of steps, by
        player. Presence, like ``connections``: held here only, never stored (app.live.lobby.learn)."""
        self._settings_of: dict[str, Any] | None = None
        self._settings = RoomSettings()

    @property
    def settings(self) -> RoomSettings:
        """The host's settings, validated once per change (every move's timer reads them). Read-only: a
        change assigns a new dict to ``record.settings`` (app.live.lobby)."""
        raw = self.record.settings
        if self._settings_of is not raw:
            self._settings, self._settings_of = RoomSettings.model_validate(raw), raw
        return self._settings

    def team_of_seat(self, seat: Seat | None) -> int | None:
        if seat is None:
            return None
        infos = self.engine.seats(self.engine.parse_options(self.record.options))
        return infos[seat].team if seat < len(infos) else None

    def standing_in(self, seat: Seat, now: float | None = None) -> bool:
        """A bot plays for a seated person who has been away longer than the grace period."""
        since = self._left_at(seat)
        return since is not None and (now or time.time()) - since >= self.settings.grace_seconds

    def stand_in_from(self, seat: Seat) -> float | None:
        """When (``time.time()``) a bot starts standing in for the seated person, if they are away."""
        since = self._left_at(seat)
        return None if since is None else since + self.settings.grace_seconds

    def _left_at(self, seat: Seat) -> float | None:
        """When the person in ``seat`` of the game being played left (None: a bot's seat, or they are here)."""
        if self.game is None or self.record.status != "playing":
            return None
        info = self.game.seats[seat]
        pid = info.get("player_id")
        if info.get("bot") or pid is None or self.is_connected(pid):
            return None
        return self.away_since.get(pid)

    @property
    def code(self) -> str:
        return self.record.code

    @property
    def engine(self) -> Engine[Any, Any, Any]:
        return get_engine(self.record.game)

    def local_players(self) -> set[int]:
        """The people connected here. A shared screen (``Connection.watching``) is nobody's presence: a seated
        player whose only socket is the TV is away (a stand-in takes their seat after the grace period)."""
        return {c.player_id for c in self.connections if not c.watching}

    def connected_players(self) -> set[int]:
        players = self.local_players()
        for ids in self.remote_presence.values():
            players |= ids
        return players

    def is_connected(self, player_id: int) -> bool:
        """``player_id in connected_players()``, without building the set (asked at every move)."""
        return any(c.player_id == player_id and not c.watching for c in self.connections) or any(
            player_id in ids for ids in self.remote_presence.values()
        )

    def host_here(self) -> bool:
        """The host keeps the role: they are connected, or, holding no seat, they run the room from a shared
        screen (a party host's TV is their place in the room). A seated host's TV alone does not keep it."""
        host = self.record.host_id
        if host in self.connected_players():
            return True
        return self.seat_of(host) is None and any(c.watching and c.player_id == host for c in self.connections)

    def seats_by_player(self) -> dict[int, Seat]:
        """The seat each seated person holds in the current game (or in the lobby when no game runs); the
        first, if one holds several. Bots hold no person's seat."""
        found: dict[int, Seat] = {}
        if self.game is not None and self.record.status == "playing":
            for index, info in enumerate(self.game.seats):
                player_id = info.get("player_id")
                if player_id is not None and not info.get("bot"):
                    found.setdefault(player_id, index)
        else:
            for index, rec in enumerate(self.record.seats):
                if rec.player_id is not None and not rec.is_bot:
                    found.setdefault(rec.player_id, index)
        return found

    def seat_of(self, player_id: int) -> Seat | None:
        return self.seats_by_player().get(player_id)

    def seat_of_socket(self, conn: Connection) -> Seat | None:
        """The seat a socket sees and plays as: its player's, except on a shared screen (``watching``)."""
        return None if conn.watching else self.seat_of(conn.player_id)

    def learning_of(self, player_id: int | None) -> dict[str, int] | None:
        """How far the player is in the lesson (``{"step", "of"}``), shown on their seat while the room waits."""
        found = None if player_id is None or self.record.status == "playing" else self.learning.get(player_id)
        return None if found is None else {"step": found[0], "of": found[1]}

    def rematch_accepted(self) -> list[int]:
        """The seated players who accepted a rematch of the finished game (empty while none is due)."""
        settings = self.settings
        if self.record.status != "finished" or self.game is None or settings.rematch_after != self.game.id:
            return []
        return list(settings.rematch)

    def summary(self, base_url: str) -> dict[str, Any]:
        engine = self.engine
        options = engine.parse_options(self.record.options)
        infos = engine.seats(options)
        connected = self.connected_players()
        seats = []
        for index, info in enumerate(infos):
            rec = self.record.seats[index] if index < len(self.record.seats) else None
            player = None
            if rec is not None and (rec.player_id is not None or rec.is_bot):
                player = {
                    "id": rec.player_id,
                    "name": self.names.get(rec.player_id, "?") if rec.player_id is not None else bot_name(index),
                    "connected": rec.is_bot or rec.player_id in connected,
                    "bot": rec.is_bot,
                    "level": (rec.level or DEFAULT_LEVEL) if rec.is_bot else None,
                    "standin": self.standing_in(index),
                    "learning": self.learning_of(rec.player_id),
                }
            seats.append({**info.to_json(index), "player": player})
        seated = {rec.player_id for rec in self.record.seats if rec.player_id is not None}
        spectators = [
            {"id": pid, "name": self.names.get(pid, "?"), "connected": True, "learning": self.learning_of(pid)}
            for pid in sorted(connected - seated)
        ]
        return {
            "code": self.code,
            "url": f"{base_url}/r/{self.code}",
            "game": engine.name,
            "title": engine.title,
            "options": options.model_dump(mode="json"),
            "status": self.record.status,
            "host": self.record.host_id,
            "game_number": 0 if self.game is None else self.game.number,
            "game_id": None if self.game is None else self.game.id,
            "seats": seats,
            "spectators": spectators,
            "standings": self.standings,
            "settings": self.settings.model_dump(exclude={"banned", "rematch", "rematch_after"}),
            "rematch": self.rematch_accepted(),
            "removed": [{"id": pid, "name": self.names.get(pid, "?")} for pid in self.settings.banned],
            "host_actions": sorted(engine.host_actions),
        }
