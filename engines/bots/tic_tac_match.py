"""Tic Tac Match's strong bot: a determinized search over the plays of its hand.

A seat sees its hand, the top card of every cell and of the discard pile, and the sizes of everything
else. Each sample deals the other cards at random into the other hands, the draw pile, the covered cards
and the discard pile below its top, and reseeds later shuffles.
"""

from __future__ import annotations

from dataclasses import replace
from random import Random

from engines.base import Action, Seat
from engines.bots.search import GameModel, squash, top_moves
from engines.tic_tac_match import BOT, DECK_SIZE, ENGINE, TicTacMatchState

CANDIDATES = 6
"""Root moves compared: the normal bot's best few (a hand often allows 30 plays)."""


class TicTacMatchModel(GameModel[TicTacMatchState]):
    engine = ENGINE
    rollout_depth = 4

    def determinize(self, state: TicTacMatchState, seat: Seat, rng: Random) -> TicTacMatchState:
        seen = set(state.hands[seat])
        seen.update(stack[-1] for stack in state.cells if stack)
        if state.discard:
            seen.add(state.discard[-1])
        pool = [card for card in range(DECK_SIZE) if card not in seen]
        rng.shuffle(pool)
        # Dealt in a fixed order (other hands, covered cards, discard pile, draw pile) so that a seed gives
        # one sample.
        hands = tuple(hand if s == seat else tuple(pool.pop() for _ in hand) for s, hand in enumerate(state.hands))
        cells = tuple((*(pool.pop() for _ in stack[:-1]), *stack[-1:]) for stack in state.cells)
        discard = (*(pool.pop() for _ in state.discard[:-1]), *state.discard[-1:])
        draw = tuple(pool.pop() for _ in state.draw)
        return replace(state, hands=hands, cells=cells, discard=discard, draw=draw, salt=rng.getrandbits(62))

    def candidates(self, state: TicTacMatchState, seat: Seat, rng: Random) -> list[Action]:
        return top_moves(ENGINE.legal_actions(state, seat), lambda a: BOT.score(state, seat, a), CANDIDATES)

    def policy(self, state: TicTacMatchState, seat: Seat, rng: Random) -> Action:
        # The normal bot itself, over a few plies: cheaper playouts miss the threats it sees and mislead.
        return BOT.choose(state, seat, rng)

    def evaluate(self, state: TicTacMatchState, seat: Seat) -> float:
        side = seat % 2
        if state.turn is None:
            return squash(state.wins[side] - state.wins[1 - side], 1.0)
        position = BOT._position(state.tops(), state.seat_symbol(seat), side, state.turn % 2)
        return squash(state.wins[side] - state.wins[1 - side] + position / 20, 1.0)


MODEL = TicTacMatchModel()
