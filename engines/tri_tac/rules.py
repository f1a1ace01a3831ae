"""Tri-Tac: two players fill an N×N board and score every fresh run of three or more (docs/games/tri-tac.md).

Rules as implemented (after the Tri-Tac text by ChapDaddy65, MysticFlare & Axii, CC BY-SA 4.0):

- Players alternate placing their marker (seat 0 = X, seat 1 = O) on an empty cell; the first player is
  drawn from the seed. The game ends when the board is full; most points wins, equal is a draw.
- After a placement, look at the maximal run of the mover's markers through the new cell in each of the four
  directions. A run of length >= 3 is a *new line* if none of its cells is already in the mover's scored set
  for that direction; either way (new or not) the run's cells join that scored set. Runs shorter than 3 never
  become scored.
- A move with n new lines scores the sum of its lines (1 each, 2 if the line holds a special square) plus
  n - 1 bonus. Combo Strike adds 1 when the player also scored on their own previous turn (a pass is a turn
  without score).
- Power Play (once per game, at least 5 points before the move): replace an opponent marker with your own;
  it scores like a placement; the cell leaves every scored set of the opponent, who keeps their points.
- Time Challenge: a turn not played in time is lost (``{"type": "pass"}``).
- Dynamic Board: when the board fills and N + 2 <= 12, both players vote (simultaneously, secretly until both
  have voted); if both say yes a ring is added (N -> N + 2, every coordinate shifts by +1) and play goes on
  with the player who was next; otherwise the game ends.
- Special squares: round-half-up(N²/10) cells (at least 1), drawn from the seed; a new ring gets
  round-half-up(ring cells / 10) more, inside the ring.

There is no hidden information: every seat and spectators see the same view, except that during a vote a
player sees their own ballot and only *that* the other player has voted.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Annotated, Any, Literal, TypeVar

from pydantic import Field

from engines.base import (
    JSON,
    Action,
    ActionModel,
    Actions,
    Bot,
    Engine,
    Event,
    FrozenState,
    GameOptions,
    IllegalAction,
    InvalidState,
    LogEntry,
    Outcome,
    Pair,
    Refusal,
    Seat,
    SeatInfo,
    Timer,
    check_seat,
    ranks_from_scores,
)

Cell = tuple[int, int]
Row = tuple[int | None, ...]
Board = tuple[Row, ...]
Phase = Literal["turn", "vote", "over"]
Flags = tuple[bool, bool]

MIN_SIZE = 3
MAX_SIZE = 12
POWER_PLAY_THRESHOLD = 5
MARKERS = ("X", "O")
T = TypeVar("T")
DIRECTIONS: tuple[tuple[int, int], ...] = ((0, 1), (1, 0), (1, 1), (1, -1))


class TriTacOptions(GameOptions):
    """Lobby options; the lobby renders its form from this model's JSON schema."""

    size: int = Field(
        5, ge=MIN_SIZE, le=MAX_SIZE, title="Board size", description="The board is size × size cells (3–12)."
    )
    power_play: bool = Field(
        False,
        title="Power Play",
        description="Once per game, with at least 5 points, replace one opponent marker with your own.",
    )
    combo_strike: bool = Field(
        False, title="Combo Strike", description="+1 point when you score on two of your turns in a row."
    )
    time_challenge: bool = Field(
        False,
        title="Time Challenge",
        description="Each move has a time limit: too slow and the turn is lost.",
    )
    time_seconds: int = Field(
        30,
        ge=5,
        le=300,
        title="Seconds per move",
        description="The Time Challenge limit (5–300 seconds); used only when Time Challenge is on.",
        json_schema_extra={"x-show-if": "time_challenge"},
    )
    dynamic_board: bool = Field(
        False,
        title="Dynamic Board",
        description="When the board is full, both players may vote to add a ring of cells (up to 12×12).",
    )
    special_squares: bool = Field(
        False,
        title="Special Squares",
        description="About one cell in ten is special: a new line through one is worth 2 points.",
    )


LastMove = tuple[Seat, str, int | None, int | None, int, int]
"""The previous turn: seat, type ("place", "power" or "pass"), row, column (None on a pass), points, move
number. A flat tuple of atoms, which the garbage collector stops tracking on its first pass (a named tuple,
being a subclass, or a nested one would stay tracked longer, and the dict with a cell list it replaces, made
every move, stayed tracked as long as the state lived); ``_last_move_json`` gives the view's dict."""

