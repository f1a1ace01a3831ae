"""A game rebuilt from the database (after a restart, or a room unloaded while idle) is the game that was
being played: its state, and when each waiting seat was asked to act."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from app.live.game import LiveGame
from app.live.records import GameRecord
from engines.registry import all_engines, get_bot, get_engine

SIMULTANEOUS = {"tic-tac-top", "trick-tac-foe"}
"""Games with a step where several seats act at once, in any order: a seat may act on an older version."""


@pytest.mark.parametrize("name", sorted(engine.name for engine in all_engines()))
def test_a_reloaded_game_knows_when_each_waiting_seat_was_asked(name: str) -> None:
    """Before, a reloaded game said every waiting seat was asked at the stored version: a seat asked before
    the others moved on a simultaneous step had its action refused as stale, and a room's turn timer started
    over with full time."""
    engine, bot = get_engine(name), get_bot(name)
    options = engine.parse_options(None)
    state = engine.new_game(options, 5)
    seats = [{"player_id": n + 1, "name": f"P{n + 1}", "bot": False} for n in range(len(engine.seats(options)))]
    record = GameRecord(
        1, 1, name, options.model_dump(mode="json"), 5, seats, 0, "playing", engine.dump(state), None, None, None
    )
    live = LiveGame.from_record(record, [])
    actions: list[tuple[int, int, dict[str, Any], str]] = []
    rng = random.Random(3)
    asked_earlier = 0
    for version in range(1, 80):
        if engine.outcome(live.state) is not None or not live.to_act:
            break
        seat = rng.choice(sorted(live.to_act))
        action = bot.choose(live.state, seat, rng) if bot is not None else engine.timeout_action(live.state, seat)
        before = live.to_act
        live.state, _events = engine.apply(live.state, seat, action)
        live.version = version
        live.mark_since(before, seat)
        actions.append((version, seat, action, "player"))
        stored = dataclasses.replace(
            record, version=version, snapshot=engine.dump(live.state), snapshot_version=version
        )
        reloaded = LiveGame.from_record(stored, actions)
        assert reloaded.since == live.since, f"after version {version}"
        asked_earlier += any(asked < version for asked in live.since.values())
    assert actions, "the game made no move"
    if name in SIMULTANEOUS:
        assert asked_earlier, "no seat was ever waiting from an older version: the test shows nothing"
