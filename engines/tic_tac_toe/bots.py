"""Tic-Tac-Toe's normal bot: win if it can, else block, else the centre, a corner, any cell."""

from __future__ import annotations

from typing import Any

from engines.base import GRID_LINES, Bot, Seat
from engines.tic_tac_toe.actions import PLACES, Place
from engines.tic_tac_toe.state import TicTacToeState

CENTRE = 4
CORNERS = (0, 2, 6, 8)


def completing(board: tuple[Seat | None, ...], seat: Seat) -> list[int]:
    """Empty cells that would give ``seat`` three in a row."""
    cells: set[int] = set()
    for line in GRID_LINES:
        marks = [board[cell] for cell in line]
        if marks.count(seat) == 2 and marks.count(None) == 1:
            cells.add(line[marks.index(None)])
    return sorted(cells)


class TicTacToeBot(Bot[TicTacToeState]):
    """The rules of thumb a child learns; it can be beaten by a fork (two threats at once)."""

    def choose(self, state: TicTacToeState, seat: Seat, rng: Any) -> Place:
        board = state.board
        empty = [cell for cell, mark in enumerate(board) if mark is None]
        for choices in (
            completing(board, seat),
            completing(board, 1 - seat),
            [CENTRE] if board[CENTRE] is None else [],
            [cell for cell in CORNERS if board[cell] is None],
            empty,
        ):
            if choices:
                cell: int = rng.choice(choices)
                return PLACES[cell]
        raise ValueError("no empty cell: the game is over")


BOT = TicTacToeBot()
