"""Tri-Tac: an N×N board where every new three-in-a-row scores (docs/games/tri-tac.md)."""

from pathlib import Path

from engines.game import Game
from engines.lesson import read_lesson
from engines.tri_tac.bots import BOT
from engines.tri_tac.rules import ENGINE
from engines.tri_tac.strong import MODEL

__all__ = ["BOT", "ENGINE", "GAME"]

GAME = Game(
    ENGINE,
    BOT,
    strong=MODEL,
    variants=({"size": 4}, {"size": 3, "power_play": True, "dynamic_board": True, "special_squares": True}),
    lesson=read_lesson(Path(__file__).parent / "lesson.json"),
)
