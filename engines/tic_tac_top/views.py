"""What each seat sees of a Tic Tac Top game (the rules' module docstring: "Who sees what")."""

from __future__ import annotations

from collections.abc import Sequence

from engines.base import JSON, Outcome, Seat, Timer, ranks_from_scores
from engines.tic_tac_top.grid import CELLS, grid_lines, grid_marks
from engines.tic_tac_top.options import QUICK_TARGET
from engines.tic_tac_top.scoring import RANK_SIZE
from engines.tic_tac_top.state import TicTacTopState


def grid_progress(grid: Sequence[str | None], announced: Sequence[str]) -> dict[str, JSON]:
    """A grid as everyone sees it during the reveal."""
    marks = grid_marks(grid, announced)
    lines = grid_lines(marks)
    return {
        "words": list(grid),
        "marks": marks,
        "lines": [{"cells": list(cells), "word": k} for k, cells in lines],
        "line_count": len(lines),
        "first_line": lines[0][0] if lines else None,
    }


def seat_view(
    game: str, state: TicTacTopState, seat: Seat | None, timer: Timer | None, outcome: Outcome | None
) -> dict[str, JSON]:
    """What ``seat`` may know; ``None`` is the shared screen. ``timer`` and ``outcome`` are the rules' own."""
    n = state.players
    leader = state.leader
    is_leader = seat == leader
    role = "spectator" if seat is None else "leader" if is_leader else "player"
    revealed = state.phase in ("reveal", "score", "over")
    announced = list(state.ranking[: state.announced]) if revealed else []
    offered: JSON = None
    if state.phase == "choose":
        offered = [t.to_json() if is_leader else {"name": t.name} for t in state.offers[state.turn - 1]]
    if is_leader and state.phase != "choose":
        ranking: JSON = list(state.ranking) or None
    elif revealed and state.announced == RANK_SIZE:
        ranking = list(state.ranking)
    else:
        ranking = None
    grids: JSON = None
    first_line: JSON = None
    if revealed:
        grids = [None if s == leader else grid_progress(state.grids[s], announced) for s in range(n)]
        firsts: dict[Seat, int] = {}
        for s in range(n):
            found = grid_lines(grid_marks(state.grids[s], announced)) if s != leader else []
            if found:
                firsts[s] = found[0][0]
        if firsts:
            k = min(firsts.values())
            first_line = {
                "index": k,
                "word": announced[k - 1],
                "seats": [s for s, f in firsts.items() if f == k],
            }
    own_grid: JSON = None
    if seat is not None and not is_leader and state.phase != "choose":
        own_grid = list(state.grids[seat])
    ranks = ranks_from_scores([float(x) for x in state.scores])
    return {
        "game": game,
        "phase": state.phase,
        "turn": state.turn,
        "turns": n,
        "players": n,
        "leader": leader,
        "you": seat,
        "role": role,
        "language": state.options.language,
        "hard_timer": state.options.hard_timer,
        "quick_game": state.options.quick_game,
        "target": QUICK_TARGET if state.options.quick_game else None,
        "offered": offered,
        "theme": state.theme.to_json() if state.theme is not None and state.phase != "choose" else None,
        "draft": list(state.draft) if is_leader and state.phase == "write" else None,
        "ranking": ranking,
        "ranked": bool(state.ranking) if state.phase != "choose" else False,
        "countdown": state.phase == "write" and bool(state.ranking),
        "grid": own_grid,
        "writers": [
            {
                "seat": s,
                "filled": CELLS - state.grids[s].count(None),
                "finished": state.finished[s] is not None or revealed,
                "how": state.finished[s],
            }
            for s in range(n)
            if s != leader
        ]
        if state.phase != "choose"
        else [],
        "announced": announced,
        "grids": grids,
        "first_line": first_line,
        "scoring": state.history[-1].scoring.to_json() if state.phase in ("score", "over") and state.history else None,
        "scores": list(state.scores),
        "standings": sorted(
            ({"seat": s, "score": state.scores[s], "rank": ranks[s]} for s in range(n)),
            key=lambda row: (int(row["rank"]), int(row["seat"])),
        ),
        "history": [
            {"turn": h.turn, "leader": h.leader, "theme": h.theme, "ranking": list(h.ranking)}
            | {"points": list(h.scoring.points)}
            for h in state.history
        ],
        "timer": {"key": timer.key, "seconds": timer.seconds} if timer is not None else None,
        "winners": outcome.winners if outcome is not None else None,
    }
