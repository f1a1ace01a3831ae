"""Tic-Tac-Toe's one action: place your mark on a cell (0–8, row by row)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from engines.base import ActionModel, Actions, Refusal
from engines.tic_tac_toe.state import CELLS

_BAD_CELL = Refusal("tic-tac-toe.error.bad_cell", '"cell" must be an integer from 0 to 8')


class Place(ActionModel):
    """``{"type": "place", "cell": 4}``: a mark in the centre."""

    type: Literal["place"] = "place"
    cell: Annotated[int, Field(ge=0, lt=CELLS), _BAD_CELL]


TicTacToeAction = Place
"""Every action of the game (a union ``A | B`` in games with several kinds)."""
ACTIONS = Actions[TicTacToeAction](Place)

PLACES: tuple[Place, ...] = tuple(Place(cell=cell) for cell in range(CELLS))
"""The nine possible actions, made once: legal moves and the bots' searches share them."""
