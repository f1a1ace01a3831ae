"""Contract tests written once and run against every registered engine (OpenSpiel-style)."""

from __future__ import annotations

import copy
import random
from typing import Any

import orjson
import pytest

from engines.base import Engine, IllegalAction, InvalidState
from engines.registry import all_engines, get_bot

ENGINES = all_engines()
SEEDS = range(12)
MAX_STEPS = 5000


def _ids(engine: Engine[Any, Any, Any]) -> str:
    return engine.name


def play_random(
    engine: Engine[Any, Any, Any], seed: int, options: Any = None
) -> tuple[Any, list[tuple[int, dict[str, Any]]]]:
    """Random legal play to the end; returns the final state and the action log."""
    rng = random.Random(seed * 7919 + 1)
    state = engine.new_game(options or engine.parse_options({}), seed)
    log: list[tuple[int, dict[str, Any]]] = []
    for _ in range(MAX_STEPS):
        seats = sorted(engine.to_act(state))
        if not seats:
            break
        seat = rng.choice(seats)
        actions = engine.legal_actions(state, seat)
        assert actions, f"{engine.name}: seat {seat} must act but has no legal action"
        action = rng.choice(actions)
        state, _events = engine.apply(state, seat, action)
        log.append((seat, action))
    else:
        pytest.fail(f"{engine.name}: game from seed {seed} did not end in {MAX_STEPS} steps")
    return state, log


@pytest.mark.parametrize("engine", ENGINES, ids=_ids)
def test_random_play_reaches_an_outcome(engine: Engine[Any, Any, Any]) -> None:
    for seed in SEEDS:
        state, _ = play_random(engine, seed)
        outcome = engine.outcome(state)
        assert outcome is not None
        assert len(outcome.scores) == len(engine.seats_of(state))
        assert engine.to_act(state) == frozenset()


def _every_switch_on(engine: Engine[Any, Any, Any]) -> Any:
    """The engine's options with every on/off rule turned on (None if that combination is not valid)."""
    fields = engine.options_model.model_fields
    switches = {name: True for name, field in fields.items() if field.annotation in (bool, "bool")}
    try:
        return engine.parse_options(switches) if switches else None
    except Exception:
        return None


@pytest.mark.parametrize("engine", ENGINES, ids=_ids)
def test_apply_leaves_its_input_untouched(engine: Engine[Any, Any, Any]) -> None:
    """Rules are pure: a legal action returns a new state and the old one still dumps and views the same
    (engines may share unchanged parts between the two, never change them)."""
    variants = [engine.parse_options({}), _every_switch_on(engine)]
    for options in [o for o in variants if o is not None]:
        for seed in range(4):
            rng = random.Random(seed)
            state = engine.new_game(options, seed)
            for _ in range(MAX_STEPS):
                seats = sorted(engine.to_act(state))
                if not seats:
                    break
                seat = rng.choice(seats)
                before = (
                    engine.dump(state),
                    [engine.view(state, s) for s in [None, *range(len(engine.seats_of(state)))]],
                )
                after, _events = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
                assert (
                    engine.dump(state),
                    [engine.view(state, s) for s in [None, *range(len(engine.seats_of(state)))]],
                ) == before
                state = after


@pytest.mark.parametrize("engine", ENGINES, ids=_ids)
def test_replay_is_deterministic(engine: Engine[Any, Any, Any]) -> None:
    for seed in SEEDS:
        final, log = play_random(engine, seed)
        state = engine.new_game(engine.parse_options({}), seed)
        for seat, action in log:
            state, _ = engine.apply(state, seat, action)
        assert engine.dump(state) == engine.dump(final)


@pytest.mark.parametrize("engine", ENGINES, ids=_ids)
def test_dump_load_round_trip_at_every_step(engine: Engine[Any, Any, Any]) -> None:
    rng = random.Random(5)
    state = engine.new_game(engine.parse_options({}), 99)
    while engine.to_act(state):
        dumped = engine.dump(state)
        assert orjson.loads(orjson.dumps(dumped)) == dumped, "dump must be plain JSON"
        reloaded = engine.load(orjson.loads(orjson.dumps(dumped)))
        assert engine.dump(reloaded) == dumped
        seat = rng.choice(sorted(engine.to_act(state)))
        action = rng.choice(engine.legal_actions(state, seat))
        # Playing on from the reloaded state gives the same result as from the original.
        a, _ = engine.apply(state, seat, action)
        b, _ = engine.apply(reloaded, seat, action)
        assert engine.dump(a) == engine.dump(b)
        state = a


