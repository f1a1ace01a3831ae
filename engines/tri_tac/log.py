"""Tri-Tac's log: one entry a move, told from the move's events."""

from __future__ import annotations

from engines.base import JSON, Event, LogEntry, Seat


def log_entries(seat: Seat, events: list[Event]) -> list[LogEntry]:
    """The placement (with what it scored), the pass, the vote (with the vote's result once both are in)."""
    by_kind = {event.kind: event for event in events}
    if "pass" in by_kind:
        return [LogEntry("tri-tac.log.passed", {"seat": seat})]
    if "vote" in by_kind:
        if "expanded" in by_kind:
            return [LogEntry("tri-tac.log.voted_grow", {"seat": seat, "size": by_kind["expanded"].public["size"]})]
        if "vote_result" in by_kind:
            return [LogEntry("tri-tac.log.voted_end", {"seat": seat})]
        return [LogEntry("tri-tac.log.voted", {"seat": seat})]
    mark = by_kind.get("power") or by_kind["placed"]
    power = mark.kind == "power"
    params: dict[str, JSON] = {"seat": seat, "cell": mark.public["cell"]}
    scored = by_kind.get("lines")
    if scored is None:
        return [LogEntry("tri-tac.log.power" if power else "tri-tac.log.placed", params)]
    params |= {"points": scored.public["points"], "lines": len(scored.public["lines"])}
    return [LogEntry("tri-tac.log.power_scored" if power else "tri-tac.log.placed_scored", params)]
