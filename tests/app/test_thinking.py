"""Strong bots think in worker processes with a deadline; a late or failed worker never stops a table."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

import pytest

from app.live.thinking import Thinker, needs_worker, think
from engines.registry import games, get_engine


@pytest.fixture(scope="module")
def thinker() -> Iterator[Thinker]:
    # A wide margin: on a busy machine the worker's start may take long; the deadline itself is what counts.
    pool = Thinker(workers=1, late_margin=30.0)
    yield pool
    pool.close()


def _position(game: str, seed: int) -> tuple[dict[str, object], int]:
    engine = get_engine(game)
    state = engine.new_game(engine.parse_options({}), seed)
    rng = random.Random(seed)
    for _ in range(3):
        seat = min(engine.to_act(state))
        state, _events = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    return engine.dump(state), min(engine.to_act(state))


def test_only_searching_levels_go_to_a_worker() -> None:
    assert needs_worker("tri-tac", "strong") and needs_worker("tricky-tactics", "strong")
    assert not needs_worker("tri-tac", "normal") and not needs_worker("tri-tac", "easy")
    assert not needs_worker("tic-tac-top", "strong")  # a sharper writer, no search: it answers at once


@pytest.mark.parametrize("game", [game.name for game in games() if needs_worker(game.name, "strong")])
def test_a_worker_past_its_deadline_still_answers_a_legal_move(game: str) -> None:
    dumped, seat = _position(game, 4)
    engine = get_engine(game)
    # A deadline already gone (the move waited in the pool's queue): no search, the normal bot's move.
    action = think(game, "strong", dumped, seat, 9, deadline_at=time.monotonic() - 1.0)
    engine.apply(engine.load(dumped), seat, action)


async def test_the_pool_answers_with_a_legal_move(thinker: Thinker) -> None:
    dumped, seat = _position("trick-tac-foe", 2)
    engine = get_engine("trick-tac-foe")
    action = await thinker.choose("trick-tac-foe", "strong", dumped, seat, 1, time.monotonic() + 0.2)
    # None would mean a fallback; the first move also starts the worker, which the margin covers.
    assert action is not None
    engine.apply(engine.load(dumped), seat, action)


async def test_a_failing_worker_gives_none_and_the_pool_recovers(thinker: Thinker) -> None:
    dumped, seat = _position("tri-tac", 3)
    broken = {**dumped, "board": "not a board"}
    assert await thinker.choose("tri-tac", "strong", broken, seat, 1, time.monotonic() + 0.1) is None
    action = await thinker.choose("tri-tac", "strong", dumped, seat, 1, time.monotonic() + 0.1)
    assert action is not None


async def test_an_answer_later_than_the_deadline_and_margin_is_not_awaited() -> None:
    dumped, seat = _position("tri-tac", 5)
    late = Thinker(workers=1, late_margin=0.0)
    try:
        # The deadline has passed and no margin is left: the caller plays the normal bot instead.
        assert await late.choose("tri-tac", "strong", dumped, seat, 1, time.monotonic() - 1.0) is None
    finally:
        late.close()
