"""Tic Tac Match's normal bot: a one-turn lookahead on public information and its own hand only."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engines.base import GRID_LINES as LINES
from engines.base import Action, Bot, IllegalAction, Seat
from engines.tic_tac_match.actions import FLIP, PLAY, Discard, Double, Flip, Forfeit, Play, TicTacMatchAction, Wipeout
from engines.tic_tac_match.cards import COPIES, can_stack, card_kind, card_type, types_stack
from engines.tic_tac_match.plays import play_result
from engines.tic_tac_match.rules import ENGINE, TicTacMatchEngine
from engines.tic_tac_match.state import TicTacMatchState


def threats(tops: Sequence[int | None]) -> set[tuple[int, int]]:
    """(type, open cell): two tops of one type in a line whose third cell a card of that type could take."""
    types = [card_type(t) if t is not None else None for t in tops]
    found: set[tuple[int, int]] = set()
    for line in LINES:
        for k, open_cell in enumerate(line):
            x, y = (types[i] for j, i in enumerate(line) if j != k)
            if x is None or x != y:
                continue
            other = types[open_cell]
            if other is None or types_stack(x, other):
                found.add((x, open_cell))
    return found


class TicTacMatchBot(Bot[TicTacMatchState]):
    """A one-turn lookahead on public information and its own hand only.

    It completes a winning line when it can (a Double Play is searched over both of its plays), never
    completes one for the other side, and values the position it leaves by the open "two in a line" threats
    each side could finish: an open threat of the other side's symbol with an opponent to move is very bad, so
    it blocks it (covers one of its cards or its open cell) or plays Flip to turn it round. Action cards have
    a small cost, so it keeps them unless they gain something.
    """

    WIN = 1000.0
    COST: Mapping[str, float] = {"flip": 1.0, "wipeout": 1.5, "double": 1.0, "discard": 0.5, "forfeit": 0.0}

    def __init__(self, engine: TicTacMatchEngine) -> None:
        self.engine = engine

    def choose(self, state: TicTacMatchState, seat: Seat, rng: Any) -> TicTacMatchAction:
        actions = self.engine.legal_actions(state, seat)
        if not actions:
            raise IllegalAction("the bot's seat is not to act")
        if len(actions) == 1:
            return actions[0]
        best: list[TicTacMatchAction] = []
        best_score = -float("inf")
        for action in actions:
            score = self.score(state, seat, action)
            if score > best_score + 1e-9:
                best, best_score = [action], score
            elif score > best_score - 1e-9:
                best.append(action)
        return best[0] if len(best) == 1 else best[rng.randrange(len(best))]

    def score(self, state: TicTacMatchState, seat: Seat, action: Action) -> float:
        """The value of ``action`` for ``seat`` (public information and the seat's own hand only)."""
        side = seat % 2
        symbol = state.seat_symbol(seat)
        tops = state.tops()
        hand = state.hands[seat]
        next_side = (seat + 1) % state.players % 2
        if isinstance(action, Play | Flip):  # most actions: tested first
            plays_after = 1 if state.plays_left == 2 else 0
            return self._value(tops, symbol, side, next_side, hand, action, plays_after)
        if isinstance(action, Wipeout):
            return self._position(tops, symbol, side, action.target % 2) - self.COST[action.type]
        if isinstance(action, Double):
            rest = list(hand)
            rest.remove(action.card)
            return self._best(tops, symbol, side, next_side, rest, 2) - self.COST[action.type]
        assert isinstance(action, Discard | Forfeit), action
        return self._position(tops, symbol, side, next_side) - self.COST[action.type]

    def _value(
        self,
        tops: list[int | None],
        symbol: int,
        side: int,
        next_side: int,
        hand: Sequence[int],
        action: Play | Flip,
        plays_after: int,
    ) -> float:
        card = action.card
        if isinstance(action, Play):
            cell = action.index
            winner = play_result(tops, card, cell)
            if winner is not None:
                return self.WIN if winner == symbol else -self.WIN
            after = list(tops)
            after[cell] = card
            cost = 0.0
        else:  # flip
            after, symbol, cost = tops, 1 - symbol, self.COST["flip"]
        if plays_after:
            rest = list(hand)
            rest.remove(card)
            return self._best(after, symbol, side, next_side, rest, plays_after) - cost
        return self._position(after, symbol, side, next_side) - cost

    def _best(
        self, tops: list[int | None], symbol: int, side: int, next_side: int, hand: list[int], plays: int
    ) -> float:
        """The best value over the next ``plays`` Symbol/Flip plays from ``hand``."""
        best = -float("inf")
        for card in hand:
            kind = card_kind(card)
            if kind == "symbol":
                on_cell = PLAY[card]
                options: list[Play | Flip] = [
                    on_cell[i] for i, top in enumerate(tops) if top is None or can_stack(card, top)
                ]
            elif kind == "flip":
                options = [FLIP[card]]
            else:
                continue
            for option in options:
                best = max(best, self._value(tops, symbol, side, next_side, hand, option, plays - 1))
        if best == -float("inf"):  # nothing more can be played: the turn ends here
            return self._position(tops, symbol, side, next_side)
        return best

    @staticmethod
    def _position(tops: Sequence[int | None], symbol: int, side: int, mover_side: int) -> float:
        """How good the grid is for ``side`` (showing ``symbol``) when ``mover_side`` plays next: each open
        threat of our symbol counts 8 (2 when the other side moves next), each of theirs -2 (-10), plus a
        little shape: 0.1 for each of our symbol's tops in each line that still has an empty cell."""
        types = tuple(None if top is None else top // COPIES for top in tops)
        terms = _GRID_TERMS.get(types)
        if terms is None:
            if len(_GRID_TERMS) >= _GRID_TERMS_MAX:
                _GRID_TERMS.clear()
            terms = _GRID_TERMS[types] = _grid_terms(types)
        ours, theirs = terms[symbol], terms[1 - symbol]
        if mover_side == side:
            return 8.0 * ours[0] - 2.0 * theirs[0] + 0.1 * ours[1]
        return 2.0 * ours[0] - 10.0 * theirs[0] + 0.1 * ours[1]


_Terms = tuple[tuple[int, int], tuple[int, int]]
_GRID_TERMS: dict[tuple[int | None, ...], _Terms] = {}
_GRID_TERMS_MAX = 1 << 18
"""The bot values the same grids over and over (the strong bot's playouts above all): their terms are kept."""


def _grid_terms(types: tuple[int | None, ...]) -> _Terms:
    """Per symbol: the number of its open threats (as ``threats`` counts them) and its shape count."""
    found: set[tuple[int, int]] = set()
    shape = [0, 0]
    for line in LINES:
        a, b, c = (types[i] for i in line)
        for x, y, other, open_cell in ((a, b, c, line[2]), (a, c, b, line[1]), (b, c, a, line[0])):
            if x is not None and x == y and (other is None or types_stack(x, other)):
                found.add((x, open_cell))
        if a is None or b is None or c is None:
            for t in (a, b, c):
                if t is not None:
                    shape[t % 2] += 1
    count = [0, 0]
    for t, _cell in found:
        count[t % 2] += 1
    return ((count[0], shape[0]), (count[1], shape[1]))


BOT = TicTacMatchBot(ENGINE)
