"""Bot levels for every game: ``easy`` (a beginner, with mistakes), ``normal`` (the game's greedy bot) and
``strong`` (a search over what its seat cannot see, or for Tic Tac Top a sharper writer and ranker).

``level_bot(game, level)`` is the one way in; each game's package hands the registry its normal bot and
its strong bot (or the model the shared search plays it with) and knows nothing of levels.
"""

from __future__ import annotations

from typing import Any, Literal, get_args

from engines.base import Action, Bot, Seat
from engines.registry import get_bot, get_engine, get_game
from engines.search import GameModel, SearchBot

Level = Literal["easy", "normal", "strong"]
LEVELS: tuple[Level, ...] = get_args(Level)
DEFAULT_LEVEL: Level = "normal"
STAND_IN_LEVEL: Level = "normal"
"""A bot standing in for a player who dropped out plays like today's bot: it keeps their place, no more."""


def parse_level(value: object) -> Level:
    """``value`` as a level, or ``ValueError``."""
    for level in LEVELS:
        if value == level:
            return level
    raise ValueError(f"unknown bot level {value!r}; expected one of: {', '.join(LEVELS)}")


MISTAKE_RATES = {"trick-tac-foe": 0.7, "tricky-tactics": 0.9}
"""How often the easy bot plays any legal move instead of the normal bot's. Where luck weighs more (the
cards), a beginner's slips must be more frequent to leave a gap a player feels."""
DEFAULT_MISTAKE_RATE = 0.5


class EasyBot(Bot[Any]):
    """A beginner: sometimes the normal bot's move, otherwise any legal move."""

    def __init__(self, game: str, normal: Bot[Any], mistake_rate: float = DEFAULT_MISTAKE_RATE) -> None:
        self.engine = get_engine(game)
        self.normal = normal
        self.mistake_rate = mistake_rate

    def choose(self, state: Any, seat: Seat, rng: Any) -> Action:
        if rng.random() < self.mistake_rate:
            legal = self.engine.legal_actions(state, seat)
            if legal:
                choice: Action = rng.choice(legal)
                return choice
        return self.normal.choose(state, seat, rng)

    def delay(self, state: Any, seat: Seat) -> float | None:
        return self.normal.delay(state, seat)


class StrongSearchBot(SearchBot[Any]):
    """The search, paced like the normal bot (a bot Leader's reveal keeps the game's own rhythm)."""

    def __init__(self, model: GameModel[Any], normal: Bot[Any], budget: float) -> None:
        super().__init__(model, budget)
        self.normal = normal

    def delay(self, state: Any, seat: Seat) -> float | None:
        return self.normal.delay(state, seat)


STRONG_BUDGET_SECONDS = 0.8
"""Thinking time per move of a strong bot (a move may take at most 1 s; the rest is margin for the worker)."""

_cache: dict[tuple[str, Level], Bot[Any]] = {}


def level_bot(game: str, level: Level) -> Bot[Any] | None:
    """The bot that plays ``game`` at ``level`` (None if the game has no bot)."""
    key = (game, level)
    if key in _cache:
        return _cache[key]
    normal = get_bot(game)
    if normal is None:
        return None
    bot: Bot[Any]
    if level == "normal":
        bot = normal
    elif level == "easy":
        bot = EasyBot(game, normal, MISTAKE_RATES.get(game, DEFAULT_MISTAKE_RATE))
    else:
        strong = get_game(game).strong
        bot = StrongSearchBot(strong, normal, STRONG_BUDGET_SECONDS) if isinstance(strong, GameModel) else strong
    _cache[key] = bot
    return bot
