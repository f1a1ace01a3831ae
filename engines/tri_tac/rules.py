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

import random

from engines.base import (
    JSON,
    Engine,
    Event,
    IllegalAction,
    LogEntry,
    Outcome,
    Seat,
    SeatInfo,
    Timer,
    check_seat,
    ranks_from_scores,
)
from engines.tri_tac import log, views
from engines.tri_tac.actions import (
    ACTIONS,
    PASS,
    PLACE,
    POWER,
    VOTE_END,
    VOTE_GROW,
    Pass,
    Place,
    Power,
    TriTacAction,
    Vote,
)
from engines.tri_tac.options import MAX_SIZE, TriTacOptions
from engines.tri_tac.scoring import POWER_PLAY_THRESHOLD, can_power, runs_through, special_count
from engines.tri_tac.state import (
    DIRECTION_NAMES,
    MARKERS,
    NO_SCORED,
    NO_VOTES,
    Cell,
    LastVote,
    Row,
    ScoredLine,
    TriTacState,
    board_of,
    cells_json,
    empty_cells,
    flags,
    scored_with,
    scored_without,
    with_ballot,
    with_cell,
    with_flag,
    with_score,
)

_ONLY = (frozenset({0}), frozenset({1}))  # to_act on a turn, made once
_SEATS = (SeatInfo("Player 1"), SeatInfo("Player 2"))  # immutable: every call shares them


def _on_board(cell: Cell, size: int) -> Cell:
    r, c = cell
    if not (0 <= r < size and 0 <= c < size):
        raise IllegalAction(
            f"cell [{r}, {c}] is outside the {size}×{size} board", "tri-tac.error.off_board", {"size": size}
        )
    return cell


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
            board=board_of([None] * n for _ in range(n)),
            special=special,
            scores=(0, 0),
            first=first,
            to_move=first,
            phase="turn",
            votes=NO_VOTES,
            last_vote=None,
            power_used=flags(False, False),
            scored=NO_SCORED,
            lines=(),
            scored_last_turn=flags(False, False),
            move=1,
            last_move=None,
            ring_seed=ring_seed,
        )

    def to_act(self, state: TriTacState) -> frozenset[Seat]:
        if state.phase == "turn":
            return _ONLY[state.to_move]
        if state.phase == "vote":
            return frozenset(s for s in (0, 1) if state.votes[s] is None)
        return frozenset()

    def can_power(self, state: TriTacState, seat: Seat) -> bool:
        """Whether ``seat`` may use Power Play now (on its turn) or could on its turn (score and usage)."""
        return can_power(state, seat)

    def legal_actions(self, state: TriTacState, seat: Seat) -> list[TriTacAction]:
        """Every placement and Power Play target; votes while voting. ``pass`` is legal on your turn but is
        deliberately not listed (it only loses the turn; it is what a Time Challenge timeout does)."""
        if seat not in self.to_act(state):
            return []
        if state.phase == "vote":
            return [VOTE_GROW, VOTE_END]
        actions: list[TriTacAction] = []
        power = can_power(state, seat)
        for r, row in enumerate(state.board):
            places, powers = PLACE[r], POWER[r]
            for c, v in enumerate(row):
                if v is None:
                    actions.append(places[c])
                elif power and v != seat:
                    actions.append(powers[c])
        return actions

    def apply(self, state: TriTacState, seat: Seat, action: TriTacAction) -> tuple[TriTacState, list[Event]]:
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
        runs = runs_through(state, seat, cell)
        scored = state.scored
        power_used = state.power_used
        if power:
            power_used = with_flag(power_used, seat, True)
            scored = scored_without(scored, opponent, cell)
            events = [Event("power", {"seat": seat, "cell": [r, c], "marker": MARKERS[seat], "replaced": opponent})]
        else:
            events = [Event("placed", {"seat": seat, "cell": [r, c], "marker": MARKERS[seat]})]
        points = 0
        scores = state.scores
        lines = state.lines
        fresh: tuple[ScoredLine, ...] = ()
        if runs:  # most moves make none
            scored = scored_with(scored, seat, runs)
            fresh = tuple(ScoredLine(seat, tuple(run), v, move, DIRECTION_NAMES[d]) for d, run, new, v in runs if new)
        if fresh:
            n = len(fresh)
            special_extra = sum(line.points - 1 for line in fresh)
            bonus = n - 1
            combo = 1 if state.options.combo_strike and state.scored_last_turn[seat] else 0
            points = n + special_extra + bonus + combo
            scores = with_score(scores, seat, scores[seat] + points)
            lines += fresh
            events.append(
                Event(
                    "lines",
                    {
                        "seat": seat,
                        "lines": [{"cells": cells_json(line.cells), "points": line.points} for line in fresh],
                        "points": points,
                        "breakdown": {"lines": n, "bonus": bonus, "special": special_extra, "combo": combo},
                        "scores": list(scores),
                    },
                )
            )
        new = state.changed(
            board=with_cell(state.board, cell, seat),
            empty=state.empty - (state.board[r][c] is None),
            scores=scores,
            power_used=power_used,
            scored=scored,
            lines=lines,
            scored_last_turn=with_flag(state.scored_last_turn, seat, points > 0),
            last_move=(seat, "power" if power else "place", r, c, points, move),
            move=move + 1,
            to_move=opponent,
        )
        if not new.empty:
            if new.options.dynamic_board and new.size + 2 <= MAX_SIZE:
                new = new.changed(phase="vote", votes=NO_VOTES)
                events.append(Event("vote_open", {"size": new.size, "new_size": new.size + 2}))
            else:
                new = new.changed(phase="over")
                events.append(self._game_over_event(new))
        return new, events

    def _pass(self, state: TriTacState, seat: Seat) -> tuple[TriTacState, list[Event]]:
        new = state.changed(
            scored_last_turn=with_flag(state.scored_last_turn, seat, False),
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
        votes = with_ballot(state.votes, seat, expand)
        events = [Event("vote", {"seat": seat}, {seat: {"expand": expand}})]
        if None in votes:
            return state.changed(votes=votes), events
        ballots = flags(*votes)
        grow = all(ballots)
        new = state.changed(votes=NO_VOTES, last_vote=LastVote(ballots, grow, state.size))
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
        board = board_of([(None,) * size, *(edge + row + edge for row in state.board), (None,) * size])
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
            empty=empty_cells(board),
            size=size,
            scored=tuple(
                tuple(frozenset((r + 1, c + 1) for r, c in cells) for cells in per_dir) for per_dir in state.scored
            ),
            lines=tuple(line.shifted() for line in state.lines),
            last_move=last_move,
            special=special,
            phase="turn",
        )
        return new, Event("expanded", {"old_size": old, "size": size, "special_added": cells_json(added)})

    def _game_over_event(self, state: TriTacState) -> Event:
        outcome = self.outcome(state)
        assert outcome is not None
        return Event("game_over", outcome.to_json())

    # ---- views, timers and the result ---------------------------------------------------------------

    def view(self, state: TriTacState, seat: Seat | None) -> dict[str, JSON]:
        return views.view(state, seat)

    def same_view_for_all(self, state: TriTacState) -> bool:
        return views.same_view_for_all(state)

    def timeout_action(self, state: TriTacState, seat: Seat) -> TriTacAction:
        return VOTE_END if state.phase == "vote" else PASS

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
        self, state: TriTacState, seat: Seat, action: TriTacAction, result: tuple[TriTacState, list[Event]]
    ) -> list[LogEntry]:
        return log.log_entries(seat, result[1])


ENGINE = TriTacEngine()
