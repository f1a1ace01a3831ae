"""Games recorded once replay to the same states, events and views: the rules' behaviour pinned while their
code is restructured.

Each recorded game is random legal play from a fixed seed under fixed options; its digest covers, after every
action, the canonical dump, every event as each seat and a spectator receive it, and every seat's and a
spectator's view. A change to any of them fails the game's digest. After a deliberate rules change, record
again with ``THREEFOLD_RECORD_GAMES=1`` and say in the commit why the games changed."""

from __future__ import annotations

import hashlib
import json
import os
import random
from pathlib import Path
from typing import Any

import orjson
import pytest

from engines.registry import GAMES, get_engine, get_game

RECORDED = Path(__file__).parent / "recorded"
SEEDS = range(6)
MAX_STEPS = 5000


def _canonical(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def game_digest(game: str, options: dict[str, Any], seed: int) -> str:
    engine = get_engine(game)
    parsed = engine.parse_options(options)
    seats: list[int | None] = [*range(len(engine.seats(parsed))), None]
    rng = random.Random(seed * 7919 + 1)
    state = engine.new_game(parsed, seed)
    digest = hashlib.sha256(_canonical(engine.dump(state)))
    for _step in range(MAX_STEPS):
        movers = sorted(engine.to_act(state))
        if not movers:
            break
        seat = rng.choice(movers)
        action = rng.choice(engine.legal_actions(state, seat))
        state, events = engine.apply(state, seat, action)
        digest.update(_canonical(engine.dump(state)))
        for viewer in seats:
            digest.update(_canonical([event.redact(viewer) for event in events]))
            digest.update(_canonical(engine.view(state, viewer)))
    else:
        pytest.fail(f"{game} {options} seed {seed} did not end in {MAX_STEPS} steps")
    return digest.hexdigest()


def _record_path(game: str) -> Path:
    return RECORDED / f"{game}.json"


def _key(options: dict[str, Any], seed: int) -> str:
    return f"{json.dumps(options, sort_keys=True)} seed {seed}"


def _games_to_play(game: str) -> list[tuple[dict[str, Any], int]]:
    """The recording's own games (its keys name their options and seed); a game not recorded yet plays its
    variants, each from every seed."""
    path = _record_path(game)
    if path.is_file() and os.environ.get("THREEFOLD_RECORD_GAMES") != "1":
        keys = json.loads(path.read_text(encoding="utf-8"))
        return [(json.loads(options), int(seed)) for options, _, seed in (key.rpartition(" seed ") for key in keys)]
    return [(dict(options), seed) for options in get_game(game).variants for seed in SEEDS]


@pytest.mark.parametrize("game", [game.name for game in GAMES])
def test_recorded_games_replay_the_same(game: str) -> None:
    path = _record_path(game)
    digests = {_key(options, seed): game_digest(game, options, seed) for options, seed in _games_to_play(game)}
    if os.environ.get("THREEFOLD_RECORD_GAMES") == "1":
        path.write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    assert path.is_file(), f"{game} has no recorded games: record them with THREEFOLD_RECORD_GAMES=1"
    recorded = json.loads(path.read_text(encoding="utf-8"))
    changed = sorted(key for key in recorded if digests.get(key) != recorded[key])
    assert set(digests) == set(recorded), "the recorded games and the games played differ: record again"
    assert not changed, f"{game}: these recorded games now play differently: {changed}"
