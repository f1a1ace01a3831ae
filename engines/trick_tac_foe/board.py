"""The shared 3×3 grid in its one canonical frame (row 0 on the North edge): its lines and tokens."""

from __future__ import annotations

from collections.abc import Sequence

Cell = tuple[int, int]
Grid = tuple[tuple[int | None, ...], ...]
"""Team index (or None) per canonical cell, row by row."""
Line = tuple[Cell, Cell, Cell]

LINES: tuple[Line, ...] = (
    ((0, 0), (0, 1), (0, 2)),
    ((1, 0), (1, 1), (1, 2)),
    ((2, 0), (2, 1), (2, 2)),
    ((0, 0), (1, 0), (2, 0)),
    ((0, 1), (1, 1), (2, 1)),
    ((0, 2), (1, 2), (2, 2)),
    ((0, 0), (1, 1), (2, 2)),
    ((0, 2), (1, 1), (2, 0)),
)

EMPTY_GRID: Grid = ((None, None, None), (None, None, None), (None, None, None))


def lines_of(grid: Sequence[Sequence[int | None]], team: int) -> list[Line]:
    """Every line of three ``team`` tokens on ``grid``."""
    return [line for line in LINES if all(grid[r][c] == team for r, c in line)]


def with_cell(grid: Grid, cell: Cell, team: int) -> Grid:
    """``grid`` with ``team``'s token on ``cell``."""
    r, c = cell
    row = grid[r]
    return (*grid[:r], (*row[:c], team, *row[c + 1 :]), *grid[r + 1 :])


def three_by_three(grid: Grid) -> Grid:
    """``grid`` if it is 3×3 (a check for loading a stored one)."""
    if len(grid) != 3 or any(len(row) != 3 for row in grid):
        raise ValueError("the grid is not 3×3")
    return grid
