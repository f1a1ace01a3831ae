"""Every game engine, by name. Import engines here and nowhere else in the app.

``GAMES`` is the one list of games: a game is playable once its module is listed here, and a listed module
that cannot be imported is an error at start-up (never a game silently missing from the lobby).
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from engines import tic_tac_match, tic_tac_top, tri_tac, trick_tac_foe, tricky_tactics
from engines.base import Bot, Engine, EngineError


class UnknownGame(EngineError):
    """No engine has that name."""


GAMES: tuple[ModuleType, ...] = (tri_tac, trick_tac_foe, tic_tac_match, tricky_tactics, tic_tac_top)
"""Each game's module, in the lobby's order: it defines ``ENGINE`` and its normal ``BOT``."""


def _by_name(games: tuple[ModuleType, ...]) -> tuple[dict[str, Engine[Any, Any]], dict[str, Bot[Any]]]:
    engines: dict[str, Engine[Any, Any]] = {}
    bots: dict[str, Bot[Any]] = {}
    for module in games:
        engine: Engine[Any, Any] = module.ENGINE
        if engine.name in engines:
            raise RuntimeError(f"two games are named {engine.name!r}")
        engines[engine.name] = engine
        bots[engine.name] = module.BOT
    return engines, bots


_ENGINES, _BOTS = _by_name(GAMES)


def get_engine(name: str) -> Engine[Any, Any]:
    try:
        return _ENGINES[name]
    except KeyError:
        raise UnknownGame(f"unknown game {name!r}; known: {', '.join(sorted(_ENGINES))}") from None


def get_bot(name: str) -> Bot[Any] | None:
    return _BOTS.get(name)


def all_engines() -> list[Engine[Any, Any]]:
    return list(_ENGINES.values())
