"""What a seat may do: commit a card, or choose the cell of a wild 10; and how a malformed one is refused."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Literal

from pydantic import Field

from engines.base import ActionModel, Actions, Refusal, one_of
from engines.trick_tac_foe.cards import ALL_CARDS, CARD_SET


class Commit(ActionModel):
    """Put a card from the hand face down for this trick."""

    type: Literal["commit"] = "commit"
    card: Annotated[
        str,
        one_of(CARD_SET, "card"),
        Refusal("trick-tac-foe.error.bad_card", '\'card\' must be a card code such as "7S" or "10H"'),
    ]


class Wild(ActionModel):
    """The winner of a trick with a 10 names the cell, by the number it reads there."""

    type: Literal["wild"] = "wild"
    number: Annotated[
        int, Field(ge=1, le=9), Refusal("trick-tac-foe.error.bad_number", "'number' must be a whole number 1–9")
    ]


TrickTacFoeAction = Commit | Wild
ACTIONS = Actions[TrickTacFoeAction](Commit, Wild)

COMMIT: Mapping[str, Commit] = {card: Commit(card=card) for card in ALL_CARDS}
"""Each card's commit, built once: the rules and the search offer and compare them by the thousand."""
WILD: Mapping[int, Wild] = {number: Wild(number=number) for number in range(1, 10)}
"""Each wild choice, built once."""
