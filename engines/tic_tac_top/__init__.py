"""Tic Tac Top: a party word game for 3 to 7 run by a Leader (docs/games/tic-tac-top.md)."""

from engines.game import Game
from engines.tic_tac_top.actions import ACTIONS
from engines.tic_tac_top.bots import BOT
from engines.tic_tac_top.rules import ENGINE
from engines.tic_tac_top.strong import STRONG

GAME = Game(ENGINE, BOT, strong=STRONG, variants=({"players": 3}, {"players": 5}))

__all__ = ["ACTIONS", "BOT", "ENGINE", "GAME"]