Ballots = tuple[bool | None, bool | None]
"""Each seat's vote on adding a ring, None until it has voted."""
Scored = tuple[tuple[frozenset[Cell], ...], ...]
"""[seat][direction] -> the cells already in that seat's scored runs along that direction."""
Direction = Literal["row", "column", "diagonal", "anti-diagonal"]
DIRECTION_NAMES: tuple[Direction, ...] = ("row", "column", "diagonal", "anti-diagonal")  # as DIRECTIONS


def _last_move_json(last: LastMove | None) -> dict[str, JSON] | None:
    if last is None:
        return None
    seat, kind, r, c, points, move = last
    return {
        "seat": seat,
        "type": kind,
        "cell": None if r is None else [r, c],
        "points": points,
        "move": move,
    }


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

    def to_json(self, broken: bool | None = None) -> dict[str, JSON]:
        """The line as dumped, or (``broken`` given) as views show it: whether Power Play has replaced one of
        its markers since."""
        data: dict[str, JSON] = {
            "seat": self.seat,
            "cells": [[r, c] for r, c in self.cells],
            "points": self.points,
            "move": self.move,
            "direction": self.direction,
        }
        if broken is not None:
            data["broken"] = broken
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ScoredLine:
        direction = data["direction"]
        if direction not in DIRECTION_NAMES:
            raise InvalidState(f"bad line direction {direction!r}")
        return cls(
            seat=int(data["seat"]),
            cells=tuple((int(r), int(c)) for r, c in data["cells"]),
            points=int(data["points"]),
            move=int(data["move"]),
            direction=direction,
        )


@dataclass(frozen=True, slots=True)
class LastVote:
    """The last finished vote: both ballots, whether the board grew, and its size before the vote."""

    votes: Flags
    expanded: bool
    size: int

    def to_json(self) -> dict[str, JSON]:
        return {"votes": list(self.votes), "expanded": self.expanded, "size": self.size}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> LastVote:
        return cls(votes=_flags(*data["votes"]), expanded=bool(data["expanded"]), size=int(data["size"]))


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
    special: frozenset[Cell]
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
    empty: int  # empty cells on the board: the board is full at 0, without a scan every move


_FLAGS: tuple[tuple[Flags, Flags], tuple[Flags, Flags]] = (
    ((False, False), (False, True)),
    ((True, False), (True, True)),
)  # the four possible flag pairs, made once: setting a flag every move allocates nothing
_NO_VOTES: Ballots = (None, None)
_NO_SCORED: Scored = ((frozenset(),) * len(DIRECTIONS),) * 2


def _flags(first: object, second: object) -> Flags:
    return _FLAGS[bool(first)][bool(second)]


def _with_flag(flags: Flags, seat: Seat, value: bool) -> Flags:
    """``flags`` with ``seat``'s flag set to ``value``."""
    return _flags(value, flags[1]) if seat == 0 else _flags(flags[0], value)


