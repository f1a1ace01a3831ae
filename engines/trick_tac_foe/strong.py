"""Trick-Tac-Foe's strong bot: a determinized search over the cards in hand.

A seat sees its hand, its own committed card, the revealed cards and the discard pile. Each sample deals
every other card of the round at random into the places it cannot see (other hands, other unrevealed
committed cards, every personal deck, its own included) and deals the later rounds afresh.
"""

from __future__ import annotations

from bisect import bisect_left
from functools import lru_cache
from random import Random

from engines.base import Seat
from engines.search import GameModel, squash
from engines.trick_tac_foe.actions import COMMIT, WILD, TrickTacFoeAction
from engines.trick_tac_foe.board import Grid
from engines.trick_tac_foe.bots import BOT, evaluate_grid, unseen_cards
from engines.trick_tac_foe.cards import ALL_CARDS, card_rank, card_strength, sort_cards
from engines.trick_tac_foe.options import rounds_for
from engines.trick_tac_foe.rules import ENGINE
from engines.trick_tac_foe.seats import DIRECTIONS, cell_for, number_for, opponent_of, team_of
from engines.trick_tac_foe.state import TrickTacFoeState

CELLS = [(r, c) for r in range(3) for c in range(3)]
_STRENGTH = {card: card_strength(card) for card in ALL_CARDS}
_CELL_INDEX: dict[str, dict[str, int | None]] = {
    label: {
        card: None if card_rank(card) == 10 else CELLS.index(cell_for(label, card_rank(card))) for card in ALL_CARDS
    }
    for label in DIRECTIONS
}
"""Per seat label, the index in ``CELLS`` that each card names (None: a 10, any cell)."""


@lru_cache(maxsize=1 << 16)
def _gains(grid: Grid, team: int) -> tuple[float, ...]:
    """The normal bot's gain for ``team`` on each cell of ``grid``; a grid recurs often."""
    return tuple(BOT.gain(grid, team, cell) for cell in CELLS)


@lru_cache(maxsize=1 << 12)
def _grid_value(grid: Grid, team: int) -> float:
    return evaluate_grid(grid, team)


class TrickTacFoeModel(GameModel[TrickTacFoeState]):
    engine = ENGINE
    rollout_depth = 16
    model_commits = True
    """Sample a hidden committed card as the normal rule would have chosen it (else: any unseen card)."""

    def determinize(self, state: TrickTacFoeState, seat: Seat, rng: Random) -> TrickTacFoeState:
        n = state.players
        seen = set(state.hands[seat]) | set(state.discard)
        hidden_commits: list[Seat] = []
        for s in range(n):
            card = state.committed[s]
            if card is None:
                continue
            if s == seat or state.revealed[s]:
                seen.add(card)
            else:
                hidden_commits.append(s)
        # Cards already resolved in this trick set are in the records (and still committed): seen.
        pool = [card for card in ALL_CARDS if card not in seen]
        rng.shuffle(pool)
        hands = [hand if s == seat else tuple(pool.pop() for _ in hand) for s, hand in enumerate(state.hands)]
        committed = list(state.committed)
        guess = self.model_commits and state.phase == "commit"
        for s in hidden_commits:
            if not guess:
                committed[s] = pool.pop()
                continue
            # The seat chose its card from a hand one card larger, on the grid as it is now (nothing of this
            # set is revealed yet): deal that hand and let the normal rule choose, so the sample leans the way
            # the normal bot's (and a sensible player's) choice does instead of any unseen card alike.
            held = (*hands[s], pool.pop())
            hands[s] = held
            committed[s] = None
            before = state.changed(hands=tuple(hands), committed=tuple(committed))
            card = self._commit_choice(before, s)
            committed[s] = card
            i = held.index(card)
            hands[s] = held[:i] + held[i + 1 :]
        decks = tuple(tuple(pool.pop() for _ in deck) for deck in state.decks)
        deals: list[tuple[tuple[str, ...], ...]] = []
        for _ in range(rounds_for(state.options)):
            cards = list(ALL_CARDS)
            rng.shuffle(cards)
            deals.append(tuple(tuple(cards[s::n]) for s in range(n)))
        return state.changed(committed=tuple(committed), hands=tuple(hands), decks=decks, deals=tuple(deals))

    def policy(self, state: TrickTacFoeState, seat: Seat, rng: Random) -> TrickTacFoeAction:
        """The normal bot's rule (expected gain against the unseen cards), with its board values cached."""
        n = state.players
        label = ENGINE.label(state, seat)
        team = team_of(n, seat)
        key = state.grid
        mine = _gains(key, team)
        if state.phase == "wild":
            best = max(range(9), key=lambda i: (mine[i], -i))
            return WILD[number_for(label, CELLS[best])]
        return COMMIT[self._commit_choice(state, seat)]

    def _commit_choice(self, state: TrickTacFoeState, seat: Seat) -> str:
        """The normal bot's card (ties to the lowest), from lookup tables: it runs for every playout move."""
        n = state.players
        team = team_of(n, seat)
        key = state.grid
        hand = sort_cards(state.hands[seat])
        unseen = unseen_cards(state, seat)  # lowest first
        if not unseen:
            return hand[0]
        mine, theirs = _gains(key, team), _gains(key, 1 - team)
        my_cells, opp_cells = (
            _CELL_INDEX[ENGINE.label(state, seat)],
            _CELL_INDEX[ENGINE.label(state, opponent_of(n, seat))],
        )
        my_best, opp_best = max(mine), max(theirs)
        strengths = [_STRENGTH[u] for u in unseen]
        # above[i]: the opponent's total gain over the unseen cards from the i-th up (they beat a card below)
        above = [0.0] * (len(unseen) + 1)
        for i in range(len(unseen) - 1, -1, -1):
            cell = opp_cells[unseen[i]]
            above[i] = above[i + 1] + (opp_best if cell is None else theirs[cell])
        best_value, best_card = float("-inf"), hand[0]
        for card in hand:
            cell = my_cells[card]
            gain = my_best if cell is None else mine[cell]
            strength = _STRENGTH[card]
            below = bisect_left(strengths, strength)
            value = below / len(unseen) * (gain - BOT.SPEND_COST * (1 + strength / 40)) - above[below] / len(unseen)
            if value > best_value + 1e-9:
                best_value, best_card = value, card
        return best_card

    def evaluate(self, state: TrickTacFoeState, seat: Seat) -> float:
        team = team_of(state.players, seat)
        board = _grid_value(state.grid, team) / BOT.POINT
        return squash(state.scores[team] - state.scores[1 - team] + board, 2.0)


MODEL = TrickTacFoeModel()
