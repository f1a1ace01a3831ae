"""Tic Tac Match's actions: their models, how a malformed one is refused, and one shared model per use of
a card."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator

from engines.base import ActionModel, Actions, Pair, Refusal
from engines.tic_tac_match.cards import DECK_SIZE, DOUBLE_FIRST, FLIP_FIRST, SYMBOL_CARDS, WIPEOUT_FIRST

_CARD = Refusal("tic-tac-match.error.bad_card", '"card" must be the integer id of a card in your hand')
MAX_PLAYERS = 4


def _on_grid(cell: tuple[int, int]) -> tuple[int, int]:
    if not all(0 <= v <= 2 for v in cell):
        raise ValueError(f"{list(cell)} is off the grid")
    return cell


class Play(ActionModel):
    type: Literal["play"] = "play"
    card: Annotated[int, _CARD]
    cell: Annotated[
        Pair,
        AfterValidator(_on_grid),
        Refusal("tic-tac-match.error.bad_cell", '"cell" must be [row, column] with both from 0 to 2'),
    ]

    @property
    def index(self) -> int:
        """The cell as 0..8, in reading order."""
        return self.cell[0] * 3 + self.cell[1]


class Flip(ActionModel):
    type: Literal["flip"] = "flip"
    card: Annotated[int, _CARD]


class Wipeout(ActionModel):
    type: Literal["wipeout"] = "wipeout"
    card: Annotated[int, _CARD]
    target: Annotated[int, Refusal("tic-tac-match.error.bad_target", '"target" must be a seat number')]


class Double(ActionModel):
    type: Literal["double"] = "double"
    card: Annotated[int, _CARD]


class Discard(ActionModel):
    type: Literal["discard"] = "discard"
    card: Annotated[int, _CARD]


class Forfeit(ActionModel):
    type: Literal["forfeit"] = "forfeit"


TicTacMatchAction = Play | Flip | Wipeout | Double | Discard | Forfeit
ACTIONS = Actions[TicTacMatchAction](Play, Flip, Wipeout, Double, Discard, Forfeit)

# Actions are immutable values that the rules and bots list by the dozen on every move (the strong bot's
# playouts above all): each legal use of a card is made once here and shared.
PLAY: tuple[tuple[Play, ...], ...] = tuple(
    tuple(Play(card=card, cell=(cell // 3, cell % 3)) for cell in range(9)) for card in range(SYMBOL_CARDS)
)
"""``PLAY[card][cell]``: Symbol card ``card`` played on ``cell`` (0..8, reading order)."""
FLIP: dict[int, Flip] = {card: Flip(card=card) for card in range(FLIP_FIRST, WIPEOUT_FIRST)}
WIPEOUT: dict[int, tuple[Wipeout, ...]] = {
    card: tuple(Wipeout(card=card, target=target) for target in range(MAX_PLAYERS))
    for card in range(WIPEOUT_FIRST, DOUBLE_FIRST)
}
"""``WIPEOUT[card][target]``."""
DOUBLE: dict[int, Double] = {card: Double(card=card) for card in range(DOUBLE_FIRST, DECK_SIZE)}
DISCARD: dict[int, Discard] = {card: Discard(card=card) for card in range(WIPEOUT_FIRST, DECK_SIZE)}
FORFEIT = Forfeit()
