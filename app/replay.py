"""Replays: any finished game re-runs exactly from its options, seed and action log (engines are pure)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import orjson

from app.live.game import log_entries
from engines.base import JSON, Engine, EngineError, IllegalAction, Seat
from engines.registry import get_engine


class ReplayError(ValueError):
    """The export does not replay: unknown game, bad options, or an action the rules refuse. ``step`` is the
    refused action's number (from 1), ``reason`` why as ``{"key", "params"}`` for the reader's page (the
    engine's own reason for a refused move); ``str(err)`` is an English note for developers."""

    def __init__(self, message: str, key: str, step: int | None = None, reason: dict[str, JSON] | None = None):
        super().__init__(message)
        self.step = step
        self.reason: dict[str, JSON] = reason if reason is not None else {"key": key, "params": {}}


@dataclass
class Replay:
    engine: Engine[Any, Any, Any]
    states: list[Any]
    """The state before the first action, then after each action."""
    log: list[list[dict[str, JSON]]]
    """Each action's log entries (app.live.game.log_entries), one list per action."""

    def view(self, step: int, seat: Seat | None, reveal: bool) -> dict[str, JSON]:
        state = self.states[step]
        if reveal:
            return {"full": self.engine.dump(state)}
        return self.engine.view(state, seat)

    def log_until(self, step: int) -> list[dict[str, JSON]]:
        """The log entries of the first ``step`` actions, in order."""
        return [entry for entries in self.log[:step] for entry in entries]

    @property
    def final(self) -> Any:
        return self.states[-1]

    def fingerprint(self) -> str:
        return hashlib.sha256(orjson.dumps(self.engine.dump(self.final), option=orjson.OPT_SORT_KEYS)).hexdigest()


def replay(engine_name: str, options: dict[str, Any], seed: int, actions: list[dict[str, Any]]) -> Replay:
    try:
        engine = get_engine(engine_name)
        state = engine.new_game(engine.parse_options(options), seed)
    except EngineError as err:
        raise ReplayError(str(err), "import.bad_game") from None
    states: list[Any] = [state]
    log: list[list[dict[str, JSON]]] = []
    for index, entry in enumerate(actions):
        seat, action = entry.get("seat"), entry.get("action")
        if not isinstance(seat, int) or not isinstance(action, dict):
            raise ReplayError(
                f"action {index + 1}: needs an integer seat and an action object", "import.bad_action", index + 1
            )
        if not 0 <= seat < len(engine.seats_of(state)):
            raise ReplayError(f"action {index + 1}: {engine.title} has no seat {seat}", "action.no_seat", index + 1)
        actor = entry.get("actor")
        try:
            typed = engine.parse_action(action)
            result = engine.apply(state, seat, typed)
        except IllegalAction as err:
            raise ReplayError(f"action {index + 1} is refused: {err}", err.code, index + 1, err.reason()) from None
        except EngineError as err:
            raise ReplayError(f"action {index + 1} is refused: {err}", "import.bad_action", index + 1) from None
        log.append(
            log_entries(engine, state, seat, typed, actor if isinstance(actor, str) else "player", index + 1, result)
        )
        state = result[0]
        states.append(state)
    return Replay(engine, states, log)
