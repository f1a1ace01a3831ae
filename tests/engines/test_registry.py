"""The registry is the one list of games: the served ones in the lobby's order, each with its engine and
bots; a game registered later joins the list; a name is taken once."""

from __future__ import annotations

import importlib
import sys
from dataclasses import replace

import pytest

import engines
from engines import registry
from engines.tri_tac import GAME as TRI_TAC


def test_the_served_games_come_first_in_the_lobbys_order() -> None:
    names = [game.name for game in registry.GAMES]
    assert names == ["tri-tac", "trick-tac-foe", "tic-tac-match", "tricky-tactics", "tic-tac-top"]
    assert registry.games()[: len(names)] == list(registry.GAMES)
    for game in registry.games():
        assert registry.get_game(game.name) is game
        assert registry.get_engine(game.name) is game.engine
        assert registry.get_bot(game.name) is game.bot
    assert registry.all_engines() == [game.engine for game in registry.games()]


def test_an_unknown_name_is_refused() -> None:
    with pytest.raises(registry.UnknownGame, match="unknown game 'chess'"):
        registry.get_engine("chess")
    assert registry.get_bot("chess") is None


def test_a_listed_game_that_cannot_be_imported_stops_the_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "engines.tic_tac_top", None)  # as if the package were missing
    monkeypatch.delattr(engines, "tic_tac_top")
    monkeypatch.delitem(sys.modules, "engines.registry")
    with pytest.raises(ImportError, match="tic_tac_top"):
        importlib.import_module("engines.registry")


def test_two_games_of_one_name_are_an_error() -> None:
    registry.register(TRI_TAC)  # the same game again changes nothing
    twin = replace(TRI_TAC, variants=())
    with pytest.raises(RuntimeError, match="two games are named 'tri-tac'"):
        registry.register(twin)
