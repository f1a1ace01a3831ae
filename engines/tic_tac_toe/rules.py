"""Tic-Tac-Toe's rules: two players take turns marking a 3×3 grid; three in a row wins, a full grid is a draw.

Seat 0 ("Player 1") plays X and always moves first; seat 1 plays O. Nothing is hidden and nothing is random
(the seed is unused). The game exists to show what a game consists of: docs/adding-a-game.md walks through
it, and its rules page is static/games/tic-tac-toe/rules/en.html.
"""

from __future__ import annotations

from engines.base import (
    JSON,
    Engine,
    Event,
    IllegalAction,
    LogEntry,
    Outcome,
    Seat,
    SeatInfo,
    check_seat,
    ranks_from_scores,
)
from engines.tic_tac_toe.actions import ACTIONS, PLACES, Place, TicTacToeAction
from engines.tic_tac_toe.options import TicTacToeOptions
from engines.tic_tac_toe.state import CELLS, MARKERS, TicTacToeState, is_over, winning_line

_SEATS = (SeatInfo("Player 1"), SeatInfo("Player 2"))
_ONLY = (frozenset({0}), frozenset({1}))


class TicTacToeEngine(Engine[TicTacToeState, TicTacToeOptions, TicTacToeAction]):
    name = "tic-tac-toe"
    title = "Tic-Tac-Toe"
    options_model = TicTacToeOptions
    actions = ACTIONS
    state_type = TicTacToeState

    # ---- options and seats ----------------------------------------------------------------------

    def seats(self, options: TicTacToeOptions) -> list[SeatInfo]:
        return list(_SEATS)

    def options_of(self, state: TicTacToeState) -> TicTacToeOptions:
        return state.options

    # ---- playing --------------------------------------------------------------------------------

    def new_game(self, options: TicTacToeOptions, seed: int) -> TicTacToeState:
        return TicTacToeState(options=options, board=(None,) * CELLS, to_move=0, last=None)

    def to_act(self, state: TicTacToeState) -> frozenset[Seat]:
        return frozenset() if is_over(state.board) else _ONLY[state.to_move]

    def legal_actions(self, state: TicTacToeState, seat: Seat) -> list[TicTacToeAction]:
        if seat not in self.to_act(state):
            return []
        return [PLACES[cell] for cell, mark in enumerate(state.board) if mark is None]

    def apply(self, state: TicTacToeState, seat: Seat, action: TicTacToeAction) -> tuple[TicTacToeState, list[Event]]:
        check_seat(seat, len(_SEATS))
        if not isinstance(action, Place):
            # The app parses every action at its edge (parse_action); a caller that skipped it is refused.
            raise IllegalAction(f"not a Tic-Tac-Toe action: {action!r}")
        if is_over(state.board):
            raise IllegalAction("the game is over", "action.game_over")
        if seat != state.to_move:
            raise IllegalAction(f"it is seat {state.to_move}'s turn", "action.turn_of", {"seat": state.to_move})
        cell = action.cell
        if state.board[cell] is not None:
            raise IllegalAction(f"cell {cell} is already taken", "tic-tac-toe.error.cell_taken", {"cell": cell})
        board = (*state.board[:cell], seat, *state.board[cell + 1 :])
        new = state.changed(board=board, to_move=1 - seat, last=cell)
        events = [Event("placed", {"seat": seat, "cell": cell, "marker": MARKERS[seat]})]
        outcome = self.outcome(new)
        if outcome is not None:
            events.append(Event("game_over", outcome.to_json()))
        return new, events

    def timeout_action(self, state: TicTacToeState, seat: Seat) -> TicTacToeAction:
        """Out of time, a player's mark goes in the first empty cell (reading order)."""
        return PLACES[state.board.index(None)]

    def outcome(self, state: TicTacToeState) -> Outcome | None:
        line = winning_line(state.board)
        if line is not None:
            winner = state.board[line[0]]
            assert winner is not None
            scores = [1.0 if seat == winner else 0.0 for seat in range(len(_SEATS))]
            summary = LogEntry("tic-tac-toe.result.won", {"seat": winner})
            return Outcome(scores=scores, winners=[winner], ranks=ranks_from_scores(scores), summary=summary)
        if None in state.board:
            return None
        scores = [0.0, 0.0]
        return Outcome(scores, [], ranks_from_scores(scores), LogEntry("tic-tac-toe.result.draw"))

    # ---- what players see -----------------------------------------------------------------------

    def view(self, state: TicTacToeState, seat: Seat | None) -> dict[str, JSON]:
        """Everything: the board, the markers, whose turn it is, the last move and the winning line."""
        line = winning_line(state.board)
        return {
            "board": list(state.board),
            "markers": list(MARKERS),
            "to_move": None if is_over(state.board) else state.to_move,
            "last": state.last,
            "line": None if line is None else list(line),
        }

    def same_view_for_all(self, state: TicTacToeState) -> bool:
        return True  # nothing is hidden

    def log_entries(
        self,
        state: TicTacToeState,
        seat: Seat,
        action: TicTacToeAction,
        result: tuple[TicTacToeState, list[Event]],
    ) -> list[LogEntry]:
        """One entry a move, read from its ``placed`` event (the result's summary is added by the app)."""
        placed = next(event for event in result[1] if event.kind == "placed")
        return [LogEntry("tic-tac-toe.log.placed", {"seat": seat, "cell": placed.public["cell"]})]


ENGINE = TicTacToeEngine()
