"""Tic Tac Match's strong bot: a determinized search over the plays of its hand.

A seat sees its hand, the top card of every cell and of the discard pile, and the sizes of everything
else. Each sample deals the other cards at random into the other hands, the draw pile, the covered cards
and the discard pile below its top, and reseeds later shuffles.

A candidate is played out by whole turns, not actions: the normal bot plays every seat for ``TURNS`` more
turns (a Double Play is one turn of three actions; a Wipe-Out changes who moves next), and the grid is then
valued for the seat to move, knowing its sampled hand: if it holds the card that completes a line of its
own symbol, that match is as good as its side's.
"""

from __future__ import annotations

from random import Random

from engines.base import Action, Seat
from engines.search import GameModel, squash, top_moves
from engines.tic_tac_match.actions import TicTacMatchAction
from engines.tic_tac_match.bots import BOT, threats
from engines.tic_tac_match.cards import DECK_SIZE, SYMBOL_CARDS, card_type
from engines.tic_tac_match.rules import ENGINE
from engines.tic_tac_match.state import TicTacMatchState

CANDIDATES = 6
"""Root moves compared: the normal bot's best few (a hand often allows 30 plays)."""
TURNS = {2: 3, 4: 3}
"""Turns played after a candidate, by number of players: to the seat's own next turn."""


class TicTacMatchModel(GameModel[TicTacMatchState]):
    engine = ENGINE
    rollout_depth = 0  # the playout is ``evaluate``'s, by whole turns

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
        return state.changed(hands=hands, cells=cells, discard=discard, draw=draw, salt=rng.getrandbits(62))

    def candidates(self, state: TicTacMatchState, seat: Seat, rng: Random) -> list[Action]:
        legal: list[Action] = list(ENGINE.legal_actions(state, seat))
        return top_moves(legal, lambda a: BOT.score(state, seat, a), CANDIDATES)

    def policy(self, state: TicTacMatchState, seat: Seat, rng: Random) -> TicTacMatchAction:
        # The normal bot itself, over a few plies: cheaper playouts miss the threats it sees and mislead.
        return BOT.choose(state, seat, rng)

    def evaluate(self, state: TicTacMatchState, seat: Seat) -> float:
        # The determinization's salt is drawn per world: the same for every candidate of one world, so the
        # candidates are still compared on equal luck.
        rng = Random(state.salt)
        turns = TURNS[state.players]
        started = 0
        while state.turn is not None:
            if state.plays_left == 0:
                started += 1
                if started > turns:
                    break
            mover = state.turn
            state, _events = ENGINE.apply(state, mover, BOT.choose(state, mover, rng))
        return self._value(state, seat)

    @staticmethod
    def _value(state: TicTacMatchState, seat: Seat) -> float:
        """The worth for ``seat`` of a state whose turn-holder is about to play."""
        side = seat % 2
        wins = list(state.wins)
        mover = state.turn
        if mover is not None:
            symbol = state.seat_symbol(mover)
            held = {card_type(card) for card in state.hands[mover] if card < SYMBOL_CARDS}
            if any(t % 2 == symbol and t in held for t, _cell in threats(state.tops())):
                wins[mover % 2] += 1  # the normal bot never misses its own line
                if wins[mover % 2] < state.series:
                    return squash(wins[side] - wins[1 - side], 1.0)
                mover = None
        if mover is None:
            return 1.0 if wins[side] > wins[1 - side] else 0.0
        position = BOT._position(state.tops(), state.seat_symbol(seat), side, mover % 2)
        return squash(wins[side] - wins[1 - side] + position / 20, 1.0)


MODEL = TicTacMatchModel()
