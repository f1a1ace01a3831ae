"""What the registry knows of one game: its rules, its bots and the option sets it is tried with."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engines.base import JSON, Bot, Engine
from engines.lesson import Lesson
from engines.search import GameModel


@dataclass(frozen=True)
class Game:
    """One game as its package (``engines/<game>/__init__.py``) hands it to ``engines.registry``."""

    engine: Engine[Any, Any, Any]
    bot: Bot[Any]
    """The normal bot: the one a host seats by default and a stand-in plays."""
    strong: Bot[Any] | GameModel[Any]
    """The strong bot, or the model the shared search plays it with (``engines.levels``)."""
    variants: tuple[Mapping[str, JSON], ...] = ({},)
    """Short games that between them cover the game's shapes (seat counts, modes, optional rules): the
    generic tests play each of them, with bots at every level."""

    lesson: Lesson | None = None
    """The game's lesson (``engines/<game>/lesson.json``, read with ``engines.lesson.read_lesson``)."""

    @property
    def name(self) -> str:
        return self.engine.name
