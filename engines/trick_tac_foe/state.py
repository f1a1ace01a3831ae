"""The full game state (secrets included) and the records it keeps: an immutable value that dumps and loads
through the shared codec, in the same JSON the games already stored hold."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import AfterValidator

from engines.base import FrozenState, Seat
from engines.trick_tac_foe.board import Cell, Grid, Line, three_by_three
from engines.trick_tac_foe.cards import Cards
from engines.trick_tac_foe.options import TrickTacFoeOptions, rounds_for
from engines.trick_tac_foe.seats import Pair

Phase = Literal["commit", "wild", "over"]
Effect = Literal["place", "flip", "none"]
StoredGrid = Annotated[Grid, AfterValidator(three_by_three)]


@dataclass(frozen=True)
class Trick:
    """One pair's trick of the current (or previous) set: revealed, then resolved (cell, number, effect)."""

    seats: Pair
    cards: tuple[str, str]
    winner: Seat
    card: str  # the winning card
    wild: bool
    cell: Cell | None = None
    number: int | None = None
    effect: Effect | None = None
    scored: bool = False


@dataclass(frozen=True)
class RoundPoints:
    """A finished round and the points after it."""

    round: int
    scores: tuple[int, int]


@dataclass(frozen=True)
class FinalPosition:
    """The grid the game's last action cleared, and the lines that scored on it (``team``'s, or None when the
    end of the round cleared it)."""

    grid: StoredGrid
    lines: tuple[Line, ...] | None
    team: int | None


@dataclass(frozen=True)
class TrickTacFoeState(FrozenState):
    """The full game state (secrets included): an immutable value; the rules return changed copies that
    share every part they leave alone."""

    options: TrickTacFoeOptions
    deals: tuple[tuple[Cards, ...], ...]  # [round][seat] -> personal deck as dealt (index 0 = top)
    round: int  # 1-based
    trick: int  # 1-based number of the trick (2p) or trick set (4p) in the round
    start: Seat | None  # 4p: seat holding the starting position this set; 2p: None
    decks: tuple[Cards, ...]  # index 0 = top
    hands: tuple[Cards, ...]
    committed: tuple[str | None, ...]  # the card each seat has put down this trick (set)
    revealed: tuple[bool, ...]  # whether that card has been revealed
    order: tuple[Pair, ...]  # the pairs, in the order they resolve this trick (set)
    step: int  # index into ``order`` of the pair being resolved / to resolve next
    phase: Phase
    wild_seat: Seat | None
    grid: StoredGrid  # team index per canonical cell
    scores: tuple[int, int]  # per team: (Red, Black)
    discard: Cards
    current: tuple[Trick, ...] = ()  # tricks of this set, resolved or pending
    previous: tuple[Trick, ...] = ()  # tricks of the previous set, this round
    history: tuple[RoundPoints, ...] = ()  # per finished round: its points
    final: FinalPosition | None = None  # once over: the position the last action cleared (None in older dumps)

    @property
    def players(self) -> int:
        return self.options.players

    @property
    def rounds(self) -> int:
        return rounds_for(self.options)
