"""Every game of the registry has its strong bot's module, named after the game's; a missing one stops the
bots at import (start-up), never a game that silently cannot play strong."""

from __future__ import annotations

import importlib
import re
import sys

import pytest

import engines.bots
from engines import registry
from engines.bots.search import SearchBot


def test_every_listed_game_has_a_strong_bot() -> None:
    for module in registry.GAMES:
        name = module.ENGINE.name
        strong = engines.bots.level_bot(name, "strong")
        assert strong is not None and strong is not engines.bots.level_bot(name, "normal")
        short = module.__name__.rpartition(".")[2]
        assert sys.modules[f"engines.bots.{short}"] is engines.bots._STRONG[name]
        assert isinstance(strong, SearchBot) or getattr(engines.bots._STRONG[name], "STRONG", None) is strong


def test_a_game_without_its_bots_module_stops_the_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "engines.bots.tic_tac_top", None)  # as if the module were missing
    monkeypatch.delitem(sys.modules, "engines.bots")
    message = "'tic-tac-top' has no strong bot: no module engines.bots.tic_tac_top"
    with pytest.raises(ImportError, match=re.escape(message)):
        importlib.import_module("engines.bots")
