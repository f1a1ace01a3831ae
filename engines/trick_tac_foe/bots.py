"""The normal bot: expected-value play from public knowledge only."""

from __future__ import annotations

from typing import Any

from engines.base import Bot, Seat
from engines.trick_tac_foe.actions import COMMIT, WILD, TrickTacFoeAction
from engines.trick_tac_foe.board import LINES, Cell, Grid, lines_of, with_cell
from engines.trick_tac_foe.cards import ALL_CARDS, card_rank, card_strength, sort_cards
from engines.trick_tac_foe.rules import ENGINE, TrickTacFoeEngine
from engines.trick_tac_foe.seats import cell_for, number_for, opponent_of, team_of
from engines.trick_tac_foe.state import TrickTacFoeState


def unseen_cards(state: TrickTacFoeState, seat: Seat) -> list[str]:
    """The cards ``seat`` has not seen: not in its hand, not discarded, not a committed card it may see. Only
    public knowledge and the seat's own cards, so a bot that plays on these cannot cheat."""
    seen = set(state.hands[seat]) | set(state.discard)
    for s in range(state.players):
        card = state.committed[s]
        if card is not None and (s == seat or state.revealed[s]):
            seen.add(card)
    return [c for c in ALL_CARDS if c not in seen]


def _threat_cells(grid: Grid, team: int) -> set[Cell]:
    """Cells where a ``team`` token (placed or flipped) would complete a ``team`` line."""
    hot: set[Cell] = set()
    for line in LINES:
        others = [cell for cell in line if grid[cell[0]][cell[1]] != team]
        if len(others) == 1:
            hot.add(others[0])
    return hot


def evaluate_grid(grid: Grid, team: int) -> float:
    """How good ``grid`` is for ``team`` (no point scored on it): threats and tokens, mine minus theirs."""
    value = 0.0
    for t, sign in ((team, 1.0), (1 - team, -1.0)):
        hot = _threat_cells(grid, t)
        tokens = sum(1 for row in grid for v in row if v == t)
        centre = 1 if grid[1][1] == t else 0
        value += sign * (1.6 * len(hot) + 0.35 * tokens + 0.25 * centre)
    return value


class TrickTacFoeBot(Bot[TrickTacFoeState]):
    """Expected-value play from public knowledge only (its hand, revealed cards, the grid).

    For each card in hand it estimates the chance of winning the trick (the opponent's card is assumed
    equally likely to be any card it has not seen), the board gain when it wins (the cell the card names
    from its seat, or the best cell for a 10; completing its own team's line is worth a point), and the
    loss when the opponent wins with a higher card (the opponent's gain with that card from their seat).
    Winning costs a little (a high card spent now cannot win later), so it dumps low cards when nothing is
    at stake and spends high cards when a line is to be made or stopped. Wild 10: the best cell.
    """

    POINT = 10.0
    SPEND_COST = 4.0

    def __init__(self, engine: TrickTacFoeEngine) -> None:
        self.engine = engine

    def gain(self, grid: Grid, team: int, cell: Cell) -> float:
        """The change in value for ``team`` when it resolves ``cell``."""
        before = evaluate_grid(grid, team)
        after = with_cell(grid, cell, team)
        if lines_of(after, team):
            return self.POINT - before
        return evaluate_grid(after, team) - before

    def best_cell(self, grid: Grid, team: int) -> tuple[float, Cell]:
        options = [(self.gain(grid, team, (r, c)), (r, c)) for r in range(3) for c in range(3)]
        return max(options, key=lambda x: (x[0], -x[1][0], -x[1][1]))

    def choose(self, state: TrickTacFoeState, seat: Seat, rng: Any) -> TrickTacFoeAction:
        engine = self.engine
        n = state.players
        label = engine.label(state, seat)
        team = team_of(n, seat)
        grid = state.grid
        if state.phase == "wild":
            _value, cell = self.best_cell(grid, team)
            return WILD[number_for(label, cell)]
        hand = sort_cards(state.hands[seat])
        unseen = unseen_cards(state, seat)
        if not unseen:
            return COMMIT[hand[0]]
        opp = opponent_of(n, seat)
        opp_label = engine.label(state, opp)
        opp_team = 1 - team
        cells = [(r, c) for r in range(3) for c in range(3)]
        my_gains = {cell: self.gain(grid, team, cell) for cell in cells}
        opp_gains = {cell: self.gain(grid, opp_team, cell) for cell in cells}
        my_best, opp_best = max(my_gains.values()), max(opp_gains.values())
        opp_gain: dict[str, float] = {}
        for u in unseen:
            rank = card_rank(u)
            opp_gain[u] = opp_best if rank == 10 else opp_gains[cell_for(opp_label, rank)]
        best_value = float("-inf")
        best: list[str] = []
        for card in hand:
            rank = card_rank(card)
            mine = my_best if rank == 10 else my_gains[cell_for(label, rank)]
            strength = card_strength(card)
            wins = sum(1 for u in unseen if card_strength(u) < strength)
            p_win = wins / len(unseen)
            loss = sum(opp_gain[u] for u in unseen if card_strength(u) > strength) / len(unseen)
            value = p_win * (mine - self.SPEND_COST * (1 + strength / 40)) - loss
            if value > best_value + 1e-9:
                best_value, best = value, [card]
            elif abs(value - best_value) <= 1e-9:
                best.append(card)
        return COMMIT[best[0] if len(best) == 1 else rng.choice(best)]


BOT = TrickTacFoeBot(ENGINE)
