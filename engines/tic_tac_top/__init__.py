"""Tic Tac Top: a party word game for 3 to 7 run by a Leader (docs/games/tic-tac-top.md)."""

from pathlib import Path

from engines.game import Game
from engines.lesson import read_lesson
from engines.tic_tac_top.bots import BOT
from engines.tic_tac_top.rules import ENGINE
from engines.tic_tac_top.strong import STRONG

__all__ = ["BOT", "ENGINE", "GAME"]

GAME = Game(
    ENGINE,
    BOT,
    strong=STRONG,
    variants=({"players": 3},),
    lesson=read_lesson(Path(__file__).parent / "lesson.json"),
)
