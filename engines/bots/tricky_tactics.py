"""Tricky Tactics' strong bot: a determinized search over its cards and Actions.

A seat sees its hand, the cards played this round, the automa's face-up row and every cube. Each sample
deals the unseen cards at random into the other hands, the automa's face-down cards and the set-aside
cards, keeping every suit a player has shown void of out of their hand, and deals later rounds afresh.
Playouts stop at the end of the round and are scored by the points so far plus the map as it stands.
"""

from __future__ import annotations

from random import Random

from engines.base import Action, Seat
from engines.bots.search import GameModel, squash
from engines.tricky_tactics import (
    AUTOMA,
    BOT,
    DECK,
    ENGINE,
    LOC_RANKS,
    SUITS,
    State,
    _after,
    _eval,
    card_suit,
    sort_hand,
)

SAMPLE_TRIES = 20
"""Shuffles tried for a deal that respects every void before the voids of one player are let go."""


def _voids(state: State) -> dict[int, set[str]]:
    """The suits each player has shown they hold none of (they did not follow the led suit)."""
    voids: dict[int, set[str]] = {}
    tricks = [t.cards for t in state.tricks]
    if state.trick:
        tricks.append(state.trick)
    for cards in tricks:
        led = card_suit(cards[0][1])
        for player, card in cards[1:]:
            if card_suit(card) != led:
                voids.setdefault(player, set()).add(led)
    return voids


class TrickyTacticsModel(GameModel[State]):
    engine = ENGINE
    rollout_depth = 16

    def determinize(self, state: State, seat: Seat, rng: Random) -> State:
        n: int = state.n
        automa = state.automa
        seen = set(state.hands[seat]) | set(state.automa_row)
        seen.update(card for _player, card in state.trick)
        seen.update(card for t in state.tricks for _player, card in t.cards)
        pool = sorted(card for card in DECK if card not in seen)
        slots: list[tuple[int | None, int]] = [(p, len(state.hands[p])) for p in range(n) if p != seat and p != automa]
        if automa is not None:
            slots.append((automa, len(state.automa_deck)))
        slots.append((None, len(state.set_aside)))
        voids = _voids(state)
        dealt = self._deal(pool, slots, voids, rng)
        hands = list(state.hands)
        automa_deck, set_aside = state.automa_deck, state.set_aside
        for (owner, _size), cards in zip(slots, dealt, strict=True):
            if owner is None:
                set_aside = tuple(cards)
            elif owner == automa:
                automa_deck = tuple(cards)
            else:
                hands[owner] = sort_hand(cards)
        rounds = len(state.deal_seeds)
        seeds = state.deal_seeds[: state.round] + tuple(rng.getrandbits(64) for _ in range(rounds - state.round))
        return state.changed(hands=tuple(hands), automa_deck=automa_deck, set_aside=set_aside, deal_seeds=seeds)

    @staticmethod
    def _deal(
        pool: list[str], slots: list[tuple[int | None, int]], voids: dict[int, set[str]], rng: Random
    ) -> list[list[str]]:
        """Cards for each slot in turn; a player's known voids are kept when a few shuffles can keep them."""
        for attempt in range(SAMPLE_TRIES + 1):
            cards = pool[:]
            rng.shuffle(cards)
            strict = attempt < SAMPLE_TRIES
            hands: list[list[str]] = []
            for owner, size in slots:
                banned = voids.get(owner, set()) if strict and owner is not None else set()
                take = [c for c in cards if card_suit(c) not in banned][:size]
                if len(take) < size:
                    break
                taken = set(take)
                cards = [c for c in cards if c not in taken]
                hands.append(take)
            else:
                return hands
        raise AssertionError("an unconstrained deal always fits")  # pragma: no cover

    def baseline(self, state: State, seat: Seat, rng: Random) -> Action:
        return BOT.choose(state, seat, rng)

    def policy(self, state: State, seat: Seat, rng: Random) -> Action:
        """Quick play for the playouts: any card that may be played; the Action that leaves the map best
        (the normal bot's reading of the map, without building a view)."""
        legal = ENGINE.legal_actions(state, seat)
        if state.phase != "action" or len(legal) == 1:
            return rng.choice(legal)
        values = {"K": state.options.value_k, "Q": state.options.value_q, "J": state.options.value_j}
        bonus = state.options.area_bonus_points if state.options.area_bonus else 0
        board = state.map
        ids = [AUTOMA if p == state.automa else p for p in range(state.n)]
        return max(legal, key=lambda a: _eval(_after(board, seat, a, ids), seat, values, bonus))

    def evaluate(self, state: State, seat: Seat) -> float:
        values = {"K": state.options.value_k, "Q": state.options.value_q, "J": state.options.value_j}
        totals = [float(score) for score in state.scores]
        for suit in SUITS:
            for rank in LOC_RANKS:
                counts = state.map[f"{rank}{suit}"]
                top = max(counts)
                if top > 0 and counts.count(top) == 1:
                    totals[counts.index(top)] += values[rank]
        rival = max(total for p, total in enumerate(totals) if p != seat)
        return squash(totals[seat] - rival, 4.0)


MODEL = TrickyTacticsModel()
