"""Tic-Tac-Toe: the example game of docs/adding-a-game.md. It is not served; the test suite registers it
(tests/conftest.py), and a server serves it with ``THREEFOLD_EXTRA_GAMES=engines.tic_tac_toe``."""

from engines.game import Game
from engines.tic_tac_toe.bots import BOT
from engines.tic_tac_toe.rules import ENGINE
from engines.tic_tac_toe.strong import STRONG

GAME = Game(ENGINE, BOT, strong=STRONG, variants=({},))

__all__ = ["BOT", "ENGINE", "GAME", "STRONG"]
