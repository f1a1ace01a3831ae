"""Seats: their compass labels and teams, the pairs that play each other, and how each seat numbers the grid."""

from __future__ import annotations

from engines.base import Seat
from engines.trick_tac_foe.board import Cell

DIRECTIONS: tuple[str, ...] = ("North", "East", "South", "West")
LABELS_2P: tuple[str, ...] = ("South", "North")
LABELS_4P: tuple[str, ...] = ("North", "East", "South", "West")
COLOURS: tuple[str, ...] = ("red", "black")
ROTATION: dict[str, int] = {"South": 0, "East": 90, "North": 180, "West": 270}
"""Clockwise degrees to turn the North-up canonical drawing so that this seat sits at the bottom."""

Pair = tuple[Seat, Seat]


def labels_for(players: int) -> tuple[str, ...]:
    return LABELS_2P if players == 2 else LABELS_4P


def team_of(players: int, seat: Seat) -> int:
    """0 = Red, 1 = Black. 2p: South is Black, North is Red. 4p: North/East Red, South/West Black."""
    if players == 2:
        return 1 if seat == 0 else 0
    return 0 if seat in (0, 1) else 1


def pairs_for(players: int) -> tuple[Pair, ...]:
    """The opposing pairs: 2p ((South, North),); 4p ((North, South), (East, West))."""
    return ((0, 1),) if players == 2 else ((0, 2), (1, 3))


def opponent_of(players: int, seat: Seat) -> Seat:
    return 1 - seat if players == 2 else (seat + 2) % 4


def order_for(players: int, start: Seat | None) -> tuple[Pair, ...]:
    """The pairs in the order they reveal: the one holding the starting seat first."""
    pairs = pairs_for(players)
    if players == 2 or start is None:
        return pairs
    first = start % 2
    return (pairs[first], pairs[1 - first])


# ---- how each seat reads the grid ------------------------------------------------------------------------


def _direction(name: str) -> str:
    if name in DIRECTIONS:  # the rules and bots always pass a label: skip the normalising
        return name
    key = name.strip().lower()
    for d in DIRECTIONS:
        if key in (d.lower(), d[0].lower()):
            return d
    raise ValueError(f"unknown seat direction {name!r}; expected North, East, South or West")


def _cell_for(direction: str, k: int) -> Cell:
    a, b = divmod(k - 1, 3)
    if direction == "South":
        return (a, b)
    if direction == "North":
        return (2 - a, 2 - b)
    if direction == "West":
        return (b, 2 - a)
    return (2 - b, a)  # East


_CELL_TABLE: dict[str, dict[int, Cell]] = {d: {k: _cell_for(d, k) for k in range(1, 10)} for d in DIRECTIONS}
_NUMBER_TABLE: dict[str, dict[Cell, int]] = {
    d: {cell: k for k, cell in table.items()} for d, table in _CELL_TABLE.items()
}


def cell_for(direction: str, k: int) -> Cell:
    """The canonical cell ``(r, c)`` that card value ``k`` (1–9) names for a seat.

    ``direction`` is a seat label or direction: ``"South"``, ``"north"``, ``"W"``…
    South reads ``(a, b)``, North ``(2-a, 2-b)``, West ``(b, 2-a)``, East ``(2-b, a)`` with
    ``a, b = divmod(k - 1, 3)`` (docs/games/trick-tac-foe.md).
    """
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= 9:
        raise ValueError(f"a grid number is 1–9, not {k!r}")
    return _CELL_TABLE[_direction(direction)][k]


def number_for(direction: str, cell: tuple[int, int] | list[int]) -> int:
    """The inverse of ``cell_for``: the number (1–9) that a seat reads on canonical ``cell``."""
    r, c = int(cell[0]), int(cell[1])
    if not (0 <= r < 3 and 0 <= c < 3):
        raise ValueError(f"no cell {cell!r} on a 3×3 grid")
    return _NUMBER_TABLE[_direction(direction)][(r, c)]


def numbering(direction: str) -> list[list[int]]:
    """The canonical grid (North edge up) filled with the numbers this seat reads."""
    d = _direction(direction)
    return [[_NUMBER_TABLE[d][(r, c)] for c in range(3)] for r in range(3)]
