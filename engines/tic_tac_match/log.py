"""Tic Tac Match's log: the play and what followed it, told from the public side of its events."""

from __future__ import annotations

from collections.abc import Mapping

from engines.base import JSON, Event, LogEntry


def log_entries(events: list[Event]) -> list[LogEntry]:
    """The play and what followed it (a redraw, a reshuffle, a match won, the next deal), from the public
    side of its events; draws are not news."""
    entries: list[LogEntry] = []
    for event in events:
        data = event.public
        kind = event.kind
        card = _face(data.get("card"))
        if kind == "play":
            params: dict[str, JSON] = {"seat": data["seat"], "card": card, "cell": data["cell"]}
            if int(data["height"]) > 1:
                entries.append(LogEntry("tic-tac-match.log.stacked", {**params, "height": data["height"]}))
            else:
                entries.append(LogEntry("tic-tac-match.log.played", params))
        elif kind == "flip":
            entries.append(LogEntry("tic-tac-match.log.flipped", {"seat": data["seat"]}))
        elif kind == "wipeout":
            entries.append(
                LogEntry("tic-tac-match.log.wiped_out", {"seat": data["seat"], "target_seat": data["target"]})
            )
        elif kind == "double":
            entries.append(LogEntry("tic-tac-match.log.double", {"seat": data["seat"]}))
        elif kind == "discard":
            entries.append(LogEntry("tic-tac-match.log.discarded", {"seat": data["seat"], "card": card}))
        elif kind == "forfeit":
            key = "tic-tac-match.log.no_second_play" if data["automatic"] else "tic-tac-match.log.forfeited"
            entries.append(LogEntry(key, {"seat": data["seat"]}))
        elif kind == "reshuffle":
            params = {"discards": data["from_discard"], "grid_cards": data["from_grid"]}
            entries.append(LogEntry("tic-tac-match.log.reshuffled", params))
        elif kind == "stuck":
            entries.append(LogEntry("tic-tac-match.log.redrew", {"seat": data["seat"], "redraw": data["redraw"]}))
        elif kind == "pass":
            entries.append(LogEntry("tic-tac-match.log.passed", {"seat": data["seat"]}))
        elif kind == "match_won":
            seats = list(data["seats"])
            params = {"seats": seats, "count": len(seats), "card": _last_card(data), "match": data["match"]}
            entries.append(LogEntry("tic-tac-match.log.match_won", params))
        elif kind == "match_start" and int(data["match"]) > 1:
            params = {"match": data["match"], "seat": data["dealer"], "card": _face(data["centre"])}
            entries.append(LogEntry("tic-tac-match.log.dealt", params))
    return entries


def _face(card: JSON) -> JSON:
    """A visible card of an event as the log names it: its face, without its id."""
    return {key: value for key, value in card.items() if key != "id"} if isinstance(card, dict) else None


def _last_card(result: Mapping[str, JSON]) -> dict[str, JSON]:
    """The symbol card that made a match's line (its colour and symbol)."""
    return {"kind": "symbol", "colour": result["colour"], "symbol": result["symbol"]}
