"""Tri-Tac's strong bot: a Monte Carlo search over the most promising placements.

Everything on the board is public; the only thing a seat cannot know is where later rings will put their
special squares, so each sample draws a fresh ``ring_seed``.
"""

from __future__ import annotations

from random import Random

from engines.base import Action, Seat
from engines.search import GameModel, squash, top_moves
from engines.tri_tac.actions import Place, Power, TriTacAction
from engines.tri_tac.bots import BOT
from engines.tri_tac.rules import ENGINE
from engines.tri_tac.scoring import gain
from engines.tri_tac.state import TriTacState

CANDIDATES = 8
"""Root moves compared: the greedy bot's best few, so the budget is not spread over every empty cell."""


class TriTacModel(GameModel[TriTacState]):
    engine = ENGINE
    rollout_depth = 24
    """A 5x5 board is played out to the end; on bigger boards a playout to the end would take the whole budget
    for one sample, so it stops after 24 moves and the score margin decides."""

    def determinize(self, state: TriTacState, seat: Seat, rng: Random) -> TriTacState:
        return state.changed(ring_seed=rng.getrandbits(62))

    def policy(self, state: TriTacState, seat: Seat, rng: Random) -> TriTacAction:
        return BOT.choose(state, seat, rng)

    def candidates(self, state: TriTacState, seat: Seat, rng: Random) -> list[Action]:
        legal: list[Action] = list(ENGINE.legal_actions(state, seat))
        if len(legal) <= CANDIDATES:
            return legal  # every move is compared: the greedy one among them
        opp = 1 - seat

        def promise(action: Action) -> float:
            assert isinstance(action, Place | Power), action  # votes are never more than a few moves
            cell = action.cell
            if isinstance(action, Power):
                return gain(state, seat, cell) - BOT.POWER_COST
            return (
                BOT.OWN_WEIGHT * gain(state, seat, cell)
                + gain(state, opp, cell)
                + BOT._potential(state, seat, cell)
                + BOT.DENY_WEIGHT * BOT._potential(state, opp, cell)
            )

        ranked = top_moves(legal, promise, CANDIDATES)
        greedy = BOT.choose(state, seat, rng)
        if greedy not in ranked:
            ranked[-1] = greedy
        return ranked

    def evaluate(self, state: TriTacState, seat: Seat) -> float:
        return squash(state.scores[seat] - state.scores[1 - seat], 3.0)


MODEL = TriTacModel()
