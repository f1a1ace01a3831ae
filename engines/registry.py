"""Every game engine, by name. Import engines here and nowhere else in the app."""

from __future__ import annotations

from typing import Any

from engines.base import Bot, Engine, EngineError


class UnknownGame(EngineError):
    """No engine has that name."""


_ENGINES: dict[str, Engine[Any, Any]] = {}
_BOTS: dict[str, Bot[Any]] = {}


def register(engine: Engine[Any, Any], bot: Bot[Any] | None = None) -> None:
    _ENGINES[engine.name] = engine
    if bot is not None:
        _BOTS[engine.name] = bot


def get_engine(name: str) -> Engine[Any, Any]:
    _load_all()
    try:
        return _ENGINES[name]
    except KeyError:
        raise UnknownGame(f"unknown game {name!r}; known: {', '.join(sorted(_ENGINES))}") from None


def get_bot(name: str) -> Bot[Any] | None:
    _load_all()
    return _BOTS.get(name)


def all_engines() -> list[Engine[Any, Any]]:
    _load_all()
    return list(_ENGINES.values())


_loaded = False


def _load_all() -> None:
    """Import each game module once; each registers itself."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    import importlib

    for module in ("tri_tac", "trick_tac_foe", "tic_tac_match", "tricky_tactics", "tic_tac_top"):
        try:
            importlib.import_module(f"engines.{module}")
        except ModuleNotFoundError as err:
            if err.name != f"engines.{module}":
                raise
