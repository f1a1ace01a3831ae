"""Tic Tac Top: a party word game for 3 to 7 run by a Leader (docs/games/tic-tac-top.md)."""

from pathlib import Path

from engines.game import Game
from engines.lesson import read_lesson
from engines.tic_tac_top.rules import BOT, ENGINE
from engines.tic_tac_top.strong import STRONG

GAME = Game(
    ENGINE,
    BOT,
    strong=STRONG,
    variants=({"players": 3},),
    lesson=read_lesson(Path(__file__).parent / "lesson.json"),
)
