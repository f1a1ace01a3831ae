"""Tri-Tac's state: the immutable game value, its parts, and the helpers that derive changed parts."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Annotated, Literal, TypeVar

from pydantic import BeforeValidator, PlainSerializer

from engines.base import JSON, FrozenState, Seat, SortedSet
from engines.tri_tac.options import TriTacOptions

MARKERS = ("X", "O")
"""Each seat's marker: seat 0 plays X, seat 1 plays O."""

Cell = tuple[int, int]
Row = tuple[int | None, ...]
Board = tuple[Row, ...]
Phase = Literal["turn", "vote", "over"]
Flags = tuple[bool, bool]
Ballots = tuple[bool | None, bool | None]
"""Each seat's vote on adding a ring, None until it has voted."""
Scored = tuple[tuple[SortedSet[Cell], ...], ...]
"""[seat][direction] -> the cells already in that seat's scored runs along that direction."""
Direction = Literal["row", "column", "diagonal", "anti-diagonal"]
DIRECTIONS: tuple[tuple[int, int], ...] = ((0, 1), (1, 0), (1, 1), (1, -1))
DIRECTION_NAMES: tuple[Direction, ...] = ("row", "column", "diagonal", "anti-diagonal")  # as DIRECTIONS
T = TypeVar("T")

LastMoveTuple = tuple[Seat, str, int | None, int | None, int, int]
"""The previous turn: seat, type ("place", "power" or "pass"), row, column (None on a pass), points, move
number. A flat tuple of atoms, which the garbage collector stops tracking on its first pass (a named tuple,
being a subclass, or a nested one would stay tracked longer, and the dict with a cell list it replaces, made
every move, stayed tracked as long as the state lived); ``last_move_json`` gives its JSON form."""


def last_move_json(last: LastMoveTuple) -> dict[str, JSON]:
    """The previous turn as dumps and views show it."""
    seat, kind, r, c, points, move = last
    return {"seat": seat, "type": kind, "cell": None if r is None else [r, c], "points": points, "move": move}


def cells_json(cells: Iterable[Cell]) -> list[list[int]]:
    """Cells as JSON, in their order (a run's, along its direction)."""
    return [[r, c] for r, c in cells]


def _last_move_from_json(data: object) -> object:
    """``last_move_json`` read back (the tuple's own validation then checks each item)."""
    if not isinstance(data, Mapping):
        raise ValueError("the last move must be an object")
    try:
        cell = data["cell"]
        row, column = (None, None) if cell is None else cell
        return (data["seat"], data["type"], row, column, data["points"], data["move"])
    except (KeyError, TypeError, ValueError) as err:
        raise ValueError(f"bad last move: {err!r}") from None


LastMove = Annotated[
    LastMoveTuple,
    PlainSerializer(last_move_json, return_type=dict),
    BeforeValidator(_last_move_from_json),
]


@dataclass(frozen=True, slots=True)
class ScoredLine:
    """A new line: the run that scored it (its cells in order along ``direction``), its points (2 through a
    special square) and the move that made it."""

    seat: Seat
    cells: tuple[Cell, ...]
    points: int
    move: int
    direction: Direction

    def shifted(self) -> ScoredLine:
        """The same line on a board grown by a ring (every coordinate +1)."""
        return replace(self, cells=tuple((r + 1, c + 1) for r, c in self.cells))


@dataclass(frozen=True, slots=True)
class LastVote:
    """The last finished vote: both ballots, whether the board grew, and its size before the vote."""

    votes: Flags
    expanded: bool
    size: int


@dataclass(frozen=True)
class TriTacState(FrozenState):
    """The full game state: an immutable value; the rules derive changed copies (``changed``) that share every
    part they leave alone, so a move makes one board row and the few tuples and sets it changes.

    Parts that change on most moves are plain tuples of atoms (the board, ``scores``, ``scored_last_turn``,
    ``last_move``), which the garbage collector stops tracking once it has seen them (a tuple of tuples on its
    second pass): the thousands of states a busy server holds then cost its older generations nothing."""

    options: TriTacOptions
    size: int
    board: Board  # board[row][column]: a seat, or None for an empty cell
    special: SortedSet[Cell]
    scores: tuple[int, int]
    first: Seat
    to_move: Seat
    phase: Phase
    votes: Ballots
    last_vote: LastVote | None
    power_used: Flags
    scored: Scored
    lines: tuple[ScoredLine, ...]  # every new line, in the current frame
    scored_last_turn: Flags  # did the seat score on its own previous turn (Combo Strike)
    move: int  # number of the current turn, from 1; passes count
    last_move: LastMove | None
    ring_seed: int  # draws the special squares of rings added later
    empty: int = field(init=False, repr=False, compare=False)
    """Empty cells on the board: the board is full at 0, without a scan every move (the rules keep it up to
    date as they go; a new or loaded state counts it once)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "empty", empty_cells(self.board))


_FLAGS: tuple[tuple[Flags, Flags], tuple[Flags, Flags]] = (
    ((False, False), (False, True)),
    ((True, False), (True, True)),
)  # the four possible flag pairs, made once: setting a flag every move allocates nothing
NO_VOTES: Ballots = (None, None)
NO_SCORED: Scored = ((frozenset(),) * len(DIRECTIONS),) * 2


def flags(first: object, second: object) -> Flags:
    """The shared pair of these two flags."""
    return _FLAGS[bool(first)][bool(second)]


def with_flag(pair: Flags, seat: Seat, value: bool) -> Flags:
    """``pair`` with ``seat``'s flag set to ``value``."""
    return flags(value, pair[1]) if seat == 0 else flags(pair[0], value)


def _with(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``items`` with one item replaced."""
    return (*items[:index], value, *items[index + 1 :])


def with_score(scores: tuple[int, int], seat: Seat, points: int) -> tuple[int, int]:
    return (points, scores[1]) if seat == 0 else (scores[0], points)


def with_ballot(votes: Ballots, seat: Seat, expand: bool) -> Ballots:
    return (expand, votes[1]) if seat == 0 else (votes[0], expand)


def board_of(rows: Iterable[Iterable[int | None]]) -> Board:
    """An immutable board from rows of seats and Nones (a fresh or grown board)."""
    return tuple(tuple(row) for row in rows)


def with_cell(board: Board, cell: Cell, value: int | None) -> Board:
    """``board`` with one cell changed: a new row, the others shared."""
    r, c = cell
    row = board[r]
    rows = list(board)
    rows[r] = (*row[:c], value, *row[c + 1 :])
    return tuple(rows)


def empty_cells(board: Board) -> int:
    return sum(row.count(None) for row in board)


Run = tuple[int, list[Cell], bool, int]
"""A run of one seat's markers through a cell: (direction index, cells in order, is_new, value)."""


def scored_with(scored: Scored, seat: Seat, runs: Iterable[Run]) -> Scored:
    """``scored`` with each run's cells joining ``seat``'s scored set along the run's direction."""
    per_dir = list(scored[seat])
    for d, run, _is_new, _value in runs:
        per_dir[d] = per_dir[d].union(run)
    return _with(scored, seat, tuple(per_dir))


def scored_without(scored: Scored, seat: Seat, cell: Cell) -> Scored:
    """``scored`` with ``cell`` no longer in ``seat``'s scored runs (its marker was replaced)."""
    per_dir = tuple(cells - {cell} if cell in cells else cells for cells in scored[seat])
    return _with(scored, seat, per_dir)