def _with(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``items`` with one item replaced."""
    return (*items[:index], value, *items[index + 1 :])


def _with_score(scores: tuple[int, int], seat: Seat, points: int) -> tuple[int, int]:
    return (points, scores[1]) if seat == 0 else (scores[0], points)


def _with_ballot(votes: Ballots, seat: Seat, expand: bool) -> Ballots:
    return (expand, votes[1]) if seat == 0 else (votes[0], expand)


def _board(rows: Iterable[Iterable[int | None]]) -> Board:
    """An immutable board from rows of seats and Nones (a fresh, dumped or grown board)."""
    return tuple(tuple(row) for row in rows)


def _with_cell(board: Board, cell: Cell, value: int | None) -> Board:
    """``board`` with one cell changed: a new row, the others shared."""
    r, c = cell
    row = board[r]
    rows = list(board)
    rows[r] = (*row[:c], value, *row[c + 1 :])
    return tuple(rows)


def _empty_cells(board: Board) -> int:
    return sum(row.count(None) for row in board)


def _scored_with(scored: Scored, seat: Seat, runs: Iterable[tuple[int, list[Cell], bool, int]]) -> Scored:
    """``scored`` with each run's cells joining ``seat``'s scored set along the run's direction."""
    per_dir = list(scored[seat])
    for d, run, _is_new, _value in runs:
        per_dir[d] = per_dir[d].union(run)
    return _with(scored, seat, tuple(per_dir))


def _scored_without(scored: Scored, seat: Seat, cell: Cell) -> Scored:
    """``scored`` with ``cell`` no longer in ``seat``'s scored runs (its marker was replaced)."""
    per_dir = tuple(cells - {cell} if cell in cells else cells for cells in scored[seat])
    return _with(scored, seat, per_dir)


# ---- pure helpers -------------------------------------------------------------------------------


def special_count(cells: int) -> int:
    """round-half-up(cells / 10), at least 1."""
    return max(1, (cells + 5) // 10)


def _evaluate(state: TriTacState, seat: Seat, cell: Cell) -> list[tuple[int, list[Cell], bool, int]]:
    """For a marker of ``seat`` at ``cell``: each run of length >= 3 as (direction, cells, is_new, value).

    A run is the maximal line of ``seat``'s markers through ``cell`` in one direction, ``cell`` itself
    counting as ``seat``'s whatever it holds; its cells are in order along the direction. Runs are measured
    first and listed only when long enough (most are not)."""
    board, size = state.board, state.size
    r0, c0 = cell
    found: list[tuple[int, list[Cell], bool, int]] = []
    for d, (dr, dc) in enumerate(DIRECTIONS):
        back = 0
        r, c = r0 - dr, c0 - dc
        while 0 <= r < size and 0 <= c < size and board[r][c] == seat:
            back += 1
            r, c = r - dr, c - dc
        ahead = 0
        r, c = r0 + dr, c0 + dc
        while 0 <= r < size and 0 <= c < size and board[r][c] == seat:
            ahead += 1
            r, c = r + dr, c + dc
        if back + ahead < 2:
            continue
        run = [(r0 + k * dr, c0 + k * dc) for k in range(-back, ahead + 1)]
        done = state.scored[seat][d]
        is_new = not any(c in done for c in run)
        value = 2 if any(c in state.special for c in run) else 1
        found.append((d, run, is_new, value))
    return found


def _gain(state: TriTacState, seat: Seat, cell: Cell) -> int:
    """Points ``seat`` would score with a marker at ``cell`` now (Combo Strike included)."""
    values = [value for _d, _run_cells, is_new, value in _evaluate(state, seat, cell) if is_new]
    if not values:
        return 0
    points = sum(values) + len(values) - 1
    if state.options.combo_strike and state.scored_last_turn[seat]:
        points += 1
    return points


def _cells_json(cells: Iterable[Cell]) -> list[list[int]]:
    """Cells in their order (a run's, along its direction)."""
    return [[r, c] for r, c in cells]


def _cell_set_json(cells: frozenset[Cell]) -> list[list[int]]:
    """A set of cells in reading order."""
    return [[r, c] for r, c in sorted(cells)]


def _on_board(cell: Cell, size: int) -> Cell:
    r, c = cell
    if not (0 <= r < size and 0 <= c < size):
        raise IllegalAction(
            f"cell [{r}, {c}] is outside the {size}×{size} board", "tri-tac.error.off_board", {"size": size}
        )
    return cell


# ---- actions --------------------------------------------------------------------------------------

_BAD_CELL = Refusal("tri-tac.error.bad_cell", '"cell" must be a list of two integers [row, column]')


class Place(ActionModel):
    type: Literal["place"]
    cell: Annotated[Pair, _BAD_CELL]


class Power(ActionModel):
    type: Literal["power"]
    cell: Annotated[Pair, _BAD_CELL]


class Pass(ActionModel):
    type: Literal["pass"]


class Vote(ActionModel):
    type: Literal["vote"]
    expand: Annotated[bool, Refusal("tri-tac.error.bad_vote", '"expand" must be true or false')]


TriTacAction = Place | Power | Vote | Pass
ACTIONS = Actions[TriTacAction](Place, Power, Vote, Pass)


_ONLY = (frozenset({0}), frozenset({1}))  # to_act on a turn, made once
_SEATS = (SeatInfo("Player 1"), SeatInfo("Player 2"))  # immutable: every call shares them


class TriTacEngine(Engine[TriTacState, TriTacOptions, TriTacAction]):
    name = "tri-tac"
    actions = ACTIONS
    state_type = TriTacState
    title = "Tri-Tac"
    options_model = TriTacOptions

    # ---- options and seats ----------------------------------------------------------------------

    def seats(self, options: TriTacOptions) -> list[SeatInfo]:
        return list(_SEATS)

    def options_of(self, state: TriTacState) -> TriTacOptions:
        return state.options

    # ---- playing --------------------------------------------------------------------------------

    def new_game(self, options: TriTacOptions, seed: int) -> TriTacState:
        rng = random.Random(seed)
        n = options.size
        first = rng.randrange(2)
        special: frozenset[Cell] = frozenset()
        if options.special_squares:
            cells = [(r, c) for r in range(n) for c in range(n)]
            special = frozenset(rng.sample(cells, special_count(n * n)))
        ring_seed = rng.getrandbits(62)
        return TriTacState(
            options=options,
            size=n,
            board=_board([None] * n for _ in range(n)),
            special=special,
            scores=(0, 0),
            first=first,
            to_move=first,
            phase="turn",
            votes=_NO_VOTES,
            last_vote=None,
            power_used=_flags(False, False),
            scored=_NO_SCORED,
            lines=(),
            scored_last_turn=_flags(False, False),
            move=1,
            last_move=None,
            ring_seed=ring_seed,
            empty=n * n,
        )

    def to_act(self, state: TriTacState) -> frozenset[Seat]:
        if state.phase == "turn":
            return _ONLY[state.to_move]
        if state.phase == "vote":
            return frozenset(s for s in (0, 1) if state.votes[s] is None)
        return frozenset()

    def can_power(self, state: TriTacState, seat: Seat) -> bool:
        """Whether ``seat`` may use Power Play now (on its turn) or could on its turn (score and usage)."""
        return state.options.power_play and not state.power_used[seat] and state.scores[seat] >= POWER_PLAY_THRESHOLD

    def legal_actions(self, state: TriTacState, seat: Seat) -> list[Action]:
        """Every placement and Power Play target; votes while voting. ``pass`` is legal on your turn but is
        deliberately not listed (it only loses the turn; it is what a Time Challenge timeout does)."""
        if seat not in self.to_act(state):
            return []
        if state.phase == "vote":
            return [{"type": "vote", "expand": True}, {"type": "vote", "expand": False}]
        actions: list[Action] = []
        power = self.can_power(state, seat)
        for r, row in enumerate(state.board):
            for c, v in enumerate(row):
                if v is None:
                    actions.append({"type": "place", "cell": [r, c]})
                elif power and v != seat:
                    actions.append({"type": "power", "cell": [r, c]})
        return actions

    def apply(self, state: TriTacState, seat: Seat, action: Action) -> tuple[TriTacState, list[Event]]:
        return self.play(state, seat, ACTIONS.parse(action))

    def play(self, state: TriTacState, seat: Seat, action: TriTacAction) -> tuple[TriTacState, list[Event]]:
        """``apply`` of an action already parsed."""
        check_seat(seat, 2)
        if state.phase == "over":
            raise IllegalAction("the game is over", "action.game_over")
        if isinstance(action, Vote):
            return self._vote(state, seat, action.expand)
        if state.phase == "vote":
            raise IllegalAction("the board is full: vote whether to add a ring of cells", "tri-tac.error.vote_now")
        if seat != state.to_move:
            raise IllegalAction(f"it is seat {state.to_move}'s turn", "action.turn_of", {"seat": state.to_move})
        if isinstance(action, Pass):
            return self._pass(state, seat)
        cell = _on_board(action.cell, state.size)
        r, c = cell
        occupant = state.board[r][c]
        if isinstance(action, Place):
            if occupant is not None:
                raise IllegalAction(f"cell {cell} is already taken", "tri-tac.error.cell_taken", {"cell": [r, c]})
        else:
            if not state.options.power_play:
                raise IllegalAction("Power Play is not enabled in this game", "tri-tac.error.power_off")
            if state.power_used[seat]:
                raise IllegalAction(
                    f"seat {seat} has already used Power Play", "tri-tac.error.power_spent", {"seat": seat}
                )
            if state.scores[seat] < POWER_PLAY_THRESHOLD:
                raise IllegalAction(
                    f"Power Play needs at least {POWER_PLAY_THRESHOLD} points (you have {state.scores[seat]})",
                    "tri-tac.error.power_points",
                    {"needed": POWER_PLAY_THRESHOLD, "points": state.scores[seat]},
                )
            if occupant is None:
                raise IllegalAction(
                    f"cell {cell} is empty: Power Play replaces an opponent marker",
                    "tri-tac.error.power_empty",
                    {"cell": [r, c]},
                )
            if occupant == seat:
                raise IllegalAction(f"cell {cell} holds your own marker", "tri-tac.error.power_own", {"cell": [r, c]})
        return self._mark(state, seat, cell, power=isinstance(action, Power))

    def _mark(self, state: TriTacState, seat: Seat, cell: Cell, *, power: bool) -> tuple[TriTacState, list[Event]]:
        r, c = cell
        opponent = 1 - seat
        move = state.move
        # The runs through ``cell`` count it as the mover's whatever it holds, and the replaced marker's
        # scored cells are the opponent's: the state before the move measures them as the one after would.
        runs = _evaluate(state, seat, cell)
        scored = state.scored
        power_used = state.power_used
        if power:
            power_used = _with_flag(power_used, seat, True)
            scored = _scored_without(scored, opponent, cell)
            events = [Event("power", {"seat": seat, "cell": [r, c], "marker": MARKERS[seat], "replaced": opponent})]
        else:
            events = [Event("placed", {"seat": seat, "cell": [r, c], "marker": MARKERS[seat]})]
        points = 0
        scores = state.scores
        lines = state.lines
        fresh: tuple[ScoredLine, ...] = ()
        if runs:  # most moves make none
            scored = _scored_with(scored, seat, runs)
            fresh = tuple(ScoredLine(seat, tuple(run), v, move, DIRECTION_NAMES[d]) for d, run, new, v in runs if new)
        if fresh:
            n = len(fresh)
            special_extra = sum(line.points - 1 for line in fresh)
            bonus = n - 1
            combo = 1 if state.options.combo_strike and state.scored_last_turn[seat] else 0
            points = n + special_extra + bonus + combo
            scores = _with_score(scores, seat, scores[seat] + points)
            lines += fresh
            events.append(
                Event(
                    "lines",
                    {
                        "seat": seat,
                        "lines": [{"cells": _cells_json(line.cells), "points": line.points} for line in fresh],
                        "points": points,
                        "breakdown": {"lines": n, "bonus": bonus, "special": special_extra, "combo": combo},
                        "scores": list(scores),
                    },
                )
            )
        new = state.changed(
            board=_with_cell(state.board, cell, seat),
            empty=state.empty - (state.board[r][c] is None),
            scores=scores,
            power_used=power_used,
            scored=scored,
            lines=lines,
            scored_last_turn=_with_flag(state.scored_last_turn, seat, points > 0),
            last_move=(seat, "power" if power else "place", r, c, points, move),
            move=move + 1,
            to_move=opponent,
        )
        if not new.empty:
            if new.options.dynamic_board and new.size + 2 <= MAX_SIZE:
                new = new.changed(phase="vote", votes=_NO_VOTES)
                events.append(Event("vote_open", {"size": new.size, "new_size": new.size + 2}))
            else:
                new = new.changed(phase="over")
                events.append(self._game_over_event(new))
        return new, events

    def _pass(self, state: TriTacState, seat: Seat) -> tuple[TriTacState, list[Event]]:
        new = state.changed(
            scored_last_turn=_with_flag(state.scored_last_turn, seat, False),
            last_move=(seat, "pass", None, None, 0, state.move),
            move=state.move + 1,
            to_move=1 - seat,
        )
        return new, [Event("pass", {"seat": seat})]

    def _vote(self, state: TriTacState, seat: Seat, expand: bool) -> tuple[TriTacState, list[Event]]:
        if state.phase != "vote":
            raise IllegalAction("no vote is being held now", "tri-tac.error.no_vote")
        if state.votes[seat] is not None:
            raise IllegalAction(f"seat {seat} has already voted", "tri-tac.error.voted_already", {"seat": seat})
        votes = _with_ballot(state.votes, seat, expand)
        events = [Event("vote", {"seat": seat}, {seat: {"expand": expand}})]
        if None in votes:
            return state.changed(votes=votes), events
        ballots = _flags(*votes)
        grow = all(ballots)
        new = state.changed(votes=_NO_VOTES, last_vote=LastVote(ballots, grow, state.size))
        events.append(Event("vote_result", {"votes": list(ballots), "expanded": grow}))
        if grow:
            new, expanded = self._expand(new)
            events.append(expanded)
        else:
            new = new.changed(phase="over")
            events.append(self._game_over_event(new))
        return new, events

    def _expand(self, state: TriTacState) -> tuple[TriTacState, Event]:
        """``state`` with a ring of empty cells added around its board (every coordinate shifts by +1)."""
        old = state.size
        size = old + 2
        edge: Row = (None,)
        board = _board([(None,) * size, *(edge + row + edge for row in state.board), (None,) * size])
        last_move = state.last_move
        if last_move is not None:
            seat, kind, r, c, points, move = last_move
            if r is not None and c is not None:
                last_move = (seat, kind, r + 1, c + 1, points, move)
        special = frozenset((r + 1, c + 1) for r, c in state.special)
        added: list[Cell] = []
        if state.options.special_squares:
            ring = [(r, c) for r in range(size) for c in range(size) if r in (0, size - 1) or c in (0, size - 1)]
            rng = random.Random(state.ring_seed * 16 + size)
            added = sorted(rng.sample(ring, special_count(len(ring))))
            special = special.union(added)
        new = state.changed(
            board=board,
            empty=_empty_cells(board),
            size=size,
            scored=tuple(
                tuple(frozenset((r + 1, c + 1) for r, c in cells) for cells in per_dir) for per_dir in state.scored
            ),
            lines=tuple(line.shifted() for line in state.lines),
            last_move=last_move,
            special=special,
            phase="turn",
        )
        return new, Event("expanded", {"old_size": old, "size": size, "special_added": _cells_json(added)})

    def _game_over_event(self, state: TriTacState) -> Event:
        outcome = self.outcome(state)
        assert outcome is not None
        return Event("game_over", outcome.to_json())

    # ---- views and timers -------------------------------------------------------------------------

    def view(self, state: TriTacState, seat: Seat | None) -> dict[str, JSON]:
        """The whole board is public. During a vote each player sees its own ballot and only whether the
        other has voted; both ballots are shown (``last_vote``) once both are in."""
        votes: list[dict[str, JSON]] | None = None
        if state.phase == "vote":
            votes = [
                {"voted": state.votes[s] is not None, "expand": state.votes[s] if s == seat else None} for s in (0, 1)
            ]
        board = state.board
        if True in state.power_used:  # a line breaks only when Power Play replaces one of its markers
            lines = [line.to_json(any(board[r][c] != line.seat for r, c in line.cells)) for line in state.lines]
        else:
            lines = [line.to_json(False) for line in state.lines]
        return {
            "size": state.size,
            "board": [list(row) for row in board],
            "markers": list(MARKERS),
            "special": _cell_set_json(state.special),
            "scores": list(state.scores),
            "first": state.first,
            "to_move": state.to_move if state.phase == "turn" else None,
            "phase": state.phase,
            "votes": votes,
            "last_vote": None if state.last_vote is None else state.last_vote.to_json(),
            "power_play": (
                [{"used": state.power_used[s], "available": self.can_power(state, s)} for s in (0, 1)]
                if state.options.power_play
                else None
            ),
            "combo_ready": (list(state.scored_last_turn) if state.options.combo_strike else None),
            "lines": lines,
            "last_move": _last_move_json(state.last_move),
            "move": state.move,
            "options": dict(_options_json(state.options)),
        }

    def same_view_for_all(self, state: TriTacState) -> bool:
        return state.phase != "vote"  # only a vote's own ballot is private

    def timeout_action(self, state: TriTacState, seat: Seat) -> Action:
        if state.phase == "vote":
            return {"type": "vote", "expand": False}
        return {"type": "pass"}

    def timer(self, state: TriTacState) -> Timer | None:
        if not state.options.time_challenge:
            return None
        if state.phase == "turn":
            return Timer(key=f"turn-{state.move}", seconds=state.options.time_seconds)
        if state.phase == "vote":
            return Timer(key=f"vote-{state.size}", seconds=state.options.time_seconds)
        return None

    def outcome(self, state: TriTacState) -> Outcome | None:
        if state.phase != "over":
            return None
        a, b = state.scores
        if a == b:
            winners: list[Seat] = []
            summary = LogEntry("tri-tac.result.draw", {"points": a})
        else:
            w = 0 if a > b else 1
            winners = [w]
            summary = LogEntry("tri-tac.result.won", {"seat": w, "points": max(a, b), "other_points": min(a, b)})
        scores = [float(a), float(b)]
        return Outcome(scores=scores, winners=winners, ranks=ranks_from_scores(scores), summary=summary)

    def log_entries(
        self, state: TriTacState, seat: Seat, action: Action, result: tuple[TriTacState, list[Event]]
    ) -> list[LogEntry]:
        """One entry a move, from its events: the placement (with what it scored), the pass, the vote (with
        the vote's result once both are in)."""
        events = {event.kind: event for event in result[1]}
        if "pass" in events:
            return [LogEntry("tri-tac.log.passed", {"seat": seat})]
        if "vote" in events:
            if "expanded" in events:
                return [LogEntry("tri-tac.log.voted_grow", {"seat": seat, "size": events["expanded"].public["size"]})]
            if "vote_result" in events:
                return [LogEntry("tri-tac.log.voted_end", {"seat": seat})]
            return [LogEntry("tri-tac.log.voted", {"seat": seat})]
        mark = events.get("power") or events["placed"]
        power = mark.kind == "power"
        params: dict[str, JSON] = {"seat": seat, "cell": mark.public["cell"]}
        scored = events.get("lines")
        if scored is None:
            return [LogEntry("tri-tac.log.power" if power else "tri-tac.log.placed", params)]
        params |= {"points": scored.public["points"], "lines": len(scored.public["lines"])}
        return [LogEntry("tri-tac.log.power_scored" if power else "tri-tac.log.placed_scored", params)]

    # ---- serialisation ------------------------------------------------------------------------------

    def dump(self, state: TriTacState) -> dict[str, JSON]:
        return {
            "options": dict(_options_json(state.options)),
            "size": state.size,
            "board": [list(row) for row in state.board],
            "special": _cell_set_json(state.special),
            "scores": list(state.scores),
            "first": state.first,
            "to_move": state.to_move,
            "phase": state.phase,
            "votes": list(state.votes),
            "last_vote": None if state.last_vote is None else state.last_vote.to_json(),
            "power_used": list(state.power_used),
            "scored": [[_cell_set_json(cells) for cells in per_dir] for per_dir in state.scored],
            "lines": [line.to_json() for line in state.lines],
            "scored_last_turn": list(state.scored_last_turn),
            "move": state.move,
            "last_move": _last_move_json(state.last_move),
            "ring_seed": state.ring_seed,
        }

    def read_state(self, data: Mapping[str, JSON]) -> TriTacState:
        phase = data["phase"]
        if phase not in ("turn", "vote", "over"):
            raise InvalidState(f"bad phase {phase!r}")
        board = _board([None if v is None else int(v) for v in row] for row in data["board"])
        points_0, points_1 = data["scores"]
        vote_0, vote_1 = data["votes"]
        last_vote = data["last_vote"]
        return TriTacState(
            options=TriTacOptions.model_validate(data["options"]),
            size=int(data["size"]),
            board=board,
            special=frozenset((int(r), int(c)) for r, c in data["special"]),
            scores=(int(points_0), int(points_1)),
            first=int(data["first"]),
            to_move=int(data["to_move"]),
            phase=phase,
            votes=(_ballot(vote_0), _ballot(vote_1)),
            last_vote=None if last_vote is None else LastVote.from_json(last_vote),
            power_used=_flags(*data["power_used"]),
            scored=tuple(
                tuple(frozenset((int(r), int(c)) for r, c in cells) for cells in per_dir) for per_dir in data["scored"]
            ),
            lines=tuple(ScoredLine.from_json(line) for line in data["lines"]),
            scored_last_turn=_flags(*data["scored_last_turn"]),
            move=int(data["move"]),
            last_move=_last_move(data["last_move"]),
            ring_seed=int(data["ring_seed"]),
            empty=_empty_cells(board),
        )


@functools.lru_cache(maxsize=256)
def _options_json(options: TriTacOptions) -> dict[str, JSON]:
    """Options are immutable and read by every view and dump: dumped once per distinct options (callers
    copy the dict)."""
    return options.model_dump()


def _ballot(value: Any) -> bool | None:
    return None if value is None else bool(value)


def _last_move(data: Any) -> LastMove | None:
    """``_last_move_json`` read back."""
    if data is None:
        return None
    cell = data["cell"]
    return (
        int(data["seat"]),
        str(data["type"]),
        None if cell is None else int(cell[0]),
        None if cell is None else int(cell[1]),
        int(data["points"]),
        int(data["move"]),
    )


# ---- bot ------------------------------------------------------------------------------------------


class TriTacBot(Bot[TriTacState]):
    """Greedy with a one-ply look at the opponent's reply.

    A placement at m is worth: my points at m, minus the opponent's best immediate reply afterwards (their
    best cell other than m; m itself too when they could Power Play it), plus small terms for lines it sets
    up for me and windows it spoils for the opponent. The opponent's reply values can be computed once per
    move because my marker at m never changes their runs through other empty cells. Power Play is
    considered for the few targets that score, at a small cost for spending it. Votes: expand when ahead or
    level and the board is still small.
    """

    SETUP_WEIGHT = (0.05, 0.4, 0.0)  # by my markers already in a clean 3-window through the cell
    DENY_WEIGHT = 0.3  # per clean opponent window through the cell that my marker spoils
    OWN_WEIGHT = 1.05  # a sure point now is a little better than an equal swing later
    SPOIL_WEIGHT = 0.1  # taking a cell the opponent could score on, beyond their best reply
    POWER_COST = 1.0
    SMALL_BOARD = 7

    def __init__(self, engine: TriTacEngine) -> None:
        self.engine = engine

    def choose(self, state: TriTacState, seat: Seat, rng: Any) -> Action:
        if state.phase == "vote":
            ahead = state.scores[seat] >= state.scores[1 - seat]
            return {"type": "vote", "expand": bool(ahead and state.size <= self.SMALL_BOARD)}
        opp = 1 - seat
        size = state.size
        board = state.board
        empties = [(r, c) for r in range(size) for c in range(size) if board[r][c] is None]
        mine_gain = {cell: _gain(state, seat, cell) for cell in empties}
        opp_gain = {cell: _gain(state, opp, cell) for cell in empties}
        opp_power = self.engine.can_power(state, opp)
        opp_power_best = 0
        if opp_power:
            for r in range(size):
                for c in range(size):
                    if board[r][c] == seat:
                        opp_power_best = max(opp_power_best, _gain(state, opp, (r, c)))
        # Top two opponent replies so "best reply other than m" is O(1).
        ranked = sorted(opp_gain.values(), reverse=True)
        top1 = ranked[0] if ranked else 0
        top2 = ranked[1] if len(ranked) > 1 else 0

        best_value = float("-inf")
        best: list[Action] = []
        for cell in empties:
            reply = top2 if opp_gain[cell] == top1 else top1
            if opp_power:
                reply = max(reply, opp_power_best, opp_gain[cell])
            value = (
                self.OWN_WEIGHT * mine_gain[cell]
                - reply
                + self.SPOIL_WEIGHT * opp_gain[cell]
                + self._potential(state, seat, cell)
                + self.DENY_WEIGHT * self._potential(state, opp, cell)
            )
            if value > best_value + 1e-9:
                best_value, best = value, [{"type": "place", "cell": [cell[0], cell[1]]}]
            elif abs(value - best_value) <= 1e-9:
                best.append({"type": "place", "cell": [cell[0], cell[1]]})

        if self.engine.can_power(state, seat):
            targets = [
                (g, (r, c))
                for r in range(size)
                for c in range(size)
                if board[r][c] == opp and (g := _gain(state, seat, (r, c))) > 0
            ]
            targets.sort(reverse=True)
            for g, cell in targets[:3]:
                after = state.changed(
                    board=_with_cell(board, cell, seat), scored=_scored_without(state.scored, opp, cell)
                )  # a replaced marker leaves the empty cells as they were
                reply = max((_gain(after, opp, e) for e in empties), default=0)
                value = g - reply - self.POWER_COST
                if value > best_value + 1e-9:
                    best_value, best = value, [{"type": "power", "cell": [cell[0], cell[1]]}]
        if not best:  # only possible on a full board, which never has a turn; keep the API total
            return {"type": "pass"}
        choice: Action = rng.choice(best)
        return choice

    def _potential(self, state: TriTacState, seat: Seat, cell: Cell) -> float:
        """How much a marker of ``seat`` at ``cell`` sets up future lines: clean 3-windows through it."""
        size = state.size
        board = state.board
        special = state.special
        total = 0.0
        r0, c0 = cell
        for d, (dr, dc) in enumerate(DIRECTIONS):
            done = state.scored[seat][d]
            for start in (-2, -1, 0):
                mine = 0
                ok = True
                has_special = False
                for k in range(start, start + 3):
                    r, c = r0 + k * dr, c0 + k * dc
                    if not (0 <= r < size and 0 <= c < size):
                        ok = False
                        break
                    v = board[r][c]
                    if (r, c) in done or (v is not None and v != seat and k != 0):
                        ok = False
                        break
                    if k != 0 and v == seat:
                        mine += 1
                    if (r, c) in special:
                        has_special = True
                if ok:
                    w = self.SETUP_WEIGHT[mine]
                    total += 2 * w if has_special else w
        return total


ENGINE = TriTacEngine()
BOT = TriTacBot(ENGINE)
