"""Views hold data, never words for players: pages name seats, teams and sides in their own language
from that data. Every view and event of random games, with teams where a game has them, is searched for English
labels."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from engines.base import Engine
from engines.registry import all_engines

ENGLISH_LABEL = re.compile(
    r"^(Players? \d.*|Team .*|Red|Black|Automa|Spades|Hearts|Diamonds|Clubs|North|East|South|West)$"
)


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


NEUTRAL_THEMES = {
    "custom_themes": [{"name": f"t{t}", "words": [f"w{t}.{i}" for i in range(12)]} for t in range(14)],
    "custom_only": True,
}
"""Tic Tac Top carries words, not labels: its deck may well hold "Hearts" (a thing that melts). It plays
neutral themes of its own here, so that every string of its views is searched and any label found is the
engine's."""


def option_sets(engine: Engine[Any, Any, Any]) -> list[dict[str, Any]]:
    """The default options, and the most seats the game allows (teams, in the games that have them)."""
    properties = engine.options_model.model_json_schema()["properties"]
    base = NEUTRAL_THEMES if "custom_themes" in properties else {}
    players = properties.get("players")
    most = {"players": max(players.get("enum") or [players.get("maximum", 0)])} if players else {}
    return [base, base | most] if most else [base]


@pytest.mark.parametrize("engine", all_engines(), ids=lambda e: e.name)
def test_views_hold_no_english_labels(engine: Engine[Any, Any, Any]) -> None:
    for options in option_sets(engine):
        for seed in range(3):
            rng = random.Random(seed)
            state = engine.new_game(engine.parse_options(options), seed)
            viewers: list[int | None] = [None, *range(len(engine.seats_of(state)))]
            for _step in range(3000):
                for viewer in viewers:
                    found = [s for s in strings(engine.view(state, viewer)) if ENGLISH_LABEL.match(s)]
                    assert not found, f"{engine.name} players={options.get('players')}: {found[:5]}"
                if not engine.to_act(state):
                    break
                seat = rng.choice(sorted(engine.to_act(state)))
                state, events = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
                said = [e.redact(viewer) for e in events for viewer in viewers]
                found = [s for s in strings(said) if ENGLISH_LABEL.match(s)]
                assert not found, f"{engine.name} {options} events: {found[:5]}"
