"""Tricky Tactics: tricks that place cubes on a map, with an automa (docs/games/tricky-tactics.md)."""

from engines.game import Game
from engines.tricky_tactics.actions import ACTIONS
from engines.tricky_tactics.bots import BOT
from engines.tricky_tactics.rules import ENGINE
from engines.tricky_tactics.strong import MODEL

GAME = Game(ENGINE, BOT, strong=MODEL, variants=({"mode": "automa"}, {"mode": "3p"}, {"mode": "4p"}))

__all__ = ["ACTIONS", "BOT", "ENGINE", "GAME", "MODEL"]
