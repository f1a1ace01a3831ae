"""An upper bound, not a bot: Tic Tac Match's strong bot as if it saw every hand (the draw pile still hidden).

    .venv/bin/python -m bench.seen_hands --only tic-tac-match --modes 4p --pairings strong-normal --worlds 10

Takes ``bench.bots``' arguments and plays its games with the strong bot's samples dealing every hand as it
really is. The gap between this and the fair bot on the same games is what reading other hands (inference
from what they played) could win at most; the gap between this and 100 % is the search's own.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from random import Random

from bench.bots import main
from engines.base import Seat
from engines.bots.tic_tac_match import TicTacMatchModel
from engines.tic_tac_match import TicTacMatchState


def _seeing_hands(self: TicTacMatchModel, state: TicTacMatchState, seat: Seat, rng: Random) -> TicTacMatchState:
    draw = list(state.draw)
    rng.shuffle(draw)
    return replace(state, draw=tuple(draw), salt=rng.getrandbits(62))


if __name__ == "__main__":
    TicTacMatchModel.determinize = _seeing_hands  # type: ignore[method-assign]
    sys.exit(main())
