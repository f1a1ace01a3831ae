"""Tic-Tac-Toe, the example game: a win, a draw, refusals, and bots that play as their docstrings say."""

from __future__ import annotations

import random

import pytest

from app.main import register_extra_games
from app.settings import Settings
from engines import registry
from engines.base import IllegalAction, LogEntry
from engines.tic_tac_toe import BOT, ENGINE, GAME, STRONG
from engines.tic_tac_toe.actions import Place
from engines.tic_tac_toe.state import TicTacToeState

X, O = 0, 1  # noqa: E741


def play(*cells: int) -> TicTacToeState:
    """A new game with these cells played in turn, X first."""
    state = ENGINE.new_game(ENGINE.parse_options({}), 0)
    for cell in cells:
        (seat,) = ENGINE.to_act(state)
        state, _events = ENGINE.apply(state, seat, Place(cell=cell))
    return state


def test_three_in_a_row_wins_and_ends_the_game() -> None:
    before = play(0, 3, 1, 4)
    after, events = ENGINE.apply(before, X, Place(cell=2))
    outcome = ENGINE.outcome(after)
    assert outcome is not None
    assert outcome.winners == [X] and outcome.ranks == [0, 1]
    assert outcome.summary == LogEntry("tic-tac-toe.result.won", {"seat": X})
    assert ENGINE.to_act(after) == frozenset()
    assert ENGINE.view(after, None)["line"] == [0, 1, 2]
    assert [event.kind for event in events] == ["placed", "game_over"]
    assert ENGINE.log_entries(before, X, Place(cell=2), (after, events)) == [
        LogEntry("tic-tac-toe.log.placed", {"seat": X, "cell": 2})
    ]


def test_a_full_board_without_a_line_is_a_draw() -> None:
    # X O X / X O O / O X X
    state = play(0, 1, 2, 4, 3, 5, 7, 6, 8)
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.is_draw and outcome.ranks == [0, 0]
    assert outcome.summary == LogEntry("tic-tac-toe.result.draw")


def test_a_taken_cell_and_a_move_out_of_turn_are_refused() -> None:
    state = play(4)
    with pytest.raises(IllegalAction) as taken:
        ENGINE.apply(state, O, Place(cell=4))
    assert taken.value.reason() == {"key": "tic-tac-toe.error.cell_taken", "params": {"cell": 4}}
    with pytest.raises(IllegalAction) as early:
        ENGINE.apply(state, X, Place(cell=0))
    assert early.value.reason() == {"key": "action.turn_of", "params": {"seat": O}}


@pytest.mark.parametrize("raw", [{"type": "place", "cell": 9}, {"type": "place", "cell": "4"}, {"type": "place"}])
def test_a_malformed_cell_is_refused_when_parsed(raw: dict[str, object]) -> None:
    with pytest.raises(IllegalAction) as refused:
        ENGINE.parse_action(raw)
    assert refused.value.code == "tic-tac-toe.error.bad_cell"


def test_the_normal_bot_wins_then_blocks() -> None:
    rng = random.Random(0)
    # X holds 0 and 1 and could win at 2; O holds 3 and 4 and could win at 5: X takes its win.
    assert BOT.choose(play(0, 3, 1, 4), X, rng) == Place(cell=2)
    # O to move with no win of its own blocks X's row.
    assert BOT.choose(play(0, 4, 1), O, rng) == Place(cell=2)


@pytest.mark.parametrize("strong_seat", [X, O])
def test_the_strong_bot_never_loses_to_random_play(strong_seat: int) -> None:
    for seed in range(40):
        rng = random.Random(seed)
        state = ENGINE.new_game(ENGINE.parse_options({}), seed)
        while ENGINE.to_act(state):
            (seat,) = ENGINE.to_act(state)
            bot_move = STRONG.choose(state, seat, rng) if seat == strong_seat else None
            action = bot_move or rng.choice(ENGINE.legal_actions(state, seat))
            state, _events = ENGINE.apply(state, seat, action)
        outcome = ENGINE.outcome(state)
        assert outcome is not None and outcome.winners in ([], [strong_seat]), f"seed {seed}"


def test_the_strong_bot_draws_against_itself() -> None:
    state = ENGINE.new_game(ENGINE.parse_options({}), 0)
    rng = random.Random(3)
    while ENGINE.to_act(state):
        (seat,) = ENGINE.to_act(state)
        state, _events = ENGINE.apply(state, seat, STRONG.choose(state, seat, rng))
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.is_draw


def test_the_setting_serves_the_example_and_a_bad_name_stops_the_start() -> None:
    settings = Settings.model_validate({"extra_games": "engines.tic_tac_toe, "})
    assert settings.extra_games == ["engines.tic_tac_toe"]
    register_extra_games(settings.extra_games)  # the suite registered it already: the same game is no twin
    assert registry.get_game("tic-tac-toe") is GAME
    assert GAME not in registry.GAMES, "the example is not one of the served games"
    with pytest.raises(RuntimeError, match=r"no package 'engines\.no_such_game'"):
        register_extra_games(["engines.no_such_game"])
    with pytest.raises(RuntimeError, match=r"'engines\.base' has no GAME"):
        register_extra_games(["engines.base"])
