"""How Tri-Tac scores: the runs a marker makes through a cell, their points, and who may Power Play."""

from __future__ import annotations

from engines.base import Seat
from engines.tri_tac.state import DIRECTIONS, Cell, Run, TriTacState

POWER_PLAY_THRESHOLD = 5


def special_count(cells: int) -> int:
    """Special squares among ``cells``: round-half-up(cells / 10), at least 1."""
    return max(1, (cells + 5) // 10)


def runs_through(state: TriTacState, seat: Seat, cell: Cell) -> list[Run]:
    """For a marker of ``seat`` at ``cell``: each run of length >= 3 as (direction, cells, is_new, value).

    A run is the maximal line of ``seat``'s markers through ``cell`` in one direction, ``cell`` itself
    counting as ``seat``'s whatever it holds; its cells are in order along the direction. Runs are measured
    first and listed only when long enough (most are not)."""
    board, size = state.board, state.size
    r0, c0 = cell
    found: list[Run] = []
    for d, (dr, dc) in enumerate(DIRECTIONS):
        back = 0
        r, c = r0 - dr, c0 - dc
        while 0 <= r < size and 0 <= c < size and board[r][c] == seat:
            back += 1
            r, c = r - dr, c - dc
        ahead = 0
        r, c = r0 + dr, c0 + dc
        while 0 <= r < size and 0 <= c < size and board[r][c] == seat:
            ahead += 1
            r, c = r + dr, c + dc
        if back + ahead < 2:
            continue
        run = [(r0 + k * dr, c0 + k * dc) for k in range(-back, ahead + 1)]
        done = state.scored[seat][d]
        is_new = not any(c in done for c in run)
        value = 2 if any(c in state.special for c in run) else 1
        found.append((d, run, is_new, value))
    return found


def gain(state: TriTacState, seat: Seat, cell: Cell) -> int:
    """Points ``seat`` would score with a marker at ``cell`` now (Combo Strike included)."""
    values = [value for _d, _run_cells, is_new, value in runs_through(state, seat, cell) if is_new]
    if not values:
        return 0
    points = sum(values) + len(values) - 1
    if state.options.combo_strike and state.scored_last_turn[seat]:
        points += 1
    return points


def can_power(state: TriTacState, seat: Seat) -> bool:
    """Whether ``seat`` may use Power Play now (on its turn) or could on its turn (score and usage)."""
    return state.options.power_play and not state.power_used[seat] and state.scores[seat] >= POWER_PLAY_THRESHOLD
