"""Tic Tac Match: coloured X/O cards stacked on a grid (docs/games/tic-tac-match.md)."""

from engines.game import Game
from engines.tic_tac_match.actions import ACTIONS
from engines.tic_tac_match.bots import BOT
from engines.tic_tac_match.rules import ENGINE
from engines.tic_tac_match.strong import MODEL

GAME = Game(ENGINE, BOT, strong=MODEL, variants=({"players": 2}, {"players": 4}))

__all__ = ["ACTIONS", "BOT", "ENGINE", "GAME"]
