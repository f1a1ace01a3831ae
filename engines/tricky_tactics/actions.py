"""Tricky Tactics' actions: play a card to the trick, or take the Action a won trick brings (Add a cube, or
Remove another player's)."""

from __future__ import annotations

from typing import Annotated, Literal

from engines.base import ActionModel, Actions, Refusal, one_of
from engines.tricky_tactics.cards import DECK, LOCATIONS
from engines.tricky_tactics.state import AUTOMA, PlayerId

_LOCATION = Annotated[
    str, one_of(LOCATIONS, "Location"), Refusal("tricky-tactics.error.bad_location", "not a Location")
]


class PlayCard(ActionModel):
    """``{"type": "play", "card": "10H"}``."""

    type: Literal["play"] = "play"
    card: Annotated[str, one_of(DECK, "card"), Refusal("tricky-tactics.error.bad_card", "not a card")]


class Add(ActionModel):
    """``{"type": "add", "location": "KS"}``: a cube from the supply onto a Location."""

    type: Literal["add"] = "add"
    location: _LOCATION


class Remove(ActionModel):
    """``{"type": "remove", "location": "KS", "owner": "automa"}``: another player's cube off a Location."""

    type: Literal["remove"] = "remove"
    location: _LOCATION
    owner: Annotated[
        int | str, Refusal("tricky-tactics.error.bad_owner", f'"owner" must be a seat number or "{AUTOMA}"')
    ]


TrickyTacticsAction = PlayCard | Add | Remove
ACTIONS = Actions[TrickyTacticsAction](PlayCard, Add, Remove)

# Every action the rules and bots offer, made once: the strong bot's playouts offer them by the thousand.
PLAYS: dict[str, PlayCard] = {card: PlayCard(card=card) for card in DECK}
ADDS: dict[str, Add] = {loc: Add(location=loc) for loc in LOCATIONS}
REMOVES: dict[tuple[str, PlayerId], Remove] = {
    (loc, owner): Remove(location=loc, owner=owner) for loc in LOCATIONS for owner in (0, 1, 2, 3, AUTOMA)
}
