"""Actions are parsed once, at the JSON edge, into typed values: every action an engine or its bot offers
is one of the game's action models and its JSON (what the app stores and replays) parses back to it, and a
malformed one is refused with its documented code before the rules see it."""

from __future__ import annotations

import random
from typing import Annotated, Any, Literal

import pytest

from engines.base import ActionModel, Actions, IllegalAction, Pair, Refusal
from engines.game import Game
from engines.registry import games, get_engine


@pytest.mark.parametrize("game", games(), ids=lambda game: game.name)
def test_every_offered_action_is_typed_and_parses_back_from_its_json(game: Game) -> None:
    engine, bot = game.engine, game.bot
    models = tuple(engine.actions.kinds.values())
    rng = random.Random(3)
    state = engine.new_game(engine.parse_options({}), 3)
    while engine.to_act(state):
        seat = min(engine.to_act(state))
        offered = [*engine.legal_actions(state, seat), engine.timeout_action(state, seat), bot.choose(state, seat, rng)]
        for action in offered:
            assert isinstance(action, models), action
            assert engine.parse_action(action.to_json()) == action
        state, _ = engine.apply(state, seat, rng.choice(offered))


class Move(ActionModel):
    type: Literal["move"]
    cell: Annotated[Pair, Refusal("test.bad_cell", "cell")]
    fast: Annotated[bool, Refusal("test.bad_fast", "fast", {"why": 1})]


class Wait(ActionModel):
    type: Literal["wait"]


LENIENT = Actions[Move | Wait](Move, Wait)
LISTING = Actions[Move | Wait](Move, Wait, missing_fields=True)


@pytest.mark.parametrize(
    ("actions", "raw", "key", "params"),
    [
        (LENIENT, [1, 2], "action.not_object", {}),
        (LENIENT, {"cell": [1, 2]}, "action.unknown_type", {"type": None, "expected": ["move", "wait"]}),
        (LENIENT, {"type": 3}, "action.unknown_type", {"type": None, "expected": ["move", "wait"]}),
        (LENIENT, {"type": "fly"}, "action.unknown_type", {"type": "fly", "expected": ["move", "wait"]}),
        (LENIENT, {"type": "move", "cell": "x", "z": 1, "a": 2}, "action.unexpected_fields", {"fields": ["a", "z"]}),
        (LENIENT, {"type": "wait", "cell": [1, 2]}, "action.unexpected_fields", {"fields": ["cell"]}),
        (LENIENT, {"type": "move"}, "test.bad_cell", {}),
        (LENIENT, {"type": "move", "cell": [1, 2]}, "test.bad_fast", {"why": 1}),
        (LENIENT, {"type": "move", "cell": [1, True], "fast": 1}, "test.bad_cell", {}),
        (LENIENT, {"type": "move", "cell": [1, "2"], "fast": True}, "test.bad_cell", {}),
        (LENIENT, {"type": "move", "cell": [1.0, 2], "fast": True}, "test.bad_cell", {}),
        (LENIENT, {"type": "move", "cell": [1, 2, 3], "fast": True}, "test.bad_cell", {}),
        (LENIENT, {"type": "move", "cell": "12", "fast": True}, "test.bad_cell", {}),
        (LENIENT, {"type": "move", "cell": [1, 2], "fast": 1}, "test.bad_fast", {"why": 1}),
        (LISTING, {"type": "move", "cell": "x"}, "action.missing_fields", {"fields": ["fast"]}),
        (LISTING, {"type": "move"}, "action.missing_fields", {"fields": ["cell", "fast"]}),
    ],
)
def test_a_malformed_action_is_refused_with_the_first_problem(
    actions: Actions[Any], raw: Any, key: str, params: dict[str, Any]
) -> None:
    assert_refused(actions, raw, key, params)


def assert_refused(actions: Actions[Any], raw: Any, key: str, params: dict[str, Any]) -> None:
    with pytest.raises(IllegalAction) as refused:
        actions.parse(raw)
    assert refused.value.reason() == {"key": key, "params": params}


def test_a_well_formed_action_is_a_typed_value() -> None:
    move = LENIENT.parse({"type": "move", "cell": [1, 2], "fast": False})
    assert move == Move(type="move", cell=(1, 2), fast=False)
    assert LENIENT.parse({"type": "wait"}) == Wait(type="wait")


@pytest.mark.parametrize(
    ("game", "raw", "key", "params"),
    [
        ("tri-tac", {"type": "place", "cell": [True, 1]}, "tri-tac.error.bad_cell", {}),
        ("tri-tac", {"type": "vote", "expand": 0}, "tri-tac.error.bad_vote", {}),
        ("trick-tac-foe", {"type": "commit", "card": "1X"}, "trick-tac-foe.error.bad_card", {}),
        ("trick-tac-foe", {"type": "commit", "card": 7}, "trick-tac-foe.error.bad_card", {}),
        ("trick-tac-foe", {"type": "wild", "number": 10}, "trick-tac-foe.error.bad_number", {}),
        ("trick-tac-foe", {"type": "wild", "number": 0}, "trick-tac-foe.error.bad_number", {}),
        ("tic-tac-match", {"type": "play", "card": "3", "cell": [0, 0]}, "tic-tac-match.error.bad_card", {}),
        ("tic-tac-match", {"type": "play", "card": 3, "cell": [0, 3]}, "tic-tac-match.error.bad_cell", {}),
        ("tic-tac-match", {"type": "wipeout", "card": 1}, "tic-tac-match.error.bad_target", {}),
        ("tricky-tactics", {"type": "play", "card": "KS"}, "tricky-tactics.error.bad_card", {}),
        ("tricky-tactics", {"type": "add", "location": "AS"}, "tricky-tactics.error.bad_location", {}),
        (
            "tricky-tactics",
            {"type": "remove", "location": "KS", "owner": True},
            "tricky-tactics.error.bad_owner",
            {},
        ),
        ("tic-tac-top", {"type": "place", "cell": "1"}, "action.missing_fields", {"fields": ["word"]}),
        (
            "tic-tac-top",
            {"type": "place", "cell": "1", "word": "a"},
            "tic-tac-top.error.not_integer",
            {"field": "cell"},
        ),
        ("tic-tac-top", {"type": "place", "cell": 1, "word": 2}, "tic-tac-top.error.bad_word", {}),
        ("tic-tac-top", {"type": "rank", "words": ["a", 1]}, "tic-tac-top.error.bad_words", {}),
        ("tic-tac-top", {"type": "draft", "words": "ab"}, "tic-tac-top.error.bad_words", {}),
    ],
)
def test_each_game_refuses_a_malformed_field_with_its_code(
    game: str, raw: Any, key: str, params: dict[str, Any]
) -> None:
    with pytest.raises(IllegalAction) as refused:
        get_engine(game).parse_action(raw)
    assert refused.value.reason() == {"key": key, "params": params}
