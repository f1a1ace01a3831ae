"""Every game, by name: the one list of games. Import games here and nowhere else in the app.

A game is playable once its package's ``GAME`` is listed in ``GAMES``; a listed package that cannot be
imported is an error at start-up (never a game silently missing from the lobby). ``register`` adds a game
that is not served (the example game of docs/adding-a-game.md, which the test suite registers): everything
that lists games asks this module when it needs the list, so a registered game is in it from then on.
"""

from __future__ import annotations

from typing import Any

from engines import tic_tac_match, tic_tac_top, tri_tac, trick_tac_foe, tricky_tactics
from engines.base import Bot, Engine, EngineError
from engines.game import Game


class UnknownGame(EngineError):
    """No engine has that name."""


GAMES: tuple[Game, ...] = (tri_tac.GAME, trick_tac_foe.GAME, tic_tac_match.GAME, tricky_tactics.GAME, tic_tac_top.GAME)
"""The served games, in the lobby's order."""

_GAMES: dict[str, Game] = {}


def register(game: Game) -> None:
    """Add ``game`` to the list (after the others); a second game of the same name is an error."""
    if game.name in _GAMES and _GAMES[game.name] is not game:
        raise RuntimeError(f"two games are named {game.name!r}")
    _GAMES[game.name] = game


for _game in GAMES:
    register(_game)


def games() -> list[Game]:
    """Every game, in the lobby's order."""
    return list(_GAMES.values())


def get_game(name: str) -> Game:
    try:
        return _GAMES[name]
    except KeyError:
        raise UnknownGame(f"unknown game {name!r}; known: {', '.join(sorted(_GAMES))}") from None


def get_engine(name: str) -> Engine[Any, Any, Any]:
    return get_game(name).engine


def get_bot(name: str) -> Bot[Any] | None:
    game = _GAMES.get(name)
    return None if game is None else game.bot


def all_engines() -> list[Engine[Any, Any, Any]]:
    return [game.engine for game in _GAMES.values()]
