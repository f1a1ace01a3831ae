"""What each Tri-Tac seat sees: the whole board, and during a vote its own ballot only."""

from __future__ import annotations

import functools

from engines.base import JSON, Seat
from engines.tri_tac.options import TriTacOptions
from engines.tri_tac.scoring import can_power
from engines.tri_tac.state import MARKERS, ScoredLine, TriTacState, cells_json, last_move_json


def view(state: TriTacState, seat: Seat | None) -> dict[str, JSON]:
    """The whole board is public. During a vote each player sees its own ballot and only whether the other
    has voted; both ballots are shown (``last_vote``) once both are in."""
    votes: list[dict[str, JSON]] | None = None
    if state.phase == "vote":
        votes = [{"voted": state.votes[s] is not None, "expand": state.votes[s] if s == seat else None} for s in (0, 1)]
    board = state.board
    if True in state.power_used:  # a line breaks only when Power Play replaces one of its markers
        lines = [_line_json(line, any(board[r][c] != line.seat for r, c in line.cells)) for line in state.lines]
    else:
        lines = [_line_json(line, False) for line in state.lines]
    last_vote = state.last_vote
    return {
        "size": state.size,
        "board": [list(row) for row in board],
        "markers": list(MARKERS),
        "special": [[r, c] for r, c in sorted(state.special)],
        "scores": list(state.scores),
        "first": state.first,
        "to_move": state.to_move if state.phase == "turn" else None,
        "phase": state.phase,
        "votes": votes,
        "last_vote": (
            None
            if last_vote is None
            else {"votes": list(last_vote.votes), "expanded": last_vote.expanded, "size": last_vote.size}
        ),
        "power_play": (
            [{"used": state.power_used[s], "available": can_power(state, s)} for s in (0, 1)]
            if state.options.power_play
            else None
        ),
        "combo_ready": (list(state.scored_last_turn) if state.options.combo_strike else None),
        "lines": lines,
        "last_move": None if state.last_move is None else last_move_json(state.last_move),
        "move": state.move,
        "options": dict(_options_json(state.options)),
    }


def same_view_for_all(state: TriTacState) -> bool:
    return state.phase != "vote"  # only a vote's own ballot is private


def _line_json(line: ScoredLine, broken: bool) -> dict[str, JSON]:
    """A scored line, and whether Power Play has replaced one of its markers since."""
    return {
        "seat": line.seat,
        "cells": cells_json(line.cells),
        "points": line.points,
        "move": line.move,
        "direction": line.direction,
        "broken": broken,
    }


@functools.lru_cache(maxsize=256)
def _options_json(options: TriTacOptions) -> dict[str, JSON]:
    """Options are immutable and read by every view: dumped once per distinct options (callers copy the
    dict)."""
    return options.model_dump()
