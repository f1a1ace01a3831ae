"""A turn's scoring (docs/games/tic-tac-top.md) and the public record each scored turn leaves."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from pydantic import TypeAdapter

from engines.base import JSON, LogEntry, Seat
from engines.tic_tac_top.grid import CELLS, grid_lines, grid_marks

RANK_SIZE = 7
"""How many words the Leader ranks and announces."""
MAX_LINES = 5
LEADER_BONUS = {3: 3, 4: 2, 5: 1}
FIRST_LINE_BONUS = 2


@dataclass(frozen=True)
class FirstLine:
    """The turn's first line: the number of the word that made it, that word, and every seat that made it."""

    index: int
    word: str
    seats: tuple[Seat, ...]


@dataclass(frozen=True)
class ScoringRow:
    """Points one seat scores for one part of the scoring, and why (a ``tic-tac-top.reason.*`` entry)."""

    part: Literal["A", "B", "C", "D"]
    seat: Seat
    points: int
    reason: LogEntry


@dataclass(frozen=True)
class Scoring:
    """A turn's scoring with its line-by-line breakdown; ``totals`` are the scores after it."""

    leader: Seat
    ranking: tuple[str, ...]
    first_line: FirstLine | None
    max_lines: int
    lines_by_seat: tuple[int | None, ...]
    first_line_by_seat: tuple[int | None, ...]
    rows: tuple[ScoringRow, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...] = ()

    def to_json(self) -> dict[str, JSON]:
        """The scoring as events and views carry it: the same JSON as its part of the state's dump."""
        dumped: dict[str, JSON] = _SCORING.dump_python(self, mode="json")
        return dumped


@dataclass(frozen=True)
class TurnRecord:
    """One finished turn as everyone may know it, never changed once made."""

    turn: int
    leader: Seat
    theme: str
    ranking: tuple[str, ...]
    scoring: Scoring


_SCORING = TypeAdapter(Scoring)


def _reason(key: str, **params: JSON) -> LogEntry:
    """A scoring row's reason, as a log entry (``tic-tac-top.reason.*``)."""
    return LogEntry(f"tic-tac-top.reason.{key}", params)


def score_turn(ranking: Sequence[str], grids: Sequence[Sequence[str | None] | None], leader: Seat) -> Scoring:
    """The turn's scoring with a line-by-line breakdown (``totals`` left empty: the rules add them).

    ``grids`` has one entry per seat (the Leader's is ignored). Parts: A = the Leader's first-line bonus,
    B = the Leader's ``max(0, M - 1)``, C = +2 for each player whose first line came on word i*, D = +1 per
    line (at most 5).
    """
    n = len(grids)
    lines_by_seat: list[int | None] = [None] * n
    first_by_seat: list[int | None] = [None] * n
    for seat, grid in enumerate(grids):
        if seat == leader:
            continue
        found = grid_lines(grid_marks(grid or [None] * CELLS, ranking))
        lines_by_seat[seat] = min(MAX_LINES, len(found))
        first_by_seat[seat] = found[0][0] if found else None
    firsts = [k for k in first_by_seat if k is not None]
    i_star = min(firsts) if firsts else None
    first_seats = tuple(s for s in range(n) if i_star is not None and first_by_seat[s] == i_star)
    m = max((c for c in lines_by_seat if c is not None), default=0)
    rows: list[ScoringRow] = []

    a = LEADER_BONUS.get(i_star, 0) if i_star is not None else 0
    if i_star is None:
        a_reason = _reason("no_line")
    elif a:
        a_reason = _reason("first_line_on", word_number=i_star)
    else:
        a_reason = _reason("first_line_late", word_number=i_star)
    rows.append(ScoringRow("A", leader, a, a_reason))
    for s in first_seats:
        rows.append(ScoringRow("C", s, FIRST_LINE_BONUS, _reason("own_first_line", word_number=i_star or 0)))
    b = max(0, m - 1)
    rows.append(ScoringRow("B", leader, b, _reason("best_grid", lines=m)))
    for s in range(n):
        count = lines_by_seat[s]
        if count is not None:
            rows.append(ScoringRow("D", s, count, _reason("lines", lines=count)))
    points = [0] * n
    for row in rows:
        points[row.seat] += row.points
    return Scoring(
        leader=leader,
        ranking=tuple(ranking),
        first_line=FirstLine(i_star, ranking[i_star - 1], first_seats) if i_star is not None else None,
        max_lines=m,
        lines_by_seat=tuple(lines_by_seat),
        first_line_by_seat=tuple(first_by_seat),
        rows=tuple(rows),
        points=tuple(points),
    )
