"""Tic Tac Match's state: the immutable game value and the record of each finished match."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engines.base import FrozenState, Seat
from engines.tic_tac_match.cards import Cards

GridCell = tuple[int, int]
"""A cell as ``(row, column)``."""


@dataclass(frozen=True, slots=True)
class SymbolFace:
    """A Symbol card's face without its id: what a finished match's grid shows."""

    kind: Literal["symbol"]
    colour: str
    symbol: str


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A finished match: who won it (``side`` and its ``seats``), the line that did it and the grid then."""

    match: int
    dealer: Seat
    side: int
    seats: tuple[Seat, ...]
    placed_by: Seat
    colour: str
    symbol: str
    line: tuple[GridCell, ...]
    lines: tuple[tuple[GridCell, ...], ...]
    ids: tuple[str, ...]
    grid: tuple[SymbolFace | None, ...]
    score: tuple[int, int]


@dataclass(frozen=True)
class TicTacMatchState(FrozenState):
    """The full game state (secrets included): an immutable value; the rules return changed copies that
    share every part they leave alone."""

    players: int
    series: int
    salt: int  # derived from the seed: every shuffle is seeded from (salt, match, shuffle number)
    match: int  # 1-based number of the current (or last) match
    dealer: Seat
    wins: tuple[int, int]  # matches won, per side
    id_symbol: int  # the symbol (0 = X, 1 = O) side 0's ID cards show; side 1 shows the other
    draw: Cards  # the draw pile, top card last
    discard: Cards  # the discard pile, top card last
    cells: tuple[Cards, ...]  # 9 stacks in reading order, bottom card first
    hands: tuple[Cards, ...]
    turn: Seat | None  # None once the series is over
    plays_left: int  # 0: an ordinary turn; 2 or 1: plays still owed after a Double Play
    shuffles: int  # shuffles done in this match (the deal's is the first)
    results: tuple[MatchResult, ...]  # one per finished match

    def with_hand(self, seat: Seat, hand: Cards) -> TicTacMatchState:
        return self.changed(hands=(*self.hands[:seat], hand, *self.hands[seat + 1 :]))

    def hands_without(self, seat: Seat, card: int) -> tuple[Cards, ...]:
        """The hands, ``seat``'s without ``card``."""
        hand = self.hands[seat]
        i = hand.index(card)
        return (*self.hands[:seat], hand[:i] + hand[i + 1 :], *self.hands[seat + 1 :])

    def discarded(self, seat: Seat, card: int) -> TicTacMatchState:
        """``card`` moved from ``seat``'s hand to the discard pile."""
        return self.changed(hands=self.hands_without(seat, card), discard=(*self.discard, card))

    @property
    def over(self) -> bool:
        return self.turn is None

    def side_symbol(self, side: int) -> int:
        return self.id_symbol if side == 0 else 1 - self.id_symbol

    def seat_symbol(self, seat: Seat) -> int:
        return self.side_symbol(seat % 2)

    def tops(self) -> list[int | None]:
        return [stack[-1] if stack else None for stack in self.cells]
