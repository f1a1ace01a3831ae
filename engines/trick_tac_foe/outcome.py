"""The result of a finished game: most points wins, equal is a draw."""

from __future__ import annotations

from engines.base import LogEntry, Outcome, Seat, ranks_from_scores
from engines.trick_tac_foe.seats import team_of
from engines.trick_tac_foe.state import TrickTacFoeState


def outcome_of(state: TrickTacFoeState) -> Outcome | None:
    """The result once the game is over, else None."""
    if state.phase != "over":
        return None
    n = state.players
    red, black = state.scores
    per_seat = [float(state.scores[team_of(n, s)]) for s in range(n)]
    if red == black:
        winners: list[Seat] = []
        summary = LogEntry("trick-tac-foe.result.draw", {"points": red})
    else:
        team = 0 if red > black else 1
        winners = [s for s in range(n) if team_of(n, s) == team]
        score = {"points": max(red, black), "other_points": min(red, black)}
        if n == 2:
            summary = LogEntry("trick-tac-foe.result.won", {"seat": winners[0], "team": team, **score})
        else:
            summary = LogEntry("trick-tac-foe.result.team_won", {"team": team, "seats": winners, **score})
    return Outcome(scores=per_seat, winners=winners, ranks=ranks_from_scores(per_seat), summary=summary)
