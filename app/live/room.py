"""A room as one process holds it in memory: the room record, the live game and the sockets."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from app.live.connection import Connection
from app.live.messages import encode
from app.live.records import GameRecord, RoomRecord
from app.live.room_settings import RoomSettings
from engines.base import Engine, Event, Seat
from engines.bots import DEFAULT_LEVEL
from engines.registry import get_engine

LOG_LINES = 60
"""Log entries a full ``state`` message carries (a socket that has the previous version gets only the new ones)."""
CHAT_LINES = 50
"""Chat lines a room keeps for people who join later (and loads from the database)."""


@dataclass
class LiveGame:
    id: int
    number: int
    engine: Engine[Any, Any]
    state: Any
    version: int
    seats: list[dict[str, Any]]
    timer_key: str | None
    deadline: float | None
    since: dict[Seat, int] = field(default_factory=dict)
    """The version at which each seat was last asked to act (the oldest version its action may be based on)."""
    log: list[dict[str, Any]] = field(default_factory=list)
    """The public log entries (``log_entries``), oldest first."""
    _to_act: frozenset[Seat] = field(default=frozenset(), init=False, repr=False, compare=False)
    _to_act_of: Any = field(default=None, init=False, repr=False, compare=False)
    """The state ``_to_act`` was asked for (held, so that it is never mistaken for a newer one)."""

    @property
    def to_act(self) -> frozenset[Seat]:
        """Asked of the engine once per state: a move asks for it six times. States are never changed in
        place (engines are pure), so the same object means the same answer."""
        state = self.state
        if self._to_act_of is not state:
            self._to_act, self._to_act_of = self.engine.to_act(state), state
        return self._to_act

    def outcome_json(self) -> dict[str, Any] | None:
        outcome = self.engine.outcome(self.state)
        return None if outcome is None else outcome.to_json()

    def mark_since(self, before: frozenset[Seat], actor: Seat | None) -> None:
        _advance_since(self.since, before, self.to_act, actor, self.version)

    def state_message(self, seat: Seat | None, events: list[Event]) -> bytes:
        return self.state_messages(events)(seat)

    def log_after(self, version: int) -> list[dict[str, Any]]:
        """The log entries of the moves after ``version`` (the newest are at the end: read from there)."""
        log, start = self.log, len(self.log)
        while start > 0 and log[start - 1]["v"] > version:
            start -= 1
        return log[start:]

    def state_messages(self, events: list[Event], log_since: int | None = None) -> Callable[[Seat | None], bytes]:
        """The ``state`` message for any seat (None: spectators). What every seat sees alike is computed
        once; only the view and the events' redaction are per seat. With ``log_since`` (the version every
        socket already has), the log carries only the entries after it; else the last ``LOG_LINES``."""
        version, now, name = self.version, int(time.time() * 1000), self.engine.name
        to_act = sorted(self.to_act)
        deadline = None if self.deadline is None else int(self.deadline * 1000)
        outcome = self.outcome_json()
        log = self.log[-LOG_LINES:] if log_since is None else self.log_after(log_since)
        view, state = self.engine.view, self.state
        public = view(state, None) if self.engine.same_view_for_all(state) else None
        log_part = {} if log_since is None else {"log_since": log_since}

        def for_seat(seat: Seat | None) -> bytes:
            return encode(
                {
                    "type": "state",
                    "version": version,
                    "now": now,
                    "game": name,
                    "view": view(state, seat) if public is None else public,
                    "to_act": to_act,
                    "deadline": deadline,
                    "outcome": outcome,
                    "events": [e.redact(seat) for e in events],
                    "log": log,
                    **log_part,
                }
            )

        if public is not None and not any(e.private for e in events):
            same = for_seat(None)  # nothing in it differs by seat: one message for everyone
            return lambda _seat: same
        return for_seat

    @classmethod
    def from_record(cls, record: GameRecord, actions: list[tuple[int, int, dict[str, Any], str]]) -> LiveGame:
        """Rebuild from the snapshot and the actions stored after it (engines are deterministic); the game
        log comes from replaying every action from the start."""
        engine = get_engine(record.engine)
        state = engine.load(record.snapshot)
        for version, seat, action, _actor in actions:
            if version > record.snapshot_version:
                state, _ = engine.apply(state, seat, action)
        log: list[dict[str, Any]] = []
        replay = engine.new_game(engine.parse_options(record.options), record.seed)
        # When each waiting seat was asked, as play worked it out: a seat asked before others moved on a
        # simultaneous step may still act on that older version, and a room's turn timer keeps its deadline.
        since: dict[Seat, int] | None = {seat: 0 for seat in engine.to_act(replay)}
        try:
            for version, seat, action, actor in actions:
                before = engine.to_act(replay)
                result = engine.apply(replay, seat, action)
                log.extend(log_entries(engine, replay, seat, action, actor, version, result))
                replay = result[0]
                if since is not None:
                    _advance_since(since, before, engine.to_act(replay), seat, version)
        except Exception:
            log.append({"v": record.version, "key": "log.unreplayable", "params": {}})
            since = None
        game = cls(
            id=record.id,
            number=record.number,
            engine=engine,
            state=state,
            version=record.version,
            seats=record.seats,
            timer_key=record.timer_key,
            deadline=record.deadline,
            log=log,
        )
        replayed_to = actions[-1][0] if actions else 0
        if since is None or replayed_to != record.version or set(since) != game.to_act:  # not the stored state
            since = {seat: record.version for seat in game.to_act}
        game.since = since
        return game


def _advance_since(
    since: dict[Seat, int], before: frozenset[Seat], after: frozenset[Seat], actor: Seat | None, version: int
) -> None:
    """After the action that made ``version``: a seat newly asked, or asked again after acting itself, was
    asked at ``version``; a seat still waiting keeps its older version; a seat no longer asked is dropped."""
    for seat in after:
        if seat not in before or seat == actor:
            since[seat] = version
    for seat in list(since):
        if seat not in after:
            del since[seat]


def bot_name(seat: Seat) -> str:
    """Bots are told apart by their seat ("Bot 3")."""
    return f"Bot {seat + 1}"


def log_entries(
    engine: Engine[Any, Any],
    state: Any,
    seat: Seat,
    action: dict[str, Any],
    actor: str,
    version: int,
    result: tuple[Any, list[Event]],
) -> list[dict[str, Any]]:
    """The log entries of the action that made ``version``, as the protocol carries them: the engine's
    key and params, the version, and who acted when it was not the seat's player (``timer``, ``pace``,
    ``standin``, ``host``, ``bot``). Never a name: each reader's page names the seats in its own language.

    ``state`` is the state before the action; ``result`` what ``engine.apply`` returned for it."""
    if actor == "timer" and engine.timer_paces(state):
        actor = "pace"  # the show's own pace (Tic Tac Top's reveal): nobody's time ran out
    note = {} if actor == "player" else {"actor": actor}
    return [{"v": version, **entry.to_json(), **note} for entry in engine.log_entries(state, seat, action, result)]


class LiveRoom:
    def __init__(self, record: RoomRecord, names: dict[int, str]) -> None:
        self.record = record
        self.names = names
        self.game: LiveGame | None = None
        self.connections: set[Connection] = set()
        self.lock = asyncio.Lock()
        self.timer_task: asyncio.Task[None] | None = None
        self.bot_task: asyncio.Task[None] | None = None
        self.bot_version: int | None = None
        """The game version ``bot_task`` was armed at."""
        self.standings: list[dict[str, Any]] = []
        self.remote_presence: dict[str, set[int]] = {}
        """Players connected through other app processes, by process id (fed by the bus)."""
        self.joined_at: dict[int, float] = {}
        """When each player first connected (host handover goes to the longest-present player)."""
        self.away_since: dict[int, float] = {}
        self.host_task: asyncio.Task[None] | None = None
        self.closing: set[asyncio.Task[None]] = set()
        self.chat: deque[tuple[int, int | None, bytes]] = deque(maxlen=CHAT_LINES)
        """Recent chat lines as sent, with their ids and the team that may read each (None: everyone)."""
        self.chat_read_to = 0
        """The newest chat line id read from the database: other processes' lines come after it."""
        self._settings_of: dict[str, Any] | None = None
        self._settings = RoomSettings()
        self.idle_since: float | None = time.monotonic()
        """When the last socket left (monotonic clock); None while any is connected."""
        self.unloaded = False
        """Set when the hub lets go of the room: whoever still holds this object must load it again."""

    def idle_for(self, now: float, seconds: float) -> bool:
        """Nobody connected for ``seconds`` and nothing pending that needs this process to hold the room."""
        tasks = (self.timer_task, self.bot_task, self.host_task, *self.closing)
        return (
            not self.connections
            and self.idle_since is not None
            and now - self.idle_since >= seconds
            and all(task is None or task.done() for task in tasks)
        )

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
        if self.game is None or self.record.status != "playing":
            return False
        info = self.game.seats[seat]
        pid = info.get("player_id")
        if info.get("bot") or pid is None or pid in self.connected_players():
            return False
        since = self.away_since.get(pid)
        return since is not None and (now or time.time()) - since >= self.settings.grace_seconds

    @property
    def code(self) -> str:
        return self.record.code

    @property
    def engine(self) -> Engine[Any, Any]:
        return get_engine(self.record.game)

    def local_players(self) -> set[int]:
        return {c.player_id for c in self.connections}

    def connected_players(self) -> set[int]:
        players = self.local_players()
        for ids in self.remote_presence.values():
            players |= ids
        return players

    def seats_by_player(self) -> dict[int, Seat]:
        """The seat each seated person holds in the current game (or in the lobby when no game runs); the
        first, if one holds several. Bots hold no person's seat."""
        if self.game is not None and self.record.status == "playing":
            game_seats = self.game.seats
            pairs = [(seat.get("player_id"), index) for index, seat in enumerate(game_seats) if not seat.get("bot")]
        else:
            pairs = [(rec.player_id, index) for index, rec in enumerate(self.record.seats) if not rec.is_bot]
        found: dict[int, Seat] = {}
        for player_id, index in pairs:
            if player_id is not None:
                found.setdefault(player_id, index)
        return found

    def seat_of(self, player_id: int) -> Seat | None:
        return self.seats_by_player().get(player_id)

    def seat_of_socket(self, conn: Connection) -> Seat | None:
        """The seat a socket sees and plays as: its player's, except on a shared screen (``watching``)."""
        return None if conn.watching else self.seat_of(conn.player_id)

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
                }
            seats.append({**info.to_json(index), "player": player})
        seated = {rec.player_id for rec in self.record.seats if rec.player_id is not None}
        spectators = [
            {"id": pid, "name": self.names.get(pid, "?"), "connected": True} for pid in sorted(connected - seated)
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
