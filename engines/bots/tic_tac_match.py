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
from engines.tic_tac_match import BOT, DECK_SIZE, ENGINE, SYMBOL_CARDS, TicTacMatchState, card_type, threats

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

    turns = 0
    """When above 0, ``evaluate`` plays this many more whole turns (a Double Play is one turn, not three
    actions) with the normal bot before it values the grid: every candidate is then judged after the same
    replies, whatever it does to the turn order."""
    win_check = False
    position_scale = 20.0

    def evaluate(self, state: TicTacMatchState, seat: Seat) -> float:
        if self.turns:
            # The determinization's salt is drawn per world: the same for every candidate of one world.
            rng = Random(state.salt)
            started = 0
            while state.turn is not None:
                if state.plays_left == 0:
                    started += 1
                    if started > self.turns:
                        break
                mover = state.turn
                state, _events = ENGINE.apply(state, mover, BOT.choose(state, mover, rng))
        return self._static(state, seat)

    def _static(self, state: TicTacMatchState, seat: Seat) -> float:
        side = seat % 2
        if state.turn is None:
            return squash(state.wins[side] - state.wins[1 - side], 1.0)
        tops = state.tops()
        if self.win_check:
            mover = state.turn
            symbol = state.seat_symbol(mover)
            held = {card_type(card) for card in state.hands[mover] if card < SYMBOL_CARDS}
            if any(t % 2 == symbol and t in held for t, _cell in threats(tops)):
                wins = list(state.wins)
                wins[mover % 2] += 1
                if wins[mover % 2] >= state.series:  # the series is as good as over
                    return 1.0 if mover % 2 == side else 0.0
                return squash(wins[side] - wins[1 - side], 1.0)
        position = BOT._position(tops, state.seat_symbol(seat), side, state.turn % 2)
        return squash(state.wins[side] - state.wins[1 - side] + position / self.position_scale, 1.0)

MODEL = TicTacMatchModel()
