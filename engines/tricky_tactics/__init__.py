"""Tricky Tactics: tricks that place cubes on a map, with an automa (docs/games/tricky-tactics.md)."""

from pathlib import Path

from engines.game import Game
from engines.lesson import read_lesson
from engines.tricky_tactics.bots import BOT
from engines.tricky_tactics.rules import ENGINE
from engines.tricky_tactics.strong import MODEL

__all__ = ["BOT", "ENGINE", "GAME"]

GAME = Game(
    ENGINE,
    BOT,
    strong=MODEL,
    variants=({"mode": "automa", "rounds": 1}, {"mode": "3p", "rounds": 1}, {"mode": "4p", "rounds": 1}),
    lesson=read_lesson(Path(__file__).parent / "lesson.json"),
)
