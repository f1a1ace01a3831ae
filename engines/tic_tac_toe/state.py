"""Tic-Tac-Toe's state: the nine cells, whose turn it is and the last move, as one frozen value."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from pydantic import Field

from engines.base import GRID_LINES, FrozenState, Seat
from engines.tic_tac_toe.options import TicTacToeOptions

CELLS = 9
MARKERS = ("X", "O")
"""Seat 0 plays X and moves first, seat 1 plays O."""

Board = Annotated[tuple[Seat | None, ...], Field(min_length=CELLS, max_length=CELLS)]
"""The cells row by row (0 top left, 8 bottom right): the seat whose mark is there, or None."""


@dataclass(frozen=True)
class TicTacToeState(FrozenState):
    """Everything about a game; it dumps as ``{"options": {}, "board": [...], "to_move": 0, "last": null}``
    through the shared codec. Whether the game is over is read from the board, never stored twice."""

    options: TicTacToeOptions
    board: Board
    to_move: Seat
    last: int | None
    """The cell of the last move (None before the first)."""


def winning_line(board: tuple[Seat | None, ...]) -> tuple[int, int, int] | None:
    """The first of the grid's eight lines that one seat holds entirely, if any."""
    for line in GRID_LINES:
        a, b, c = line
        if board[a] is not None and board[a] == board[b] == board[c]:
            return line
    return None


def is_over(board: tuple[Seat | None, ...]) -> bool:
    """A line is complete or no cell is left."""
    return winning_line(board) is not None or None not in board
