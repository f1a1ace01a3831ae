"""Tri-Tac's normal bot: greedy, with a one-ply look at the opponent's reply."""

from __future__ import annotations

from typing import Any

from engines.base import Bot, Seat
from engines.tri_tac.actions import PASS, PLACE, POWER, VOTE_END, VOTE_GROW, TriTacAction
from engines.tri_tac.rules import ENGINE, TriTacEngine
from engines.tri_tac.scoring import gain
from engines.tri_tac.state import DIRECTIONS, Cell, TriTacState, scored_without, with_cell


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

    def choose(self, state: TriTacState, seat: Seat, rng: Any) -> TriTacAction:
        if state.phase == "vote":
            ahead = state.scores[seat] >= state.scores[1 - seat]
            return VOTE_GROW if ahead and state.size <= self.SMALL_BOARD else VOTE_END
        opp = 1 - seat
        size = state.size
        board = state.board
        empties = [(r, c) for r in range(size) for c in range(size) if board[r][c] is None]
        mine_gain = {cell: gain(state, seat, cell) for cell in empties}
        opp_gain = {cell: gain(state, opp, cell) for cell in empties}
        opp_power = self.engine.can_power(state, opp)
        opp_power_best = 0
        if opp_power:
            for r in range(size):
                for c in range(size):
                    if board[r][c] == seat:
                        opp_power_best = max(opp_power_best, gain(state, opp, (r, c)))
        # Top two opponent replies so "best reply other than m" is O(1).
        ranked = sorted(opp_gain.values(), reverse=True)
        top1 = ranked[0] if ranked else 0
        top2 = ranked[1] if len(ranked) > 1 else 0

        best_value = float("-inf")
        best: list[TriTacAction] = []
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
                best_value, best = value, [PLACE[cell[0]][cell[1]]]
            elif abs(value - best_value) <= 1e-9:
                best.append(PLACE[cell[0]][cell[1]])

        if self.engine.can_power(state, seat):
            targets = [
                (g, (r, c))
                for r in range(size)
                for c in range(size)
                if board[r][c] == opp and (g := gain(state, seat, (r, c))) > 0
            ]
            targets.sort(reverse=True)
            for g, cell in targets[:3]:
                after = state.changed(
                    board=with_cell(board, cell, seat), scored=scored_without(state.scored, opp, cell)
                )  # a replaced marker leaves the empty cells as they were
                reply = max((gain(after, opp, e) for e in empties), default=0)
                value = g - reply - self.POWER_COST
                if value > best_value + 1e-9:
                    best_value, best = value, [POWER[cell[0]][cell[1]]]
        if not best:  # only possible on a full board, which never has a turn; keep the API total
            return PASS
        choice: TriTacAction = rng.choice(best)
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


BOT = TriTacBot(ENGINE)
