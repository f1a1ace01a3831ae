"""Tricky Tactics' public log: a move and everything that followed it on its own, read off its events."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engines.base import JSON, Event, LogEntry
from engines.tricky_tactics.state import AUTOMA, State


def log_entries(state: State, events: Sequence[Event], result: Sequence[LogEntry]) -> list[LogEntry]:
    """The entries of a move made in ``state`` that raised ``events``: the automa's plays and Actions with
    their reasons, tricks won, skipped Actions, rounds scored and, at the end, ``result``."""
    entries: list[LogEntry] = []
    led = bool(state.trick)
    for event in events:
        data = event.public
        kind = event.kind
        if kind == "play" and data["player"] == AUTOMA:
            params = {"card": data["card"], "reason": data["reason"]}
            entries.append(LogEntry("tricky-tactics.log.automa_played", params))
        elif kind == "play":
            key = "tricky-tactics.log.played" if led else "tricky-tactics.log.led"
            entries.append(LogEntry(key, {"seat": data["player"], "card": data["card"]}))
        elif kind == "reveal":
            entries.append(LogEntry("tricky-tactics.log.automa_revealed", {"cards": data["cards"]}))
        elif kind == "trick":
            led = False  # the winner leads the next trick
            entries.append(LogEntry("tricky-tactics.log.trick_won", {"seat": data["winner"], "card": data["card"]}))
        elif kind == "action":
            entries.append(_action_entry(data))
        elif kind == "round_scored":
            entries.append(LogEntry("tricky-tactics.log.round_scored", {"round": data["round"]}))
        elif kind == "game_over":
            entries.extend(result)
    return entries


def _action_entry(data: Mapping[str, JSON]) -> LogEntry:
    if data["player"] == AUTOMA:
        return LogEntry("tricky-tactics.log.automa_action", {"reason": data["reason"]})
    if data["type"] == "skip":
        return LogEntry("tricky-tactics.log.skipped", {"seat": data["player"], "reason": data["reason"]})
    if data["type"] == "add":
        return LogEntry("tricky-tactics.log.added", {"seat": data["player"], "location": data["location"]})
    params = {"seat": data["player"], "location": data["location"], "owner_seat": data["owner"]}
    return LogEntry("tricky-tactics.log.removed", params)
