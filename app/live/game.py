"""A game as a room holds it in memory, and the one way it moves on: ``LiveGame.play``.

Every action takes that path: a player's, a bot's or a timer's through the room's ``apply`` (which stores
it and tells the sockets), and every stored action again when a game is loaded, which is one replay of the
game from its seed (engines are pure and deterministic).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from app.live.messages import encode
from app.live.records import GameRecord
from engines.base import Action, Engine, Event, Seat
from engines.registry import get_engine

LOG_LINES = 60
"""Log entries a full ``state`` message carries (a socket that has the previous version gets only the new ones)."""

StoredAction = tuple[int, Seat, dict[str, Any], str]
"""An action as stored: the version it made, the seat, the action's JSON and who acted (``log_entries``)."""


class Played(NamedTuple):
    """What one action did, and what the game was before it (to undo it if it cannot be stored). A named
    tuple: it is made on every move, and a dataclass' ``__init__`` costs more."""

    events: list[Event]
    entries: list[dict[str, Any]]
    """The action's log entries; the caller adds them to the game's log once the action counts."""
    before: tuple[Any, int, str | None, float | None, dict[Seat, int]]
    """The state, version, timer key, deadline and ``since`` before the action."""


@dataclass
class LiveGame:
    id: int
    number: int
    engine: Engine[Any, Any, Any]
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

    def play(self, seat: Seat, action: Action, actor: str) -> Played:
        """Apply one action (IllegalAction, and nothing changed, if the rules refuse it): the next version,
        and when each seat was asked. The timer is the room's to set, the log the caller's to extend."""
        engine, state = self.engine, self.state
        result = engine.apply(state, seat, action)
        version = self.version + 1
        played = Played(
            result[1],
            log_entries(engine, state, seat, action, actor, version, result),
            (state, self.version, self.timer_key, self.deadline, dict(self.since)),
        )
        before = self.to_act
        self.state, self.version = result[0], version
        self.mark_since(before, seat)
        return played

    def undo(self, played: Played) -> None:
        """Back to before ``played``: it was not stored, so it did not happen."""
        self.state, self.version, self.timer_key, self.deadline, self.since = played.before

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
    def new(
        cls,
        engine: Engine[Any, Any, Any],
        options: Any,
        seed: int,
        game_id: int,
        number: int,
        seats: list[dict[str, Any]],
    ) -> LiveGame:
        """The game at version 0, every seat to act asked at it."""
        game = cls(game_id, number, engine, engine.new_game(options, seed), 0, seats, None, None)
        game.mark_since(frozenset(), None)
        return game

    @classmethod
    def from_record(cls, record: GameRecord, actions: list[StoredAction]) -> LiveGame:
        """The stored game, replayed from its seed through ``play``: its state, its log and when each waiting
        seat was asked, as play worked them out (a seat asked before others moved on a simultaneous step
        may still act on that older version, and a room's turn timer keeps its deadline). The timer is the
        stored one (the writer's clock). Where the actions no longer replay (the rules changed since), the
        state is the stored snapshot and the actions after it, and the log says it stops there."""
        engine = get_engine(record.engine)
        options = engine.parse_options(record.options)
        game = cls.new(engine, options, record.seed, record.id, record.number, record.seats)
        try:
            for version, seat, action, actor in actions:
                game.log.extend(game.play(seat, engine.parse_action(action), actor).entries)
                if game.version != version:
                    raise ValueError(f"game {record.id}: action {version} stored as version {game.version}")
        except Exception:
            game.log.append({"v": record.version, "key": "log.unreplayable", "params": {}})
            game._from_snapshot(record, actions)
        else:
            if game.version != record.version:  # not the stored game: its own snapshot is
                game._from_snapshot(record, actions)
        game.timer_key, game.deadline = record.timer_key, record.deadline
        return game

    def _from_snapshot(self, record: GameRecord, actions: list[StoredAction]) -> None:
        state = self.engine.load(record.snapshot)
        for version, seat, action, _actor in actions:
            if version > record.snapshot_version:
                state, _ = self.engine.apply(state, seat, self.engine.parse_action(action))
        self.state, self.version = state, record.version
        self.since = {seat: record.version for seat in self.to_act}


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


def log_entries(
    engine: Engine[Any, Any, Any],
    state: Any,
    seat: Seat,
    action: Action,
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
