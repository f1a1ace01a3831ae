"""Tic-Tac-Toe's strong bot: a complete minimax search, so it never loses (the game is small enough)."""

from __future__ import annotations

import functools
from typing import Any

from engines.base import Bot, Seat
from engines.tic_tac_toe.actions import PLACES, Place
from engines.tic_tac_toe.state import TicTacToeState, winning_line

Board = tuple[Seat | None, ...]


@functools.cache
def value(board: Board, to_move: Seat) -> int:
    """The game's value for the seat to move with perfect play on both sides: a win is worth more the sooner
    it comes (10 minus the marks on the board), a loss less the later it comes, a draw 0."""
    line = winning_line(board)
    if line is not None:  # the last mover completed it
        return -(10 - sum(mark is not None for mark in board))
    if None not in board:
        return 0
    return max(-value(_with(board, cell, to_move), 1 - to_move) for cell in _empty(board))


def _with(board: Board, cell: int, seat: Seat) -> Board:
    return (*board[:cell], seat, *board[cell + 1 :])


def _empty(board: Board) -> list[int]:
    return [cell for cell, mark in enumerate(board) if mark is None]


class PerfectBot(Bot[TicTacToeState]):
    """Plays a move of the best value (any of them, by the seeded ``rng``, so its games differ)."""

    def choose(self, state: TicTacToeState, seat: Seat, rng: Any) -> Place:
        board = state.board
        scored = {cell: -value(_with(board, cell, seat), 1 - seat) for cell in _empty(board)}
        if not scored:
            raise ValueError("no empty cell: the game is over")
        best = max(scored.values())
        cell: int = rng.choice([cell for cell, score in scored.items() if score == best])
        return PLACES[cell]


STRONG = PerfectBot()
