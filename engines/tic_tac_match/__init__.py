"""Tic Tac Match: coloured X/O cards stacked on a grid (docs/games/tic-tac-match.md)."""

from pathlib import Path

from engines.game import Game
from engines.lesson import read_lesson
from engines.tic_tac_match.bots import BOT
from engines.tic_tac_match.rules import ENGINE
from engines.tic_tac_match.strong import MODEL

__all__ = ["BOT", "ENGINE", "GAME"]

GAME = Game(
    ENGINE,
    BOT,
    strong=MODEL,
    variants=({"players": 2}, {"players": 4}),
    lesson=read_lesson(Path(__file__).parent / "lesson.json"),
)
