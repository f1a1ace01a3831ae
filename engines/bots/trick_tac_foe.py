"""Trick-Tac-Foe's strong bot: a determinized search over the cards in hand.

A seat sees its hand, its own committed card, the revealed cards and the discard pile. Each sample deals
every other card of the round at random into the places it cannot see (other hands, other unrevealed
committed cards, every personal deck, its own included) and deals the later rounds afresh.
"""

from __future__ import annotations

from functools import lru_cache
from random import Random

from engines.base import Action, Seat
from engines.bots.search import GameModel, squash
from engines.trick_tac_foe import (
    ALL_CARDS,
    BOT,
    ENGINE,
    Grid,
    TrickTacFoeState,
    _evaluate,
    card_rank,
    card_strength,
    cell_for,
    number_for,
    opponent_of,
    rounds_for,
    sort_cards,
    team_of,
    unseen_cards,
)

CELLS = [(r, c) for r in range(3) for c in range(3)]


@lru_cache(maxsize=1 << 16)
def _gains(grid: Grid, team: int) -> tuple[float, ...]:
    """The normal bot's gain for ``team`` on each cell of ``grid``; a grid recurs often."""
    return tuple(BOT.gain(grid, team, cell) for cell in CELLS)


@lru_cache(maxsize=1 << 12)
def _grid_value(grid: Grid, team: int) -> float:
    return _evaluate(grid, team)


class TrickTacFoeModel(GameModel[TrickTacFoeState]):
    engine = ENGINE
    rollout_depth = 16

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
        committed = list(state.committed)
        for s in hidden_commits:
            committed[s] = pool.pop()
        hands = tuple(hand if s == seat else tuple(pool.pop() for _ in hand) for s, hand in enumerate(state.hands))
        decks = tuple(tuple(pool.pop() for _ in deck) for deck in state.decks)
        deals: list[tuple[tuple[str, ...], ...]] = []
        for _ in range(rounds_for(state.options)):
            cards = list(ALL_CARDS)
            rng.shuffle(cards)
            deals.append(tuple(tuple(cards[s::n]) for s in range(n)))
        return state.changed(committed=tuple(committed), hands=hands, decks=decks, deals=tuple(deals))

    def policy(self, state: TrickTacFoeState, seat: Seat, rng: Random) -> Action:
        """The normal bot's rule (expected gain against the unseen cards), with its board values cached."""
        n = state.players
        label = ENGINE.label(state, seat)
        team = team_of(n, seat)
        key = state.grid
        mine = _gains(key, team)
        if state.phase == "wild":
            best = max(range(9), key=lambda i: (mine[i], -i))
            return {"type": "wild", "number": number_for(label, CELLS[best])}
        hand = sort_cards(state.hands[seat])
        unseen = unseen_cards(state, seat)
        if not unseen:
            return {"type": "commit", "card": hand[0]}
        theirs = _gains(key, 1 - team)
        opp_label = ENGINE.label(state, opponent_of(n, seat))
        my_best, opp_best = max(mine), max(theirs)
        strengths = sorted(card_strength(u) for u in unseen)
        opp_loss = sorted(
            (
                card_strength(u),
                opp_best if card_rank(u) == 10 else theirs[CELLS.index(cell_for(opp_label, card_rank(u)))],
            )
            for u in unseen
        )
        best_value, best_card = float("-inf"), hand[0]
        for card in hand:
            rank = card_rank(card)
            gain = my_best if rank == 10 else mine[CELLS.index(cell_for(label, rank))]
            strength = card_strength(card)
            p_win = sum(1 for x in strengths if x < strength) / len(unseen)
            loss = sum(g for x, g in opp_loss if x > strength) / len(unseen)
            value = p_win * (gain - BOT.SPEND_COST * (1 + strength / 40)) - loss
            if value > best_value + 1e-9:
                best_value, best_card = value, card
        return {"type": "commit", "card": best_card}

    def evaluate(self, state: TrickTacFoeState, seat: Seat) -> float:
        team = team_of(state.players, seat)
        board = _grid_value(state.grid, team) / BOT.POINT
        return squash(state.scores[team] - state.scores[1 - team] + board, 2.0)


MODEL = TrickTacFoeModel()
