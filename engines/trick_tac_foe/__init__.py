"""Trick-Tac-Foe: simultaneous card reveals decide who claims a cell (docs/games/trick-tac-foe.md)."""

from pathlib import Path

from engines.game import Game
from engines.lesson import read_lesson
from engines.trick_tac_foe.bots import BOT
from engines.trick_tac_foe.rules import ENGINE
from engines.trick_tac_foe.strong import MODEL

__all__ = ["BOT", "ENGINE", "GAME"]

GAME = Game(
    ENGINE,
    BOT,
    strong=MODEL,
    variants=({"players": 2, "one_shot": True}, {"players": 4, "one_shot": True}),
    lesson=read_lesson(Path(__file__).parent / "lesson.json"),
)
