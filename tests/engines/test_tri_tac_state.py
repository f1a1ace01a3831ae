"""Tri-Tac's state is an immutable value whose internal bookkeeping stays consistent with the board it
summarises."""

from __future__ import annotations

import dataclasses
import random

import orjson
import pytest

from engines.tri_tac.actions import Power, Vote
from engines.tri_tac.rules import ENGINE
from engines.tri_tac.state import TriTacState


def _games() -> list[TriTacState]:
    """Every state of a few random games with every rule on, boards growing included."""
    states = []
    for seed in range(8):
        rng = random.Random(seed)
        options = ENGINE.parse_options(
            {"size": 3 + seed % 3, "power_play": True, "combo_strike": True, "dynamic_board": True}
            | {"special_squares": True, "time_challenge": True}
        )
        state = ENGINE.new_game(options, seed)
        states.append(state)
        while ENGINE.to_act(state):
            seat = rng.choice(sorted(ENGINE.to_act(state)))
            actions = ENGINE.legal_actions(state, seat)
            powers = [a for a in actions if isinstance(a, Power)]
            action = rng.choice(powers if powers and rng.random() < 0.5 else actions)
            if isinstance(action, Vote):
                action = Vote(expand=rng.random() < 0.8)  # mostly yes: boards grow
            state, _ = ENGINE.apply(state, seat, action)
            states.append(state)
    return states


def test_empty_count_matches_the_board_and_load_rebuilds_the_same_state() -> None:
    states = _games()
    assert any(s.size > 3 + s.options.size for s in states)  # boards grew, twice
    assert any(True in s.power_used for s in states)
    for state in states:
        assert state.empty == sum(v is None for row in state.board for v in row)
        assert ENGINE.load(orjson.loads(orjson.dumps(ENGINE.dump(state)))) == state


def test_view_marks_exactly_the_lines_whose_markers_were_replaced() -> None:
    for state in _games():
        view = ENGINE.view(state, None)
        expected = [any(state.board[r][c] != line.seat for r, c in line.cells) for line in state.lines]
        assert [line["broken"] for line in view["lines"]] == expected


def test_every_state_is_an_immutable_value() -> None:
    """Hashing reaches every part of a state: a list, set or dict anywhere in it would refuse."""
    states = _games()
    assert len({hash(state) for state in states}) > 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        states[-1].move = 0  # type: ignore[misc]
