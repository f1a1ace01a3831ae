"""An upper bound, not a bot: Tic Tac Match's strong bot as if it saw other hands (the draw pile still hidden).

    .venv/bin/python -m bench.seen_hands --only tic-tac-match --modes 4p --pairings strong-normal --worlds 10
    .venv/bin/python -m bench.seen_hands --seeing partner --only tic-tac-match --modes 4p ...

Takes ``bench.bots``' arguments, and ``--seeing`` (``all``, the default; ``partner``; ``opponents``): plays
its games with the strong bot's samples dealing those hands as they really are and the rest at random (with
``all``, only the draw pile is shuffled: covered cards and the discard pile stay as they are). The
gap between this and the fair bot on the same games is what reading those hands (inference from what they
played) could win at most; the gap between ``all`` and 100 % is the search's own.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import replace
from random import Random

from bench.bots import main
from engines.base import Seat
from engines.tic_tac_match.cards import DECK_SIZE
from engines.tic_tac_match.state import TicTacMatchState
from engines.tic_tac_match.strong import TicTacMatchModel

SEEN_OFFSETS = {"all": (1, 2, 3), "partner": (2,), "opponents": (1, 3)}
"""Seats seen, counted clockwise from the bot's own (with 2 players, offset 1 is the opponent)."""


Determinize = Callable[[TicTacMatchModel, TicTacMatchState, Seat, Random], TicTacMatchState]


def seeing(offsets: tuple[int, ...]) -> Determinize:
    def determinize(self: TicTacMatchModel, state: TicTacMatchState, seat: Seat, rng: Random) -> TicTacMatchState:
        players = len(state.hands)
        if len(offsets) == players - 1:  # every hand seen: the covered cards and the discard pile too
            pile = list(state.draw)
            rng.shuffle(pile)
            return replace(state, draw=tuple(pile), salt=rng.getrandbits(62))
        known = {seat} | {(seat + offset) % players for offset in offsets}
        seen = {card for s in known for card in state.hands[s]}
        seen.update(stack[-1] for stack in state.cells if stack)
        if state.discard:
            seen.add(state.discard[-1])
        pool = [card for card in range(DECK_SIZE) if card not in seen]
        rng.shuffle(pool)
        # The fair bot's dealing order (other hands, covered cards, discard pile, draw pile), seen hands kept.
        hands = tuple(hand if s in known else tuple(pool.pop() for _ in hand) for s, hand in enumerate(state.hands))
        cells = tuple((*(pool.pop() for _ in stack[:-1]), *stack[-1:]) for stack in state.cells)
        discard = (*(pool.pop() for _ in state.discard[:-1]), *state.discard[-1:])
        draw = tuple(pool.pop() for _ in state.draw)
        return replace(state, hands=hands, cells=cells, discard=discard, draw=draw, salt=rng.getrandbits(62))

    return determinize


if __name__ == "__main__":
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--seeing", choices=sorted(SEEN_OFFSETS), default="all")
    known, rest = parser.parse_known_args()
    TicTacMatchModel.determinize = seeing(SEEN_OFFSETS[known.seeing])  # type: ignore[method-assign,assignment]
    sys.exit(main(rest))
