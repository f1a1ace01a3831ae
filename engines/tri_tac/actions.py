"""Tri-Tac's actions: their models, how a malformed one is refused, and one shared model per cell."""

from __future__ import annotations

from typing import Annotated, Literal

from engines.base import ActionModel, Actions, Pair, Refusal
from engines.tri_tac.options import MAX_SIZE

_BAD_CELL = Refusal("tri-tac.error.bad_cell", '"cell" must be a list of two integers [row, column]')


class Place(ActionModel):
    type: Literal["place"] = "place"
    cell: Annotated[Pair, _BAD_CELL]


class Power(ActionModel):
    type: Literal["power"] = "power"
    cell: Annotated[Pair, _BAD_CELL]


class Pass(ActionModel):
    type: Literal["pass"] = "pass"


class Vote(ActionModel):
    type: Literal["vote"] = "vote"
    expand: Annotated[bool, Refusal("tri-tac.error.bad_vote", '"expand" must be true or false')]


TriTacAction = Place | Power | Vote | Pass
ACTIONS = Actions[TriTacAction](Place, Power, Vote, Pass)

# Actions are immutable values: the rules and bots list the same few hundred on every move, so each is
# made once here and shared.
PLACE: tuple[tuple[Place, ...], ...] = tuple(
    tuple(Place(cell=(r, c)) for c in range(MAX_SIZE)) for r in range(MAX_SIZE)
)
"""``PLACE[row][column]``: the placement on that cell."""
POWER: tuple[tuple[Power, ...], ...] = tuple(
    tuple(Power(cell=(r, c)) for c in range(MAX_SIZE)) for r in range(MAX_SIZE)
)
"""``POWER[row][column]``: Power Play on that cell."""
PASS = Pass()
VOTE_GROW = Vote(expand=True)
VOTE_END = Vote(expand=False)
