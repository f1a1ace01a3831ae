"""Tri-Tac: an N×N board where every new three-in-a-row scores (docs/games/tri-tac.md)."""

from engines.game import Game
from engines.tri_tac.actions import ACTIONS
from engines.tri_tac.bots import BOT
from engines.tri_tac.rules import ENGINE
from engines.tri_tac.strong import MODEL

GAME = Game(ENGINE, BOT, strong=MODEL, variants=({}, {"size": 7}))

__all__ = ["ACTIONS", "BOT", "ENGINE", "GAME"]
