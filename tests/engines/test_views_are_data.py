"""Views hold data, never words for players: pages name seats, teams and sides in their own language
(issue 22). Every view of random games, with teams where a game has them, is searched for English labels."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from engines.base import Engine
from engines.registry import all_engines

ENGLISH_LABEL = re.compile(r"^(Players? \d.*|Team .*|Red|Black|Automa|Spades|Hearts|Diamonds|Clubs)$")


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def option_sets(engine: Engine[Any, Any]) -> list[dict[str, Any]]:
    """The default options, and the most seats the game allows (teams, in the games that have them)."""
    players = engine.options_model.model_json_schema()["properties"].get("players")
    most = {"players": max(players.get("enum") or [players.get("maximum", 0)])} if players else {}
    return [{}, most] if most else [{}]


@pytest.mark.parametrize("engine", all_engines(), ids=lambda e: e.name)
def test_views_hold_no_english_labels(engine: Engine[Any, Any]) -> None:
    for options in option_sets(engine):
        for seed in range(3):
            rng = random.Random(seed)
            state = engine.new_game(engine.parse_options(options), seed)
            viewers: list[int | None] = [None, *range(len(engine.seats_of(state)))]
            for _step in range(3000):
                for viewer in viewers:
                    found = [s for s in strings(engine.view(state, viewer)) if ENGLISH_LABEL.match(s)]
                    assert not found, f"{engine.name} {options}: {found[:5]}"
                if not engine.to_act(state):
                    break
                seat = rng.choice(sorted(engine.to_act(state)))
                state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
