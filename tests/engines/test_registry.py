"""The registry is one explicit list of games: each listed game is there, and a missing one is an error."""

from __future__ import annotations

import importlib
import sys
from types import SimpleNamespace
from typing import Any

import pytest

import engines
from engines import registry
from engines.tri_tac.rules import ENGINE as TRI_TAC


def test_every_listed_game_has_its_engine_and_bot_in_order() -> None:
    names = [engine.name for engine in registry.all_engines()]
    assert names == ["tri-tac", "trick-tac-foe", "tic-tac-match", "tricky-tactics", "tic-tac-top"]
    for module in registry.GAMES:
        assert registry.get_engine(module.ENGINE.name) is module.ENGINE
        assert registry.get_bot(module.ENGINE.name) is module.BOT


def test_an_unknown_name_is_refused() -> None:
    with pytest.raises(registry.UnknownGame, match="unknown game 'chess'"):
        registry.get_engine("chess")


def test_a_listed_game_that_cannot_be_imported_stops_the_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "engines.tic_tac_top", None)  # as if the module were missing
    monkeypatch.delattr(engines, "tic_tac_top")
    monkeypatch.delitem(sys.modules, "engines.registry")
    with pytest.raises(ImportError, match="tic_tac_top"):
        importlib.import_module("engines.registry")


def test_two_games_of_one_name_are_an_error() -> None:
    twin: Any = SimpleNamespace(ENGINE=TRI_TAC, BOT=None)
    with pytest.raises(RuntimeError, match="two games are named 'tri-tac'"):
        registry._by_name((twin, twin))