@pytest.mark.parametrize("engine", ENGINES, ids=_ids)
def test_load_refuses_what_is_not_a_state_with_invalid_state(engine: Engine[Any, Any, Any]) -> None:
    dumped = engine.dump(engine.new_game(engine.parse_options({}), 1))
    first = next(iter(dumped))
    for data in [{}, {key: value for key, value in dumped.items() if key != first}]:
        with pytest.raises(InvalidState):
            engine.load(data)


GARBAGE_ACTIONS: list[Any] = [
    {},
    {"type": "no-such-action"},
    {"type": 12},
    {"cell": "x"},
    {"type": None, "cell": [1, 2, 3]},
]


@pytest.mark.parametrize("engine", ENGINES, ids=_ids)
def test_illegal_actions_raise_and_leave_state_untouched(engine: Engine[Any, Any, Any]) -> None:
    rng = random.Random(11)
    state = engine.new_game(engine.parse_options({}), 3)
    for _ in range(40):
        if not engine.to_act(state):
            break
        before = copy.deepcopy(engine.dump(state))
        for bad in GARBAGE_ACTIONS:
            for seat in range(len(engine.seats_of(state))):
                with pytest.raises(IllegalAction):  # refused as malformed JSON, or by the rules
                    engine.apply(state, seat, engine.parse_action(bad))
                assert engine.dump(state) == before
        # A legal action for a seat that is not to act is refused too.
        acting = sorted(engine.to_act(state))
        idle = [s for s in range(len(engine.seats_of(state))) if s not in acting]
        for seat in idle:
            with pytest.raises(IllegalAction):
                engine.apply(state, seat, engine.legal_actions(state, acting[0])[0])
            assert engine.dump(state) == before
        seat = rng.choice(acting)
        state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))


@pytest.mark.parametrize("engine", ENGINES, ids=_ids)
def test_views_are_json_and_hold_no_seed(engine: Engine[Any, Any, Any]) -> None:
    seed = 987654321987
    rng = random.Random(1)
    state = engine.new_game(engine.parse_options({}), seed)
    viewers: list[int | None] = [None, *range(len(engine.seats_of(state)))]
    while True:
        for viewer in viewers:
            encoded = orjson.dumps(engine.view(state, viewer))
            assert str(seed).encode() not in encoded
            assert b'"seed"' not in encoded and b'"rng"' not in encoded
        if not engine.to_act(state):
            break
        seat = rng.choice(sorted(engine.to_act(state)))
        state, events = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        for event in events:
            for viewer in viewers:
                orjson.dumps(event.redact(viewer))


@pytest.mark.parametrize("engine", ENGINES, ids=_ids)
def test_a_view_said_to_be_the_same_for_all_is(engine: Engine[Any, Any, Any]) -> None:
    """The server builds one view for everyone when the engine says nothing is hidden at this step."""
    for seed in range(4):
        rng = random.Random(seed)
        state = engine.new_game(engine.parse_options({}), seed)
        viewers: list[int | None] = [None, *range(len(engine.seats_of(state)))]
        while engine.to_act(state):
            if engine.same_view_for_all(state):
                views = [orjson.dumps(engine.view(state, viewer)) for viewer in viewers]
                assert views == [views[0]] * len(views), f"{engine.name}: the views differ"
            seat = rng.choice(sorted(engine.to_act(state)))
            state, _events = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))


@pytest.mark.parametrize("engine", ENGINES, ids=_ids)
def test_timeout_action_is_legal(engine: Engine[Any, Any, Any]) -> None:
    rng = random.Random(2)
    state = engine.new_game(engine.parse_options({}), 4)
    while engine.to_act(state):
        for seat in sorted(engine.to_act(state)):
            engine.apply(state, seat, engine.timeout_action(state, seat))  # must not raise
        seat = rng.choice(sorted(engine.to_act(state)))
        state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))


@pytest.mark.parametrize("engine", ENGINES, ids=_ids)
def test_bot_plays_legal_moves_to_the_end(engine: Engine[Any, Any, Any]) -> None:
    bot = get_bot(engine.name)
    if bot is None:
        pytest.fail(f"{engine.name} has no bot registered")
    for seed in range(3):
        rng = random.Random(seed)
        state = engine.new_game(engine.parse_options({}), seed)
        for _ in range(MAX_STEPS):
            seats = sorted(engine.to_act(state))
            if not seats:
                break
            seat = seats[0]
            state, _ = engine.apply(state, seat, bot.choose(state, seat, rng))
        assert engine.outcome(state) is not None
