"""Tic Tac Top's actions, the refusals of malformed ones, and ``ACTIONS``, their parser."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Strict

from engines.base import ActionModel, Actions, Refusal


def _integer(name: str) -> Refusal:
    return Refusal("tic-tac-top.error.not_integer", f"{name!r} must be an integer", {"field": name})


_WORDS = Refusal("tic-tac-top.error.bad_words", "'words' must be a list of words")
Words = Annotated[tuple[Annotated[str, Strict()], ...], Strict(False)]
"""A JSON array of words, as a tuple (see ``engines.base.Pair``)."""


class ChooseTheme(ActionModel):
    """The Leader keeps the offered theme at ``index``."""

    type: Literal["choose_theme"] = "choose_theme"
    index: Annotated[int, _integer("index")]


class Draft(ActionModel):
    """The Leader saves a partial ranking (at most 7 words)."""

    type: Literal["draft"] = "draft"
    words: Annotated[Words, _WORDS]


class Rank(ActionModel):
    """The Leader submits the ranking of 7 words for good."""

    type: Literal["rank"] = "rank"
    words: Annotated[Words, _WORDS]


class PlaceWord(ActionModel):
    """A player writes ``word`` in a cell of their grid (overwriting what was there)."""

    type: Literal["place"] = "place"
    cell: Annotated[int, _integer("cell")]
    word: Annotated[str, Refusal("tic-tac-top.error.bad_word", "'word' must be a string")]


class Clear(ActionModel):
    """A player erases a cell of their grid."""

    type: Literal["clear"] = "clear"
    cell: Annotated[int, _integer("cell")]


class Done(ActionModel):
    """A player declares their grid finished (final)."""

    type: Literal["done"] = "done"


class Lock(ActionModel):
    """A player's grid locks as it is: the timeout action when the writing closes."""

    type: Literal["lock"] = "lock"


class Next(ActionModel):
    """The Leader (or the host) moves the reveal or the score screen on."""

    type: Literal["next"] = "next"


TicTacTopAction = ChooseTheme | Draft | Rank | PlaceWord | Clear | Done | Lock | Next
ACTIONS = Actions[TicTacTopAction](ChooseTheme, Draft, Rank, PlaceWord, Clear, Done, Lock, Next, missing_fields=True)
LEADER_WRITE = (Draft, Rank)
PLAYER_WRITE = (PlaceWord, Clear, Done, Lock)

DONE = Done()
LOCK = Lock()
NEXT = Next()
"""The actions without fields, made once: models are frozen, so every use may share them."""
