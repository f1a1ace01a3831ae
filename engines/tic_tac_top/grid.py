"""A player's 3×3 grid of words: which cells the announced words circle and which lines that completes."""

from __future__ import annotations

from collections.abc import Sequence

from engines.base import GRID_LINES as LINES

CELLS = 9

Grid = tuple[str | None, ...]
"""A player's 9 cells, row by row; ``None`` is a blank cell (it never matches)."""

EMPTY_GRID: Grid = (None,) * CELLS


def grid_marks(grid: Sequence[str | None], announced: Sequence[str]) -> list[int | None]:
    """For each cell, the 1-based number of the announced word that circles it, or None."""
    position = {w: i + 1 for i, w in enumerate(announced)}
    return [position.get(w) if w is not None else None for w in grid]


def grid_lines(marks: Sequence[int | None]) -> list[tuple[int, tuple[int, int, int]]]:
    """Completed lines as (word number of completion, cells), in completion order."""
    done: list[tuple[int, tuple[int, int, int]]] = []
    for line in LINES:
        ks = [marks[c] for c in line]
        if all(k is not None for k in ks):
            done.append((max(k for k in ks if k is not None), line))
    done.sort(key=lambda item: (item[0], LINES.index(item[1])))
    return done
