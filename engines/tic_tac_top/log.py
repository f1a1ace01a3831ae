"""Tic Tac Top's public log entries, told from the public side of an action's events."""

from __future__ import annotations

from collections.abc import Iterable

from engines.base import JSON, Event, LogEntry

_SIMPLE = {"wrote": "tic-tac-top.log.wrote", "erased": "tic-tac-top.log.erased"}
"""Events that log only who did them."""


def log_entries(events: Iterable[Event], result: list[LogEntry]) -> list[LogEntry]:
    """The entries of ``events`` (never a secret word, never a grid); ``result`` is told at the game's end."""
    entries: list[LogEntry] = []
    for event in events:
        data = event.public
        kind = event.kind
        if kind == "theme_chosen":
            theme = data["theme"]
            name = theme.get("name") if isinstance(theme, dict) else None
            entries.append(LogEntry("tic-tac-top.log.theme_chosen", {"seat": data["leader"], "theme": name}))
        elif kind == "leader_drafting":
            entries.append(LogEntry("tic-tac-top.log.ranking", {"seat": data["seat"]}))
        elif kind == "ranked":
            key = "tic-tac-top.log.ranked_countdown" if data["countdown"] else "tic-tac-top.log.ranked"
            entries.append(LogEntry(key, {"seat": data["seat"]}))
        elif kind in _SIMPLE:
            entries.append(LogEntry(_SIMPLE[kind], {"seat": data["seat"]}))
        elif kind == "finished":
            key = "tic-tac-top.log.finished" if data["how"] == "done" else "tic-tac-top.log.locked"
            entries.append(LogEntry(key, {"seat": data["seat"]}))
        elif kind == "announce":
            params: dict[str, JSON] = {"word_number": data["index"], "word": data["word"]}
            entries.append(LogEntry("tic-tac-top.log.announced", params))
            first = data.get("first_line")
            if isinstance(first, dict):
                seats = first["seats"]
                entries.append(LogEntry("tic-tac-top.log.first_line", {"seats": seats, "count": len(seats)}))
        elif kind == "turn_scored":
            entries.append(LogEntry("tic-tac-top.log.turn_scored", {"turn": data["turn"]}))
        elif kind == "turn_start":
            entries.append(LogEntry("tic-tac-top.log.turn_starts", {"turn": data["turn"], "seat": data["leader"]}))
        elif kind == "game_over":
            entries.extend(result)
    return entries
