"""Tic Tac Top's game state: a frozen value that the shared codec dumps and loads."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeVar

from engines.base import FrozenState, Seat
from engines.tic_tac_top.grid import EMPTY_GRID, Grid
from engines.tic_tac_top.options import TicTacTopOptions
from engines.tic_tac_top.scoring import TurnRecord
from engines.tic_tac_top.themes import Theme

Phase = Literal["choose", "write", "reveal", "score", "over"]
Finished = Literal["done", "locked"]
"""How a player's grid was finished: declared ``done``, or ``locked`` as it was when the writing closed."""


@dataclass(frozen=True)
class TicTacTopState(FrozenState):
    """The full game state, immutable: ``apply`` derives a new one (``changed``) that shares what did not
    change. The defaults are those of a game before its first turn: ``at_turn(1)`` starts it."""

    options: TicTacTopOptions
    offers: tuple[tuple[Theme, ...], ...]  # per turn, dealt when the game starts (future offers are secret)
    turn: int = 0  # 1-based
    phase: Phase = "choose"
    theme: Theme | None = None  # the chosen theme of the current turn
    draft: tuple[str, ...] = ()  # the Leader's saved partial ranking
    ranking: tuple[str, ...] = ()  # the Leader's submitted ranking (7 words) or ()
    grids: tuple[Grid, ...] = ()  # per seat, 9 cells; the Leader's stays blank
    finished: tuple[Finished | None, ...] = ()  # per seat: None while writing
    announced: int = 0  # how many ranked words have been announced
    scores: tuple[int, ...] = ()
    history: tuple[TurnRecord, ...] = ()  # one public record per finished turn

    def at_turn(self, turn: int) -> TicTacTopState:
        """This game at the start of ``turn``: its Leader chooses a theme, every grid is blank."""
        n = self.players
        return self.changed(
            turn=turn,
            phase="choose",
            theme=None,
            draft=(),
            ranking=(),
            grids=(EMPTY_GRID,) * n,
            finished=(None,) * n,
            announced=0,
        )

    def with_grid(self, seat: Seat, grid: Grid) -> TicTacTopState:
        return self.changed(grids=replaced(self.grids, seat, grid))

    @property
    def players(self) -> int:
        return self.options.players

    @property
    def leader(self) -> Seat:
        return (self.turn - 1) % self.options.players


T = TypeVar("T")


def replaced(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``items`` with one item replaced."""
    return (*items[:index], value, *items[index + 1 :])
